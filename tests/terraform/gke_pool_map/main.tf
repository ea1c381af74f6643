# A regional GKE cluster whose pools come from one map, as platform repositories write it. The
# autoscaling block is either per zone (min_node_count/max_node_count: each zone of the pool)
# or total (total_min_node_count/total_max_node_count: the whole pool, whatever its zones).
variable "region" {
  type    = string
  default = "us-central1"
}

variable "node_pools" {
  type = map(object({
    machine_type   = string
    spot           = optional(bool, false)
    zones          = list(string)
    min_per_zone   = optional(number)
    max_per_zone   = optional(number)
    total_min      = optional(number)
    total_max      = optional(number)
  }))
  default = {
    "l4-inference" = {
      machine_type = "g2-standard-8"
      zones        = ["us-central1-a", "us-central1-b", "us-central1-c"]
      total_min    = 2
      total_max    = 12
    }
    "h100-train" = {
      machine_type = "a3-megagpu-8g"
      spot         = true
      zones        = ["us-central1-a", "us-central1-c"]
      min_per_zone = 1
      max_per_zone = 2
    }
    "l4-batch" = {
      machine_type = "g2-standard-24"
      zones        = ["us-central1-a", "us-central1-b", "us-central1-c"]
      total_min    = 0
      total_max    = 6
    }
    "system" = {
      machine_type = "e2-standard-8"
      zones        = ["us-central1-a", "us-central1-b", "us-central1-c"]
      min_per_zone = 1
      max_per_zone = 3
    }
  }
}

resource "google_container_cluster" "ml" {
  name                     = "ml-platform"
  location                 = var.region
  remove_default_node_pool = true
  initial_node_count       = 1
}

# Totals are not multiplied by the zones (they were, 3× too much):
#   l4-inference: g2-standard-8 us-central1 on demand 0.85362 × 2 nodes × 730 = 1246.29,
#                 up to 0.85362 × 12 × 730 = 7477.71.
#   h100-train:   per zone, × 2 zones: a3-megagpu-8g spot 37.66478 × (1 × 2) × 730 = 54990.58,
#                 up to 37.66478 × (2 × 2) × 730 = 109981.16.
#   l4-batch:     total 0–6: g2-standard-24 2.00083 × 0 = 0, up to 2.00083 × 6 × 730 = 8763.64.
# expect: address='google_container_node_pool.pools["l4-inference"]' gpu.model=L4 replicas.min=2 replicas.max=12 zones=- cost.count=2 cost.monthly=1246.29 cost.monthly_max=7477.71
# expect: address='google_container_node_pool.pools["h100-train"]' gpu.model=H100 gpu.count=8 capacity=spot replicas.min=1 replicas.max=2 zones=2 cost.count=2 cost.monthly=54990.58 cost.monthly_max=109981.16
# expect: address='google_container_node_pool.pools["l4-batch"]' gpu.count=2 replicas.min=0 replicas.max=6 zones=- cost.count=0 cost.monthly=0 cost.monthly_max=8763.64 shutdown=scale-to-zero
# expect-none: google_container_node_pool.pools["system"]
resource "google_container_node_pool" "pools" {
  for_each = var.node_pools

  name           = each.key
  cluster        = google_container_cluster.ml.id
  location       = var.region
  node_locations = each.value.zones

  initial_node_count = 1

  autoscaling {
    min_node_count       = each.value.min_per_zone
    max_node_count       = each.value.max_per_zone
    total_min_node_count = each.value.total_min
    total_max_node_count = each.value.total_max
    location_policy      = each.value.total_min != null ? "ANY" : "BALANCED"
  }

  node_config {
    machine_type = each.value.machine_type
    spot         = each.value.spot
    labels       = { pool = each.key }
  }
}

# The community module's node_pools take total_min_count/total_max_count the same way; with
# them its per-zone min_count/max_count are not sent. GKE's default three zones, regional:
# g2-standard-8 spot 0.35766 × 3 (total) × 730 = 783.28, up to 0.35766 × 8 × 730 = 2088.73.
# expect: address='module.gke.node_pools["l4-spot"]' capacity=spot replicas.min=3 replicas.max=8 zones=- cost.count=3 cost.monthly=783.28 cost.monthly_max=2088.73
module "gke" {
  source     = "terraform-google-modules/kubernetes-engine/google"
  version    = "~> 35.0"
  project_id = "ml-prod"
  name       = "serving"
  region     = var.region
  network    = "vpc"
  subnetwork = "gke"

  ip_range_pods     = "pods"
  ip_range_services = "services"

  node_pools = [
    {
      name            = "l4-spot"
      machine_type    = "g2-standard-8"
      spot            = true
      total_min_count = 3
      total_max_count = 8
      location_policy = "ANY"
    },
  ]
}
