# GPU workloads declared through the Terraform kubernetes provider: read as the Kubernetes
# objects they create, with the same facts as their YAML.

# expect: address=kubernetes_deployment_v1.vllm gpu.model=L4 gpu.count=1 replicas.min=2
resource "kubernetes_deployment_v1" "vllm" {
  metadata {
    name      = "vllm"
    namespace = "serving"
  }
  spec {
    replicas = 2
    template {
      metadata {
        labels = { app = "vllm" }
      }
      spec {
        node_selector = { "cloud.google.com/gke-accelerator" = "nvidia-l4" }
        toleration {
          key      = "nvidia.com/gpu"
          operator = "Exists"
          effect   = "NoSchedule"
        }
        container {
          name  = "vllm"
          image = "vllm/vllm-openai:v0.6.3"
          args  = ["--model", "meta-llama/Llama-3.1-8B-Instruct"]
          resources {
            limits = { "nvidia.com/gpu" = 1 }
          }
        }
      }
    }
  }
}

# expect: address=kubernetes_job.finetune gpu.count=4
resource "kubernetes_job" "finetune" {
  metadata {
    name = "finetune"
  }
  spec {
    template {
      metadata {}
      spec {
        restart_policy = "Never"
        container {
          name    = "train"
          image   = "nvcr.io/nvidia/pytorch:24.05-py3"
          command = ["torchrun", "--nproc_per_node=4", "train.py"]
          resources {
            limits = { "nvidia.com/gpu" = 4 }
          }
        }
      }
    }
  }
}

# A manifest given as a value.
# expect: address=kubernetes_manifest.embedder gpu.count=1 gpu.model=T4
resource "kubernetes_manifest" "embedder" {
  manifest = {
    apiVersion = "apps/v1"
    kind       = "Deployment"
    metadata   = { name = "embedder", namespace = "serving" }
    spec = {
      replicas = 1
      selector = { matchLabels = { app = "embedder" } }
      template = {
        metadata = { labels = { app = "embedder" } }
        spec = {
          nodeSelector = { "cloud.google.com/gke-accelerator" = "nvidia-tesla-t4" }
          containers = [{
            name      = "tei"
            image     = "ghcr.io/huggingface/text-embeddings-inference:turing-1.5"
            resources = { limits = { "nvidia.com/gpu" = 1 } }
          }]
        }
      }
    }
  }
}

# A CPU deployment creates no GPU resource.
# expect-none:
resource "kubernetes_deployment" "api" {
  metadata {
    name = "api"
  }
  spec {
    replicas = 3
    template {
      metadata {}
      spec {
        container {
          name  = "api"
          image = "nginx:1.27"
        }
      }
    }
  }
}
