# A self-managed fleet: one launch template and one auto-scaling group per pool, both
# for_each over the same map, each group launching from the template of its own key. The CPU
# pool comes first: a reference that ignored the key would make every group a CPU group.
locals {
  pools = {
    "cpu" = { type = "c7g.4xlarge", min = 2, max = 6 }
    "t4"  = { type = "g4dn.12xlarge", min = 1, max = 1 }
    "a10" = { type = "g5.12xlarge", min = 0, max = 4 }
  }
}

resource "aws_launch_template" "pool" {
  for_each      = local.pools
  name_prefix   = "fleet-${each.key}-"
  instance_type = each.value.type
}

# expect-none: aws_autoscaling_group.pool["cpu"]
# g4dn.12xlarge us-east-1 on demand 3.912 × 1 × 730 = 2855.76.
# expect: address='aws_autoscaling_group.pool["t4"]' instance.type=g4dn.12xlarge gpu.count=4 cost.count=1 cost.monthly=2855.76
# Scale to zero: priced at the minimum, the maximum at g5.12xlarge 5.672 × 4 × 730 = 16562.24.
# expect: address='aws_autoscaling_group.pool["a10"]' instance.type=g5.12xlarge cost.monthly=0 cost.monthly_max=16562.24
resource "aws_autoscaling_group" "pool" {
  for_each         = local.pools
  name             = "fleet-${each.key}"
  min_size         = each.value.min
  max_size         = each.value.max
  desired_capacity = each.value.min
  launch_template {
    id      = aws_launch_template.pool[each.key].id
    version = aws_launch_template.pool[each.key].latest_version
  }
}

# The same with count over a list: group [1] launches from template [1].
locals {
  gpu_node_pool = [
    { instance_type = "m6i.2xlarge", size = 3 },
    { instance_type = "g5.2xlarge", size = 2 },
  ]
}

resource "aws_launch_template" "indexed" {
  count         = length(local.gpu_node_pool)
  name_prefix   = "indexed-${count.index}-"
  instance_type = local.gpu_node_pool[count.index].instance_type
}

# expect-none: aws_eks_node_group.indexed[0]
# g5.2xlarge us-east-1 on demand 1.212 × 2 × 730 = 1769.52.
# expect: address='aws_eks_node_group.indexed[1]' instance.type=g5.2xlarge cost.count=2 cost.monthly=1769.52
resource "aws_eks_node_group" "indexed" {
  count        = length(local.gpu_node_pool)
  cluster_name = "ml"
  launch_template {
    id      = aws_launch_template.indexed[count.index].id
    version = "$Latest"
  }
  scaling_config {
    min_size     = local.gpu_node_pool[count.index].size
    max_size     = local.gpu_node_pool[count.index].size
    desired_size = local.gpu_node_pool[count.index].size
  }
}

# A literal key names one instance; the templates no group launches from stay unreported
# (CPU) or priced at zero (GPU), and this one is priced through the group.
# expect: instance.type=g4dn.12xlarge cost.monthly=2855.76
resource "aws_autoscaling_group" "pinned" {
  min_size = 1
  max_size = 1
  launch_template {
    id = aws_launch_template.pool["t4"].id
  }
}

# Any argument of a keyed instance reads that instance, not only a template's id.
# expect-none: aws_instance.mirror["cpu"]
# expect: address='aws_instance.mirror["a10"]' instance.type=g5.12xlarge cost.monthly=4140.56
resource "aws_instance" "mirror" {
  for_each      = local.pools
  instance_type = aws_launch_template.pool[each.key].instance_type
}

# Which template is meant cannot be known (the key comes from an unset variable): the group
# is reported as not evaluated, never priced as some other pool's instance type.
variable "template_key" {
  type = string
}

# expect-note: might be GPU pools (variable template_key has no default
resource "aws_autoscaling_group" "chosen" {
  min_size = 1
  max_size = 1
  launch_template {
    id = aws_launch_template.pool[var.template_key].id
  }
}
