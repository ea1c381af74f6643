provider "google" {
  project = "p"
  region  = "europe-west4"
}

resource "google_compute_instance" "bundled" {
  name         = "a2"
  machine_type = "a2-highgpu-1g"
  zone         = "us-central1-a"
  boot_disk {}
  network_interface {}
}

resource "google_compute_instance" "attached_preemptible" {
  name         = "t4"
  machine_type = "n1-standard-8"
  zone         = "us-east1-b"
  guest_accelerator {
    type  = "nvidia-tesla-t4"
    count = 2
  }
  scheduling {
    preemptible = true
  }
  boot_disk {}
  network_interface {}
}

resource "google_compute_instance" "provisioning_spot" {
  name         = "l4"
  machine_type = "g2-standard-8"
  scheduling {
    provisioning_model = "SPOT"
  }
  boot_disk {}
  network_interface {}
}

resource "google_container_node_pool" "regional_spot" {
  name     = "gpu"
  cluster  = "c"
  location = "us-central1"
  node_count = 1
  node_config {
    machine_type = "g2-standard-4"
    spot         = true
  }
}

resource "google_container_node_pool" "zonal_autoscaled" {
  name     = "gpu2"
  cluster  = "c"
  location = "us-central1-a"
  autoscaling {
    min_node_count = 1
    max_node_count = 4
  }
  node_config {
    machine_type = "g2-standard-4"
  }
}
