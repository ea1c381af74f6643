variable "cluster_name" {
  type = string
}

# g5.2xlarge us-east-1 on demand 1.212 × 2 replicas × 730 = 1769.52; the NodePool starts
# empty (0 nodes, 8 GPUs at most).
# The manifests are templates (`${cluster_name}`): their unrendered copies, which the scan
# also reads as YAML, are not counted.
# expect: address='module.gpu_workloads.kubectl_manifest.this["vllm.yaml"]' instance.type=g5.2xlarge gpu.model=A10G gpu.count=1 cost.count=2 cost.monthly=1769.52 node_pool=NodePool/ml-prod-gpu
# expect: address=NodePool/ml-prod-gpu instance.type=g5.2xlarge cost.count=0 cost.monthly=0
# expect-none: Deployment/inference/vllm-mistral
# expect-none: NodePool/${cluster_name}-gpu
resource "kubectl_manifest" "this" {
  for_each = fileset("${path.module}/manifests", "*.yaml")
  yaml_body = templatefile("${path.module}/manifests/${each.value}", {
    cluster_name = var.cluster_name
  })
}

# g6e.12xlarge us-east-1 on demand 10.49264 × 1 × 730 = 7659.63; README.md is not a *.yaml.
# Keyed by file name without its extension.
# expect: address='module.gpu_workloads.kubernetes_manifest.jobs["finetune"]' instance.type=g6e.12xlarge gpu.count=4 cost.count=1 cost.monthly=7659.63
# expect-none: module.gpu_workloads.kubernetes_manifest.jobs["README"]
resource "kubernetes_manifest" "jobs" {
  for_each = {
    for f in sort(fileset(path.module, "jobs/*.yaml")) :
    trimsuffix(basename(f), ".yaml") => f
  }
  manifest = yamldecode(file("${path.module}/${each.value}"))
}
