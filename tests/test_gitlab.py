"""GitLab: `scan --format gitlab` (Code Quality JSON) and `comment gitlab` (one sticky merge
request note) through the real CLI, against the loopback fake of the GitLab API."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from gitlab_fake import FakeGitLab
from gpulint.cli import cli

DATA = Path(__file__).parent / "data"
TOKEN = "glpat-gpulintTESTtoken0000001"
OTHER = "glpat-someoneELSEtoken000002"
PROJECT, MR, BOT, HUMAN = 4242, 17, 901, 77
SHA = "a" * 40
MARKER = "<!-- gpulint:comment -->"


def _run(*args: str) -> Result:
    return CliRunner().invoke(cli, list(args))


# ------------------------------------------------------------------- Code Quality report

def test_code_quality_report_fields_severities_and_stable_fingerprints(
        repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (repo / ".gpulint.yaml").write_text(
        "rules:\n  gpu-missing-cost-tags: error\n  gpu-training-on-demand: info\n")
    first = _run("scan", "infra", "--format", "gitlab")
    assert first.exit_code == 1, first.output
    issues = json.loads(first.stdout)
    by_rule = {i["check_name"]: i for i in issues}
    assert set(by_rule) == {"gpu-missing-cost-tags", "gpu-training-on-demand"}
    assert by_rule["gpu-missing-cost-tags"]["severity"] == "critical"  # error
    assert by_rule["gpu-training-on-demand"]["severity"] == "info"
    for issue in issues:
        assert set(issue) >= {"description", "check_name", "fingerprint", "severity", "location"}
        assert issue["location"]["path"].startswith("infra/")
        assert isinstance(issue["location"]["lines"]["begin"], int)
    assert "aws_instance.untagged" in by_rule["gpu-missing-cost-tags"]["description"]
    # From a subdirectory, and after the resource moved down the file: same paths and
    # fingerprints (the report is relative to the repository root, the key has no line).
    other = repo / "infra" / "other.tf"
    other.write_text("\n\n# moved\n" + other.read_text())
    monkeypatch.chdir(repo / "infra")
    again = json.loads(_run("scan", ".", "--format", "gitlab").stdout)
    assert {i["fingerprint"]: i["location"]["path"] for i in again} == \
        {i["fingerprint"]: i["location"]["path"] for i in issues}
    moved = next(i for i in again if i["check_name"] == "gpu-missing-cost-tags")
    assert moved["location"]["lines"]["begin"] == \
        by_rule["gpu-missing-cost-tags"]["location"]["lines"]["begin"] + 3


def test_warning_is_major_and_no_finding_is_an_empty_array(repo: Path) -> None:
    issues = json.loads(_run("scan", "infra", "--format", "gitlab").stdout)
    assert {i["severity"] for i in issues} == {"major"}
    (repo / "empty").mkdir()
    (repo / "empty" / "x.tf").write_text('variable "a" {}\n')
    assert json.loads(_run("scan", "empty", "--format", "gitlab").stdout) == []


# ------------------------------------------------------------------- the merge-request note

@pytest.fixture
def gl(monkeypatch: pytest.MonkeyPatch) -> Any:
    with FakeGitLab(per_page_cap=20) as fake:
        fake.add_token(TOKEN, BOT, "project_4242_bot")
        fake.add_token(OTHER, HUMAN, "alice")
        fake.add_project(PROJECT, "acme/infra")
        for key, value in {"CI_API_V4_URL": fake.api_url, "CI_PROJECT_ID": str(PROJECT),
                           "CI_MERGE_REQUEST_IID": str(MR), "CI_COMMIT_SHA": SHA,
                           "CI_PROJECT_URL": "https://gitlab.example/acme/infra",
                           "GITLAB_TOKEN": TOKEN}.items():
            monkeypatch.setenv(key, value)
        monkeypatch.setattr("gpulint.gitlab.api.time.sleep", lambda s: None)
        yield fake


def _comment(*args: str, report: str = "pr_report.json") -> Result:
    return _run("comment", "gitlab", "--report", str(DATA / report), *args)


def _ours(gl: FakeGitLab) -> list[dict[str, Any]]:
    return [n for n in gl.mr_notes(PROJECT, MR) if n["author"]["id"] == BOT]


def test_one_note_created_then_unchanged_then_updated_in_place(gl: FakeGitLab) -> None:
    first = _comment()
    assert first.exit_code == 0, first.output
    assert f"note created on merge request !{MR}" in first.stdout
    [note] = _ours(gl)
    assert note["body"].startswith(f"{MARKER}\n<!-- gpulint:head={SHA} -->")
    assert f"https://gitlab.example/acme/infra/-/blob/{SHA}/infra/main.tf#L12" in note["body"]
    again = _comment()
    assert again.exit_code == 0 and "note unchanged" in again.stdout
    assert gl.count("PUT") == 0 and gl.count("POST") == 1
    updated = _comment("--diff", str(DATA / "pr_diff.json"))
    assert updated.exit_code == 0 and "note updated" in updated.stdout
    [after] = _ours(gl)
    assert after["id"] == note["id"] and after["body"] != note["body"]


def test_the_note_is_found_on_a_later_page_and_others_are_left_alone(gl: FakeGitLab) -> None:
    for i in range(45):  # three pages of 20
        gl.add_note(PROJECT, MR, f"review remark {i}", HUMAN, "alice")
    forged = gl.add_note(PROJECT, MR, f"{MARKER}\nnot gpulint's", HUMAN, "alice")
    gl.add_note(PROJECT, MR, f"{MARKER}\nsystem", BOT, "project_4242_bot", system=True)
    mine = gl.add_note(PROJECT, MR, f"{MARKER}\nold body", BOT, "project_4242_bot")
    result = _comment()
    assert result.exit_code == 0 and "note updated" in result.stdout, result.output
    notes = {n["id"]: n for n in gl.mr_notes(PROJECT, MR)}
    assert notes[forged["id"]]["body"] == f"{MARKER}\nnot gpulint's"
    assert notes[mine["id"]]["body"].startswith(f"{MARKER}\n<!-- gpulint:head=")
    assert len(notes) == 48
    gets = [p for m, p, _ in gl.requests if m == "GET" and "/notes" in p]
    assert len(gets) == 3  # every page read


def test_pages_are_followed_by_x_next_page_without_a_link_header(
        monkeypatch: pytest.MonkeyPatch, gl: FakeGitLab) -> None:
    gl.link_header = False
    for i in range(25):
        gl.add_note(PROJECT, MR, f"remark {i}", HUMAN, "alice")
    gl.add_note(PROJECT, MR, f"{MARKER}\nold", BOT, "project_4242_bot")
    assert "note updated" in _comment().stdout
    assert len(_ours(gl)) == 1


def test_duplicates_are_removed_and_an_emptied_note_is_not_ours(gl: FakeGitLab) -> None:
    emptied = gl.add_note(PROJECT, MR, "", BOT, "project_4242_bot")  # someone emptied it
    one = gl.add_note(PROJECT, MR, f"{MARKER}\nfirst", BOT, "project_4242_bot")
    gl.add_note(PROJECT, MR, f"{MARKER}\nrace", BOT, "project_4242_bot")
    result = _comment()
    assert result.exit_code == 0 and "removed 1 duplicate" in result.stdout, result.output
    ids = [n["id"] for n in _ours(gl)]
    assert ids == [emptied["id"], one["id"]]
    # Only an emptied note left: a fresh note is created, the empty one is not touched.
    for n in _ours(gl)[1:]:
        gl.notes[(str(PROJECT), MR)].remove(next(x for x in gl.notes[(str(PROJECT), MR)]
                                                 if x["id"] == n["id"]))
    assert "note created" in _comment().stdout
    assert next(n["body"] for n in _ours(gl)) == ""


def test_project_path_is_url_encoded(gl: FakeGitLab, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CI_PROJECT_ID", "acme/infra")
    assert _comment().exit_code == 0
    assert any("/projects/acme%2Finfra/" in p for _, p, _ in gl.requests)
    assert len(_ours(gl)) == 1


@pytest.mark.parametrize("status,said", [
    (401, "the token is invalid, expired or revoked"),
    (403, "the CI job token cannot"),
    (404, "no such project or merge request"),
])
def test_api_refusals_are_one_line_exit_0_or_1_when_strict(gl: FakeGitLab, status: int,
                                                           said: str) -> None:
    gl.inject(status, times=2, path=r"/notes")
    result = _comment()
    assert result.exit_code == 0 and f"HTTP {status}" in result.stderr and said in result.stderr
    strict = _comment("--strict")
    assert strict.exit_code == 1 and "Traceback" not in strict.output
    assert TOKEN not in result.output + result.stderr


def test_rate_limit_waits_when_short_and_fails_when_long(gl: FakeGitLab) -> None:
    gl.inject(429, times=2, path=r"/notes", headers={"Retry-After": "2"})
    assert "note created" in _comment().stdout
    gl.inject(429, times=1, path=r"/user", headers={"Retry-After": "3600"})
    result = _comment("--strict")
    assert result.exit_code == 1 and "HTTP 429" in result.stderr


def test_redirects_to_another_host_are_not_followed(gl: FakeGitLab) -> None:
    gl.inject(302, kind="redirect", path=r"/user")
    result = _comment("--strict")
    assert result.exit_code == 1 and "not followed" in result.stderr
    assert "evil.invalid" in result.stderr and _ours(gl) == []


def test_no_merge_request_or_no_token(gl: FakeGitLab, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CI_MERGE_REQUEST_IID")
    result = _comment()
    assert result.exit_code == 0 and "no merge request" in result.stderr
    monkeypatch.setenv("CI_MERGE_REQUEST_IID", str(MR))
    monkeypatch.delenv("GITLAB_TOKEN")
    result = _comment("--strict")
    assert result.exit_code == 1 and "no token" in result.stderr
    assert gl.requests == []


def test_the_token_goes_only_in_the_private_token_header(gl: FakeGitLab) -> None:
    result = _comment()
    assert result.exit_code == 0 and TOKEN not in result.output
    assert all(h.get("private-token") == TOKEN and "authorization" not in h
               for _, _, h in gl.requests)


def test_same_body_as_github_and_a_dry_run_without_token(gl: FakeGitLab,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    for key in ("GITLAB_TOKEN", "CI_PROJECT_URL"):
        monkeypatch.delenv(key)
    preview = _comment("--dry-run", "--diff", str(DATA / "pr_diff.json"))
    assert preview.exit_code == 0 and gl.requests == []
    github = _run("comment", "github", "--report", str(DATA / "pr_report.json"), "--diff",
                  str(DATA / "pr_diff.json"), "--head-sha", SHA, "--dry-run")
    assert preview.stdout == github.stdout
    monkeypatch.setenv("GITLAB_TOKEN", TOKEN)
    assert _comment("--diff", str(DATA / "pr_diff.json")).exit_code == 0
    assert _ours(gl)[0]["body"] == preview.stdout


def test_a_project_path_is_url_encoded_in_the_notes_path() -> None:
    """GitLab's API takes a project as its numeric id or its URL-encoded `group/project`."""
    from gpulint.gitlab.note import notes_path

    assert notes_path("42", 7) == "projects/42/merge_requests/7/notes"
    assert notes_path("platform/ml infra", 7) == \
        "projects/platform%2Fml%20infra/merge_requests/7/notes"
