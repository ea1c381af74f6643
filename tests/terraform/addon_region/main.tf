# An EKS blueprint's add-ons: a Karpenter NodePool and a Triton server written as Helm values in
# the inputs of a registry add-on module. The cluster is in the region of the configuration's
# aws provider; the aliased provider that pins us-east-1 for ECR Public is not the cluster's.
# The pods are priced in us-west-2, not in the catalog's default region, on the sizes the pool
# allows.

variable "region" {
  type    = string
  default = "us-west-2"
}

locals {
  name   = "inference"
  region = var.region
}

provider "aws" {
  region = local.region
}

provider "aws" {
  alias  = "ecr"
  region = "us-east-1"
}

# g5.12xlarge us-west-2 spot 2.2879 (the pool allows spot; Karpenter prefers it) × 1 × 730 = 1670.17
# expect: address=HelmValues/nvidia_triton_server gpu.count=4 gpu.model=A10G capacity=spot cost.region=us-west-2 cost.monthly=1670.17 node_pool=NodePool/g5-gpu-karpenter
module "data_addons" {
  source  = "aws-ia/eks-data-addons/aws"
  version = "~> 1.32.0"

  oidc_provider_arn = module.eks.oidc_provider_arn

  enable_karpenter_resources = true
  karpenter_resources_helm_config = {
    g5-gpu-karpenter = {
      values = [
        <<-EOT
      name: g5-gpu-karpenter
      clusterName: ${module.eks.cluster_name}
      ec2NodeClass:
        karpenterRole: ${module.eks.karpenter_role}
      nodePool:
        labels:
          - type: karpenter
          - NodeGroupType: g5-gpu-karpenter
        taints:
          - key: nvidia.com/gpu
            value: "Exists"
            effect: "NoSchedule"
        requirements:
          - key: "karpenter.k8s.aws/instance-family"
            operator: In
            values: ["g5"]
          - key: "karpenter.k8s.aws/instance-size"
            operator: In
            values: ["2xlarge", "4xlarge", "8xlarge", "12xlarge"]
          - key: "karpenter.sh/capacity-type"
            operator: In
            values: ["spot", "on-demand"]
        limits:
          cpu: 1000
      EOT
      ]
    }
  }

  enable_nvidia_triton_server = true
  nvidia_triton_server_helm_config = {
    namespace = "triton"
    values = [
      <<-EOT
      replicaCount: 1
      image:
        repository: nvcr.io/nvidia/tritonserver
        tag: "24.06-vllm-python-py3"
      resources:
        limits:
          cpu: 10
          memory: 60Gi
          nvidia.com/gpu: 4
      nodeSelector:
        NodeGroupType: g5-gpu-karpenter
        type: karpenter
      tolerations:
        - key: "nvidia.com/gpu"
          operator: "Exists"
          effect: "NoSchedule"
      EOT
    ]
  }
}

# The pool allows no g5.xlarge: one GPU lands on the cheapest size it allows,
# g5.2xlarge us-west-2 spot 0.5068 × 1 × 730 = 369.96 (g5.xlarge would be 0.5326).
# expect: address=kubectl_manifest.diffusion instance.type=- gpu.model=A10G capacity=spot cost.region=us-west-2 cost.monthly=369.96 node_pool=NodePool/g5-gpu-karpenter
resource "kubectl_manifest" "diffusion" {
  yaml_body = <<-YAML
    apiVersion: apps/v1
    kind: Deployment
    metadata:
      name: diffusion
      namespace: serving
    spec:
      replicas: 1
      selector:
        matchLabels: {app: diffusion}
      template:
        metadata:
          labels: {app: diffusion}
        spec:
          nodeSelector:
            NodeGroupType: g5-gpu-karpenter
            type: karpenter
          tolerations:
            - key: nvidia.com/gpu
              operator: Exists
              effect: NoSchedule
          containers:
            - name: server
              image: ghcr.io/example/diffusion:2.1
              resources:
                limits:
                  nvidia.com/gpu: 1
  YAML
}
