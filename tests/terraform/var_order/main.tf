# The instance type comes from --var / --var-file, applied in command-line order
# (tests/test_var_order.py). Scanned with the files in the other order, the later one wins.
# scan: var-file=b.tfvars var-file=a.tfvars
variable "gpu_type" {
  type = string
}

# expect: instance.type=g5.xlarge
resource "aws_instance" "server" {
  instance_type = var.gpu_type
}
