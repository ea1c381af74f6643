resource "google_container_cluster" "serving" {
  name                     = "serving"
  location                 = "us-east4"
  remove_default_node_pool = true
  initial_node_count       = 1
}

# Two L4 per node; GPU nodes are tainted so only pods that tolerate it land there.
resource "google_container_node_pool" "l4x2" {
  name           = "l4x2"
  cluster        = google_container_cluster.serving.name
  location       = "us-east4"
  node_locations = ["us-east4-a"]
  node_count     = 2

  node_config {
    machine_type = "g2-standard-24"
    guest_accelerator {
      type  = "nvidia-l4"
      count = 2
      gpu_driver_installation_config {
        gpu_driver_version = "DEFAULT"
      }
    }
    taint {
      key    = "nvidia.com/gpu"
      value  = "present"
      effect = "NO_SCHEDULE"
    }
    labels = {
      team    = "platform"
      project = "serving"
      env     = "prod"
    }
  }
}
