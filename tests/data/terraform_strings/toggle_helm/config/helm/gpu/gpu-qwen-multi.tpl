servingEngineSpec:
  modelSpec:
  - name: "qwen-72b"
    repository: "vllm/vllm-openai"
    tag: "v0.8.5"
    modelURL: "Qwen/Qwen2.5-72B-Instruct"
    replicaCount: 1
    requestGPU: 4
    storageClass: "${storage_class}"
  - name: "gemma-27b"
    repository: "vllm/vllm-openai"
    tag: "v0.8.5"
    modelURL: "google/gemma-3-27b-it"
    replicaCount: 1
    requestGPU: 2
