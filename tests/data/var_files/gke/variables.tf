variable "prefix" {
  type = string
}

variable "region" {
  type    = string
  default = "us-central1"
}

variable "notebook_nodes" {
  type = map(object({
    min : number,
    max : number,
    machine_type : string,
    gpu : optional(object({
      enabled : optional(bool, false),
      type : optional(string, ""),
      count : optional(number, 1)
    }), {})
  }))
  default     = {}
  description = "Notebook node pools, one entry per pool"
}
