variable "instance_type" {
  type    = string
  default = "g6.2xlarge"
}

# A template only a node group in another module uses: reported here at zero nodes.
# expect: instance.type=g6.2xlarge cost.count=0
resource "aws_launch_template" "this" {
  name_prefix   = "gpu-"
  instance_type = var.instance_type
}

output "id" {
  value = aws_launch_template.this.id
}
