# Shapes as in the nebius/nebius provider documentation and
# vllm-project/production-stack tutorials/terraform/nebius.
# Nebius list price gpu-h100-sxm 8gpu-128vcpu-1600gb: 23.60 USD/h; × 730 = 17228.
# expect: gpu.count=8 gpu.model=H100 capacity=on-demand cost.monthly=17228
resource "nebius_compute_v1_instance" "trainer" {
  parent_id = var.project_id
  name      = "h100-trainer"
  resources = {
    platform = "gpu-h100-sxm"
    preset   = "8gpu-128vcpu-1600gb"
  }
  boot_disk = {
    attach_mode   = "READ_WRITE"
    existing_disk = { id = nebius_compute_v1_disk.boot.id }
  }
  network_interfaces = [{
    name      = "eth0"
    subnet_id = var.subnet_id
  }]
  labels = { team = "research" }
}

# gpu-h200-sxm 1gpu-16vcpu-200gb preemptible: 1.45 USD/h; 1 node (minimum) × 730 = 1058.5.
# expect: capacity=spot replicas.min=1 replicas.max=2 cost.monthly=1058.5
resource "nebius_mk8s_v1_node_group" "gpu" {
  name      = "vllm-gpu"
  parent_id = nebius_mk8s_v1_cluster.k8s.id

  template = {
    resources = {
      platform = "gpu-h200-sxm"
      preset   = "1gpu-16vcpu-200gb"
    }
    preemptible = {
      on_preemption = "STOP"
      priority      = 3
    }
    gpu_settings = { drivers_preset = "cuda12" }
    metadata = {
      labels = { workload = "gpu" }
    }
    taints = [{
      key    = "nvidia.com/gpu"
      value  = "true"
      effect = "NO_SCHEDULE"
    }]
  }

  autoscaling = {
    min_node_count = 1
    max_node_count = 2
  }
}

variable "gpu_preset" {}

# expect: why:instance.type="resources.preset" capacity=spot
resource "nebius_compute_v1_instance" "unresolved" {
  parent_id   = var.project_id
  name        = "unresolved"
  resources   = { platform = "gpu-h200-sxm", preset = var.gpu_preset }
  preemptible = { on_preemption = "STOP", priority = 5 }
}
