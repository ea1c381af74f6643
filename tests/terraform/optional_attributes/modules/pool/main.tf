# A pool per map entry; entries leave out what optional() gives a default for.
variable "pools" {
  type = map(object({
    instance_type = string
    spot          = optional(bool, false)
    size          = optional(number, 1)
    tags          = optional(map(string), {})
    note          = optional(string)
  }))
}

resource "aws_instance" "node" {
  for_each      = { for k, p in var.pools : k => p if p.size > 0 && p.note == null }
  instance_type = each.value.instance_type
  dynamic "instance_market_options" {
    for_each = each.value.spot ? [1] : []
    content {
      market_type = "spot"
    }
  }
  tags = merge(each.value.tags, { Name = each.key })
}
