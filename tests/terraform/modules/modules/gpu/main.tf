variable "instance_type" {}
variable "replicas" {
  default = 1
}
variable "name" {}

resource "aws_instance" "this" {
  count         = var.replicas
  instance_type = var.instance_type
  tags          = { Name = "${var.name}-${count.index}" }
}
