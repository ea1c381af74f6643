# A fleet of pools, a launch template and an auto-scaling group per key; the CPU pool first.
locals {
  pools = {
    "cpu" = { type = "c7g.4xlarge" }
    "t4"  = { type = "g4dn.12xlarge" }
  }
}

resource "aws_launch_template" "pool" {
  for_each      = local.pools
  instance_type = each.value.type
}

resource "aws_autoscaling_group" "pool" {
  for_each = local.pools
  min_size = 1
  max_size = 2
  launch_template {
    id      = aws_launch_template.pool[each.key].id
    version = "$Latest"
  }
}

resource "aws_autoscaling_group" "pinned" {
  min_size = 1
  max_size = 1
  launch_template {
    id = aws_launch_template.pool["t4"].id
  }
}
