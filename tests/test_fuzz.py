"""Property-based: mutate valid fixtures (byte flips, truncation, line deletion and duplication,
HCL/YAML punctuation inserted) and run the real CLI in-process on them next to good files.

Whatever the mutation: no traceback, exit code 0, 1 or 2, and the results for the untouched
files are those of a scan without the mutant. One thing may change by design: a Kubernetes
workload is priced from a node pool or autoscaler declared in another file (linking.py), so a
mutant that declares one can change a good workload's facts and findings; for those only the
workload's existence and place are compared.
"""

from __future__ import annotations

import glob
import os
import shutil
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gpulint.cli import cli
from test_hostile import copy_good, under

pytestmark = pytest.mark.slow


def unlinked_view(report: dict[str, Any]) -> dict[str, list[Any]]:
    """The good files' results that no other file can change."""
    view = under(report, "good")

    def linkable(path: str) -> bool:
        return not path.endswith((".tf", ".tf.json"))

    view["resources"] = [{k: r[k] for k in ("address", "path", "line")} if linkable(r["path"])
                         else r for r in view["resources"]]
    for key in ("findings", "not_evaluated"):
        view[key] = [e for e in view[key] if not linkable(e["path"])]
    return view

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SEEDS = sorted(glob.glob(os.path.join(ROOT, "examples", "**", "*.tf"), recursive=True)
               + glob.glob(os.path.join(ROOT, "examples", "**", "*.yaml"), recursive=True)
               + glob.glob(os.path.join(ROOT, "tests", "rules", "*", "*.tf"))
               + glob.glob(os.path.join(ROOT, "tests", "rules", "*", "*.yaml")))
PUNCTUATION = [b"{", b"}", b"[", b"]", b"(", b")", b'"', b"'", b"${", b"%{", b"=", b":", b",",
               b"- ", b"---\n", b"&a ", b"*a ", b"<<: *a\n", b"\t", b"#", b"//", b"/*", b"<<EOF\n",
               b"\\", b"\x00", b"\xff\xfe", b"\r\n", b"{{ .Values.x }}", b"!!python/object ", b"?"]


@st.composite
def mutants(draw: st.DrawFn) -> tuple[str, bytes]:
    seed = draw(st.sampled_from(SEEDS))
    with open(seed, "rb") as fh:
        data = bytearray(fh.read())
    for op in draw(st.lists(st.sampled_from(["flip", "truncate", "drop", "dup", "insert"]),
                            min_size=1, max_size=4)):
        lines = bytes(data).split(b"\n")
        if op == "flip" and data:
            pos = draw(st.integers(0, len(data) - 1))
            data[pos] ^= draw(st.integers(1, 255))
        elif op == "truncate":
            data = data[: draw(st.integers(0, len(data)))]
        elif op in {"drop", "dup"} and lines:
            i = draw(st.integers(0, len(lines) - 1))
            lines[i:i + 1] = [] if op == "drop" else [lines[i], lines[i]]
            data = bytearray(b"\n".join(lines))
        elif op == "insert":
            pos = draw(st.integers(0, len(data)))
            data[pos:pos] = draw(st.sampled_from(PUNCTUATION))
    return os.path.basename(seed), bytes(data)


def run_cli(*args: str) -> Any:
    result = CliRunner().invoke(cli, ["scan", "--format", "json", "--jobs", "1", *args])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    assert "Traceback" not in result.output and "internal error" not in result.output
    assert result.exit_code in {0, 1, 2}, result.output
    return result


@pytest.fixture(scope="module")
def workdir(tmp_path_factory: pytest.TempPathFactory) -> Any:
    base = str(tmp_path_factory.mktemp("fuzz"))
    # A repository: report paths are relative to its top whichever directories are scanned.
    os.mkdir(os.path.join(base, ".git"))
    copy_good(os.path.join(base, "good"))
    old = os.getcwd()
    os.chdir(base)
    import json

    baseline = unlinked_view(json.loads(run_cli("good").stdout))
    yield base, baseline
    os.chdir(old)


# 60 examples keep CI fast; GPULINT_FUZZ_EXAMPLES=2000 for a longer hunt.
@settings(max_examples=int(os.environ.get("GPULINT_FUZZ_EXAMPLES", "60")), deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(mutant=mutants())
def test_mutated_fixture_never_crashes_or_changes_other_results(
        workdir: tuple[str, dict[str, Any]], mutant: tuple[str, bytes]) -> None:
    import json

    base, baseline = workdir
    name, data = mutant
    folder = os.path.join(base, "mutant")
    shutil.rmtree(folder, ignore_errors=True)
    os.makedirs(folder)
    with open(os.path.join(folder, name), "wb") as fh:
        fh.write(data)
    result = run_cli("good", "mutant")
    if result.exit_code in {0, 1}:
        report = json.loads(result.stdout)
        assert unlinked_view(report) == baseline
        # A diagnostic about the mutant names it; none is about a file that was not touched.
        assert all(d["path"].startswith(("good", "mutant")) for d in report["diagnostics"])
