# Serving on Google Cloud with GPUs outside GKE: Cloud Run services with an NVIDIA L4, Vertex AI
# deployment resource pools and Model Garden endpoints on dedicated machines.
variable "serving_machine" {
  type = string
}

variable "run_accelerator" {
  type = string
}

# Cloud Run: one L4 per instance, kept warm with one minimum instance, at Cloud Run's own
# per-second rates (Cloud Billing SKUs, us-central1, 2026-08): L4 without zonal redundancy
# 0.0001867 + 8 vCPU × 0.000018 + 32 GiB × 0.000002 = 0.0003947 USD/s = 1.42092/h; × 730 h:
# 1037.27 for the one always-on instance, 3111.81 at the 3-instance maximum. (Cloud Run has no
# spot capacity.)
# expect: gpu.model=L4 gpu.count=1 replicas.min=1 replicas.max=3 capacity=on-demand cost.monthly=1037.27 cost.monthly_max=3111.81
resource "google_cloud_run_v2_service" "llm" {
  name                = "gemma-server"
  location            = "us-central1"
  deletion_protection = false
  ingress             = "INGRESS_TRAFFIC_ALL"

  template {
    containers {
      image = "us-docker.pkg.dev/cloudrun/container/gemma/gemma3-4b"
      resources {
        limits = {
          "cpu"            = "8"
          "memory"         = "32Gi"
          "nvidia.com/gpu" = "1"
        }
        startup_cpu_boost = true
      }
    }
    node_selector {
      accelerator = "nvidia-l4"
    }
    gpu_zonal_redundancy_disabled = true
    scaling {
      min_instance_count = 1
      max_instance_count = 3
    }
  }
}

# A CPU service: not reported.
# expect-none:
resource "google_cloud_run_v2_service" "api" {
  name     = "api"
  location = "us-central1"
  template {
    containers {
      image = "us-docker.pkg.dev/cloudrun/container/hello"
    }
  }
}

# Zonal redundancy left on (the default, the dearer GPU rate) and no cpu/memory limits: priced
# at the L4 minimum of 4 vCPU and 16 GiB, a lower bound the basis names: 0.0002909 + 4 ×
# 0.000018 + 16 × 0.000002 = 0.0003949 USD/s = 1.42164/h; scale-to-zero, up to 2: 0 .. 2075.59.
# expect: gpu.model=L4 gpu.count=1 replicas.min=0 replicas.max=2 cost.monthly=0.0 cost.monthly_max=2075.59 shutdown=scale-to-zero
resource "google_cloud_run_v2_service" "redundant" {
  name     = "whisper"
  location = "us-central1"
  template {
    containers {
      image = "us-docker.pkg.dev/acme/whisper"
      resources {
        limits = { "nvidia.com/gpu" = "1" }
      }
    }
    node_selector {
      accelerator = "nvidia-l4"
    }
    scaling {
      max_instance_count = 2
    }
  }
}

# Cloud Run's GPU rate is bundled for us-central1 only: elsewhere not priced, and it says why.
# expect: gpu.model=L4 gpu.count=1 cost.monthly=? why:cost.monthly="rate in europe-west4 is not in the bundled table"
resource "google_cloud_run_v2_service" "europe" {
  name     = "gemma-eu"
  location = "europe-west4"
  template {
    containers {
      image = "us-docker.pkg.dev/cloudrun/container/gemma/gemma3-4b"
      resources {
        limits = { cpu = "8", memory = "32Gi", "nvidia.com/gpu" = "1" }
      }
    }
    node_selector {
      accelerator = "nvidia-l4"
    }
    scaling {
      min_instance_count = 1
      max_instance_count = 1
    }
  }
}

# The accelerator comes from a variable with no value.
# expect: gpu.count=1 gpu.model=? why:instance.type="run_accelerator has no default"
resource "google_cloud_run_v2_service" "unresolved" {
  name     = "batch-embed"
  location = "us-central1"
  template {
    containers {
      image = "us-docker.pkg.dev/acme/embed"
      resources {
        limits = { "nvidia.com/gpu" = "1" }
      }
    }
    node_selector {
      accelerator = var.run_accelerator
    }
  }
}

# Vertex AI nodes are priced at the Compute Engine rate of the same machine, a lower bound:
# g2-standard-16 (1× L4 bundled) 1.14721 × 2 × 730 = 1674.93, up to 4 nodes: 3349.85.
# expect: instance.type=g2-standard-16 gpu.model=L4 gpu.count=1 replicas.min=2 replicas.max=4 capacity=on-demand cost.monthly=1674.93 cost.monthly_max=3349.85 workload=inference
resource "google_vertex_ai_deployment_resource_pool" "shared" {
  region = "us-central1"
  name   = "shared-l4-pool"
  dedicated_resources {
    machine_spec {
      machine_type      = "g2-standard-16"
      accelerator_type  = "NVIDIA_L4"
      accelerator_count = 1
    }
    min_replica_count = 2
    max_replica_count = 4
    autoscaling_metric_specs {
      metric_name = "aiplatform.googleapis.com/prediction/online/accelerator/duty_cycle"
      target      = 60
    }
  }
}

# Attached GPUs on an N1 host: (n1-standard-8 0.38 + 2 × T4 0.35) × 1 × 730 = 788.4.
# expect: gpu.model=T4 gpu.count=2 cost.count=1 cost.monthly=788.4 cost.monthly_max=2365.2
resource "google_vertex_ai_deployment_resource_pool" "t4" {
  region = "us-central1"
  name   = "t4-pool"
  dedicated_resources {
    machine_spec {
      machine_type      = "n1-standard-8"
      accelerator_type  = "NVIDIA_TESLA_T4"
      accelerator_count = 2
    }
    min_replica_count = 1
    max_replica_count = 3
  }
}

# A Model Garden deployment of a Hugging Face model on a spot g2-standard-12 (1× L4):
# 0.41934 × 730 = 306.12; the model is declared by hugging_face_model_id.
# expect: gpu.model=L4 capacity=spot cost.monthly=306.12 model.declared=Qwen/Qwen3-0.6B
resource "google_vertex_ai_endpoint_with_model_garden_deployment" "qwen" {
  hugging_face_model_id = "Qwen/Qwen3-0.6B"
  location              = "us-central1"
  model_config {
    accept_eula = true
  }
  deploy_config {
    dedicated_resources {
      machine_spec {
        machine_type      = "g2-standard-12"
        accelerator_type  = "NVIDIA_L4"
        accelerator_count = 1
      }
      min_replica_count = 1
      spot              = true
    }
  }
}

# The machine comes from a variable with no value.
# expect: gpu.model=L4 gpu.count=1 cost.monthly=? why:instance.type="serving_machine has no default" model.declared=google/gemma-1.1-2b-it
resource "google_vertex_ai_endpoint_with_model_garden_deployment" "gemma" {
  publisher_model_name = "publishers/google/models/gemma@gemma-1.1-2b-it"
  location             = "us-central1"
  model_config {
    accept_eula = true
  }
  deploy_config {
    dedicated_resources {
      machine_spec {
        machine_type      = var.serving_machine
        accelerator_type  = "NVIDIA_L4"
        accelerator_count = 1
      }
      min_replica_count = 1
    }
  }
}

# No dedicated resources: Model Garden deploys on the model's default machine, which the code
# does not show. Reported as could not evaluate, not dropped.
# expect: gpu.count=? why:instance.type="Model Garden's default machine"
resource "google_vertex_ai_endpoint_with_model_garden_deployment" "default_machine" {
  publisher_model_name = "publishers/google/models/paligemma@paligemma-224-float32"
  location             = "us-central1"
  model_config {
    accept_eula = true
  }
}
