variable "enable_vllm" {
  type    = bool
  default = true
}

variable "hf_token" {
  type      = string
  sensitive = true
}

variable "gpu_vllm_helm_config" {
  type    = string
  default = "helm/gpu-llama-8b.tpl"
}

data "template_file" "vllm_values" {
  count    = var.enable_vllm ? 1 : 0
  template = file("${path.module}/${var.gpu_vllm_helm_config}")
  vars = {
    model_url = "meta-llama/Llama-3.1-8B-Instruct"
    replicas  = 2
    # unknown here: kept as a placeholder, the rest of the values is read
    hf_token = var.hf_token
  }
}

resource "helm_release" "vllm_stack" {
  count      = var.enable_vllm ? 1 : 0
  name       = "vllm-gpu-stack"
  repository = "https://vllm-project.github.io/production-stack"
  chart      = "vllm-stack"
  namespace  = "vllm"

  values = [data.template_file.vllm_values[0].rendered]
}

data "template_file" "disabled" {
  count    = 0
  template = file("${path.module}/helm/gpu-llama-8b.tpl")
}

resource "helm_release" "disabled" {
  count      = 0
  name       = "off"
  repository = "https://vllm-project.github.io/production-stack"
  chart      = "vllm-stack"
  values     = [data.template_file.disabled[0].rendered]
}
