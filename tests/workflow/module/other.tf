# Not changed in the commit: its finding must not be reported when only main.tf is given.
resource "aws_instance" "untagged" {
  instance_type = "g5.xlarge"
}
