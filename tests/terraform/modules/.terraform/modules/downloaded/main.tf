variable "type" {}

resource "aws_instance" "node" {
  instance_type = var.type
}
