# Locals referring to each other, templates, conditionals, for expressions and the functions
# real infrastructure code uses.
locals {
  env    = "prod"
  family = "g5"
  sizes  = { small = "g5.xlarge", large = "p4d.24xlarge" }
  tags   = merge({ team = "ml", env = "dev" }, { env = local.env })
  upper  = { for k, v in local.sizes : k => upper(v) }
  names  = [for k in keys(local.sizes) : "gpu-${k}"]
  big    = [for t in values(local.sizes) : t if startswith(t, "p")]
  spot   = local.env == "prod" ? false : true
}

# expect: instance.type=p4d.24xlarge tags.team=ml tags.env=prod capacity=on-demand
resource "aws_instance" "lookup_merge" {
  instance_type = lookup(local.sizes, "large", "g5.xlarge")
  tags          = local.tags
}

# expect: instance.type=g5.xlarge
resource "aws_instance" "try" {
  instance_type = try(local.sizes.missing, local.sizes["small"])
}

# expect: instance.type=g5.xlarge
resource "aws_instance" "can" {
  instance_type = can(local.sizes.missing) ? "p5.48xlarge" : "g5.xlarge"
}

# expect: instance.type=g6.xlarge
resource "aws_instance" "coalesce" {
  instance_type = coalesce("", "g6.xlarge", "g5.xlarge")
}

# expect: instance.type=g5.12xlarge gpu.count=4
resource "aws_instance" "format" {
  instance_type = format("%s.%s", local.family, "12xlarge")
}

# expect: instance.type=g5.2xlarge
resource "aws_instance" "element_concat" {
  instance_type = element(concat(["g4dn.xlarge"], ["g5.2xlarge"]), 1)
}

# length(values(...)) gives two instances.
# expect: address=aws_instance.length[1] instance.type=g5.xlarge tags.Name=gpu-1
resource "aws_instance" "length" {
  count         = length(values(local.sizes))
  instance_type = "g5.xlarge"
  tags          = { Name = "gpu-${count.index}" }
}

# expect: address='aws_instance.sets["b"]' instance.type=g4dn.xlarge tags.key=b
resource "aws_instance" "sets" {
  for_each      = toset(tolist(["a", "b"]))
  instance_type = tomap({ a = "g4dn.xlarge" })["a"]
  tags          = { key = each.key }
}

# expect: instance.type=g5.xlarge
resource "aws_instance" "lower_replace" {
  instance_type = lower(replace("G5_XLARGE", "_", "."))
}

# expect: instance.type=p5.48xlarge
resource "aws_instance" "contains" {
  instance_type = contains(keys(local.sizes), "large") ? "p5.48xlarge" : "t3.micro"
}

# max(1, min(3, 2)) = 2 instances.
# expect: address=aws_instance.max_min[1] instance.type=g5.xlarge
resource "aws_instance" "max_min" {
  count         = max(1, min(3, 2))
  instance_type = "g5.xlarge"
}

# expect: instance.type=p4d.24xlarge tags.Name=gpu-large
resource "aws_instance" "for_filter" {
  instance_type = local.big[0]
  tags          = { Name = local.names[0] == "gpu-large" ? local.names[0] : local.names[1] }
}

# expect: instance.type=g5.xlarge
resource "aws_instance" "upper_lower" {
  instance_type = lower(local.upper.small)
}

# A CPU instance is not a GPU resource.
# expect-none:
resource "aws_instance" "cpu" {
  instance_type = "t3.micro"
}

# A type the catalog does not know, in a family that has GPUs, stays unknown (and is reported).
# expect: gpu.count=? why:gpu.model="not in the aws catalog"
resource "aws_instance" "future" {
  instance_type = "p5.96xlarge"
}

# Dynamic blocks are expanded: the market options block exists only when spot is wanted.
# expect: capacity=on-demand
resource "aws_instance" "dynamic_off" {
  instance_type = "g5.xlarge"
  dynamic "instance_market_options" {
    for_each = local.spot ? [1] : []
    content {
      market_type = "spot"
    }
  }
}

# expect: capacity=spot cost.monthly=335.14
resource "aws_instance" "dynamic_on" {
  instance_type = "g5.xlarge"
  dynamic "instance_market_options" {
    for_each = local.spot ? [] : ["spot"]
    iterator = m
    content {
      market_type = m.value
    }
  }
}

# count from another resource's output is unknown before apply: reported once, count unknown.
# expect: address=aws_instance.unknown_count why:count="known only after apply"
resource "aws_instance" "unknown_count" {
  count         = length(data.aws_availability_zones.all.names)
  instance_type = "g5.xlarge"
}

locals {
  loop_a = local.loop_b
  loop_b = local.loop_a
}

# expect-note: refers to itself
resource "aws_instance" "cyclic_local" {
  instance_type = local.loop_a
}

# expect-note: function timestamp() is not evaluated by gpulint
resource "aws_instance" "unsupported_function" {
  instance_type = timestamp()
}

# Grouping for expression: { family => [types] }.
# expect: instance.type=g5.2xlarge
resource "aws_instance" "grouped" {
  instance_type = { for t in ["g5.xlarge", "g5.2xlarge", "p4d.24xlarge"] : split(".", t)[0] => t... }["g5"][1]
}

# expect-note: module.sizes was not evaluated
resource "aws_instance" "from_module_output" {
  instance_type = module.sizes.gpu_type
}
