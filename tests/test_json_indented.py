"""The JSON and SARIF reports are written by a batched join of the encoder's chunks: the text is
exactly what json.dumps(indent=2) gives, for documents smaller and larger than one batch."""

from __future__ import annotations

import json

import pytest

from gpulint.reporters.json import indented

pytestmark = pytest.mark.slow


@pytest.mark.parametrize("ensure_ascii", [True, False])
def test_same_text_as_dumps(ensure_ascii: bool) -> None:
    docs = [
        {},
        [],
        {"address": "aws_instance.llm", "tags": {"team": "ml", "note": "café ✓"}, "n": None},
        {"resources": [{"address": f"aws_instance.r[{i}]", "monthly_cost_usd": i * 1.5,
                        "unknowns": [], "spot": i % 2 == 0} for i in range(30_000)]},
    ]
    for doc in docs:
        assert indented(doc, ensure_ascii) == json.dumps(doc, indent=2, ensure_ascii=ensure_ascii)
