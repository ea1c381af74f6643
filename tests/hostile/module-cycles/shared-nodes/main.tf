variable "instance_type" {
  default = "g5.xlarge"
}

resource "aws_instance" "node" {
  instance_type = var.instance_type
  tags          = { team = "ml", project = "shared", env = "prod" }
}
