variable "region" {
  type    = string
  default = "us-east-1"
}

variable "inference_instance_type" {
  type = string
}

variable "model_id" {
  type    = string
  default = "meta-llama/Llama-3.1-8B-Instruct"
}
