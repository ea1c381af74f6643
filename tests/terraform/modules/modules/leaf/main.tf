variable "vms" {
  type = map(string)
}

resource "google_compute_instance" "vm" {
  for_each     = var.vms
  name         = each.key
  machine_type = each.value
  labels       = { owner = "alice" }
}
