# Community EKS/GKE/AKS modules are usually not downloaded; their node-group inputs are read
# from the call, with each module's own defaults.
variable "gpu_instance" {}

locals {
  gpu_types = ["g5.12xlarge", "g5.24xlarge"]
}

# expect: address='module.eks.eks_managed_node_groups["gpu"]' instance.type=g5.12xlarge capacity=spot replicas.min=0 replicas.max=4 shutdown=scale-to-zero tags.team=- tags.owner=research tags.Environment=prod workload=training
# expect: address='module.eks.eks_managed_node_groups["serve"]' instance.type=g6.xlarge capacity=on-demand replicas.min=2 replicas.max=3 cost.count=2 cost.monthly=1175.01 tags.team=ml
# expect-none: module.eks.eks_managed_node_groups["system"]
module "eks" {
  source  = "terraform-aws-modules/eks/aws"
  version = "~> 20.0"

  cluster_name = "ml"
  tags         = { Environment = "prod" }

  eks_managed_node_group_defaults = {
    tags = { team = "ml" }
  }

  eks_managed_node_groups = {
    system = {
      instance_types = ["m6i.large"]
    }
    gpu = {
      instance_types = local.gpu_types
      capacity_type  = "SPOT"
      min_size       = 0
      max_size       = 4
      desired_size   = 0
      labels         = { workload = "training" }
      tags           = { owner = "research" } # replaces the defaults' tags
    }
    serve = {
      instance_types = ["g6.xlarge"]
      min_size       = 2
      desired_size   = 2
    }
  }
}

# expect: address='module.eks_unresolved.eks_managed_node_groups["gpu"]' why:instance.type="gpu_instance has no default"
module "eks_unresolved" {
  source = "git::https://github.com/terraform-aws-modules/terraform-aws-eks.git?ref=v20.8.4"
  eks_managed_node_groups = {
    gpu = {
      instance_types = [var.gpu_instance]
    }
  }
}

# Regional by default: node counts are per zone, over the zones given.
# expect: address='module.gke.node_pools["l4-spot"]' instance.type=g2-standard-8 gpu.model=L4 capacity=spot region=us-central1 zones=2 replicas.min=0 replicas.max=4 tags.pool=gpu
# expect: address='module.gke.node_pools["t4"]' gpu.model=T4 gpu.count=2 capacity=on-demand replicas.min=3 cost.count=6
module "gke" {
  source     = "terraform-google-modules/kubernetes-engine/google//modules/private-cluster"
  project_id = "p"
  name       = "ml"
  region     = "us-central1"
  zones      = ["us-central1-a", "us-central1-b"]

  node_pools = [
    {
      name         = "l4-spot"
      machine_type = "g2-standard-8"
      spot         = true
      min_count    = 0
      max_count    = 4
    },
    {
      name              = "t4"
      machine_type      = "n1-standard-8"
      accelerator_type  = "nvidia-tesla-t4"
      accelerator_count = 2
      autoscaling       = false
      node_count        = 3
    },
    {
      name         = "cpu"
      machine_type = "e2-standard-4"
    },
  ]
  node_pools_labels = {
    all       = {}
    "l4-spot" = { pool = "gpu" }
  }
}

# expect: address='module.gke_unresolved.node_pools["gpu"]' why:instance.type="gpu_instance has no default"
module "gke_unresolved" {
  source     = "terraform-google-modules/kubernetes-engine/google"
  project_id = "p"
  name       = "ml"
  region     = "us-central1"
  node_pools = [{ name = "gpu", machine_type = var.gpu_instance }]
}

# expect: address=module.aks.default_node_pool instance.type=Standard_NC24ads_A100_v4 capacity=on-demand cost.count=2 region=westeurope
# expect: address='module.aks.node_pools["spot"]' instance.type=Standard_NC4as_T4_v3 capacity=spot replicas.min=0 replicas.max=3 tags.owner=ml
module "aks" {
  source       = "Azure/aks/azurerm"
  version      = "9.1.0"
  location     = "West Europe"
  agents_size  = "Standard_NC24ads_A100_v4"
  agents_count = 2
  tags         = { owner = "ml" }
  node_pools = {
    spot = {
      name                 = "spot"
      vm_size              = "Standard_NC4as_T4_v3"
      priority             = "Spot"
      auto_scaling_enabled = true
      min_count            = 0
      max_count            = 3
    }
  }
}

# expect: address=module.aks_unresolved.default_node_pool why:instance.type="gpu_instance has no default"
module "aks_unresolved" {
  source      = "Azure/aks/azurerm"
  location    = "eastus"
  agents_size = var.gpu_instance
}

# A whole input that cannot be evaluated is reported once.
# expect-note: known only after apply
module "eks_all_unknown" {
  source                  = "terraform-aws-modules/eks/aws"
  eks_managed_node_groups = data.external.groups.result
}

# expect-note: module call not expanded: count
module "eks_unknown_count" {
  source                  = "terraform-aws-modules/eks/aws"
  count                   = var.gpu_instance == "" ? 0 : 1
  eks_managed_node_groups = {}
}

# Self-managed groups: an ASG and its own launch template; spot from instance market options,
# or a mixed instances policy.
# expect: address='module.eks_self.self_managed_node_groups["spot"]' instance.type=p4d.24xlarge capacity=spot replicas.min=0 replicas.max=3 tags.team=research
# expect: address='module.eks_self.self_managed_node_groups["mixed"]' instance.type=g5.xlarge capacity=mixed cost.count=4
# expect-none: module.eks_self.self_managed_node_groups["spot"].launch_template
# expect-none: module.eks_self.self_managed_node_groups["cpu"]
module "eks_self" {
  source = "terraform-aws-modules/eks/aws"
  tags   = { team = "research" }
  self_managed_node_groups = {
    cpu = {}
    spot = {
      instance_type           = "p4d.24xlarge"
      instance_market_options = { market_type = "spot" }
    }
    mixed = {
      min_size                   = 4
      max_size                   = 4
      desired_size               = 4
      use_mixed_instances_policy = true
      mixed_instances_policy = {
        instances_distribution = {
          on_demand_base_capacity                  = 1
          on_demand_percentage_above_base_capacity = 0
        }
        override = [{ instance_type = "g5.xlarge" }]
      }
    }
  }
}
