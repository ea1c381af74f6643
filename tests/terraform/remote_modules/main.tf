# A platform root module as production repositories write it: many calls of a few registry
# modules that are not downloaded here, and a local module whose directory was moved. Each
# source is one "could not evaluate" line with its number of calls, at its first call.

# expect-note: module source 'terraform-aws-modules/vpc/aws' is not local and not downloaded under .terraform/modules (2 calls)
module "vpc_training" {
  source  = "terraform-aws-modules/vpc/aws"
  version = "~> 5.0"
  name    = "training"
  cidr    = "10.10.0.0/16"
}

module "vpc_inference" {
  source  = "terraform-aws-modules/vpc/aws"
  version = "~> 5.0"
  name    = "inference"
  cidr    = "10.20.0.0/16"
}

locals {
  buckets = toset(["checkpoints", "datasets", "models"])
}

# expect-note: module source 'terraform-aws-modules/s3-bucket/aws' is not local and not downloaded under .terraform/modules (2 calls)
module "buckets" {
  source   = "terraform-aws-modules/s3-bucket/aws"
  version  = "~> 4.0"
  for_each = local.buckets
  bucket   = "ml-${each.key}"
}

module "logs_bucket" {
  source  = "terraform-aws-modules/s3-bucket/aws"
  version = "~> 4.0"
  bucket  = "ml-logs"
}

# expect-note: module source 'git::https://github.com/acme/terraform-iam.git//roles?ref=v1.4.0' is not local and not downloaded under .terraform/modules (1 call)
module "irsa" {
  source = "git::https://github.com/acme/terraform-iam.git//roles?ref=v1.4.0"
  name   = "gpu-operator"
}

# A local path that does not exist is a broken source, not a remote module.
# expect-note: local module directory ../modules/gpu-pool does not exist (2 calls)
module "gpu_pool_a" {
  source        = "../modules/gpu-pool"
  instance_type = "p4d.24xlarge"
}

module "gpu_pool_b" {
  source        = "../modules/gpu-pool"
  instance_type = "p5.48xlarge"
}

# An attribute read from a null value says so in Terraform's words.
variable "settings" {
  type    = object({ instance_type = string })
  default = null
}

# expect-note: cannot read attribute 'instance_type' of a null value
resource "aws_instance" "from_settings" {
  instance_type = var.settings.instance_type
}
