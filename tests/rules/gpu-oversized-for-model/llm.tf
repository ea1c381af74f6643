# A 7B model in bf16 needs about 25 GiB; eight A100s give 320 GiB.
# ruleid: gpu-oversized-for-model
resource "aws_instance" "llm" {
  instance_type = "p4d.24xlarge"
  tags          = { model = "meta-llama/Llama-2-7b-hf" }
}

# ok: gpu-oversized-for-model
resource "aws_instance" "llm_right_sized" {
  instance_type = "g6e.xlarge"
  tags          = { model = "meta-llama/Llama-2-7b-hf" }
}

# A 70B model on the cheapest instance that holds it.
# ok: gpu-oversized-for-model
resource "aws_instance" "big_llm" {
  instance_type = "g7e.12xlarge"
  tags          = { model = "meta-llama/Llama-2-70b-hf" }
}

# Unknown model: could not evaluate, stays silent.
# ok: gpu-oversized-for-model
resource "aws_instance" "mystery" {
  instance_type = "p4d.24xlarge"
  tags          = { model = "acme/secret-sauce" }
}

# ruleid: gpu-oversized-for-model
resource "google_compute_instance" "gemma" {
  name         = "gemma"
  machine_type = "a3-highgpu-8g"
  zone         = "us-east4-a"
  labels       = { model = "google/gemma-2-9b-it" }
}

resource "aws_sagemaker_model" "small_llm" {
  name               = "small-llm"
  execution_role_arn = "arn:aws:iam::123456789012:role/sm"
  primary_container {
    image       = "763104351884.dkr.ecr.us-east-1.amazonaws.com/tgi:2.4"
    environment = { HF_MODEL_ID = "Qwen/Qwen2.5-0.5B-Instruct" }
  }
}

# A half-billion-parameter model on eight A100s.
# ruleid: gpu-oversized-for-model
resource "aws_sagemaker_endpoint_configuration" "small_llm" {
  production_variants {
    variant_name           = "main"
    model_name             = aws_sagemaker_model.small_llm.name
    instance_type          = "ml.p4d.24xlarge"
    initial_instance_count = 1
  }
}
