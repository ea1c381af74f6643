# Databricks clusters: node types are the cloud's instance names; the driver runs on the node
# type unless driver_node_type_id says otherwise. The DBU charge is not included.
variable "node_type" {}

# 2–8 workers + driver; first_on_demand = 1 puts the driver on demand, the rest on spot.
# At the minimum, 3 nodes of g5.xlarge: (1.006 + 2 × 0.4591) / 3 per node; × 3 × 730 = 1404.67.
# expect: provider=aws instance.type=g5.xlarge capacity=mixed replicas.min=3 replicas.max=9 cost.count=3 cost.monthly=1404.67 shutdown=idle
resource "databricks_cluster" "spot" {
  cluster_name            = "train"
  spark_version           = "15.4.x-gpu-ml-scala2.12"
  node_type_id            = "g5.xlarge"
  autotermination_minutes = 30
  autoscale {
    min_workers = 2
    max_workers = 8
  }
  aws_attributes {
    availability    = "SPOT_WITH_FALLBACK"
    first_on_demand = 1
  }
}

# Azure on demand, 2 workers + driver, autotermination 0: never stops.
# expect: provider=azure capacity=on-demand cost.count=3 shutdown=none gpu.model=T4
resource "databricks_cluster" "on_demand" {
  cluster_name            = "serve"
  spark_version           = "15.4.x-gpu-ml-scala2.12"
  node_type_id            = "Standard_NC4as_T4_v3"
  num_workers             = 2
  autotermination_minutes = 0
  azure_attributes {
    availability = "ON_DEMAND_AZURE"
  }
}

# No autotermination. A CPU driver with GPU workers: only the workers are GPU resources; all spot (first_on_demand
# = 0), 4 workers of a2-highgpu-1g at 1.80385 × 4 × 730.
# expect: provider=gcp capacity=spot cost.count=4 cost.monthly=5267.24 shutdown=none
# expect-none: databricks_cluster.gcp_workers.driver
resource "databricks_cluster" "gcp_workers" {
  cluster_name        = "gcp"
  spark_version       = "15.4.x-gpu-ml-scala2.12"
  node_type_id        = "a2-highgpu-1g"
  driver_node_type_id = "n2-standard-8"
  num_workers         = 4
  gcp_attributes {
    availability    = "PREEMPTIBLE_GCP"
    first_on_demand = 0
  }
}

# Availability left to the workspace default: the capacity is not in the code.
# No autotermination_minutes: the cluster is never terminated for inactivity.
# expect: capacity=? why:capacity="workspace default" cost.count=2 shutdown=none
resource "databricks_cluster" "default_availability" {
  cluster_name  = "x"
  spark_version = "15.4.x-gpu-ml-scala2.12"
  node_type_id  = "g5.2xlarge"
  num_workers   = 1
}

# expect-note: node_type has no default
resource "databricks_cluster" "unresolved" {
  cluster_name  = "y"
  spark_version = "15.4.x-gpu-ml-scala2.12"
  node_type_id  = var.node_type
  num_workers   = 1
}

# The availability zone names the region (the workspace region is not in the code):
# us-west-2, not the us-east-1 default. g5.4xlarge on demand 1.624 × 2 × 730.
# expect: region=us-west-2 region.source=code cost.monthly=2371.04
resource "databricks_cluster" "zoned" {
  cluster_name            = "zoned"
  spark_version           = "15.4.x-gpu-ml-scala2.12"
  node_type_id            = "g5.4xlarge"
  num_workers             = 1
  autotermination_minutes = 30
  aws_attributes {
    availability = "ON_DEMAND"
    zone_id      = "us-west-2a"
  }
}

# "auto" lets Databricks pick a zone: the default region stays.
# expect: region=us-east-1 region.source=default
resource "databricks_cluster" "auto_zone" {
  cluster_name            = "auto"
  spark_version           = "15.4.x-gpu-ml-scala2.12"
  node_type_id            = "g5.4xlarge"
  num_workers             = 1
  autotermination_minutes = 30
  aws_attributes {
    availability = "ON_DEMAND"
    zone_id      = "auto"
  }
}
