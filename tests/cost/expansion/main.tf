provider "aws" {
  region = "eu-west-2"
}

variable "pools" {
  default = {
    small = "g5.xlarge"
    big   = "g5.12xlarge"
  }
}

resource "aws_instance" "counted" {
  count         = 3
  instance_type = "g6.xlarge"
}

resource "aws_instance" "each" {
  for_each      = var.pools
  instance_type = each.value
}
