# Shapes as in the oracle/oci provider documentation (oci_core_instance,
# oci_containerengine_node_pool).
provider "oci" {
  region = "us-ashburn-1"
}

# OCI list price BM.GPU.H100.8: 80 USD/h (10 per H100-hour) in every region; 80 × 730 = 58400.
# expect: gpu.count=8 gpu.model=H100 capacity=on-demand region=us-ashburn-1 cost.monthly=58400
resource "oci_core_instance" "trainer" {
  availability_domain = "Uocm:US-ASHBURN-AD-1"
  compartment_id      = var.compartment_ocid
  display_name        = "llm-trainer"
  shape               = "BM.GPU.H100.8"

  source_details {
    source_type = "image"
    source_id   = var.gpu_image_ocid
  }

  create_vnic_details {
    subnet_id = var.subnet_ocid
  }

  defined_tags  = { "Operations.CostCenter" = "42" }
  freeform_tags = { "team" = "research", "workload" = "training" }
}

# BM.GPU.A100-v2.8: 32 USD/h (4 per A100 80GB-hour); 2 nodes × 32 × 730 = 46720.
# expect: cost.count=2 capacity=on-demand tags.team=inference cost.monthly=46720
resource "oci_containerengine_node_pool" "gpu" {
  cluster_id         = var.cluster_ocid
  compartment_id     = var.compartment_ocid
  kubernetes_version = "v1.31.1"
  name               = "gpu-a100"
  node_shape         = "BM.GPU.A100-v2.8"

  node_config_details {
    placement_configs {
      availability_domain = "Uocm:US-ASHBURN-AD-1"
      subnet_id           = var.subnet_ocid
    }
    size          = 2
    freeform_tags = { "team" = "inference" }
  }

  node_source_details {
    image_id    = var.gpu_image_ocid
    source_type = "IMAGE"
  }

  initial_node_labels {
    key   = "pool"
    value = "gpu-a100"
  }
}

# expect-none: oci_core_instance_configuration.a10
resource "oci_core_instance_configuration" "a10" {
  compartment_id = var.compartment_ocid
  display_name   = "a10-batch"

  instance_details {
    instance_type = "compute"
    launch_details {
      compartment_id = var.compartment_ocid
      shape          = "VM.GPU3.1"
      preemptible_instance_config {
        preemption_action {
          type                 = "TERMINATE"
          preserve_boot_volume = false
        }
      }
      freeform_tags = { "team" = "batch" }
    }
  }
}

# VM.GPU3.1 preemptible: 1.475 USD/h (half its 2.95 on-demand); 3 × 1.475 × 730 = 3230.25.
# expect: capacity=spot gpu.model=V100 cost.count=3 cost.monthly=3230.25
resource "oci_core_instance_pool" "a10" {
  compartment_id            = var.compartment_ocid
  instance_configuration_id = oci_core_instance_configuration.a10.id
  size                      = 3

  placement_configurations {
    availability_domain = "Uocm:US-ASHBURN-AD-1"
    primary_subnet_id   = var.subnet_ocid
  }
}

variable "gpu_shape" {}

# expect: why:instance.type="has no default" why:gpu.count="has no default"
resource "oci_core_instance" "unresolved" {
  availability_domain = "Uocm:US-ASHBURN-AD-1"
  compartment_id      = var.compartment_ocid
  shape               = var.gpu_shape
}

# A CPU shape: not a GPU resource.
# expect-none:
resource "oci_core_instance" "bastion" {
  availability_domain = "Uocm:US-ASHBURN-AD-1"
  compartment_id      = var.compartment_ocid
  shape               = "VM.Standard.E4.Flex"
  shape_config {
    ocpus         = 2
    memory_in_gbs = 16
  }
}
