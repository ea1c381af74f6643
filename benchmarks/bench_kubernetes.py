"""Time a scan of many Kubernetes manifests: every kind, ConfigMap env, autoscalers, node pools.

    PYTHONPATH=src python benchmarks/bench_kubernetes.py [copies]

Copies the test fixtures under tests/fixtures/kubernetes into a temporary directory `copies`
times (names made unique per copy) and prints documents, resources and seconds per scan.
"""

from __future__ import annotations

import os
import re
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "src"))

from gpulint import pipeline as scan  # noqa: E402
from gpulint.ruleset import load_rules  # noqa: E402

FIXTURES = os.path.join(ROOT, "tests", "fixtures", "kubernetes")


def build(dest: str, copies: int) -> int:
    docs = 0
    sources = []
    for dirpath, _, names in os.walk(FIXTURES):
        for name in names:
            if name.endswith((".yaml", ".json")) and "linking" not in dirpath:
                with open(os.path.join(dirpath, name), encoding="utf-8") as fh:
                    sources.append((name, fh.read()))
    for i in range(copies):
        for name, text in sources:
            unique = re.sub(r"(\n\s*name: )([\w.-]+)", rf"\g<1>\g<2>-{i}", text)
            with open(os.path.join(dest, f"{i}-{name}"), "w", encoding="utf-8") as fh:
                fh.write(unique)
            docs += text.count("\nkind:") + text.count("\n    kind:") + ('"kind"' in text)
    return docs


def main() -> None:
    copies = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    rules = load_rules()
    with tempfile.TemporaryDirectory() as tmp:
        docs = build(tmp, copies)
        best = float("inf")
        for _ in range(3):
            start = time.perf_counter()
            result = scan.run([tmp], rules)
            best = min(best, time.perf_counter() - start)
        print(f"{copies} copies, ~{docs} documents, {len(result.resources)} resources, "
              f"{len(result.findings)} findings: best of 3 {best:.2f} s "
              f"({best / max(1, len(result.resources)) * 1000:.2f} ms per resource)")


if __name__ == "__main__":
    main()
