variable "cluster_name" {
  type = string
}

variable "gpu_instance_type" {
  type        = string
  description = "Instance type of the inference node group."
}

variable "gpu_desired_size" {
  type    = number
  default = 1
}

variable "training_instance_type" {
  type = string
}
