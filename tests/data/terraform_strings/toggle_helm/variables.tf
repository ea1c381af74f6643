variable "enable_vllm" {
  description = "Deploy the vLLM stack"
  type        = bool
  default     = false
}

variable "gpu_vllm_helm_config" {
  type    = string
  default = "config/helm/gpu/gpu-llama-light.tpl"
  # "config/helm/gpu/gpu-qwen-multi.tpl"
}

variable "cpu_vllm_helm_config" {
  type    = string
  default = "config/helm/cpu/cpu-tinyllama.tpl"
}

variable "inference_hardware" {
  type    = string
  default = "gpu"
}

variable "embedding_models" {
  type    = map(string)
  default = {}
}
