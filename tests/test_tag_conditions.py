"""The condition pieces behind required tags per provider and allowed value patterns."""

from __future__ import annotations

from gpulint import conditions
from gpulint.model import Unknown

REQUIRED = {"option": "required", "per": "provider"}
PER_PROVIDER = {"required": {"aws": ["team", "cost-center"], "default": ["team"]}}


def test_option_per_provider_with_default() -> None:
    assert conditions.resolve_arg(REQUIRED, PER_PROVIDER, {"provider": "aws"}) == \
        ["team", "cost-center"]
    assert conditions.resolve_arg(REQUIRED, PER_PROVIDER, {"provider": "kubernetes"}) == ["team"]
    # A plain list applies to every provider.
    assert conditions.resolve_arg(REQUIRED, {"required": ["a"]}, {"provider": "gcp"}) == ["a"]
    # No entry and no default: nothing is required.
    cond = {"fact": "tags", "lacks_keys": REQUIRED}
    assert conditions.test(cond, {"provider": "gcp", "tags": {}},
                           {"required": {"aws": ["team"]}}) is False


def test_mismatches_is_three_valued() -> None:
    cond = {"fact": "tags", "mismatches": {"env": "dev|prod"}}
    assert conditions.test(cond, {"tags": {"env": "prod"}}, {}) is False
    assert conditions.test(cond, {"tags": {"env": "production"}}, {}) is True  # in full
    assert conditions.test(cond, {"tags": {}}, {}) is False  # absence is lacks_keys' job
    assert conditions.test(cond, {"tags": {"env": Unknown("var.env has no value")}}, {}) is None
    assert conditions.test(cond, {"tags": Unknown("tags from a data source")}, {}) is None


def test_mismatched_tags_for_messages() -> None:
    assert conditions.mismatched_tags({"env": "qa", "team": "ml"}, {"env": "dev|prod"}) == \
        ["env='qa' (expected dev|prod)"]
