variable "instance_type" {}

resource "aws_instance" "this" {
  instance_type = var.instance_type
  tags          = { workload = "training" }
}
