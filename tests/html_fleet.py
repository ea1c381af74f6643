"""A generated platform repository with a given number of GPU resources, for the HTML report's
size and rendering tests: one Terraform root per team and cloud (provider block, GPU VMs and
node pools with cost tags) and one Kubernetes app folder per GPU service (a Deployment pinned
to an instance type, serving a model with vLLM). Deterministic.
"""

from __future__ import annotations

import os

TEAMS = ("search", "payments", "ml-platform", "data", "platform", "growth", "identity", "ads",
         "vision", "speech", "research", "recsys")
WORKLOADS = ("inference", "training", "notebook", "batch")
AWS_TYPES = ("p4d.24xlarge", "g5.2xlarge", "g6.xlarge", "p5.48xlarge", "g5.12xlarge", "g6e.xlarge")
GCP_TYPES = ("a2-highgpu-1g", "g2-standard-8", "a3-highgpu-8g", "a2-ultragpu-1g")
AZURE_SIZES = ("Standard_NC24ads_A100_v4", "Standard_NC4as_T4_v3", "Standard_NV36ads_A10_v5")
MODELS = ("meta-llama/Llama-3.1-8B-Instruct", "mistralai/Mistral-7B-Instruct-v0.3",
          "Qwen/Qwen2.5-7B-Instruct")


def _tags(i: int, team: str) -> str:
    return (f'{{ team = "{team}", project = "p{i % 17}", env = "{("prod", "dev")[i % 2]}", '
            f'workload = "{WORKLOADS[i % 4]}" }}')


def _aws(i: int, team: str) -> str:
    spot = '\n  instance_market_options {\n    market_type = "spot"\n  }' if i % 5 == 0 else ""
    return (f'resource "aws_instance" "gpu_{i}" {{\n  ami           = "ami-0abcdef1234567890"\n'
            f'  instance_type = "{AWS_TYPES[i % len(AWS_TYPES)]}"{spot}\n'
            f"  tags          = {_tags(i, team)}\n}}\n")


def _gcp(i: int, team: str) -> str:
    return (f'resource "google_compute_instance" "gpu_{i}" {{\n  name         = "gpu-{i}"\n'
            f'  machine_type = "{GCP_TYPES[i % len(GCP_TYPES)]}"\n'
            '  zone         = "us-central1-a"\n'
            f"  labels       = {_tags(i, team)}\n  boot_disk {{}}\n  network_interface {{}}\n}}\n")


def _azure(i: int, team: str) -> str:
    return (f'resource "azurerm_linux_virtual_machine" "gpu_{i}" {{\n'
            f'  name                = "vm{i}"\n'
            f'  resource_group_name = "rg-{team}"\n  location            = "westeurope"\n'
            f'  size                = "{AZURE_SIZES[i % len(AZURE_SIZES)]}"\n'
            f"  tags                = {_tags(i, team)}\n}}\n")


PROVIDERS = {"aws": ('provider "aws" {\n  region = "us-west-2"\n}\n', _aws),
             "gcp": ('provider "google" {\n  project = "acme-ml"\n  region  = "us-central1"\n}\n',
                     _gcp),
             "azure": ('provider "azurerm" {\n  features {}\n}\n', _azure)}


def _deployment(i: int, team: str) -> str:
    return f"""apiVersion: apps/v1
kind: Deployment
metadata:
  name: llm-{i}
  namespace: {team}
  labels:
    team: {team}
    project: p{i % 17}
    workload: inference
spec:
  replicas: {1 + i % 3}
  selector:
    matchLabels:
      app: llm-{i}
  template:
    metadata:
      labels:
        app: llm-{i}
    spec:
      nodeSelector:
        node.kubernetes.io/instance-type: {AWS_TYPES[i % 3 + 1]}
      containers:
        - name: server
          image: vllm/vllm-openai:v0.6.3
          args: ["--model", "{MODELS[i % len(MODELS)]}"]
          resources:
            limits:
              nvidia.com/gpu: 1
"""


def write_fleet(root: str, resources: int = 500) -> None:
    """``resources`` GPU resources: 60% Terraform (aws, gcp, azure), 40% Kubernetes."""
    terraform = resources * 3 // 5
    files: dict[str, list[str]] = {}
    for i in range(terraform):
        cloud = ("aws", "aws", "gcp", "azure", "aws")[i % 5]
        team = TEAMS[i % len(TEAMS)]
        files.setdefault(f"terraform/{team}/{cloud}/main.tf",
                         [PROVIDERS[cloud][0]]).append(PROVIDERS[cloud][1](i, team))
    for i in range(resources - terraform):
        team = TEAMS[(i * 7) % len(TEAMS)]
        files[f"k8s/{team}/llm-{i}/deployment.yaml"] = [_deployment(i, team)]
    for rel, parts in files.items():
        path = os.path.join(root, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as fh:
            fh.write("\n".join(parts))
