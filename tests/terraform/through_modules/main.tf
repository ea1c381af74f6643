# Every resource type through a module called with for_each, its inputs from a tfvars file,
# variables and locals (tests/terraform/through_modules/modules/stack).
variable "stacks" {}
variable "team" {}

locals {
  common = { team = var.team }
}

# expect: address='module.stack["spot"].aws_instance.vm["a"]' instance.type=g5.xlarge capacity=spot tags.team=ml workload=training
# expect: address='module.stack["spot"].aws_spot_instance_request.req[0]' capacity=spot
# expect-none: module.stack["spot"].aws_launch_template.lt
# expect: address='module.stack["spot"].aws_eks_node_group.ng' instance.type=g5.xlarge capacity=spot replicas.min=2 replicas.max=4 cost.count=2
# expect: address='module.stack["spot"].aws_autoscaling_group.asg' instance.type=g5.xlarge capacity=spot cost.count=2
# expect: address='module.stack["spot"].aws_sagemaker_endpoint_configuration.ep' instance.type=ml.g5.xlarge cost.count=2 model.declared=Qwen/Qwen2.5-7B-Instruct
# expect: address='module.stack["spot"].aws_sagemaker_notebook_instance.nb' instance.type=ml.g5.xlarge workload=notebook shutdown=none
# expect: address='module.stack["spot"].aws_batch_compute_environment.batch' capacity=spot replicas.min=0 replicas.max=16
# expect: address='module.stack["spot"].google_compute_instance.vm' instance.type=g2-standard-8 capacity=spot
# expect: address='module.stack["spot"].google_compute_instance_group_manager.igm' instance.type=g2-standard-8 capacity=spot cost.count=2
# expect: address='module.stack["spot"].google_compute_region_instance_group_manager.rigm' instance.type=g2-standard-8 capacity=on-demand cost.count=2
# expect: address='module.stack["spot"].google_container_node_pool.pool' instance.type=g2-standard-8 capacity=spot cost.count=2
# expect: address='module.stack["spot"].google_container_cluster.gke.default_node_pool' instance.type=g2-standard-8 capacity=spot cost.count=2
# expect: address='module.stack["spot"].google_workbench_instance.wb' instance.type=g2-standard-8 workload=notebook shutdown=idle
# expect: address='module.stack["spot"].google_notebooks_instance.nb' instance.type=g2-standard-8 workload=notebook shutdown=none
# expect: address='module.stack["spot"].google_tpu_node.tpu' instance.type=v3-8 capacity=spot accelerator.kind=tpu
# expect: address='module.stack["spot"].google_tpu_v2_vm.tpu' instance.type=v3-8 capacity=spot
# expect: address='module.stack["spot"].azurerm_linux_virtual_machine.vm' instance.type=Standard_NC4as_T4_v3 capacity=spot
# expect: address='module.stack["spot"].azurerm_windows_virtual_machine.vm' instance.type=Standard_NC4as_T4_v3 capacity=spot
# expect: address='module.stack["spot"].azurerm_linux_virtual_machine_scale_set.vmss' instance.type=Standard_NC4as_T4_v3 capacity=spot cost.count=2
# expect: address='module.stack["spot"].azurerm_windows_virtual_machine_scale_set.vmss' instance.type=Standard_NC4as_T4_v3 capacity=spot cost.count=2
# expect: address='module.stack["spot"].azurerm_orchestrated_virtual_machine_scale_set.flex' instance.type=Standard_NC4as_T4_v3 capacity=spot cost.count=2
# expect: address='module.stack["spot"].azurerm_kubernetes_cluster.aks.default_node_pool' instance.type=Standard_NC4as_T4_v3 capacity=on-demand cost.count=2
# expect: address='module.stack["spot"].azurerm_kubernetes_cluster_node_pool.pool' instance.type=Standard_NC4as_T4_v3 capacity=spot cost.count=2
# expect: address='module.stack["spot"].azurerm_machine_learning_compute_instance.ci' instance.type=Standard_NC4as_T4_v3 workload=notebook
# expect: address='module.stack["spot"].azurerm_machine_learning_compute_cluster.cc' instance.type=Standard_NC4as_T4_v3 capacity=spot cost.count=2
# expect: address='module.stack["spot"].databricks_cluster.dbx' instance.type=g5.xlarge capacity=spot cost.count=3
# expect: address='module.stack["ondemand"].aws_instance.vm["a"]' instance.type=g5.12xlarge capacity=on-demand tags.team=ml workload=training
# expect-none: module.stack["ondemand"].aws_spot_instance_request.req[0]
# expect-none: module.stack["ondemand"].aws_launch_template.lt
# expect: address='module.stack["ondemand"].aws_eks_node_group.ng' instance.type=g5.12xlarge capacity=on-demand replicas.min=1 replicas.max=2 cost.count=1
# expect: address='module.stack["ondemand"].aws_autoscaling_group.asg' instance.type=g5.12xlarge capacity=on-demand cost.count=1
# expect: address='module.stack["ondemand"].aws_sagemaker_endpoint_configuration.ep' instance.type=ml.g5.12xlarge cost.count=1 model.declared=Qwen/Qwen2.5-7B-Instruct
# expect: address='module.stack["ondemand"].aws_sagemaker_notebook_instance.nb' instance.type=ml.g5.12xlarge workload=notebook shutdown=none
# expect: address='module.stack["ondemand"].aws_batch_compute_environment.batch' capacity=on-demand replicas.min=0 replicas.max=2
# expect: address='module.stack["ondemand"].google_compute_instance.vm' instance.type=a2-highgpu-1g capacity=on-demand
# expect: address='module.stack["ondemand"].google_compute_instance_group_manager.igm' instance.type=a2-highgpu-1g capacity=on-demand cost.count=1
# expect: address='module.stack["ondemand"].google_compute_region_instance_group_manager.rigm' instance.type=a2-highgpu-1g capacity=on-demand cost.count=1
# expect: address='module.stack["ondemand"].google_container_node_pool.pool' instance.type=a2-highgpu-1g capacity=on-demand cost.count=1
# expect: address='module.stack["ondemand"].google_container_cluster.gke.default_node_pool' instance.type=a2-highgpu-1g capacity=on-demand cost.count=1
# expect: address='module.stack["ondemand"].google_workbench_instance.wb' instance.type=a2-highgpu-1g workload=notebook shutdown=idle
# expect: address='module.stack["ondemand"].google_notebooks_instance.nb' instance.type=a2-highgpu-1g workload=notebook shutdown=none
# expect: address='module.stack["ondemand"].google_tpu_node.tpu' instance.type=v2-8 capacity=on-demand accelerator.kind=tpu
# expect: address='module.stack["ondemand"].google_tpu_v2_vm.tpu' instance.type=v2-8 capacity=on-demand
# expect: address='module.stack["ondemand"].azurerm_linux_virtual_machine.vm' instance.type=Standard_NC24ads_A100_v4 capacity=on-demand
# expect: address='module.stack["ondemand"].azurerm_windows_virtual_machine.vm' instance.type=Standard_NC24ads_A100_v4 capacity=on-demand
# expect: address='module.stack["ondemand"].azurerm_linux_virtual_machine_scale_set.vmss' instance.type=Standard_NC24ads_A100_v4 capacity=on-demand cost.count=1
# expect: address='module.stack["ondemand"].azurerm_windows_virtual_machine_scale_set.vmss' instance.type=Standard_NC24ads_A100_v4 capacity=on-demand cost.count=1
# expect: address='module.stack["ondemand"].azurerm_orchestrated_virtual_machine_scale_set.flex' instance.type=Standard_NC24ads_A100_v4 capacity=on-demand cost.count=1
# expect: address='module.stack["ondemand"].azurerm_kubernetes_cluster.aks.default_node_pool' instance.type=Standard_NC24ads_A100_v4 capacity=on-demand cost.count=1
# expect: address='module.stack["ondemand"].azurerm_kubernetes_cluster_node_pool.pool' instance.type=Standard_NC24ads_A100_v4 capacity=on-demand cost.count=1
# expect: address='module.stack["ondemand"].azurerm_machine_learning_compute_instance.ci' instance.type=Standard_NC24ads_A100_v4 workload=notebook
# expect: address='module.stack["ondemand"].azurerm_machine_learning_compute_cluster.cc' instance.type=Standard_NC24ads_A100_v4 capacity=on-demand cost.count=1
# expect: address='module.stack["ondemand"].databricks_cluster.dbx' instance.type=g5.12xlarge capacity=on-demand cost.count=2
module "stack" {
  for_each = var.stacks
  source   = "./modules/stack"
  spot     = each.value.spot
  sizes    = each.value.sizes
  nodes    = each.value.nodes
  tags     = local.common
}
