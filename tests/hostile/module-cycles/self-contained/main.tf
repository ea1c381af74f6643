# A directory that calls itself (a copy-paste slip): the module is not followed, and the
# directory is still scanned as a root module.
module "inference" {
  source = "./"
}

resource "aws_instance" "inference" {
  instance_type = "g5.xlarge"
  tags          = { team = "ml", project = "search", env = "prod" }
}
