servingEngineSpec:
  modelSpec:
  - name: "tinyllama-cpu"
    repository: "vllm/vllm-cpu"
    modelURL: "TinyLlama/TinyLlama-1.1B-Chat-v1.0"
    replicaCount: 1
    requestCPU: 8
    requestMemory: "16Gi"
