# Node pools whose machine type is a variable left unset. Only an unread type says nothing about
# GPUs: such pools are named once per cause, not listed as GPU resources. Anything else that
# says accelerator (a GPU block, a taint, a GPU-named variable or key, a GPU type written in
# the expression) keeps the pool a GPU resource that could not be evaluated.

variable "machine_type" {}

variable "gpu_machine_type" {}

variable "big" {}

variable "pools" {
  default = {
    default = { min = 1 }
    batch   = { min = 0 }
    web     = { min = 2 }
  }
}

provider "google" {
  region = "us-central1"
}

# expect-note: 3 node pools of unknown machine type, might be GPU pools (variable machine_type has no default
resource "google_container_node_pool" "general" {
  for_each = var.pools
  name     = each.key
  cluster  = "platform"
  node_config {
    machine_type = var.machine_type
  }
}

# expect: why:instance.type="variable gpu_machine_type has no default" gpu.count=?
resource "google_container_node_pool" "named" {
  name    = "inference"
  cluster = "platform"
  node_config {
    machine_type = var.gpu_machine_type
  }
}

# expect: gpu.model=T4 gpu.count=1 why:instance.type="variable machine_type has no default"
resource "google_container_node_pool" "with_accelerator" {
  name    = "notebooks"
  cluster = "platform"
  node_config {
    machine_type = var.machine_type
    guest_accelerator {
      type  = "nvidia-tesla-t4"
      count = 1
    }
  }
}

# expect: why:gpu.count="looks like GPU nodes (taint nvidia.com/gpu=present)"
resource "google_container_node_pool" "tainted" {
  name    = "tainted"
  cluster = "platform"
  node_config {
    machine_type = var.machine_type
    taint {
      key    = "nvidia.com/gpu"
      value  = "present"
      effect = "NO_SCHEDULE"
    }
  }
}

# expect: why:instance.type="variable big has no default"
resource "google_container_node_pool" "either" {
  name    = "either"
  cluster = "platform"
  node_config {
    machine_type = var.big ? "a2-highgpu-1g" : "n2-standard-8"
  }
}

# expect-note: 1 instance of unknown machine type, might be GPU instances (variable machine_type has no default
resource "google_compute_instance" "bastion" {
  name         = "bastion"
  zone         = "us-central1-a"
  machine_type = var.machine_type
  boot_disk {
    initialize_params {
      image = "debian-cloud/debian-12"
    }
  }
  network_interface {
    network = "default"
  }
}
