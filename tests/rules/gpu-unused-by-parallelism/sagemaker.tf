# SageMaker's Hugging Face LLM (TGI) container shards over SM_NUM_GPUS GPUs.
resource "aws_sagemaker_model" "one_shard" {
  name               = "llama-8b-one-shard"
  execution_role_arn = "arn:aws:iam::123456789012:role/sm"
  primary_container {
    image = "763104351884.dkr.ecr.us-east-1.amazonaws.com/huggingface-pytorch-tgi-inference:2.3.0-tgi2.2.0-gpu-py310-cu121-ubuntu22.04"
    environment = {
      HF_MODEL_ID = "meta-llama/Llama-3.1-8B-Instruct"
      SM_NUM_GPUS = "1"
    }
  }
}

# One shard on a 4-GPU instance: three GPUs idle.
# ruleid: gpu-unused-by-parallelism
resource "aws_sagemaker_endpoint_configuration" "one_shard" {
  name = "llama-8b-one-shard"
  production_variants {
    variant_name           = "primary"
    model_name             = aws_sagemaker_model.one_shard.name
    initial_instance_count = 1
    instance_type          = "ml.g5.12xlarge"
  }
}

resource "aws_sagemaker_model" "all_shards" {
  name               = "qwen-14b-four-shards"
  execution_role_arn = "arn:aws:iam::123456789012:role/sm"
  primary_container {
    image = "763104351884.dkr.ecr.us-east-1.amazonaws.com/djl-inference:0.29.0-lmi11.0.0-cu124"
    environment = {
      HF_MODEL_ID                   = "Qwen/Qwen2.5-14B-Instruct"
      OPTION_TENSOR_PARALLEL_DEGREE = "4"
    }
  }
}

# LMI (DJL) with OPTION_TENSOR_PARALLEL_DEGREE = 4 on 4 GPUs: none idle.
# ok: gpu-unused-by-parallelism
resource "aws_sagemaker_endpoint_configuration" "all_shards" {
  name = "qwen-14b-four-shards"
  production_variants {
    variant_name           = "primary"
    model_name             = aws_sagemaker_model.all_shards.name
    initial_instance_count = 1
    instance_type          = "ml.g5.12xlarge"
  }
}
