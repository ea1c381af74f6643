# A GKE cluster's L4 pool: g2-standard-4 nodes, one L4 each.
resource "google_container_node_pool" "l4" {
  name       = "l4"
  cluster    = "ml"
  location   = "us-central1"
  node_count = 1

  node_config {
    machine_type = "g2-standard-4"
    labels = {
      workload = "l4"
    }
  }
}
