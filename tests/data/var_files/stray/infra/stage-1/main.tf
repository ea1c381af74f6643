# The shape of ai-on-gke's benchmark cluster: pools come from var.nodepools only, and the
# var file a script copies next to it lives in orchestration/config/.
variable "nodepools" {
  type = map(object({
    machine_type = optional(string, "n2-standard-2")
    guest_accelerator = optional(object({
      type  = optional(string)
      count = optional(number)
    }))
  }))
  default = {}
}

resource "google_container_node_pool" "pool" {
  for_each = var.nodepools
  name     = each.key
  cluster  = "bench"
  node_config {
    machine_type = each.value.machine_type
  }
}
