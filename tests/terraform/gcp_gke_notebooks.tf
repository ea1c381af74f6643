# GKE node pools and cluster node configs, Workbench and legacy notebook instances.
variable "pool_machine" {}

# Regional pool: node_count nodes in each of GKE's three default zones.
# Autoscaling 1–3 per zone priced at the minimum: g2-standard-8 spot 0.35766 × 1 × 3 × 730.
# expect: capacity=spot gpu.model=L4 replicas.min=1 replicas.max=3 zones=3 cost.count=3 cost.monthly=783.28 cost.monthly_max=2349.83
resource "google_container_node_pool" "spot" {
  name     = "spot"
  cluster  = "ml"
  location = "us-central1"
  node_config {
    machine_type = "g2-standard-8"
    spot         = true
  }
  autoscaling {
    min_node_count = 1
    max_node_count = 3
  }
}

# n1-standard-4 host 0.19 + one T4 0.35, × 2 nodes × 730.
# expect: capacity=on-demand gpu.model=T4 gpu.count=1 cost.count=2 zones=- cost.monthly=788.4
resource "google_container_node_pool" "zonal_t4" {
  name       = "t4"
  cluster    = "ml"
  location   = "us-central1-a"
  node_count = 2
  node_config {
    machine_type = "n1-standard-4"
    guest_accelerator {
      type  = "nvidia-tesla-t4"
      count = 1
    }
  }
}

# expect-note: pool_machine has no default
resource "google_container_node_pool" "unresolved" {
  name     = "x"
  cluster  = "ml"
  location = "us-central1-a"
  node_config {
    machine_type = var.pool_machine
  }
}

# A cluster's own node_config is its default pool; inline node_pool blocks are pools too.
# expect: address=google_container_cluster.inline.default_node_pool instance.type=a2-highgpu-1g capacity=on-demand cost.count=1 tags.team=ml
# expect: address='google_container_cluster.inline.node_pool["gpu-spot"]' capacity=spot instance.type=g2-standard-8 replicas.min=0 shutdown=scale-to-zero tags.team=ml
resource "google_container_cluster" "inline" {
  name               = "inline"
  location           = "us-central1-a"
  initial_node_count = 1
  resource_labels    = { team = "ml" }
  node_config {
    machine_type = "a2-highgpu-1g"
  }
  node_pool {
    name = "gpu-spot"
    node_config {
      machine_type = "g2-standard-8"
      preemptible  = true
    }
    autoscaling {
      min_node_count = 0
      max_node_count = 4
    }
  }
}

# The default pool is removed, and e2 pools have no GPUs: nothing to report.
# expect-none:
resource "google_container_cluster" "removed_default" {
  name                     = "cpu"
  location                 = "us-central1"
  remove_default_node_pool = true
  initial_node_count       = 1
  node_config {
    machine_type = "a2-highgpu-1g"
  }
}

# expect-note: pool_machine has no default
resource "google_container_cluster" "unresolved" {
  name               = "x"
  location           = "us-central1-a"
  initial_node_count = 1
  node_config {
    machine_type = var.pool_machine
  }
}

# Workbench accelerators are enums (NVIDIA_TESLA_T4); the idle-timeout-seconds metadata key is
# its idle shutdown.
# (0.19 + 0.35) × 730.
# expect: workload=notebook gpu.model=T4 gpu.count=1 shutdown=idle cost.monthly=394.2
resource "google_workbench_instance" "with_idle" {
  name     = "wb"
  location = "us-central1-a"
  gce_setup {
    machine_type = "n1-standard-4"
    accelerator_configs {
      type       = "NVIDIA_TESLA_T4"
      core_count = 1
    }
    metadata = {
      idle-timeout-seconds = "10800"
    }
  }
}

# Idle shutdown turned off (0 seconds).
# expect: workload=notebook gpu.model=L4 shutdown=none
resource "google_workbench_instance" "always_on" {
  name     = "wb2"
  location = "us-central1-a"
  gce_setup {
    machine_type = "g2-standard-8"
    metadata = {
      idle-timeout-seconds = "0"
    }
  }
}

# Without the metadata key, Workbench's default of 180 idle minutes applies.
# expect-note: pool_machine has no default
resource "google_workbench_instance" "unresolved" {
  name     = "wb3"
  location = "us-central1-a"
  gce_setup {
    machine_type = var.pool_machine
  }
}

# expect: workload=notebook gpu.model=V100 gpu.count=2 shutdown=idle
resource "google_notebooks_instance" "legacy" {
  name         = "legacy"
  location     = "us-central1-a"
  machine_type = "n1-standard-8"
  accelerator_config {
    type       = "NVIDIA_TESLA_V100"
    core_count = 2
  }
  metadata = {
    idle-timeout-seconds = "3600"
  }
}

# expect: workload=notebook shutdown=none gpu.model=T4
resource "google_notebooks_instance" "legacy_always_on" {
  name         = "legacy2"
  location     = "us-central1-a"
  machine_type = "n1-standard-4"
  accelerator_config {
    type       = "NVIDIA_TESLA_T4"
    core_count = 1
  }
}

# expect-note: pool_machine has no default
resource "google_notebooks_instance" "unresolved" {
  name         = "legacy3"
  location     = "us-central1-a"
  machine_type = var.pool_machine
}

# A pool without a location is where its cluster is: europe-west4 (zonal, so one zone), not
# the us-central1 default. g2-standard-8 on-demand 0.89661 × 1 × 730.
resource "google_container_cluster" "eu" {
  name                     = "eu"
  location                 = "europe-west4-a"
  remove_default_node_pool = true
  initial_node_count       = 1
}

# expect: region=europe-west4 region.source=code cost.count=1 cost.monthly=654.53
resource "google_container_node_pool" "eu_l4" {
  name       = "l4"
  cluster    = google_container_cluster.eu.name
  node_count = 1
  node_config {
    machine_type = "g2-standard-8"
  }
}
