module "node_group" {
  source = "../node-group"
  count  = 3
}

resource "aws_instance" "trainer" {
  instance_type = "p4d.24xlarge"
  tags          = { team = "ml", project = "llm", env = "prod" }
}
