# Expressions that would build enormous values if evaluated naively.
resource "aws_instance" "billion" {
  count         = 1000000000
  instance_type = "p4d.24xlarge"
}

locals {
  square = [for i in range(100000) : [for j in range(100000) : j]]
}

resource "aws_instance" "nested_for" {
  instance_type = local.square[0][0]
}

resource "aws_instance" "huge_range" {
  count         = length(range(1000000000))
  instance_type = "g5.xlarge"
}

resource "aws_instance" "wide_format" {
  instance_type = format("%999999999d", 1)
}
