variable "name" {
  type = string
}

variable "node_count" {
  type = number
}

resource "google_container_node_pool" "this" {
  name       = var.name
  cluster    = "training"
  location   = "us-central1"
  node_count = var.node_count

  node_config {
    machine_type = var.machine_type

    guest_accelerator {
      type  = "nvidia-tesla-a100"
      count = 8
    }
  }
}

variable "machine_type" {
  type    = string
  default = "a2-custom"
}
