variable "amd_models" {
  description = "Models served on AMD Instinct GPUs, by name"
  type        = map(string)
  default     = {}
}

variable "enable_gaudi_training" {
  type    = bool
  default = false
}

resource "kubernetes_manifest" "amd_server" {
  for_each = var.amd_models
  manifest = yamlencode({
    apiVersion = "apps/v1"
    kind       = "Deployment"
    metadata   = { name = "vllm-${each.key}", namespace = "serving" }
    spec = {
      replicas = 2
      selector = { matchLabels = { app = each.key } }
      template = {
        metadata = { labels = { app = each.key } }
        spec = {
          containers = [{
            name  = "vllm"
            image = "rocm/vllm:latest"
            args  = ["--model", each.value]
            resources = { limits = { "amd.com/gpu" = 1 } }
          }]
        }
      }
    }
  })
}

resource "kubectl_manifest" "gaudi_finetune" {
  count     = var.enable_gaudi_training ? 1 : 0
  yaml_body = <<-YAML
    apiVersion: batch/v1
    kind: Job
    metadata:
      name: finetune-llama-gaudi
    spec:
      template:
        spec:
          restartPolicy: Never
          containers:
          - name: train
            image: vault.habana.ai/gaudi-docker/1.18.0/ubuntu22.04/habanalabs/pytorch-installer-2.4.0
            resources:
              limits:
                habana.ai/gaudi: 8
  YAML
}

# A remote chart whose values ask for GPUs under a key gpulint does not read as a pod.
resource "helm_release" "batch_scheduler" {
  name       = "scheduler"
  repository = "https://charts.example.com"
  chart      = "scheduler"
  values = [<<-EOT
    queues:
      training:
        quota:
          nvidia.com/gpu: 16
  EOT
  ]
}
