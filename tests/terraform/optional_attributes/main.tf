# optional(type, default) attributes of a variable's object type take their default when the
# caller leaves them out, and optional(type) ones are null: each.value.size is 1, not missing.
variable "defaults_too" {
  type = list(object({
    instance_type = string
    count         = optional(number, 2)
  }))
  default = [{ instance_type = "g5.xlarge" }]
}

# expect: address='module.pools.aws_instance.node["trainer"]' instance.type=p5.48xlarge capacity=on-demand cost.count=1 tags.workload=training
# expect: address='module.pools.aws_instance.node["batch"]' instance.type=g6.xlarge capacity=spot
# expect-none: module.pools.aws_instance.node["off"]
# expect-none: module.pools.aws_instance.node["noted"]
module "pools" {
  source = "./modules/pool"
  pools = {
    trainer = { instance_type = "p5.48xlarge", tags = { workload = "training" } }
    batch   = { instance_type = "g6.xlarge", spot = true }
    off     = { instance_type = "g5.xlarge", size = 0 }
    noted   = { instance_type = "g5.xlarge", note = "parked" }
  }
}

# The variable's own default gets the optional() defaults as well: two instances.
# expect: address='aws_instance.from_default[1]' instance.type=g5.xlarge cost.monthly=734.38
resource "aws_instance" "from_default" {
  count         = var.defaults_too[0].count
  instance_type = var.defaults_too[0].instance_type
}
