# The shape of aws-samples/awsome-distributed-training's hyperpod-eks-tf root: the groups are a
# list variable; terraform.tfvars gives a CPU group, custom.tfvars (passed with -var-file) an
# accelerated one, and rig_custom.tfvars the restricted groups whose default is [].
provider "awscc" {
  region = "us-east-1"
}

variable "instance_groups" {
  type = list(object({
    name           = string
    instance_type  = string
    instance_count = number
  }))
  default = []
}

variable "restricted_instance_groups" {
  type = list(object({
    name           = string
    instance_type  = string
    instance_count = number
  }))
  default = []
}

resource "awscc_sagemaker_cluster" "hyperpod" {
  cluster_name = "ml-cluster"
  instance_groups = [for g in var.instance_groups : {
    instance_group_name = g.name
    instance_type       = g.instance_type
    instance_count      = g.instance_count
    execution_role      = "arn:aws:iam::123456789012:role/hyperpod"
    life_cycle_config = {
      source_s3_uri = "s3://bucket/lifecycle"
      on_create     = "on_create.sh"
    }
  }]
}
