# Terraform's precedence, lowest first: default, TF_VAR_ environment, terraform.tfvars,
# *.auto.tfvars (alphabetical), -var-file, -var.
# scan: env=TF_VAR_from_env=g6.xlarge env=TF_VAR_env_vs_tfvars=p5.48xlarge var-file=extra.tfvars var=varfile_vs_cli=p5.48xlarge var=from_cli=g5.12xlarge var=count_from_cli=3 'var=sizes_from_cli={gpu="g4dn.xlarge"}'
variable "from_default" {
  default = "g5.xlarge"
}
variable "from_env" {}
variable "env_vs_tfvars" {}
variable "tfvars_vs_auto" {}
variable "auto_vs_varfile" {}
variable "varfile_vs_cli" {}
variable "from_cli" {}
variable "count_from_cli" {}
variable "sizes_from_cli" {}
variable "missing" {}

# expect: instance.type=g5.xlarge gpu.model=A10G gpu.count=1 cost.monthly=734.38
resource "aws_instance" "from_default" {
  instance_type = var.from_default
}

# expect: instance.type=g6.xlarge gpu.model=L4
resource "aws_instance" "from_env" {
  instance_type = var.from_env
}

# expect: instance.type=g5.2xlarge
resource "aws_instance" "env_vs_tfvars" {
  instance_type = var.env_vs_tfvars
}

# expect: instance.type=p4d.24xlarge gpu.count=8
resource "aws_instance" "tfvars_vs_auto" {
  instance_type = var.tfvars_vs_auto
}

# expect: instance.type=g6.xlarge
resource "aws_instance" "auto_vs_varfile" {
  instance_type = var.auto_vs_varfile
}

# expect: instance.type=p5.48xlarge gpu.model=H100
resource "aws_instance" "varfile_vs_cli" {
  instance_type = var.varfile_vs_cli
}

# A -var value is parsed as HCL when it can be: numbers and maps work.
# expect: address=aws_instance.from_cli[2] instance.type=g5.12xlarge gpu.count=4
resource "aws_instance" "from_cli" {
  count         = var.count_from_cli
  instance_type = var.from_cli
}

# expect: instance.type=g4dn.xlarge gpu.model=T4
resource "aws_instance" "map_from_cli" {
  instance_type = var.sizes_from_cli["gpu"]
}

# expect-note: variable missing has no default and no value was given
resource "aws_instance" "missing" {
  instance_type = var.missing
}
