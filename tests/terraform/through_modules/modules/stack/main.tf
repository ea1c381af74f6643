# One resource of every supported type, each configured from the module's variables and
# locals, so each builder is checked through variables, locals, for_each and a module call.
locals {
  aws    = var.sizes["aws"]
  gcp    = var.sizes["gcp"]
  azure  = var.sizes["azure"]
  ml     = "ml.${local.aws}"
  market = var.spot ? ["spot"] : []
  tags   = merge(var.tags, { workload = "training" })
}

resource "aws_instance" "vm" {
  for_each      = toset(["a", "b"])
  instance_type = local.aws
  tags          = local.tags
  dynamic "instance_market_options" {
    for_each = local.market
    content {
      market_type = instance_market_options.value
    }
  }
}

resource "aws_spot_instance_request" "req" {
  count         = var.spot ? 1 : 0
  instance_type = local.aws
}

resource "aws_launch_template" "lt" {
  instance_type = local.aws
  dynamic "instance_market_options" {
    for_each = local.market
    content {
      market_type = "spot"
    }
  }
}

resource "aws_eks_node_group" "ng" {
  cluster_name  = "ml"
  capacity_type = var.spot ? "SPOT" : "ON_DEMAND"
  launch_template {
    id = aws_launch_template.lt.id
  }
  scaling_config {
    min_size     = var.nodes
    max_size     = var.nodes * 2
    desired_size = var.nodes
  }
}

resource "aws_autoscaling_group" "asg" {
  min_size = var.nodes
  max_size = var.nodes
  launch_template {
    id = aws_launch_template.lt.id
  }
}

resource "aws_sagemaker_model" "m" {
  name               = "m"
  execution_role_arn = "arn:aws:iam::123456789012:role/sm"
  primary_container {
    image       = "img"
    environment = { HF_MODEL_ID = "Qwen/Qwen2.5-7B-Instruct" }
  }
}

resource "aws_sagemaker_endpoint_configuration" "ep" {
  production_variants {
    variant_name           = "main"
    model_name             = aws_sagemaker_model.m.name
    instance_type          = local.ml
    initial_instance_count = var.nodes
  }
}

resource "aws_sagemaker_notebook_instance" "nb" {
  name          = "nb"
  role_arn      = "arn:aws:iam::123456789012:role/sm"
  instance_type = local.ml
}

resource "aws_batch_compute_environment" "batch" {
  type = "MANAGED"
  compute_resources {
    type          = var.spot ? "SPOT" : "EC2"
    instance_type = [local.aws]
    max_vcpus     = 64
    subnets       = ["subnet-1"]
  }
}

resource "google_compute_instance" "vm" {
  name         = "vm"
  machine_type = local.gcp
  zone         = "us-central1-a"
  scheduling {
    preemptible = var.spot
  }
}

resource "google_compute_instance_template" "t" {
  machine_type = local.gcp
  scheduling {
    provisioning_model = var.spot ? "SPOT" : "STANDARD"
  }
}

resource "google_compute_instance_group_manager" "igm" {
  name               = "igm"
  zone               = "us-central1-a"
  base_instance_name = "igm"
  target_size        = var.nodes
  version {
    instance_template = google_compute_instance_template.t.id
  }
}

resource "google_compute_region_instance_template" "rt" {
  machine_type = local.gcp
  region       = "us-central1"
}

resource "google_compute_region_instance_group_manager" "rigm" {
  name               = "rigm"
  region             = "us-central1"
  base_instance_name = "rigm"
  target_size        = var.nodes
  version {
    instance_template = google_compute_region_instance_template.rt.id
  }
}

resource "google_container_node_pool" "pool" {
  name       = "pool"
  cluster    = "ml"
  location   = "us-central1-a"
  node_count = var.nodes
  node_config {
    machine_type = local.gcp
    spot         = var.spot
  }
}

resource "google_container_cluster" "gke" {
  name               = "gke"
  location           = "us-central1-a"
  initial_node_count = var.nodes
  node_config {
    machine_type = local.gcp
    preemptible  = var.spot
  }
}

resource "google_workbench_instance" "wb" {
  name     = "wb"
  location = "us-central1-a"
  gce_setup {
    machine_type = local.gcp
  }
}

resource "google_notebooks_instance" "nb" {
  name         = "nb"
  location     = "us-central1-a"
  machine_type = local.gcp
}

resource "google_tpu_node" "tpu" {
  name             = "tpu"
  zone             = "us-central1-b"
  accelerator_type = var.sizes["tpu"]
  scheduling_config {
    preemptible = var.spot
  }
}

resource "google_tpu_v2_vm" "tpu" {
  name             = "tpu2"
  zone             = "us-central1-b"
  runtime_version  = "x"
  accelerator_type = var.sizes["tpu"]
  scheduling_config {
    spot = var.spot
  }
}

resource "azurerm_linux_virtual_machine" "vm" {
  name     = "vm"
  location = "eastus"
  size     = local.azure
  priority = var.spot ? "Spot" : "Regular"
}

resource "azurerm_windows_virtual_machine" "vm" {
  name     = "win"
  location = "eastus"
  size     = local.azure
  priority = var.spot ? "Spot" : "Regular"
}

resource "azurerm_linux_virtual_machine_scale_set" "vmss" {
  name      = "vmss"
  location  = "eastus"
  sku       = local.azure
  instances = var.nodes
  priority  = var.spot ? "Spot" : "Regular"
}

resource "azurerm_windows_virtual_machine_scale_set" "vmss" {
  name      = "wvmss"
  location  = "eastus"
  sku       = local.azure
  instances = var.nodes
  priority  = var.spot ? "Spot" : "Regular"
}

resource "azurerm_orchestrated_virtual_machine_scale_set" "flex" {
  name      = "flex"
  location  = "eastus"
  sku_name  = local.azure
  instances = var.nodes
  priority  = var.spot ? "Spot" : "Regular"
}

resource "azurerm_kubernetes_cluster" "aks" {
  name     = "aks"
  location = "eastus"
  default_node_pool {
    name       = "gpu"
    vm_size    = local.azure
    node_count = var.nodes
  }
}

resource "azurerm_kubernetes_cluster_node_pool" "pool" {
  name                  = "pool"
  kubernetes_cluster_id = azurerm_kubernetes_cluster.aks.id
  vm_size               = local.azure
  node_count            = var.nodes
  priority              = var.spot ? "Spot" : "Regular"
}

resource "azurerm_machine_learning_compute_instance" "ci" {
  name                          = "ci"
  location                      = "eastus"
  machine_learning_workspace_id = "ws"
  virtual_machine_size          = local.azure
}

resource "azurerm_machine_learning_compute_cluster" "cc" {
  name                          = "cc"
  location                      = "eastus"
  machine_learning_workspace_id = "ws"
  vm_size                       = local.azure
  vm_priority                   = var.spot ? "LowPriority" : "Dedicated"
  scale_settings {
    min_node_count = var.nodes
    max_node_count = var.nodes
  }
}

resource "databricks_cluster" "dbx" {
  cluster_name  = "dbx"
  spark_version = "15.4.x-gpu-ml-scala2.12"
  node_type_id  = local.aws
  num_workers   = var.nodes
  aws_attributes {
    availability    = var.spot ? "SPOT" : "ON_DEMAND"
    first_on_demand = 0
  }
}
