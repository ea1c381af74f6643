"""The tags each resource must carry (from the `tags:` settings) and the ones it lacks."""

from __future__ import annotations

from gpulint import conditions
from gpulint.config.tags import TagSettings
from gpulint.fact_types import Resource


def apply(res: Resource, settings: TagSettings) -> None:
    """Set tags.required and tags.patterns, and explain.missing_tags when some are missing or
    fail their pattern."""
    f = res.facts
    required = settings.required_for(f.get("provider"))
    f["tags.required"] = required
    f["tags.patterns"] = dict(settings.patterns)
    tags = f.get("tags")
    tags = tags if isinstance(tags, dict) else {}
    missing = [k for k in required if k not in tags or tags[k] in (None, "")]
    missing += conditions.mismatched_tags(tags, settings.patterns)
    if missing:
        f["explain.missing_tags"] = ", ".join(missing)
