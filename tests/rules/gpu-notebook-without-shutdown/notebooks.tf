# ruleid: gpu-notebook-without-shutdown
resource "aws_instance" "notebook" {
  instance_type = "g5.xlarge"
  tags          = { workload = "notebook" }
}

# ok: gpu-notebook-without-shutdown
resource "aws_instance" "notebook_with_stop" {
  instance_type = "g5.xlarge"
  tags          = { workload = "notebook", idle-shutdown = "60m" }
}

# ruleid: gpu-notebook-without-shutdown
resource "google_compute_instance" "jupyter_box" {
  name         = "jupyter"
  machine_type = "g2-standard-4"
  zone         = "europe-west4-a"
}

# Scales to zero when nobody uses it.
# ok: gpu-notebook-without-shutdown
resource "google_container_node_pool" "dev" {
  name     = "dev-gpu"
  location = "us-central1-a"
  node_config {
    machine_type = "g2-standard-8"
    labels       = { workload = "dev" }
  }
  autoscaling {
    min_node_count = 0
    max_node_count = 2
  }
}

# A server is not a notebook.
# ok: gpu-notebook-without-shutdown
resource "aws_instance" "server" {
  instance_type = "g5.xlarge"
  tags          = { workload = "inference" }
}

# ok: gpu-notebook-without-shutdown
resource "aws_instance" "notebook_unknown_type" {
  instance_type = var.notebook_type
  tags          = { workload = "notebook" }
}
