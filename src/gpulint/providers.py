"""The clouds gpulint prices: one record each. CLI choices, pricing overrides, the
configuration and report schemas' cloud names (tested), the catalog's source attribution,
Terraform provider blocks' regions, Databricks' cloud attributes and the cheaper-GPU search
derive from this list,
so adding a cloud starts here; its default region is data here too."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Cloud:
    name: str  # as written in configuration, flags and reports
    terraform_prefix: str  # resource types of its Terraform provider start with this
    terraform_providers: tuple[str, ...]  # local names of its Terraform provider blocks
    case_insensitive_names: bool  # instance names match whatever their letter case (Azure)
    # The region priced when the code names none; the catalog builder writes it into the
    # catalog (tested to agree).
    default_region: str

    def instance_name(self, name: str) -> str:
        """The form instance names are compared in."""
        return name.lower() if self.case_insensitive_names else name


CLOUDS: tuple[Cloud, ...] = (
    Cloud("aws", "aws_", ("aws",), case_insensitive_names=False, default_region="us-east-1"),
    Cloud("gcp", "google_", ("google", "google-beta"), case_insensitive_names=False,
          default_region="us-central1"),
    Cloud("azure", "azurerm_", ("azurerm",), case_insensitive_names=True,
          default_region="eastus"),
)
NAMES: tuple[str, ...] = tuple(c.name for c in CLOUDS)
_BY_NAME = {c.name: c for c in CLOUDS}


def get(name: str) -> Cloud | None:
    return _BY_NAME.get(name.lower())


def listing(words: str = "or") -> str:
    """'aws, gcp or azure', for messages."""
    return f"{', '.join(NAMES[:-1])} {words} {NAMES[-1]}"
