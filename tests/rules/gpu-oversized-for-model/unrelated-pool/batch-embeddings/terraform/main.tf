resource "google_container_cluster" "batch" {
  name                     = "batch-embeddings"
  location                 = "us-central1"
  remove_default_node_pool = true
  initial_node_count       = 1
}

# Tokenisation and chunking are CPU-bound: a large host around one L4.
resource "google_container_node_pool" "embed" {
  name           = "embed-l4"
  cluster        = google_container_cluster.batch.name
  location       = "us-central1"
  node_locations = ["us-central1-b"]

  autoscaling {
    min_node_count = 0
    max_node_count = 4
  }

  node_config {
    machine_type = "g2-standard-32"
    labels = {
      team    = "search"
      project = "embeddings"
      env     = "prod"
    }
  }
}
