"""The clouds gpulint prices: one record each. CLI choices, pricing overrides, the
configuration schema's provider keys (tested) and the cheaper-GPU search derive from this list,
so adding a cloud starts here (and in the catalog, which holds its default region)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Cloud:
    name: str  # as written in configuration, flags and reports
    terraform_prefix: str  # resource types of its Terraform provider start with this
    case_insensitive_names: bool  # instance names match whatever their letter case (Azure)

    def default_region(self) -> str:
        """The region priced when the code names none, from the active catalog."""
        from gpulint.pricing import catalog

        return catalog.default_region(self.name)

    def instance_name(self, name: str) -> str:
        """The form instance names are compared in."""
        return name.lower() if self.case_insensitive_names else name


CLOUDS: tuple[Cloud, ...] = (
    Cloud("aws", "aws_", case_insensitive_names=False),
    Cloud("gcp", "google_", case_insensitive_names=False),
    Cloud("azure", "azurerm_", case_insensitive_names=True),
)
NAMES: tuple[str, ...] = tuple(c.name for c in CLOUDS)
_BY_NAME = {c.name: c for c in CLOUDS}


def get(name: str) -> Cloud | None:
    return _BY_NAME.get(name.lower())


def listing(words: str = "or") -> str:
    """'aws, gcp or azure', for messages."""
    return f"{', '.join(NAMES[:-1])} {words} {NAMES[-1]}"
