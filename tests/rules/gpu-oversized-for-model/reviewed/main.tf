# "Oversized" findings a hand review found wrong, now answered right.

locals {
  common_tags = { team = "ml", project = "assistant", env = "prod" }
}

# A small model on one T4: the cheapest current GPU that holds it is an L4, which has more
# memory, so it is not "more GPU than it needs" (the previous-generation rule speaks of it).
# ok: gpu-oversized-for-model
resource "aws_instance" "router_model" {
  ami           = "ami-0c7217cdde317cfec"
  instance_type = "g4dn.8xlarge"
  tags = merge(local.common_tags, {
    Name  = "intent-router"
    model = "Qwen/Qwen2.5-1.5B-Instruct"
  })
}

# For contrast: the same model on 4 A10G is oversized, and the cheaper fit is another GPU.
# ruleid: gpu-oversized-for-model
resource "aws_instance" "router_model_big" {
  ami           = "ami-0c7217cdde317cfec"
  instance_type = "g5.12xlarge"
  tags = merge(local.common_tags, {
    Name  = "intent-router-big"
    model = "Qwen/Qwen2.5-1.5B-Instruct"
  })
}
