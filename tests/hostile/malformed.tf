# An attribute without a value and a block that never closes.
resource "aws_instance" "broken" {
  instance_type =
}

resource "aws_instance" "unclosed" {
  instance_type = "p4d.24xlarge"
