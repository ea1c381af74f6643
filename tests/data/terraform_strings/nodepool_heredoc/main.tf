variable "gpu_instance_type" {
  description = "GPU alias mapped to a CoreWeave instance type"
  type        = string
  default     = "H100"
}

variable "gpu_nodepool_labels" {
  type    = map(string)
  default = { "workload-type" = "gpu" }
}

locals {
  # CoreWeave CKS instance IDs (docs.coreweave.com, platform/instances).
  gpu_alias_to_instance_type = {
    H100 = "gd-8xh100ib-i128"
    L40S = "gd-8xl40s-i128"
  }
  gpu_instance_id = local.gpu_alias_to_instance_type[upper(var.gpu_instance_type)]
}

# A NodePool written out in a heredoc.
resource "kubectl_manifest" "nodepool_l40s" {
  yaml_body = <<YAML
apiVersion: compute.coreweave.com/v1alpha1
kind: NodePool
metadata:
  name: l40s-pool
spec:
  instanceType: gd-8xl40s-i128
  targetNodes: 2
  minNodes: 1
  maxNodes: 4
YAML
}

# A NodePool from a template with directives, its instance type from the alias map.
resource "kubectl_manifest" "nodepool_gpu" {
  for_each = toset(["gpu"])
  yaml_body = templatefile("${path.module}/manifests/nodepool-gpu.tftpl", {
    nodepool_name = "gpu-pool"
    instance_type = local.gpu_instance_id
    target_nodes  = 1
    node_labels   = var.gpu_nodepool_labels
  })
}

# A CPU pool: no accelerator, nothing to report.
resource "kubectl_manifest" "nodepool_cpu" {
  yaml_body = <<YAML
apiVersion: compute.coreweave.com/v1alpha1
kind: NodePool
metadata:
  name: cpu-pool
spec:
  instanceType: cd-gp-i64-erapids
  targetNodes: 1
YAML
}
