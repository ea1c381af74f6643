"""PR comment upsert, the GitHub client and the ``comment github`` command, against a fake
GitHub API on 127.0.0.1."""

from __future__ import annotations

import json
import logging
import pickle
import threading
from pathlib import Path

import pytest
from click.testing import CliRunner

from github_fake import FakeGitHub
from gpulint.cli.comment import comment as comment_group
from gpulint.github.api import (
    GitHubClient,
    GitHubError,
    RateLimitError,
    graphql_url_for,
    parse_link_header,
)
from gpulint.github.comment import ACTIONS_BOT, head_of, upsert_comment
from gpulint.reporters import markdown

DATA = Path(__file__).parent / "data"
REPO = "acme/infra"
PR = 7
BOT_TOKEN = "ghs_S3CRETbotTOKENvalue0000000000000001"
RO_TOKEN = "ghs_S3CRETreadONLYtoken00000000000002"
PAT = "ghp_S3CRETpersonalTOKEN0000000000000003"
ALL_TOKENS = (BOT_TOKEN, RO_TOKEN, PAT)
SHAS = [f"{i:x}" * 40 for i in range(1, 6)]  # commits 1..5, oldest first


@pytest.fixture()
def gh():
    with FakeGitHub() as fake:
        fake.add_token(BOT_TOKEN, ACTIONS_BOT, user_endpoint=False)
        fake.add_token(RO_TOKEN, ACTIONS_BOT, write=False, user_endpoint=False)
        fake.add_token(PAT, "alice")
        fake.set_commits(REPO, PR, SHAS)
        yield fake


class Sleeps(list):
    def __call__(self, seconds: float) -> None:
        self.append(seconds)


def client_for(gh: FakeGitHub, token: str = BOT_TOKEN, **kw) -> GitHubClient:
    kw.setdefault("sleep", Sleeps())
    return GitHubClient(token, gh.api_url, **kw)


def body(text: str) -> str:
    return f"{markdown.COMMENT_MARKER}\n{text}\n"


def ours(gh: FakeGitHub, login: str = ACTIONS_BOT) -> list[dict]:
    return [c for c in gh.comments(REPO, PR)
            if c["user"]["login"] == login and c["body"].startswith(markdown.COMMENT_MARKER)]


# ------------------------------------------------------------------------------ upsert


def test_repeated_runs_leave_one_up_to_date_comment(gh):
    c = client_for(gh)
    first = upsert_comment(c, REPO, PR, body("v1"), head_sha=SHAS[0])
    assert first.action == "created"
    again = upsert_comment(c, REPO, PR, body("v1"), head_sha=SHAS[0])
    assert again.action == "unchanged" and again.comment_id == first.comment_id
    assert gh.count("PATCH") == 0 and gh.count("POST") == 1
    second = upsert_comment(c, REPO, PR, body("v2"), head_sha=SHAS[1])
    assert second.action == "updated" and second.comment_id == first.comment_id
    [only] = ours(gh)
    assert "v2" in only["body"] and head_of(only["body"]) == SHAS[1]


def test_finds_comment_across_pages(gh):
    for i in range(230):
        gh.add_comment(REPO, PR, f"human comment {i}", "bob")
    c = client_for(gh)
    first = upsert_comment(c, REPO, PR, body("v1"), head_sha=SHAS[0])
    for i in range(30):
        gh.add_comment(REPO, PR, f"later {i}", "bob")
    second = upsert_comment(c, REPO, PR, body("v2"), head_sha=SHAS[0])
    assert second.action == "updated" and second.comment_id == first.comment_id
    assert len(ours(gh)) == 1
    assert gh.count("GET", r"/issues/7/comments") >= 3 * 3  # three pages per listing
    assert len(gh.comments(REPO, PR)) == 261


def test_other_users_marker_comments_are_never_touched(gh):
    planted = gh.add_comment(REPO, PR, body("<b>fake</b>"), "mallory")
    quoted = gh.add_comment(REPO, PR, "> " + body("quoted"), ACTIONS_BOT)
    out = upsert_comment(client_for(gh), REPO, PR, body("real"), head_sha=SHAS[0])
    assert out.action == "created" and out.comment_id not in (planted["id"], quoted["id"])
    bodies = {c["id"]: c["body"] for c in gh.comments(REPO, PR)}
    assert bodies[planted["id"]] == body("<b>fake</b>")
    assert bodies[quoted["id"]].startswith("> ")


def test_author_from_user_endpoint_for_personal_tokens(gh):
    gh.add_comment(REPO, PR, body("by the bot"), ACTIONS_BOT)
    out = upsert_comment(client_for(gh, PAT), REPO, PR, body("by alice"), head_sha=SHAS[0])
    assert out.action == "created"
    assert len(ours(gh, "alice")) == 1 and len(ours(gh, ACTIONS_BOT)) == 1


def test_older_head_never_overwrites_newer(gh):
    c = client_for(gh)
    newer = upsert_comment(c, REPO, PR, body("for commit 4"), head_sha=SHAS[3])
    older = upsert_comment(c, REPO, PR, body("for commit 2"), head_sha=SHAS[1])
    assert older.action == "skipped-newer" and older.comment_id == newer.comment_id
    for behaviour in ("new", "delete-and-new", "hide-and-new"):
        outcome = upsert_comment(c, REPO, PR, body("old"), behaviour, SHAS[0])
        assert outcome.action == "skipped-newer"
    [only] = ours(gh)
    assert "for commit 4" in only["body"]
    # A run whose head is no longer in the PR (force-pushed away) is stale too.
    stale = upsert_comment(c, REPO, PR, body("gone"), head_sha="f" * 40)
    assert stale.action == "skipped-newer"
    # The newest commit does overwrite.
    newest = upsert_comment(c, REPO, PR, body("for commit 5"), head_sha=SHAS[4])
    assert newest.action == "updated"
    assert "for commit 5" in ours(gh)[0]["body"]


def test_comment_for_force_pushed_head_is_replaced(gh):
    c = client_for(gh)
    upsert_comment(c, REPO, PR, body("orphan"), head_sha="e" * 40)  # not in the commit list
    out = upsert_comment(c, REPO, PR, body("current"), head_sha=SHAS[0])
    assert out.action == "updated"
    assert head_of(ours(gh)[0]["body"]) == SHAS[0]


def test_commits_list_is_paginated(gh):
    shas = [f"{i:040x}" for i in range(1, 260)]
    gh.set_commits(REPO, PR, shas)
    c = client_for(gh)
    upsert_comment(c, REPO, PR, body("late"), head_sha=shas[-1])
    assert upsert_comment(c, REPO, PR, body("early"), head_sha=shas[5]).action == "skipped-newer"
    assert gh.count("GET", r"/pulls/7/commits") == 3


def test_behaviour_new(gh):
    c = client_for(gh)
    a = upsert_comment(c, REPO, PR, body("a"), "new", SHAS[0])
    b = upsert_comment(c, REPO, PR, body("b"), "new", SHAS[1])
    same = upsert_comment(c, REPO, PR, body("b"), "new", SHAS[1])
    assert (a.action, b.action, same.action) == ("created", "created", "unchanged")
    assert [x["id"] for x in ours(gh)] == [a.comment_id, b.comment_id]


def test_behaviour_delete_and_new(gh):
    c = client_for(gh)
    a = upsert_comment(c, REPO, PR, body("a"), "new", SHAS[0])
    b = upsert_comment(c, REPO, PR, body("b"), "new", SHAS[0])
    d = upsert_comment(c, REPO, PR, body("c"), "delete-and-new", SHAS[1])
    assert d.action == "created" and sorted(d.deleted) == sorted([a.comment_id, b.comment_id])
    [only] = ours(gh)
    assert only["id"] == d.comment_id and "c" in only["body"]


def test_behaviour_hide_and_new(gh):
    c = client_for(gh)
    a = upsert_comment(c, REPO, PR, body("a"), "update", SHAS[0])
    h = upsert_comment(c, REPO, PR, body("b"), "hide-and-new", SHAS[1])
    assert h.action == "created" and h.hidden == [a.comment_id]
    assert gh.state.minimized == {f"IC_fake{a.comment_id}"}
    assert len(ours(gh)) == 2


def test_hide_failure_is_not_fatal(gh, monkeypatch):
    c = client_for(gh)
    upsert_comment(c, REPO, PR, body("a"), "update", SHAS[0])

    def refuse(node_id, classifier="OUTDATED"):
        raise GitHubError("GraphQL: Could not resolve to a node", 200)

    monkeypatch.setattr(c, "minimize_comment", refuse)
    out = upsert_comment(c, REPO, PR, body("b"), "hide-and-new", SHAS[1])
    assert out.action == "created" and not out.fell_back and out.hidden == []
    assert "could not hide" in out.reason
    assert len(ours(gh)) == 2


def test_behaviour_update_cleans_up_leftovers(gh):
    c = client_for(gh)
    a = upsert_comment(c, REPO, PR, body("a"), "new", SHAS[0])
    upsert_comment(c, REPO, PR, body("b"), "new", SHAS[0])
    u = upsert_comment(c, REPO, PR, body("c"), "update", SHAS[1])
    assert u.action == "updated" and u.comment_id == a.comment_id
    [only] = ours(gh)
    assert "c" in only["body"]


def test_unknown_behaviour_rejected(gh):
    with pytest.raises(ValueError):
        upsert_comment(client_for(gh), REPO, PR, body("x"), "replace")


def _run_concurrently(gh: FakeGitHub, jobs: list[tuple[str, str, str]]) -> list:
    results: list = [None] * len(jobs)
    barrier = threading.Barrier(len(jobs))

    def run(i: int, text: str, behaviour: str, sha: str) -> None:
        c = client_for(gh)
        barrier.wait()
        results[i] = upsert_comment(c, REPO, PR, body(text), behaviour, sha)

    threads = [threading.Thread(target=run, args=(i, *job)) for i, job in enumerate(jobs)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    return results


@pytest.mark.parametrize("behaviour", ["update", "new", "delete-and-new"])
def test_concurrent_runs_leave_one_comment(gh, behaviour):
    gh.create_delay = 0.05  # widen the race window between "list" and "create"
    results = _run_concurrently(gh, [("same", behaviour, SHAS[2])] * 6)
    assert all(r is not None for r in results)
    assert gh.count("POST", r"/comments$") >= 2  # the race really happened
    [only] = ours(gh)
    assert "same" in only["body"]


def test_concurrent_runs_for_different_heads_leave_one_comment(gh):
    gh.create_delay = 0.05
    jobs = [(f"for {i}", "update", SHAS[i]) for i in range(5)]
    _run_concurrently(gh, jobs)
    [only] = ours(gh)
    assert head_of(only["body"]) in SHAS
    # A later sequential run for the newest commit settles it.
    upsert_comment(client_for(gh), REPO, PR, body("for 4"), head_sha=SHAS[4])
    [only] = ours(gh)
    assert head_of(only["body"]) == SHAS[4]


# ------------------------------------------------------------------------------ faults


def test_survives_5xx_bursts_with_exponential_backoff(gh):
    sleeps = Sleeps()
    gh.inject("status", times=3, status=502, method="GET")
    out = upsert_comment(client_for(gh, sleep=sleeps), REPO, PR, body("x"), head_sha=SHAS[0])
    assert out.action == "created"
    assert sleeps == [1.0, 2.0, 4.0]


def test_gives_up_after_max_retries(gh):
    gh.inject("status", times=50, status=503)
    with pytest.raises(GitHubError) as info:
        upsert_comment(client_for(gh, max_retries=2), REPO, PR, body("x"), head_sha=SHAS[0])
    assert info.value.status == 503


def test_survives_dropped_connections(gh):
    gh.inject("drop", times=2)
    out = upsert_comment(client_for(gh), REPO, PR, body("x"), head_sha=SHAS[0])
    assert out.action == "created" and len(ours(gh)) == 1


def test_lost_create_response_does_not_leave_duplicates(gh):
    gh.inject("drop-after", method="POST")  # comment is created but the response is lost
    out = upsert_comment(client_for(gh), REPO, PR, body("x"), head_sha=SHAS[0])
    assert out.action == "created"
    assert gh.count("POST") == 2
    assert len(ours(gh)) == 1


def test_primary_rate_limit_waits_until_reset(gh):
    sleeps = Sleeps()
    gh.inject("primary", seconds=5)
    out = upsert_comment(client_for(gh, sleep=sleeps), REPO, PR, body("x"), head_sha=SHAS[0])
    assert out.action == "created"
    assert len(sleeps) == 1 and 4.0 <= sleeps[0] <= 7.0


def test_primary_rate_limit_beyond_cap_raises(gh):
    gh.inject("primary", seconds=3600)
    c = client_for(gh, max_wait=60)
    with pytest.raises(RateLimitError):
        c.get(f"repos/{REPO}/issues/{PR}/comments")
    assert c._sleep == []


def test_secondary_rate_limits(gh):
    sleeps = Sleeps()
    gh.inject("secondary", seconds=3)
    gh.inject("secondary-no-header")
    out = upsert_comment(client_for(gh, sleep=sleeps), REPO, PR, body("x"), head_sha=SHAS[0])
    assert out.action == "created"
    assert sleeps == [3.0, 60.0]


def test_fork_read_only_token_falls_back(gh):
    out = upsert_comment(client_for(gh, RO_TOKEN), REPO, PR, body("x"), head_sha=SHAS[0])
    assert out.fell_back and out.action == "fallback" and not out.ok
    assert "403" in out.reason
    assert gh.comments(REPO, PR) == []


def test_hide_fallback_when_graphql_forbidden(gh):
    gh.add_comment(REPO, PR, body("old"), ACTIONS_BOT)
    out = upsert_comment(client_for(gh, RO_TOKEN), REPO, PR, body("new"), "hide-and-new", SHAS[0])
    assert out.fell_back


def test_ghes_prefix_and_graphql_url():
    with FakeGitHub(prefix="/api/v3") as fake:
        fake.add_token(BOT_TOKEN, ACTIONS_BOT, user_endpoint=False)
        fake.set_commits(REPO, PR, SHAS)
        c = GitHubClient(BOT_TOKEN, fake.api_url, sleep=Sleeps())
        assert c.graphql_url == fake.origin + "/api/graphql"
        upsert_comment(c, REPO, PR, body("a"), head_sha=SHAS[0])
        out = upsert_comment(c, REPO, PR, body("b"), "hide-and-new", SHAS[1])
        assert out.hidden and fake.state.minimized


def test_api_url_from_environment(monkeypatch):
    monkeypatch.setenv("GITHUB_API_URL", "https://ghe.example/api/v3/")
    c = GitHubClient("t")
    assert c.api_url == "https://ghe.example/api/v3"
    assert c.graphql_url == "https://ghe.example/api/graphql"
    monkeypatch.delenv("GITHUB_API_URL")
    assert GitHubClient("t").api_url == "https://api.github.com"
    assert graphql_url_for("https://api.github.com") == "https://api.github.com/graphql"


def test_link_header_parsing():
    links = parse_link_header('<https://a/x?page=2>; rel="next", <https://a/x?page=9>; rel="last"')
    assert links == {"next": "https://a/x?page=2", "last": "https://a/x?page=9"}
    assert parse_link_header(None) == {}


def test_pagination_never_follows_foreign_hosts(gh):
    gh.inject("foreign-link", method="GET")
    c = client_for(gh)
    with pytest.raises(GitHubError, match="another host"):
        list(c.paginate(f"repos/{REPO}/issues/{PR}/comments"))


# ------------------------------------------------------------------------------ token safety


def test_token_never_leaks(gh, caplog, capsys):
    caplog.set_level(logging.DEBUG)
    texts: list[str] = []
    c = client_for(gh)
    texts += [repr(c), str(c), str(vars(c)), repr(pickle.loads(pickle.dumps(c)).__dict__)]
    gh.inject("echo", status=400)  # an error body that reflects the Authorization header
    with pytest.raises(GitHubError) as info:
        c.get(f"repos/{REPO}/issues/{PR}/comments")
    texts += [str(info.value), repr(info.value), str(info.value.args), info.value.path]
    assert "Authorization" in str(info.value)  # the reflection happened, but scrubbed
    for kind in ("drop", "status"):
        gh.inject(kind, times=10, status=500)
        with pytest.raises(GitHubError) as info:
            client_for(gh, max_retries=1).get("user")
        texts += [str(info.value), repr(info.value)]
        gh.faults.clear()
    gh.inject("primary", seconds=9999)
    with pytest.raises(RateLimitError) as info:
        client_for(gh, max_wait=1).get("user")
    texts.append(str(info.value))
    gh.faults.clear()
    outcome = upsert_comment(client_for(gh, RO_TOKEN), REPO, PR, body("x"), head_sha=SHAS[0])
    texts.append(outcome.reason)
    with pytest.raises(GitHubError) as info:  # refusing a foreign host must not echo it either
        c.request("GET", "x", url="http://evil.invalid/")
    texts.append(str(info.value))
    captured = capsys.readouterr()
    texts += [captured.out, captured.err, caplog.text]
    blob = "\n".join(texts)
    for token in ALL_TOKENS:
        assert token not in blob


def test_cli_never_prints_token(gh, tmp_path, monkeypatch):
    _env(monkeypatch, gh, tmp_path)
    for token in (BOT_TOKEN, RO_TOKEN, "ghs_unknownTOKEN0000000000000000004"):
        monkeypatch.setenv("GITHUB_TOKEN", token)
        gh.inject("echo", status=400, method="POST")
        result = CliRunner().invoke(
            comment_group, ["github", "--report", str(DATA / "pr_report.json"), "--strict"])
        assert token not in result.output and token not in (result.stderr or "")
        assert token not in repr(result.exception)


# ------------------------------------------------------------------------------ CLI


def _env(monkeypatch, gh: FakeGitHub, tmp_path: Path, *, pr: int | None = PR,
         sha: str = SHAS[0]) -> Path:
    event = tmp_path / "event.json"
    payload = ({"pull_request": {"number": pr, "head": {"sha": sha}}} if pr
               else {"ref": "refs/heads/main"})
    event.write_text(json.dumps(payload))
    summary = tmp_path / "summary.md"
    monkeypatch.setenv("GITHUB_EVENT_PATH", str(event))
    monkeypatch.setenv("GITHUB_REPOSITORY", REPO)
    monkeypatch.setenv("GITHUB_API_URL", gh.api_url)
    monkeypatch.setenv("GITHUB_SERVER_URL", "https://github.com")
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(summary))
    monkeypatch.setenv("GITHUB_TOKEN", BOT_TOKEN)
    return summary


def invoke(*args: str):
    return CliRunner().invoke(comment_group,
                              ["github", "--report", str(DATA / "pr_report.json"), *args])


def test_cli_posts_comment_from_actions_environment(gh, tmp_path, monkeypatch):
    summary = _env(monkeypatch, gh, tmp_path)
    result = invoke("--diff", str(DATA / "pr_diff.json"))
    assert result.exit_code == 0, result.output
    assert "comment created" in result.output
    [only] = ours(gh)
    assert f"https://github.com/{REPO}/blob/{SHAS[0]}/infra/main.tf#L12" in only["body"]
    assert head_of(only["body"]) == SHAS[0]
    assert "GPU cost" in summary.read_text()
    again = invoke("--diff", str(DATA / "pr_diff.json"))
    assert again.exit_code == 0 and "comment unchanged" in again.output


def test_cli_flags_override_environment(gh, tmp_path, monkeypatch):
    _env(monkeypatch, gh, tmp_path, pr=None)
    gh.set_commits(REPO, 9, SHAS)
    result = invoke("--repo", REPO, "--pr", "9", "--head-sha", SHAS[1], "--behaviour", "new")
    assert result.exit_code == 0, result.output
    assert len(gh.comments(REPO, 9)) == 1


def test_cli_comment_author_for_app_tokens(gh, tmp_path, monkeypatch):
    _env(monkeypatch, gh, tmp_path)
    gh.add_token("ghs_APPtoken000000000000000000000005", "my-app[bot]", user_endpoint=False)
    monkeypatch.setenv("GITHUB_TOKEN", "ghs_APPtoken000000000000000000000005")
    assert invoke("--comment-author", "my-app[bot]").exit_code == 0
    result = invoke("--comment-author", "my-app[bot]", "--head-sha", SHAS[1])
    assert result.exit_code == 0 and "comment updated" in result.output
    assert len(ours(gh, "my-app[bot]")) == 1


def test_cli_fork_fallback(gh, tmp_path, monkeypatch):
    summary = _env(monkeypatch, gh, tmp_path)
    monkeypatch.setenv("GITHUB_TOKEN", RO_TOKEN)
    result = invoke()
    assert result.exit_code == 0
    assert "::warning file=infra/main.tf,line=12" in result.stdout
    assert "fork" in result.stderr
    assert "GPU cost" in summary.read_text()
    strict = invoke("--strict")
    assert strict.exit_code == 1
    assert "Traceback" not in strict.output


def test_cli_without_pull_request_or_token(gh, tmp_path, monkeypatch):
    summary = _env(monkeypatch, gh, tmp_path, pr=None)
    result = invoke()
    assert result.exit_code == 0 and "no pull request" in result.stderr
    assert summary.read_text()
    _env(monkeypatch, gh, tmp_path)
    monkeypatch.delenv("GITHUB_TOKEN")
    result = invoke()
    assert result.exit_code == 0 and "no token" in result.stderr
    assert gh.comments(REPO, PR) == []


def test_cli_api_failure_exit_codes(gh, tmp_path, monkeypatch):
    _env(monkeypatch, gh, tmp_path)
    gh.inject("status", times=1000, status=500)
    monkeypatch.setattr("gpulint.github.api.time.sleep", lambda s: None)
    assert invoke().exit_code == 0
    result = invoke("--strict")
    assert result.exit_code == 1 and "HTTP 500" in result.stderr


def test_cli_fail_on(gh, tmp_path, monkeypatch):
    _env(monkeypatch, gh, tmp_path)
    result = invoke("--fail-on", "error")
    assert result.exit_code == 1 and len(ours(gh)) == 1  # commented first, then failed
    assert invoke("--fail-on", "never").exit_code == 0


@pytest.mark.parametrize(
    "args",
    [
        ["--report", "missing.json"],
        ["--behaviour", "sideways"],
        ["--pr", "0"],
        ["--repo", "not a repo"],
        ["--head-sha", "main"],
    ],
)
def test_cli_usage_errors(gh, tmp_path, monkeypatch, args):
    _env(monkeypatch, gh, tmp_path)
    result = CliRunner().invoke(comment_group,
                                ["github", "--report", str(DATA / "pr_report.json"), *args])
    assert result.exit_code == 2
    assert "Traceback" not in result.output


def test_cli_invalid_json_is_usage_error(gh, tmp_path, monkeypatch):
    _env(monkeypatch, gh, tmp_path)
    bad = tmp_path / "bad.json"
    bad.write_text("{nope")
    result = CliRunner().invoke(comment_group, ["github", "--report", str(bad)])
    assert result.exit_code == 2 and "not valid JSON" in result.output


def test_cli_dry_run_writes_exactly_the_body_that_is_posted(gh, tmp_path, monkeypatch):
    summary = _env(monkeypatch, gh, tmp_path)
    monkeypatch.delenv("GITHUB_TOKEN")  # a preview needs no token
    preview = invoke("--diff", str(DATA / "pr_diff.json"), "--dry-run")
    assert preview.exit_code == 0, preview.output
    assert gh.state.requests == [] and not summary.exists()  # nothing posted or written
    written = tmp_path / "body.md"
    to_file = invoke("--diff", str(DATA / "pr_diff.json"), "--dry-run", "-o", str(written))
    assert to_file.exit_code == 0 and to_file.stdout == ""
    assert written.read_text() == preview.stdout
    monkeypatch.setenv("GITHUB_TOKEN", BOT_TOKEN)
    posted = invoke("--diff", str(DATA / "pr_diff.json"), "-o", str(tmp_path / "again.md"))
    assert posted.exit_code == 0, posted.output
    [only] = ours(gh)
    assert only["body"] == preview.stdout == (tmp_path / "again.md").read_text()
    assert preview.stdout.startswith(f"<!-- gpulint:comment -->\n<!-- gpulint:head={SHAS[0]}")
