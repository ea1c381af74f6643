# The template provider's data "template_file": `rendered` is its template with its vars, as
# templatefile() renders a file; any other data source is read at plan time.

variable "family" {
  default = "g5"
}

data "template_file" "instance" {
  template = "$${family}.$${size}"
  vars = {
    family = var.family
    size   = "2xlarge"
  }
}

data "template_file" "sizes" {
  count    = 2
  template = "$${family}.$${size}"
  vars = {
    family = "p4d"
    size   = count.index == 0 ? "24xlarge" : "unknown"
  }
}

data "aws_ami" "gpu" {
  most_recent = true
  owners      = ["amazon"]
}

# expect: instance.type=g5.2xlarge gpu.count=1
resource "aws_instance" "from_template" {
  instance_type = data.template_file.instance.rendered
}

# expect: instance.type=p4d.24xlarge gpu.count=8
resource "aws_instance" "from_counted_template" {
  instance_type = data.template_file.sizes[0].rendered
}

# expect-note: might be GPU instances (data values are known only after apply)
resource "aws_instance" "from_other_data" {
  instance_type = "g5.${data.aws_ami.gpu.id}"
}
