variable "spot" {
  type = bool
}
variable "sizes" {
  type = map(string)
}
variable "nodes" {
  type    = number
  default = 1
}
variable "tags" {
  type    = map(string)
  default = {}
}
