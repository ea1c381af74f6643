# An add-on module of an EKS blueprint that applies a directory of manifests: a Karpenter
# NodePool and the GPU workloads placed on it, one kubectl_manifest per file of
# fileset(), and training Jobs through kubernetes_manifest. Each file's workload is
# reported once, under its for_each instance (the YAML files themselves are not counted
# again), and priced from the node it runs on.
module "gpu_workloads" {
  source       = "./modules/gpu-workloads"
  cluster_name = "ml-prod"
}
