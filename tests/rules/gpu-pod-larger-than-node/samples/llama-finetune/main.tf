resource "google_container_cluster" "finetune" {
  name                     = "llama-finetune"
  location                 = "us-central1"
  remove_default_node_pool = true
  initial_node_count       = 1
  deletion_protection      = false

  # L4 nodes come from node auto-provisioning; only the A100 pool is declared.
  cluster_autoscaling {
    enabled = true
    resource_limits {
      resource_type = "nvidia-l4"
      maximum       = 16
    }
  }
}

resource "google_container_node_pool" "a100" {
  name     = "a100-1g"
  cluster  = google_container_cluster.finetune.name
  location = "us-central1"
  node_locations = ["us-central1-a"]
  node_count = 1

  node_config {
    machine_type = "a2-highgpu-1g"
    spot         = true
  }
}
