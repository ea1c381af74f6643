# Tags name the model but not its parallelism: with several GPUs this is reported as not
# evaluated; with one GPU nothing can be idle.
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

# A tag declares tensor parallelism 1 on four L40S: three idle, g6e.xlarge named instead.
# ruleid: gpu-unused-by-parallelism
resource "aws_instance" "tagged_tp1" {
  instance_type = "g6e.12xlarge"
  tags = {
    "gpulint.dev/model"           = "meta-llama/Llama-3.1-8B-Instruct"
    "gpulint.dev/tensor-parallel" = "1"
  }
}

# Tensor parallelism 4 on four GPUs: every GPU used.
# ok: gpu-unused-by-parallelism
resource "aws_instance" "tagged_tp4" {
  instance_type = "g6e.12xlarge"
  tags = {
    "gpulint.dev/model"           = "Qwen/Qwen2.5-32B-Instruct"
    "gpulint.dev/tensor-parallel" = 4
  }
}

# GCP label keys allow no '.' or '/': the plain spellings, tensor 2 × pipeline 2 of eight A100s.
# ruleid: gpu-unused-by-parallelism
resource "google_compute_instance" "labelled_tp_pp" {
  name         = "llm-server"
  machine_type = "a2-highgpu-8g"
  zone         = "us-central1-a"
  labels = {
    model             = "meta-llama-3-1-70b-instruct"
    tensor_parallel   = "2"
    pipeline_parallel = "2"
  }
  boot_disk {
    initialize_params {
      image = "debian-cloud/debian-12"
    }
  }
  network_interface {
    network = "default"
  }
}

variable "tensor_parallel" {
  type = number
}

# The parallelism comes from a variable with no value: not evaluated, with the reason.
# ok: gpu-unused-by-parallelism
resource "aws_instance" "tagged_tp_unset" {
  instance_type = "g6e.12xlarge"
  tags = {
    "gpulint.dev/model"           = "meta-llama/Llama-3.1-8B-Instruct"
    "gpulint.dev/tensor-parallel" = var.tensor_parallel
  }
}

# A value that is not a whole number: not evaluated, never read as 1.
# ok: gpu-unused-by-parallelism
resource "aws_instance" "tagged_tp_auto" {
  instance_type = "g6e.12xlarge"
  tags = {
    "gpulint.dev/model"           = "meta-llama/Llama-3.1-8B-Instruct"
    "gpulint.dev/tensor-parallel" = "auto"
  }
}
