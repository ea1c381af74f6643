servingEngineSpec:
  runtimeClassName: ""
  modelSpec:
  - name: "llama8b"
    repository: "vllm/vllm-openai"
    tag: "v0.10.1"
    modelURL: "${model_url}"
    replicaCount: ${replicas}
    requestCPU: 8
    requestMemory: "32Gi"
    requestGPU: 2
    hf_token: "${hf_token}"
    vllmConfig:
      tensorParallelSize: 2
      maxModelLen: 8192
    nodeSelectorTerms:
      - matchExpressions:
        - key: cloud.google.com/gke-accelerator
          operator: "In"
          values:
          - "nvidia-l4"
