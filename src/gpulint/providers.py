"""The clouds gpulint prices: one record each. CLI choices, pricing overrides, the
configuration and report schemas' cloud names (tested), the catalog's source attribution,
Terraform provider blocks' regions, Databricks' cloud attributes and the cheaper-GPU search
derive from this list, so adding a cloud starts here; its default region, price table and the
way it bills are data here too (the catalog builder reads them)."""

from __future__ import annotations

from dataclasses import dataclass

# The price key of a cloud without regional prices: one list price for every region.
ANY_REGION = "any"


@dataclass(frozen=True)
class Cloud:
    name: str  # as written in configuration, flags and reports
    terraform_prefix: str  # resource types of its Terraform provider start with this
    terraform_providers: tuple[str, ...]  # local names of its Terraform provider blocks
    case_insensitive_names: bool  # instance names match whatever their letter case (Azure)
    # The region priced when the code names none; the catalog builder writes it into the
    # catalog (tested to agree).
    default_region: str
    # Its SkyPilot-format price table under a source base (the big three's are listed by the
    # builder itself: GCP has two, and their row floors predate this record).
    table: str | None = None
    # False: the cloud lists one price per type for every region (OCI, the GPU clouds); the
    # catalog then has no region dimension for it (prices keyed ANY_REGION).
    regional_prices: bool = True
    # "instance": whole instances per hour. "gpu+cpu+memory": a pod pays the GPU-hour of its
    # class times its GPUs plus its vCPU and memory requests (CoreWeave's resource pricing).
    billing: str = "instance"
    # A pod naming only a GPU model is put on the one cloud offering it when this is True. The
    # GPU clouds are only assumed when a node label names them: their catalogs overlap the big
    # three's GPU models, and a model alone says nothing about a contract with them.
    assumed_from_gpu: bool = True
    # Row floors of its derived catalog (instances, price rows): a truncated table must not
    # shrink the catalog silently.
    floors: tuple[int, int] = (0, 0)
    # What GPU machine names contain when the family rule (the name up to its first "-") does
    # not tell them apart (OCI: BM.GPU.H100.8, VM.GPU3.1), so an unknown GPU shape is
    # reported as not in the catalog rather than taken for a CPU machine.
    gpu_marker: str | None = None

    def instance_name(self, name: str) -> str:
        """The form instance names are compared in."""
        return name.lower() if self.case_insensitive_names else name


CLOUDS: tuple[Cloud, ...] = (
    Cloud("aws", "aws_", ("aws",), case_insensitive_names=False, default_region="us-east-1"),
    Cloud("gcp", "google_", ("google", "google-beta"), case_insensitive_names=False,
          default_region="us-central1"),
    Cloud("azure", "azurerm_", ("azurerm",), case_insensitive_names=True,
          default_region="eastus"),
    Cloud("oci", "oci_", ("oci",), case_insensitive_names=False, default_region="any",
          table="oci/vms.csv", regional_prices=False, assumed_from_gpu=False, floors=(15, 15),
          gpu_marker=".GPU"),
    Cloud("coreweave", "coreweave_", ("coreweave",), case_insensitive_names=False,
          default_region="any", table="coreweave/vms.csv", regional_prices=False,
          billing="gpu+cpu+memory", assumed_from_gpu=False, floors=(10, 10)),
    Cloud("lambda", "lambda_", (), case_insensitive_names=False, default_region="any",
          table="lambda/vms.csv", regional_prices=False, assumed_from_gpu=False,
          floors=(10, 10)),
    Cloud("nebius", "nebius_", ("nebius",), case_insensitive_names=False, default_region="any",
          table="nebius/vms.csv", regional_prices=False, assumed_from_gpu=False, floors=(8, 8)),
)
NAMES: tuple[str, ...] = tuple(c.name for c in CLOUDS)
_BY_NAME = {c.name: c for c in CLOUDS}


def get(name: str) -> Cloud | None:
    return _BY_NAME.get(name.lower())


def listing(words: str = "or") -> str:
    """'aws, gcp, azure, … or nebius', for messages."""
    return f"{', '.join(NAMES[:-1])} {words} {NAMES[-1]}"


def ec2_host(instance_type: str) -> str | None:
    """The EC2 type a SageMaker `ml.*` type runs on (`ml.p5.48xlarge` → `p5.48xlarge`): the
    catalog lists EC2 names only, and the hardware is the same. None for any other name."""
    name = instance_type.strip()
    return name[3:] if name.startswith("ml.") and len(name) > 3 else None
