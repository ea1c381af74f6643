data "template_file" "vllm_values" {
  count = var.enable_vllm ? 1 : 0
  template = file(
    var.inference_hardware == "gpu"
    ? "${path.module}/${var.gpu_vllm_helm_config}"
    : "${path.module}/${var.cpu_vllm_helm_config}"
  )
  vars = {
    storage_class = "gp3"
    prefix        = "vllm-api"
  }
}

resource "helm_release" "vllm_stack" {
  count      = var.enable_vllm ? 1 : 0
  name       = "vllm-gpu-stack"
  repository = "https://vllm-project.github.io/production-stack"
  chart      = "vllm-stack"
  namespace  = "vllm"
  values     = [data.template_file.vllm_values[0].rendered]
}

# One embedding server per model; none by default.
resource "helm_release" "embeddings" {
  for_each   = var.embedding_models
  name       = "embed-${each.key}"
  repository = "https://vllm-project.github.io/production-stack"
  chart      = "vllm-stack"
  values = [templatefile("${path.module}/config/helm/gpu/embedding.yaml.tftpl", {
    model = each.value
  })]
}
