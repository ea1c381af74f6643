# Helm values rendered by Terraform's template_file: ${prefix} and ${storage_class} come from vars.
servingEngineSpec:
  runtimeClassName: ""
  nodeSelector:
    workload-type: gpu
  modelSpec:
  - name: "llama-3-8b"
    repository: "vllm/vllm-openai"
    tag: "v0.8.5"
    modelURL: "meta-llama/Llama-3.1-8B-Instruct"
    replicaCount: 1
    requestCPU: 4
    requestMemory: "16Gi"
    requestGPU: 1
    pvcStorage: "50Gi"
    storageClass: "${storage_class}"
routerSpec:
  ingress:
    hosts:
    - host: "${prefix}.example.com"
