provider "google" {
  region = var.region
}

resource "google_container_cluster" "cluster" {
  name                     = "${var.prefix}-cluster"
  location                 = var.region
  remove_default_node_pool = true
  initial_node_count       = 1
}

resource "google_container_node_pool" "notebook" {
  for_each = var.notebook_nodes

  name     = "nb-${each.key}"
  cluster  = google_container_cluster.cluster.name
  location = var.region

  autoscaling {
    min_node_count = each.value.min
    max_node_count = each.value.max
  }

  node_config {
    machine_type = each.value.machine_type
    labels = {
      "hub.jupyter.org/node-purpose" = "user"
    }

    dynamic "guest_accelerator" {
      for_each = each.value.gpu.enabled ? [each.value.gpu] : []
      content {
        type  = guest_accelerator.value.type
        count = guest_accelerator.value.count
      }
    }
  }
}
