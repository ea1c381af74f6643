# ruleid: gpu-model-does-not-fit
resource "aws_instance" "too_small" {
  instance_type = "g5.xlarge"
  tags          = { model = "meta-llama/Llama-2-70b-hf" }
}

# ok: gpu-model-does-not-fit
resource "aws_instance" "quantized" {
  instance_type = "g5.xlarge"
  tags          = { model = "TheBloke/Llama-2-7B-AWQ" }
}

# ok: gpu-model-does-not-fit
resource "aws_instance" "unknown_type" {
  instance_type = var.box
  tags          = { model = "meta-llama/Llama-2-70b-hf" }
}
