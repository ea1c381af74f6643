# A blueprint's Karpenter file: NodePools written inline as kubectl_manifest heredocs, with
# interpolations that only exist at apply time (the zones of a data source, the cluster name
# of a module output). The rest of each manifest is still read: the unknown parts stay as
# placeholders, so the GPU pool and its workload are not lost to a zone list.

provider "aws" {
  region = "us-west-2"
}

data "aws_availability_zones" "available" {}

locals {
  azs = slice(data.aws_availability_zones.available.names, 0, 2)
}

# g6.2xlarge us-west-2 on demand 0.9776; empty pool (0 nodes), 8 GPUs at most.
# expect: address=NodePool/l4 instance.type=g6.2xlarge gpu.model=L4 cost.count=0 cost.monthly=0
resource "kubectl_manifest" "l4_pool" {
  yaml_body = <<-YAML
    apiVersion: karpenter.sh/v1
    kind: NodePool
    metadata:
      name: l4
    spec:
      template:
        metadata:
          labels:
            pool: l4
        spec:
          nodeClassRef:
            group: karpenter.k8s.aws
            kind: EC2NodeClass
            name: ${module.eks.cluster_name}
          requirements:
            - key: node.kubernetes.io/instance-type
              operator: In
              values: ["g6.2xlarge"]
            - key: topology.kubernetes.io/zone
              operator: In
              values: ${jsonencode(local.azs)}
            - key: karpenter.sh/capacity-type
              operator: In
              values: ["on-demand"]
      limits:
        nvidia.com/gpu: 8
  YAML
}

# g6.2xlarge us-west-2 on demand 0.9776 × 2 replicas × 730 = 1427.30
# expect: address=kubectl_manifest.embeddings instance.type=g6.2xlarge gpu.count=1 cost.count=2 cost.region=us-west-2 cost.monthly=1427.30 node_pool=NodePool/l4
resource "kubectl_manifest" "embeddings" {
  yaml_body = <<-YAML
    apiVersion: apps/v1
    kind: Deployment
    metadata:
      name: embeddings
      namespace: ${module.eks.cluster_name}-serving
    spec:
      replicas: 2
      selector:
        matchLabels: {app: embeddings}
      template:
        metadata:
          labels: {app: embeddings}
        spec:
          nodeSelector:
            pool: l4
          containers:
            - name: server
              image: ghcr.io/example/embeddings:1.2
              resources:
                limits:
                  nvidia.com/gpu: 1
  YAML
}

# A GPU count that is itself an output is reported as not known, never dropped.
# expect: address=kubectl_manifest.batch why:gpu.count="module.sizing.gpus"
resource "kubectl_manifest" "batch" {
  yaml_body = <<-YAML
    apiVersion: batch/v1
    kind: Job
    metadata:
      name: batch-embed
    spec:
      template:
        spec:
          nodeSelector:
            pool: l4
          restartPolicy: Never
          containers:
            - name: embed
              image: ghcr.io/example/embeddings:1.2
              resources:
                limits:
                  nvidia.com/gpu: ${module.sizing.gpus}
  YAML
}
