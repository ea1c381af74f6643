# Google instances, instance templates with their group managers, and TPUs.
variable "machine" {}

provider "google" {
  region = "us-central1"
}

# Both preemptible and provisioning_model = "SPOT" are spot.
# expect: capacity=spot instance.type=g2-standard-8 gpu.model=L4 region=us-central1 cost.monthly=261.09
resource "google_compute_instance" "spot" {
  name         = "spot"
  machine_type = "g2-standard-8"
  zone         = "us-central1-a"
  scheduling {
    provisioning_model = "SPOT"
  }
}

# An n1 host with attached T4s: host + 2 × GPU, (0.38 + 2 × 0.35) × 730 = 788.40.
# expect: capacity=on-demand gpu.model=T4 gpu.count=2 cost.monthly=788.4
resource "google_compute_instance" "attached" {
  name         = "attached"
  machine_type = "n1-standard-8"
  zone         = "us-central1-b"
  guest_accelerator {
    type  = "nvidia-tesla-t4"
    count = 2
  }
}

# expect-note: machine has no default
resource "google_compute_instance" "unresolved" {
  name         = "x"
  machine_type = var.machine
  zone         = "us-central1-a"
}

# expect-none:
resource "google_compute_instance_template" "trainer" {
  machine_type = "a2-highgpu-1g"
  scheduling {
    preemptible = true
  }
}

# expect: instance.type=a2-highgpu-1g capacity=spot cost.count=3 region=us-central1 cost.monthly=3950.43
resource "google_compute_instance_group_manager" "trainers" {
  name               = "trainers"
  zone               = "us-central1-a"
  base_instance_name = "trainer"
  target_size        = 3
  version {
    instance_template = google_compute_instance_template.trainer.id
  }
}

# expect-none:
resource "google_compute_region_instance_template" "server" {
  machine_type = "g2-standard-8"
  region       = "us-central1"
}

# A regional manager's target_size is the total over its zones.
# expect: capacity=on-demand cost.count=2 cost.monthly=1246.29
resource "google_compute_region_instance_group_manager" "servers" {
  name               = "servers"
  region             = "us-central1"
  base_instance_name = "server"
  target_size        = 2
  version {
    instance_template = google_compute_region_instance_template.server.self_link
  }
}

# expect-note: instance template not found
resource "google_compute_region_instance_group_manager" "unresolved" {
  name               = "x"
  region             = "us-central1"
  base_instance_name = "x"
  version {
    instance_template = var.machine
  }
}

# A template nobody uses here runs nothing.
# expect: cost.count=0 capacity=on-demand
resource "google_compute_instance_template" "unused" {
  machine_type = "g2-standard-4"
}

# TPU slices priced per slice-hour from the catalog's TPU rows: v3-8 spot 2.04 × 730.
# expect: instance.type=v3-8 gpu.model=TPU-v3 capacity=spot region=us-central1 cost.monthly=1489.2
resource "google_tpu_node" "preemptible" {
  name               = "tpu"
  zone               = "us-central1-b"
  accelerator_type   = "v3-8"
  tensorflow_version = "2.12.0"
  scheduling_config {
    preemptible = true
  }
}

# accelerator_config 2x2 v5e = 4 chips = v5litepod-4: 4.8 × 730.
# expect: instance.type=v5litepod-4 capacity=on-demand cost.monthly=3504
resource "google_tpu_v2_vm" "v5e" {
  name             = "v5e"
  zone             = "us-central1-a"
  runtime_version  = "v2-alpha-tpuv5-lite"
  accelerator_config {
    type     = "V5LITE_POD"
    topology = "2x2"
  }
}

# expect: instance.type=v2-8 capacity=spot cost.monthly=985.5
resource "google_tpu_v2_vm" "default_type" {
  name            = "v2"
  zone            = "us-central1-c"
  runtime_version = "tpu-vm-tf-2.16.0-pjrt"
  scheduling_config {
    spot = true
  }
}

# expect: why:instance.type="machine has no default" gpu.count=?
resource "google_tpu_v2_vm" "unresolved" {
  name             = "x"
  zone             = "us-central1-a"
  runtime_version  = "x"
  accelerator_type = var.machine
}

# expect-note: machine has no default
resource "google_compute_instance_template" "unresolved" {
  machine_type = var.machine
}

# expect: why:instance.type="machine has no default" capacity=on-demand
resource "google_tpu_node" "unresolved" {
  name               = "tpu-x"
  zone               = "us-central1-b"
  accelerator_type   = var.machine
  tensorflow_version = "2.12.0"
}
