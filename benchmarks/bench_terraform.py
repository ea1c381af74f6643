"""Time scanning Terraform: the fixture families of tests/terraform copied N times, and a plan.

    PYTHONPATH=src python benchmarks/bench_terraform.py [COPIES]

Each copy is its own root module (variables, locals, modules, community modules, every
supported resource type), so the run exercises evaluation, module loading and every fact
builder. Prints the wall time of the HCL scan split into parse and the rest, and of a plan
JSON with as many resource changes.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import tempfile
import time

from gpulint import pipeline as scan
from gpulint.ruleset import load_rules
from gpulint.terraform import loader

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIXTURES = os.path.join(ROOT, "tests", "terraform")
PLAN = os.path.join(ROOT, "tests", "plan", "mixed", "plan.json")


def _copy_fixtures(target: str, copies: int) -> None:
    for i in range(copies):
        for name in os.listdir(FIXTURES):
            src, dst = os.path.join(FIXTURES, name), os.path.join(target, f"c{i}", name)
            if os.path.isdir(src):
                shutil.copytree(src, dst)
            else:
                os.makedirs(os.path.dirname(dst), exist_ok=True)
                shutil.copy(src, dst)


def _big_plan(path: str, copies: int) -> int:
    with open(PLAN, encoding="utf-8") as fh:
        plan = json.load(fh)
    changes = plan["resource_changes"]
    out = []
    for i in range(copies * 10):
        for rc in changes:
            rc = json.loads(json.dumps(rc))
            rc["address"] = rc["address"].replace(f".{rc['name']}", f".{rc['name']}_{i}", 1)
            out.append(rc)
    plan["resource_changes"] = out
    with open(path, "w", encoding="utf-8") as fh:
        json.dump(plan, fh, indent=2)
    return len(out)


def main() -> None:
    copies = int(sys.argv[1]) if len(sys.argv) > 1 else 50
    rules = load_rules()
    with tempfile.TemporaryDirectory() as root:
        _copy_fixtures(os.path.join(root, "hcl"), copies)
        parse_time = 0.0
        parse = loader.parse_file

        def timed_parse(path: str, text: str):  # type: ignore[no-untyped-def]
            nonlocal parse_time
            start = time.perf_counter()
            try:
                return parse(path, text)
            finally:
                parse_time += time.perf_counter() - start

        loader.parse_file = timed_parse  # type: ignore[assignment]
        start = time.perf_counter()
        result = scan.run([os.path.join(root, "hcl")], rules)
        total = time.perf_counter() - start
        loader.parse_file = parse  # type: ignore[assignment]
        print(f"HCL: {result.files_scanned} files, {len(result.resources)} GPU resources: "
              f"{total:.2f} s ({parse_time:.2f} s parsing HCL, {total - parse_time:.2f} s "
              "evaluating, building facts, pricing and rules)")
        plan_path = os.path.join(root, "plan.json")
        n = _big_plan(plan_path, copies)
        start = time.perf_counter()
        result = scan.run([plan_path], rules)
        print(f"plan JSON: {n} resource changes, {len(result.resources)} GPU resources: "
              f"{time.perf_counter() - start:.2f} s")


if __name__ == "__main__":
    main()
