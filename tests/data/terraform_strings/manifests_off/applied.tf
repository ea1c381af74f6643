data "aws_availability_zones" "available" {}

# Applied: a directive over a data source's zones cannot be evaluated before apply; the rest
# of the manifest is read, the zones left out.
resource "kubectl_manifest" "l4_server" {
  yaml_body = <<-YAML
    apiVersion: apps/v1
    kind: Deployment
    metadata:
      name: l4-server
    spec:
      replicas: 1
      template:
        spec:
          affinity:
            nodeAffinity:
              requiredDuringSchedulingIgnoredDuringExecution:
                nodeSelectorTerms:
                - matchExpressions:
                  - key: topology.kubernetes.io/zone
                    operator: In
                    values:
    %{ for zone in data.aws_availability_zones.available.names ~}
                    - ${zone}
    %{ endfor ~}
          nodeSelector:
            node.kubernetes.io/instance-type: g6.xlarge
          containers:
          - name: vllm
            image: vllm/vllm-openai:v0.8.5
            resources:
              limits:
                nvidia.com/gpu: 1
  YAML
}

# Applied: two documents in one yaml_body, which kubectl_manifest refuses.
resource "kubectl_manifest" "two_documents" {
  yaml_body = <<-YAML
    apiVersion: v1
    kind: Namespace
    metadata:
      name: training
    ---
    apiVersion: batch/v1
    kind: Job
    metadata:
      name: train
    spec:
      template:
        spec:
          containers:
          - name: train
            image: nvcr.io/nvidia/pytorch:24.05-py3
            resources:
              limits:
                nvidia.com/gpu: 8
  YAML
}
