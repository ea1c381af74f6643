# Local modules with inputs, count and for_each on calls, nested modules, provider aliases
# handed to modules, default tags/labels, and registry modules.
provider "aws" {
  region = "us-east-1"
  default_tags {
    tags = { team = "platform", cost-center = "ml" }
  }
}

provider "aws" {
  alias  = "west"
  region = "us-west-2"
  default_tags {
    tags = { team = "west" }
  }
}

provider "google" {
  region         = "europe-west4"
  default_labels = { team = "research" }
}

provider "google" {
  alias          = "us"
  region         = "us-central1"
  default_labels = { team = "us-research" }
}

# expect: address=module.gpu[0].aws_instance.this[0] instance.type=g5.12xlarge region=us-east-1 tags.team=platform tags.cost-center=ml tags.Name=trainer-0
# expect: address=module.gpu[1].aws_instance.this[1] instance.type=g5.12xlarge tags.Name=trainer-1 workload=training
module "gpu" {
  count         = 2
  source        = "./modules/gpu"
  instance_type = "g5.12xlarge"
  replicas      = 2
  name          = "trainer"
}

# The aliased provider's region and default tags follow the module.
# expect: address='module.west["a"].aws_instance.this[0]' region=us-west-2 tags.team=west tags.cost-center=- cost.monthly=4140.56
module "west" {
  for_each      = toset(["a"])
  source        = "./modules/gpu"
  providers     = { aws = aws.west }
  instance_type = "g5.12xlarge"
  replicas      = 1
  name          = "svc"
}

# Nested local modules; the inner one takes a map and uses for_each.
# expect: address='module.outer.module.inner.google_compute_instance.vm["big"]' instance.type=a2-highgpu-1g region=europe-west4 tags.team=research tags.owner=alice
module "outer" {
  source = "./modules/inner"
  vms    = { big = "a2-highgpu-1g" }
}

# expect: address='module.outer_us.module.inner.google_compute_instance.vm["small"]' region=us-central1 tags.team=us-research
module "outer_us" {
  source    = "./modules/inner"
  providers = { google = google.us }
  vms       = { small = "g2-standard-8" }
}

# A registry module that was downloaded (`terraform init`) is read from .terraform/modules.
# expect: address=module.downloaded.aws_instance.node instance.type=p5.48xlarge
module "downloaded" {
  source  = "acme/gpu-node/aws"
  version = "1.2.0"
  type    = "p5.48xlarge"
}

# One that was not is reported as not evaluated.
# expect-note: is not local and not downloaded under .terraform/modules (1 call)
module "remote" {
  source  = "acme/other/aws"
  version = "3.0.0"
}

# A resource on an aliased provider takes that provider's region and default tags.
# expect: region=us-west-2 tags.team=west tags.owner=bob
resource "aws_instance" "west" {
  provider      = aws.west
  instance_type = "g5.xlarge"
  tags          = { owner = "bob" }
}

# expect: region=us-central1 tags.team=us-research
resource "google_compute_instance" "us" {
  provider     = google.us
  name         = "us"
  machine_type = "g2-standard-8"
}

# Outputs of local modules are evaluated: one call, and one with for_each.
module "sizes" {
  source = "./modules/sizes"
  tier   = "large"
}

module "tiers" {
  for_each = toset(["small", "large"])
  source   = "./modules/sizes"
  tier     = each.key
}

# expect: instance.type=p5.48xlarge
resource "aws_instance" "from_output" {
  instance_type = module.sizes.gpu_type
}

# expect: instance.type=g5.xlarge capacity=spot
resource "aws_instance" "from_for_each_output" {
  instance_type = module.tiers["small"].gpu_type
  dynamic "instance_market_options" {
    for_each = module.tiers["small"].spot ? [1] : []
    content {
      market_type = "spot"
    }
  }
}

# expect-note: output missing is not defined
resource "aws_instance" "missing_output" {
  instance_type = module.sizes.missing
}

# A call may use the outputs of a call written after it; the resource's count is one too.
module "consumer" {
  count         = module.counts.n
  source        = "./modules/gpu"
  instance_type = module.sizes.gpu_type
  replicas      = 1
  name          = "consumer"
}

module "counts" {
  source = "./modules/count"
}

# expect: address=module.consumer[1].aws_instance.this[0] instance.type=p5.48xlarge
# expect-none: module.consumer[2].aws_instance.this[0]
# expect: address=aws_instance.counted[1] instance.type=g5.xlarge
resource "aws_instance" "counted" {
  count         = module.counts.n
  instance_type = "g5.xlarge"
}
