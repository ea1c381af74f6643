"""`gpulint diff` against real git repositories: added, removed, resized and renamed resources,
findings new and fixed, paths from subdirectories, --compare-to, the --max-increase guardrail."""

from __future__ import annotations

import json
import os
import re
import subprocess
import textwrap
from typing import Any

import pytest
from click.testing import CliRunner

from gpulint.cli import cli
from gpulint.pricing import catalog

TAGS = '{ team = "ml", project = "p", env = "prod" }'
BASE = textwrap.dedent(f"""\
    provider "aws" {{
      region = "us-east-1"
    }}

    resource "aws_instance" "stable" {{
      instance_type = "g5.xlarge"
      tags          = {TAGS}
    }}

    resource "aws_instance" "resized" {{
      instance_type = "g5.xlarge"
      tags          = {TAGS}
    }}

    resource "aws_instance" "old_name" {{
      instance_type = "g5.2xlarge"
      tags          = {{ team = "ml" }}
    }}

    resource "aws_instance" "dropped" {{
      instance_type = "g5.4xlarge"
      tags          = {TAGS}
    }}

    resource "aws_instance" "untagged" {{
      instance_type = "g4dn.xlarge"
    }}

    resource "aws_instance" "scaled" {{
      count         = 1
      instance_type = "g4dn.xlarge"
      tags          = {TAGS}
    }}
""")
HEAD = (BASE.replace('"resized" {\n  instance_type = "g5.xlarge"',
                     '"resized" {\n  instance_type = "g5.12xlarge"')
        .replace('"old_name"', '"new_name"')
        .replace('"untagged" {\n  instance_type = "g4dn.xlarge"\n}',
                 f'"untagged" {{\n  instance_type = "g4dn.xlarge"\n  tags = {TAGS}\n}}')
        .replace("count         = 1", "count         = 2")
        .replace(textwrap.dedent(f"""\
            resource "aws_instance" "dropped" {{
              instance_type = "g5.4xlarge"
              tags          = {TAGS}
            }}

            """), "")
        + textwrap.dedent("""
            resource "aws_instance" "added" {
              instance_type = "p4d.24xlarge"
            }
        """))


def _git(repo: str, *args: str) -> str:
    return subprocess.run(["git", *args], cwd=repo, check=True, capture_output=True,
                          text=True).stdout


def _write(path: str, text: str) -> None:
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as fh:
        fh.write(text)


@pytest.fixture()
def repo(tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> str:
    """A repository whose last commit has BASE in infra/main.tf; the work tree has HEAD."""
    root = str(tmp_path / "repo")
    os.makedirs(root)
    _git(root, "init", "-q")
    _git(root, "config", "user.email", "t@example.com")
    _git(root, "config", "user.name", "t")
    _write(os.path.join(root, "infra", "main.tf"), BASE)
    _write(os.path.join(root, "README.md"), "x\n")
    _git(root, "add", ".")
    _git(root, "commit", "-qm", "base")
    _write(os.path.join(root, "infra", "main.tf"), HEAD)
    monkeypatch.chdir(root)
    return root


def _run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args))
    return result.exit_code, result.stdout, result.stderr


def _monthly(itype: str, count: int = 1) -> float:
    row = catalog.price("aws", itype, "us-east-1")
    assert row and row.ondemand
    return round(row.ondemand * count * 730, 2)


def _diff(*args: str) -> dict[str, Any]:
    code, out, err = _run("diff", *args, "--format", "json")
    assert code == 0, err
    return json.loads(out)


def test_added_removed_resized_renamed_and_totals(repo: str) -> None:
    before_status = _git(repo, "status", "--porcelain")
    d = _diff("--base", "HEAD", "infra")
    assert _git(repo, "status", "--porcelain") == before_status  # work tree untouched
    with open(os.path.join(repo, "infra", "main.tf")) as fh:
        assert fh.read() == HEAD
    by = {e["address"]: e for e in d["resources"]}
    path = os.path.join("infra", "main.tf")
    assert {e["path"] for e in d["resources"]} == {path}
    assert by["aws_instance.stable"]["change"] == "unchanged"
    assert by["aws_instance.stable"]["delta_usd"] == 0.0
    resized = by["aws_instance.resized"]
    assert resized["change"] == "changed"
    assert resized["before_usd"] == _monthly("g5.xlarge")
    assert resized["after_usd"] == _monthly("g5.12xlarge")
    assert resized["delta_usd"] == round(_monthly("g5.12xlarge") - _monthly("g5.xlarge"), 2)
    assert resized["changes"]["instance_type"] == {"before": "g5.xlarge", "after": "g5.12xlarge"}
    assert resized["before_basis"].startswith("aws g5.xlarge us-east-1 (region from code)")
    assert resized["after_basis"].startswith("aws g5.12xlarge us-east-1 (region from code)")
    renamed = by["aws_instance.new_name"]
    assert renamed["change"] == "renamed" and renamed["renamed_from"] == "aws_instance.old_name"
    assert renamed["delta_usd"] == 0.0
    assert by["aws_instance.dropped"]["change"] == "removed"
    assert by["aws_instance.dropped"]["before_usd"] == _monthly("g5.4xlarge")
    assert by["aws_instance.dropped"]["after_usd"] == 0.0
    assert by["aws_instance.dropped"]["delta_usd"] == -_monthly("g5.4xlarge")
    assert by["aws_instance.added"]["change"] == "added"
    assert by["aws_instance.added"]["before_usd"] == 0.0
    assert by["aws_instance.added"]["delta_usd"] == _monthly("p4d.24xlarge")
    assert by["aws_instance.scaled[0]"]["change"] == "unchanged"
    assert by["aws_instance.scaled[1]"]["change"] == "added"  # count 1 → 2
    assert by["aws_instance.untagged"]["change"] == "unchanged"  # tags are not cost facts
    expected = round(_monthly("g5.12xlarge") - _monthly("g5.xlarge") - _monthly("g5.4xlarge")
                     + _monthly("p4d.24xlarge") + _monthly("g4dn.xlarge"), 2)
    assert d["delta_usd"] == pytest.approx(expected, abs=0.011)
    assert d["delta_usd"] == round(d["head_monthly_usd"] - d["base_monthly_usd"], 2)
    assert d["base_ref"] == "HEAD" and d["catalog"]["date"] == catalog.metadata()["snapshot_date"]
    assert set(d) >= {"base_ref", "base_monthly_usd", "head_monthly_usd", "delta_usd",
                      "resources", "new_findings", "fixed_findings"}


def test_findings_new_and_fixed_follow_renames(repo: str) -> None:
    d = _diff("--base", "HEAD", "infra")
    new = {(f["rule"], f["address"]) for f in d["new_findings"]}
    fixed = {(f["rule"], f["address"]) for f in d["fixed_findings"]}
    assert ("gpu-missing-cost-tags", "aws_instance.added") in new
    assert ("gpu-missing-cost-tags", "aws_instance.untagged") in fixed
    # old_name → new_name keeps its missing tags: neither new nor fixed
    assert not any("name" in a for _, a in new | fixed)
    assert all(len(f["fingerprint"]) == 32 for f in d["new_findings"] + d["fixed_findings"])


def test_from_a_subdirectory_and_a_path_that_did_not_exist(
        repo: str, monkeypatch: pytest.MonkeyPatch) -> None:
    _write(os.path.join(repo, "infra", "new", "gpu.tf"),
           'resource "aws_instance" "fresh" {\n  instance_type = "g5.xlarge"\n}\n')
    monkeypatch.chdir(os.path.join(repo, "infra"))
    d = _diff("--base", "HEAD", ".")
    # Paths are relative to the repository root (the git top level), wherever the run starts.
    assert {e["path"] for e in d["resources"]} == {"infra/main.tf", "infra/new/gpu.tf"}
    d = _diff("--base", "HEAD", "new")
    assert [(e["address"], e["change"]) for e in d["resources"]] == [
        ("aws_instance.fresh", "added")]
    assert d["base_monthly_usd"] == 0 and d["delta_usd"] == d["head_monthly_usd"]


def test_compare_to_an_earlier_json_report(repo: str) -> None:
    _git(repo, "stash", "-q")
    code, out, _ = _run("scan", "infra", "--format", "json", "--fail-on", "never")
    assert code == 0
    _git(repo, "stash", "pop", "-q")
    with open(os.path.join(repo, "base.json"), "w") as fh:
        fh.write(out)
    from_json = _diff("--compare-to", "base.json", "infra")
    from_git = _diff("--base", "HEAD", "infra")
    assert from_json["base_ref"] == "base.json"
    for key in ("base_monthly_usd", "head_monthly_usd", "delta_usd", "resources",
                "new_findings", "fixed_findings"):
        assert from_json[key] == from_git[key], key


def test_max_increase_guardrail(repo: str) -> None:
    d = _diff("--base", "HEAD", "infra")
    code, out, err = _run("diff", "--base", "HEAD", "infra", "--max-increase", "100")
    assert code == 1 and "more than the $100.00 allowed" in err and "Over budget" in out
    assert f"(+${d['delta_usd']:,.2f}/month expected) against HEAD" in out
    code, _, _ = _run("diff", "--base", "HEAD", "infra", "--max-increase",
                      str(d["delta_usd"] + 1))
    assert code == 0


def test_text_and_markdown(repo: str) -> None:
    code, out, _ = _run("diff", "--base", "HEAD", "infra")
    assert code == 0
    assert "renamed  aws_instance.new_name (was aws_instance.old_name)" in out
    assert "instance_type 'g5.xlarge' → 'g5.12xlarge'" in out
    assert "New findings (" in out and "Fixed findings (" in out
    assert re.search(r"^\d+ GPU resources? unchanged\.$", out, re.M)
    assert "Prices: list prices of " in out
    code, md, _ = _run("diff", "--base", "HEAD", "infra", "--format", "markdown")
    assert md.startswith("## GPU cost change") and "| added | aws_instance.added |" in md


def test_git_problems_are_usage_errors(repo: str, tmp_path: Any,
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    code, _, err = _run("diff", "--base", "no-such-branch", "infra")
    assert code == 2 and "unknown git revision 'no-such-branch'" in err
    code, _, err = _run("diff", "infra")
    assert code == 2 and "give --base REF or --compare-to" in err
    outside = str(tmp_path / "elsewhere")
    os.makedirs(outside)
    monkeypatch.chdir(outside)
    code, _, err = _run("diff", "--base", "HEAD", ".")
    assert code == 2 and "not inside a git repository" in err


def test_rename_with_a_resize_is_removed_plus_added_and_unpriced_changes_are_counted(
        repo: str) -> None:
    text = HEAD.replace('"new_name" {\n  instance_type = "g5.2xlarge"',
                        '"new_name" {\n  instance_type = "g5.8xlarge"')
    text += '\nresource "aws_instance" "mystery" {\n  instance_type = var.gpu_type\n}\n' \
            'variable "gpu_type" {}\n'
    _write(os.path.join(repo, "infra", "main.tf"), text)
    d = _diff("--base", "HEAD", "infra")
    by = {e["address"]: e for e in d["resources"]}
    assert by["aws_instance.new_name"]["change"] == "added"
    assert by["aws_instance.old_name"]["change"] == "removed"
    mystery = by["aws_instance.mystery"]
    assert mystery["change"] == "added" and mystery["after_usd"] is None
    assert mystery["delta_usd"] is None and d["unpriced_changes"] == 1
    _code, out, _ = _run("diff", "--base", "HEAD", "infra")
    assert "1 changed resource not priced" in out


@pytest.mark.parametrize("content,message", [
    ("{not json", "base.json:1: invalid JSON"),
    ('{"resources": []}', "not a `gpulint scan --format json` report"),
])
def test_compare_to_a_bad_file(repo: str, content: str, message: str) -> None:
    _write(os.path.join(repo, "base.json"), content)
    code, _, err = _run("diff", "--compare-to", "base.json", "infra")
    assert code == 2 and message in err


def test_local_modules_resolve_at_base_and_are_not_scanned_twice(repo: str) -> None:
    _write(os.path.join(repo, "modules", "gpu", "main.tf"), textwrap.dedent("""\
        variable "size" {}
        resource "aws_instance" "node" {
          instance_type = var.size
          tags          = { team = "ml", project = "p", env = "prod" }
        }
    """))
    _write(os.path.join(repo, "stack", "main.tf"), textwrap.dedent("""\
        provider "aws" {
          region = "us-east-1"
        }
        module "gpu" {
          source = "../modules/gpu"
          size   = "g5.xlarge"
        }
    """))
    _git(repo, "add", "modules", "stack")
    _git(repo, "commit", "-qm", "module")
    with open(os.path.join(repo, "stack", "main.tf")) as fh:
        text = fh.read()
    _write(os.path.join(repo, "stack", "main.tf"), text.replace("g5.xlarge", "g5.2xlarge"))
    d = _diff("--base", "HEAD", "stack", "modules")
    assert [(e["address"], e["change"]) for e in d["resources"]] == [
        ("module.gpu.aws_instance.node", "changed")]
    entry = d["resources"][0]
    assert entry["before_usd"] == _monthly("g5.xlarge")
    assert entry["after_usd"] == _monthly("g5.2xlarge")


def test_what_changed_reads_like_the_code() -> None:
    # A resized node group: whole GPU counts without ".0", and of the replicas only the bound
    # that moved, not two Python dicts.
    from gpulint.cli.diff import _what_changed

    entry = {"changes": {
        "instance_type": {"before": "g6e.12xlarge", "after": "g6e.48xlarge"},
        "gpu_count": {"before": 4.0, "after": 8.0},
        "replicas": {"before": {"min": 1, "max": 4, "desired": 2},
                     "after": {"min": 2, "max": 4, "desired": 2}},
        "monthly_cost_usd": {"before": 1.0, "after": 2.0}}}
    assert _what_changed(entry) == ("instance_type 'g6e.12xlarge' → 'g6e.48xlarge', "
                                    "gpu_count 4 → 8, replicas.min 1 → 2")


def test_the_footer_dates_each_cloud_the_diff_priced(tmp_path: Any) -> None:
    examples = os.path.join(os.path.dirname(os.path.dirname(__file__)), "examples")
    runner = CliRunner()
    scanned = runner.invoke(cli, ["scan", examples, "--no-cache", "--format", "json",
                                  "--fail-on", "never"])
    report = json.loads(scanned.stdout)
    (tmp_path / "base.json").write_text(scanned.stdout)
    diffed = runner.invoke(cli, ["diff", examples, "--no-cache", "--compare-to",
                                 str(tmp_path / "base.json"), "--format", "json"])
    assert {e["cloud"] for e in json.loads(diffed.stdout)["resources"]} == {"aws", "gcp"}
    text = runner.invoke(cli, ["diff", examples, "--no-cache", "--compare-to",
                               str(tmp_path / "base.json")]).stdout
    dates = report["catalog"]["dates"]  # the catalog's date per cloud, for the clouds priced
    assert f"list prices of aws {dates['aws']}, gcp {dates['gcp']} (catalog" in text

