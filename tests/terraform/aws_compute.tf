# AWS instances, spot requests, launch templates, EKS node groups and autoscaling groups.
variable "gpu_type" {}

# expect: capacity=spot instance.type=g5.xlarge cost.count=1 cost.monthly=335.14
resource "aws_spot_instance_request" "spot" {
  instance_type = "g5.xlarge"
}

# expect: capacity=on-demand cost.monthly=734.38
resource "aws_instance" "on_demand" {
  instance_type = "g5.xlarge"
}

# expect: why:instance.type="gpu_type has no default" capacity=spot cost.monthly=?
resource "aws_spot_instance_request" "unresolved" {
  instance_type = var.gpu_type
}

# A launch template used by a node group or an ASG is priced through that group only.
# expect-none:
resource "aws_launch_template" "trainer" {
  instance_type = "p4d.24xlarge"
  instance_market_options {
    market_type = "spot"
  }
}

# A template nobody launches from in this module runs nothing: reported, priced at zero.
# expect: instance.type=g5.2xlarge cost.count=0 cost.monthly=0
resource "aws_launch_template" "unused" {
  instance_type = "g5.2xlarge"
}

# expect-none:
resource "aws_launch_template" "for_eks" {
  instance_type = "g5.12xlarge"
}

# Node group without instance_types: the type comes from its launch template.
# Autoscaling 1–4: priced at the desired 2, with the minimum and the maximum kept.
# expect: instance.type=g5.12xlarge capacity=spot replicas.min=1 replicas.max=4 replicas.desired=2 cost.count=2 cost.monthly=2780.72 cost.monthly_min=1390.36 cost.monthly_max=5561.43
resource "aws_eks_node_group" "from_template" {
  cluster_name = "ml"
  capacity_type = "SPOT"
  launch_template {
    id      = aws_launch_template.for_eks.id
    version = "$Latest"
  }
  scaling_config {
    min_size     = 1
    max_size     = 4
    desired_size = 2
  }
}

# expect: instance.type=g5.xlarge capacity=on-demand replicas.min=0 shutdown=scale-to-zero cost.monthly=0 cost.monthly_max=2203.14
resource "aws_eks_node_group" "on_demand" {
  cluster_name   = "ml"
  instance_types = ["g5.xlarge", "g5.2xlarge"]
  scaling_config {
    min_size     = 0
    max_size     = 3
    desired_size = 0
  }
}

# expect-note: launch template not found in this module
resource "aws_eks_node_group" "unresolved" {
  cluster_name = "ml"
  launch_template {
    id = var.gpu_type
  }
  scaling_config {
    min_size     = 1
    max_size     = 1
    desired_size = 1
  }
}

# ASG from a spot launch template, 2–6 instances.
# expect: instance.type=p4d.24xlarge capacity=spot replicas.min=2 replicas.max=6 cost.count=2 cost.monthly=9181.94
resource "aws_autoscaling_group" "from_template" {
  min_size = 2
  max_size = 6
  launch_template {
    id = aws_launch_template.trainer.id
  }
  tag {
    key                 = "workload"
    value               = "training"
    propagate_at_launch = true
  }
}

# Mixed instances: 1 on-demand base, then 50% of the rest on-demand (rounded up), rest spot.
# 4 instances = 1 + ceil(3 × 0.5) = 3 on-demand + 1 spot of g5.xlarge:
# (3 × 1.006 + 0.4591) / 4 = 0.869275/h each; × 4 × 730 = 2538.28.
# expect: capacity=mixed instance.type=g5.xlarge cost.count=4 cost.monthly=2538.28 workload=training
resource "aws_autoscaling_group" "mixed" {
  min_size         = 4
  max_size         = 4
  desired_capacity = 4
  mixed_instances_policy {
    instances_distribution {
      on_demand_base_capacity                  = 1
      on_demand_percentage_above_base_capacity = 50
    }
    launch_template {
      launch_template_specification {
        launch_template_id = aws_launch_template.trainer.id
      }
      override {
        instance_type = "g5.xlarge"
      }
      override {
        instance_type = "g5.2xlarge"
      }
    }
  }
  tag {
    key                 = "workload"
    value               = "training"
    propagate_at_launch = true
  }
}

# 0% on demand above a zero base: all spot.
# expect: capacity=spot cost.monthly=335.14
resource "aws_autoscaling_group" "all_spot" {
  min_size = 1
  max_size = 1
  mixed_instances_policy {
    instances_distribution {
      on_demand_percentage_above_base_capacity = 0
    }
    launch_template {
      launch_template_specification {
        launch_template_id = aws_launch_template.trainer.id
      }
      override {
        instance_type = "g5.xlarge"
      }
    }
  }
}

# expect: capacity=? why:capacity="gpu_type has no default" instance.type=g5.xlarge
resource "aws_autoscaling_group" "unresolved" {
  min_size = 1
  max_size = 1
  mixed_instances_policy {
    instances_distribution {
      on_demand_percentage_above_base_capacity = var.gpu_type
    }
    launch_template {
      launch_template_specification {
        launch_template_id = aws_launch_template.trainer.id
      }
      override {
        instance_type = "g5.xlarge"
      }
    }
  }
}

# Legacy launch configurations: a spot_price asks for spot.
# expect-none:
resource "aws_launch_configuration" "legacy" {
  image_id      = "ami-0123"
  instance_type = "g4dn.xlarge"
  spot_price    = "0.30"
}

# expect: instance.type=g4dn.xlarge capacity=spot cost.count=2 cost.monthly=302.08
resource "aws_autoscaling_group" "legacy" {
  min_size             = 2
  max_size             = 2
  launch_configuration = aws_launch_configuration.legacy.name
}

# expect: instance.type=g4dn.xlarge capacity=on-demand cost.count=0
resource "aws_launch_configuration" "unused" {
  image_id      = "ami-0123"
  instance_type = "g4dn.xlarge"
}

# expect: why:instance.type="gpu_type has no default" gpu.count=?
resource "aws_launch_template" "unresolved" {
  instance_type = var.gpu_type
}

# expect: why:instance.type="gpu_type has no default" gpu.count=?
resource "aws_launch_configuration" "unresolved" {
  image_id      = "ami-0123"
  instance_type = var.gpu_type
}

# Sizes AWS rejects are not priced: a minimum above the maximum, a negative size.
# expect: why:replicas.min="minimum size 5 is more than maximum size 2" cost.monthly=?
resource "aws_eks_node_group" "min_above_max" {
  cluster_name   = "ml"
  instance_types = ["g5.xlarge"]
  scaling_config {
    min_size     = 5
    max_size     = 2
    desired_size = 2
  }
}

# expect: why:replicas.min="size -1 is negative" cost.monthly=?
resource "aws_autoscaling_group" "negative" {
  min_size = -1
  max_size = 3
  mixed_instances_policy {
    launch_template {
      override {
        instance_type = "g5.xlarge"
      }
    }
  }
}

# Terraform rejects a fractional or negative count: gpulint says so rather than guessing.
# expect: why:count="count must be a whole number of 0 or more, got 1.5" cost.monthly=?
resource "aws_instance" "half" {
  count         = 1.5
  instance_type = "g5.xlarge"
}

# expect: why:count="count must be a whole number of 0 or more, got -1" cost.monthly=?
resource "aws_instance" "negative" {
  count         = -1
  instance_type = "g5.xlarge"
}
