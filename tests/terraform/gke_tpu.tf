# GKE TPU node pools: the machine type carries the chips (ct5lp-hightpu-4t: 4 TPU v5e chips),
# priced from the catalog's slice row of the same chip count.
resource "google_container_cluster" "tpu" {
  name     = "tpu"
  location = "us-central1"
  remove_default_node_pool = true
  initial_node_count       = 1
}

# One single-host v5e VM: tpu-v5litepod-4 us-central1 on demand 4.8 × 1 × 730 = 3504.
# expect: accelerator.kind=tpu gpu.model=TPU-v5e gpu.count=4 tpu.slice=tpu-v5litepod-4 cost.count=1 cost.monthly=3504
resource "google_container_node_pool" "v5e" {
  name           = "v5e-4"
  cluster        = google_container_cluster.tpu.id
  location       = "us-central1"
  node_locations = ["us-central1-a"]
  node_count     = 1
  node_config {
    machine_type = "ct5lp-hightpu-4t"
  }
}

# Spot v6e: tpu-v6e-8 spot 4.11533 × 730 = 3004.19.
# expect: gpu.model=TPU-v6e gpu.count=8 capacity=spot cost.monthly=3004.19
resource "google_container_node_pool" "v6e_spot" {
  name           = "v6e-8-spot"
  cluster        = google_container_cluster.tpu.id
  location       = "us-central1"
  node_locations = ["us-central1-b"]
  node_count     = 1
  node_config {
    machine_type = "ct6e-standard-8t"
    spot         = true
  }
}

# A multi-host v5p slice: topology 2x2x2 is 8 chips, 4 per VM, so 2 VMs, each a tpu-v5p-8
# (4 chips, named by TensorCores): 16.8 × 2 × 730 = 24528.
# expect: gpu.model=TPU-v5p gpu.count=4 cost.count=2 cost.monthly=24528
resource "google_container_node_pool" "v5p_slice" {
  name           = "v5p-16"
  cluster        = google_container_cluster.tpu.id
  location       = "us-central1"
  node_locations = ["us-central1-a"]
  node_config {
    machine_type = "ct5p-hightpu-4t"
  }
  placement_policy {
    type         = "COMPACT"
    tpu_topology = "2x2x2"
  }
}

# TPU7x (Ironwood) has no row in the catalog: reported, not priced, never treated as CPU.
# expect: accelerator.kind=tpu gpu.count=4 why:gpu.model="no TPU7x row in the gcp catalog" cost.monthly=?
resource "google_container_node_pool" "ironwood" {
  name           = "tpu7x"
  cluster        = google_container_cluster.tpu.id
  location       = "us-central1"
  node_locations = ["us-central1-c"]
  node_count     = 1
  node_config {
    machine_type = "tpu7x-standard-4t"
  }
}
