"""Generate a large, realistic infrastructure repository for benchmarking gpulint.

    python benchmarks/generate.py OUT_DIR [--factor N]

Factor 1 is 967 .tf files (1.8 MB, 1.85 KB a file on average, near the ~2 KB of real
repositories), 240 .tfvars and 1,500 Kubernetes manifests (2.5 MB in all): shared modules with
typed variables, locals, for_each and dynamic blocks; one root module per service with a
commented header, an S3 backend, providers with default_tags, described and validated variables,
module calls, alarms, backups, IAM and outputs; an app folder per Kubernetes service with a
Deployment + Service, ConfigMap, HPA, Ingress and NetworkPolicy. About one service in 25 and one
app in 30 holds a GPU resource, as in a real platform repository. Output is deterministic.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import textwrap

SERVICES_PER_FACTOR = 240
APPS_PER_FACTOR = 300
ENVS = ("dev", "staging", "prod")
TEAMS = ("search", "payments", "ml", "data", "platform", "growth", "identity", "ads")
GPU_TYPES = ("p4d.24xlarge", "g5.2xlarge", "g6.xlarge", "p5.48xlarge", "g5.12xlarge")
MODELS = ("meta-llama/Llama-3.1-8B-Instruct", "mistralai/Mistral-7B-Instruct-v0.3",
          "Qwen/Qwen2.5-7B-Instruct", "meta-llama/Llama-3.1-70B-Instruct")


def _write(root: str, rel: str, text: str) -> None:
    path = os.path.join(root, rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(textwrap.dedent(text).lstrip())


def _manifest(root: str, rel: str, api: str, kind: str, name: str, namespace: str,
              rest: str) -> None:
    """A Kubernetes object: the common header, then `rest` (what follows metadata.namespace)."""
    head = f"apiVersion: {api}\nkind: {kind}\nmetadata:\n  name: {name}\n  namespace: {namespace}\n"
    _write(root, rel, head + textwrap.dedent(rest).lstrip("\n"))


# ---- Terraform ----------------------------------------------------------------------------

def _modules(root: str) -> None:
    _write(root, "terraform/modules/network/variables.tf", '''
        variable "name" {
          type        = string
          description = "Name prefix for every network resource"
        }

        variable "cidr_block" {
          type    = string
          default = "10.0.0.0/16"
        }

        variable "subnets" {
          type = map(object({
            cidr = string
            az   = string
            tier = string
          }))
          default = {}
        }

        variable "tags" {
          type    = map(string)
          default = {}
        }
        ''')
    _write(root, "terraform/modules/network/main.tf", '''
        locals {
          public  = { for k, s in var.subnets : k => s if s.tier == "public" }
          private = { for k, s in var.subnets : k => s if s.tier != "public" }
          common  = merge(var.tags, { module = "network" })
        }

        resource "aws_vpc" "this" {
          cidr_block           = var.cidr_block
          enable_dns_hostnames = true
          tags                 = merge(local.common, { Name = var.name })
        }

        resource "aws_subnet" "this" {
          for_each          = var.subnets
          vpc_id            = aws_vpc.this.id
          cidr_block        = each.value.cidr
          availability_zone = each.value.az
          tags              = merge(local.common, { Name = "${var.name}-${each.key}", Tier = each.value.tier })
        }

        resource "aws_security_group" "default" {
          name   = "${var.name}-default"
          vpc_id = aws_vpc.this.id

          dynamic "ingress" {
            for_each = [443, 80]
            content {
              from_port   = ingress.value
              to_port     = ingress.value
              protocol    = "tcp"
              cidr_blocks = [var.cidr_block]
            }
          }

          egress {
            from_port   = 0
            to_port     = 0
            protocol    = "-1"
            cidr_blocks = ["0.0.0.0/0"]
          }
        }
        ''')
    _write(root, "terraform/modules/network/outputs.tf", '''
        output "vpc_id" {
          value = aws_vpc.this.id
        }

        output "subnet_ids" {
          value = [for s in aws_subnet.this : s.id]
        }

        output "security_group_id" {
          value = aws_security_group.default.id
        }
        ''')
    _write(root, "terraform/modules/compute/variables.tf", '''
        variable "name" {
          type = string
        }

        variable "instances" {
          description = "Instances by name, each with its type and whether it may run on spot"
          type = map(object({
            instance_type = string
            spot          = bool
          }))
        }

        variable "ami" {
          type    = string
          default = "ami-0123456789abcdef0"
        }

        variable "tags" {
          type    = map(string)
          default = {}
        }
        ''')
    _write(root, "terraform/modules/compute/main.tf", '''
        resource "aws_instance" "this" {
          for_each      = var.instances
          ami           = var.ami
          instance_type = each.value.instance_type

          dynamic "instance_market_options" {
            for_each = each.value.spot ? [1] : []
            content {
              market_type = "spot"
            }
          }

          root_block_device {
            volume_size = 100
            volume_type = "gp3"
          }

          tags = merge(var.tags, { Name = "${var.name}-${each.key}" })
        }
        ''')
    _write(root, "terraform/modules/compute/outputs.tf", '''
        output "ids" {
          value = { for k, i in aws_instance.this : k => i.id }
        }
        ''')
    _write(root, "terraform/modules/storage/main.tf", '''
        variable "buckets" {
          type    = set(string)
          default = []
        }

        variable "tags" {
          type    = map(string)
          default = {}
        }

        resource "aws_s3_bucket" "this" {
          for_each = var.buckets
          bucket   = each.key
          tags     = var.tags
        }

        resource "aws_s3_bucket_versioning" "this" {
          for_each = var.buckets
          bucket   = aws_s3_bucket.this[each.key].id
          versioning_configuration {
            status = "Enabled"
          }
        }
        ''')


def _service(root: str, rng: random.Random, i: int) -> None:
    env = ENVS[i % len(ENVS)]
    team = TEAMS[i % len(TEAMS)]
    name = f"{team}-svc{i:04d}"
    base = f"terraform/live/{env}/{name}"
    gpu = i % 25 == 7
    _write(root, f"{base}/providers.tf", f'''
        # {name} ({env}): provider and state configuration.
        # Owned by the {team} team; changes go through the platform review (#platform-infra).
        # State lives in the shared bucket, one key per service and environment.

        terraform {{
          required_version = ">= 1.5"

          backend "s3" {{
            bucket         = "example-terraform-state-{env}"
            key            = "services/{name}/terraform.tfstate"
            region         = "us-east-1"
            dynamodb_table = "terraform-locks"
            encrypt        = true
          }}

          required_providers {{
            aws = {{
              source  = "hashicorp/aws"
              version = "~> 5.0"
            }}
          }}
        }}

        provider "aws" {{
          region = var.region
          default_tags {{
            tags = {{
              team        = "{team}"
              environment = "{env}"
              cost-center = "cc-{rng.randint(100, 999)}"
              repository  = "github.com/example/platform"
            }}
          }}
        }}

        # Certificates for CloudFront must be issued in us-east-1, whatever the service region.
        provider "aws" {{
          alias  = "us_east_1"
          region = "us-east-1"
          default_tags {{
            tags = {{
              team        = "{team}"
              environment = "{env}"
            }}
          }}
        }}
        ''')
    _write(root, f"{base}/variables.tf", '''
        # Inputs of this service. Values per environment are in terraform.tfvars.

        variable "region" {
          description = "AWS region the service runs in"
          type        = string
          default     = "us-east-1"

          validation {
            condition     = can(regex("^(us|eu|ap)-[a-z]+-[0-9]$", var.region))
            error_message = "The region must be an AWS region name such as us-east-1."
          }
        }

        variable "instance_count" {
          description = "How many application instances to run behind the load balancer"
          type        = number
          default     = 2

          validation {
            condition     = var.instance_count >= 1 && var.instance_count <= 20
            error_message = "Between 1 and 20 instances."
          }
        }

        variable "app_instance_type" {
          description = "EC2 instance type of the application servers"
          type        = string
          default     = "m6i.large"
        }

        variable "log_retention_days" {
          description = "How long CloudWatch keeps the service logs"
          type        = number
          default     = 30
        }

        variable "alarm_email" {
          description = "Where CloudWatch alarms are sent; empty to send none"
          type        = string
          default     = ""
        }

        variable "enable_backups" {
          description = "Whether AWS Backup copies the service's volumes every night"
          type        = bool
          default     = true
        }

        variable "extra_tags" {
          description = "Tags added to every resource, on top of the provider's default tags"
          type        = map(string)
          default     = {}
        }
        ''')
    n_subnets = rng.randint(2, 4)
    subnets = "\n".join(
        f'            s{k} = {{ cidr = "10.{i % 250}.{k}.0/24", az = "us-east-1{"abc"[k % 3]}", '
        f'tier = "{"public" if k == 0 else "private"}" }}' for k in range(n_subnets))
    instances = "\n".join(
        f'            app{k} = {{ instance_type = var.app_instance_type, spot = {str(k % 2 == 0).lower()} }}'
        for k in range(rng.randint(1, 3)))
    if gpu:
        gpu_type = GPU_TYPES[i % len(GPU_TYPES)]
        instances += f'\n            trainer = {{ instance_type = "{gpu_type}", spot = {str(i % 2 == 0).lower()} }}'
    _write(root, f"{base}/main.tf", f'''
        locals {{
          name = "{name}"
          tags = merge(var.extra_tags, {{ service = local.name, managed_by = "terraform" }})
        }}

        module "network" {{
          source     = "../../../modules/network"
          name       = local.name
          cidr_block = "10.{i % 250}.0.0/16"
          subnets = {{
            {subnets.lstrip()}
          }}
          tags = local.tags
        }}

        module "compute" {{
          source = "../../../modules/compute"
          name   = local.name
          instances = {{
            {instances.lstrip()}
          }}
          tags = local.tags
        }}

        module "storage" {{
          source  = "../../../modules/storage"
          buckets = toset([for s in ["logs", "artifacts", "backups"] : "${{local.name}}-${{s}}"])
          tags    = local.tags
        }}

        # Alarms: CPU on every application instance, and one on the service's error logs.
        resource "aws_sns_topic" "alarms" {{
          name = "${{local.name}}-alarms"
          tags = local.tags
        }}

        resource "aws_sns_topic_subscription" "email" {{
          count     = var.alarm_email == "" ? 0 : 1
          topic_arn = aws_sns_topic.alarms.arn
          protocol  = "email"
          endpoint  = var.alarm_email
        }}

        resource "aws_cloudwatch_metric_alarm" "cpu" {{
          for_each            = module.compute.ids
          alarm_name          = "${{local.name}}-${{each.key}}-cpu"
          comparison_operator = "GreaterThanThreshold"
          evaluation_periods  = 3
          metric_name         = "CPUUtilization"
          namespace           = "AWS/EC2"
          period              = 300
          statistic           = "Average"
          threshold           = {rng.choice([70, 80, 90])}
          alarm_actions       = [aws_sns_topic.alarms.arn]
          dimensions = {{
            InstanceId = each.value
          }}
        }}

        # Nightly backups of the instances' volumes, kept for five weeks (see var.enable_backups).
        resource "aws_backup_vault" "this" {{
          count = var.enable_backups ? 1 : 0
          name  = "${{local.name}}-backups"
          tags  = local.tags
        }}

        resource "aws_backup_plan" "nightly" {{
          count = var.enable_backups ? 1 : 0
          name  = "${{local.name}}-nightly"

          rule {{
            rule_name         = "nightly"
            target_vault_name = aws_backup_vault.this[0].name
            schedule          = "cron(0 {rng.randint(1, 5)} * * ? *)"

            lifecycle {{
              delete_after = 35
            }}
          }}
        }}

        resource "aws_backup_selection" "instances" {{
          count        = var.enable_backups ? 1 : 0
          name         = "${{local.name}}-instances"
          plan_id      = aws_backup_plan.nightly[0].id
          iam_role_arn = aws_iam_role.app.arn
          resources    = [for id in values(module.compute.ids) : "arn:aws:ec2:${{var.region}}:*:instance/${{id}}"]
        }}

        # Health checks from the load balancer subnets only.
        resource "aws_security_group_rule" "health" {{
          type              = "ingress"
          from_port         = 8080
          to_port           = 8080
          protocol          = "tcp"
          cidr_blocks       = ["10.{i % 250}.0.0/16"]
          security_group_id = module.network.security_group_id
          description       = "load balancer health checks"
        }}

        output "vpc_id" {{
          description = "VPC of the service, for peering requests"
          value       = module.network.vpc_id
        }}

        output "instance_ids" {{
          value = module.compute.ids
        }}
        ''')
    policy_actions = ", ".join(f'"s3:{a}"' for a in rng.sample(
        ["GetObject", "PutObject", "ListBucket", "DeleteObject", "GetBucketLocation"], 3))
    _write(root, f"{base}/iam.tf", f'''
        data "aws_iam_policy_document" "assume" {{
          statement {{
            actions = ["sts:AssumeRole"]
            principals {{
              type        = "Service"
              identifiers = ["ec2.amazonaws.com"]
            }}
          }}
        }}

        resource "aws_iam_role" "app" {{
          name               = "{name}-app"
          assume_role_policy = data.aws_iam_policy_document.assume.json
        }}

        resource "aws_iam_role_policy" "app" {{
          name = "{name}-s3"
          role = aws_iam_role.app.id
          policy = jsonencode({{
            Version = "2012-10-17"
            Statement = [{{
              Effect   = "Allow"
              Action   = [{policy_actions}]
              Resource = ["arn:aws:s3:::{name}-*"]
            }}, {{
              Effect   = "Allow"
              Action   = ["logs:CreateLogStream", "logs:PutLogEvents"]
              Resource = ["${{aws_cloudwatch_log_group.app.arn}}:*"]
            }}, {{
              Effect   = "Allow"
              Action   = ["ssm:GetParameter", "ssm:GetParametersByPath"]
              Resource = ["arn:aws:ssm:*:*:parameter/{name}/*"]
            }}]
          }})
        }}

        # The instances get the role through this profile (launch templates reference it).
        resource "aws_iam_instance_profile" "app" {{
          name = "{name}-app"
          role = aws_iam_role.app.name
        }}

        resource "aws_iam_role_policy_attachment" "ssm_core" {{
          role       = aws_iam_role.app.name
          policy_arn = "arn:aws:iam::aws:policy/AmazonSSMManagedInstanceCore"
        }}

        resource "aws_cloudwatch_log_group" "app" {{
          name              = "/services/{name}"
          retention_in_days = var.log_retention_days
          tags              = local.tags
        }}

        resource "aws_cloudwatch_log_metric_filter" "errors" {{
          name           = "{name}-errors"
          log_group_name = aws_cloudwatch_log_group.app.name
          pattern        = "{{ $.level = \\"error\\" }}"

          metric_transformation {{
            name      = "{name}-errors"
            namespace = "Services/{team}"
            value     = "1"
          }}
        }}
        ''')
    _write(root, f"{base}/terraform.tfvars", f'''
        region         = "{rng.choice(["us-east-1", "us-west-2", "eu-west-1"])}"
        instance_count = {rng.randint(1, 6)}
        log_retention_days = {rng.choice([7, 14, 30, 90])}
        extra_tags = {{
          owner = "{team}@example.com"
        }}
        ''')


# ---- Kubernetes ---------------------------------------------------------------------------

def _app(root: str, rng: random.Random, i: int) -> None:
    team = TEAMS[i % len(TEAMS)]
    name = f"{team}-app{i:04d}"
    base = f"kubernetes/{team}/{name}"
    gpu = i % 30 == 11
    image = f"registry.example.com/{team}/{name}:{rng.randint(1, 300)}.{rng.randint(0, 20)}"
    resources = ('''
                  limits:
                    cpu: "8"
                    memory: 64Gi
                    nvidia.com/gpu: "1"''' if gpu else f'''
                  limits:
                    cpu: "{rng.choice(["500m", "1", "2"])}"
                    memory: {rng.choice(["256Mi", "512Mi", "1Gi", "2Gi"])}''')
    args = (f'''
                args: ["--model", "{MODELS[i % len(MODELS)]}", "--max-model-len", "8192"]'''
            if gpu else "")
    selector = ('''
              nodeSelector:
                karpenter.sh/capacity-type: on-demand''' if gpu else "")
    env_vars = "\n".join(f'''                - name: {k}
                  value: "{v}"''' for k, v in [("LOG_LEVEL", rng.choice(["info", "debug"])),
                                               ("PORT", "8080"), ("TEAM", team)])
    _write(root, f"{base}/deployment.yaml", f'''
        apiVersion: apps/v1
        kind: Deployment
        metadata:
          name: {name}
          namespace: {team}
          labels:
            app: {name}
            team: {team}
        spec:
          replicas: {rng.randint(1, 5)}
          selector:
            matchLabels:
              app: {name}
          template:
            metadata:
              labels:
                app: {name}
                team: {team}
            spec:{selector}
              containers:
              - name: {"vllm" if gpu else "app"}
                image: {image}{args}
                ports:
                - containerPort: 8080
                env:
{env_vars}
                resources:
                  requests:
                    cpu: 250m
                    memory: 256Mi{resources}
                readinessProbe:
                  httpGet:
                    path: /healthz
                    port: 8080
        ---
        apiVersion: v1
        kind: Service
        metadata:
          name: {name}
          namespace: {team}
        spec:
          selector:
            app: {name}
          ports:
          - port: 80
            targetPort: 8080
        ''')
    settings = "\n".join(f'          key{k}: "value-{rng.randint(0, 10**6)}"'
                         for k in range(rng.randint(3, 12)))
    _manifest(root, f"{base}/configmap.yaml", "v1", "ConfigMap", f"{name}-config", team, f'''
        data:
          {settings.lstrip()}
        ''')
    _manifest(root, f"{base}/hpa.yaml", "autoscaling/v2", "HorizontalPodAutoscaler", name, team,
              f'''
        spec:
          scaleTargetRef:
            apiVersion: apps/v1
            kind: Deployment
            name: {name}
          minReplicas: 1
          maxReplicas: {rng.randint(3, 20)}
          metrics:
          - type: Resource
            resource:
              name: cpu
              target:
                type: Utilization
                averageUtilization: 70
        ''')
    _manifest(root, f"{base}/ingress.yaml", "networking.k8s.io/v1", "Ingress", name, team, f'''
          annotations:
            cert-manager.io/cluster-issuer: letsencrypt
        spec:
          rules:
          - host: {name}.example.com
            http:
              paths:
              - path: /
                pathType: Prefix
                backend:
                  service:
                    name: {name}
                    port:
                      number: 80
        ''')
    _manifest(root, f"{base}/networkpolicy.yaml", "networking.k8s.io/v1", "NetworkPolicy", name,
              team, f'''
        spec:
          podSelector:
            matchLabels:
              app: {name}
          ingress:
          - from:
            - namespaceSelector:
                matchLabels:
                  team: {team}
        ''')


def generate(out: str, factor: float = 1.0, seed: int = 42) -> dict[str, int]:
    """Write the repository under `out` (replacing it); return file counts and bytes."""
    if os.path.exists(out):
        shutil.rmtree(out)
    rng = random.Random(seed)
    _modules(out)
    for i in range(int(SERVICES_PER_FACTOR * factor)):
        _service(out, rng, i)
    for i in range(int(APPS_PER_FACTOR * factor)):
        _app(out, rng, i)
    stats = {"tf_files": 0, "yaml_files": 0, "other_files": 0, "bytes": 0}
    for dirpath, _, names in os.walk(out):
        for n in names:
            key = "tf_files" if n.endswith(".tf") else "yaml_files" if n.endswith(".yaml") \
                else "other_files"
            stats[key] += 1
            stats["bytes"] += os.path.getsize(os.path.join(dirpath, n))
    return stats


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out")
    ap.add_argument("--factor", type=float, default=1.0, help="size multiplier (1 ≈ 2,700 files)")
    ap.add_argument("--seed", type=int, default=42)
    args = ap.parse_args()
    stats = generate(args.out, args.factor, args.seed)
    print(f"{args.out}: {stats['tf_files']} .tf, {stats['yaml_files']} .yaml, "
          f"{stats['other_files']} other, {stats['bytes'] / 1e6:.1f} MB")


if __name__ == "__main__":
    main()
