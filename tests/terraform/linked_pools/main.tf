# Pools gpulint builds from a cluster's inline node_pool blocks and from community-module calls
# carry their nodes' labels, so Kubernetes workloads in the same scan link to them.
# expect: address=Deployment/ml/llm node_pool='module.gke.node_pools["l4"]' instance.type=g2-standard-8 region=europe-west4
# expect: address=Deployment/ml/batch node_pool='google_container_cluster.ml.node_pool["t4"]'
module "gke" {
  source     = "terraform-google-modules/kubernetes-engine/google"
  project_id = "p"
  name       = "ml"
  region     = "europe-west4"
  node_pools = [{ name = "l4", machine_type = "g2-standard-8", min_count = 1, max_count = 2 }]
}

resource "google_container_cluster" "ml" {
  name     = "ml"
  location = "us-central1-a"
  node_pool {
    name       = "t4"
    node_count = 1
    node_config {
      machine_type = "n1-standard-8"
      guest_accelerator {
        type  = "nvidia-tesla-t4"
        count = 1
      }
    }
  }
}
