# Terraform tags name the model but cannot say how it is served: with several GPUs this is
# reported as not evaluated; with one GPU nothing can be idle.
# ok: gpu-unused-by-parallelism
resource "aws_instance" "tagged" {
  instance_type = "g6e.12xlarge"
  tags          = { model = "Qwen/Qwen2.5-32B-Instruct" }
}

# ok: gpu-unused-by-parallelism
resource "aws_instance" "single" {
  instance_type = "g6e.xlarge"
  tags          = { model = "meta-llama/Llama-3.1-8B-Instruct" }
}
