"""Structure checks for action.yml and the example workflow.

The published SchemaStore schemas (github-action.json, github-workflow.json) are not available
offline, so these tests validate against a small schema of the structure we rely on.
"""

from __future__ import annotations

import re
from pathlib import Path

import jsonschema
import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
ACTION = ROOT / "action.yml"
WORKFLOW = ROOT / "docs" / "examples" / "gpulint-workflow.yml"
DOCS = ROOT / "docs" / "github.md"

SCALAR = {"type": ["string", "number", "boolean"]}
_STEP = {
    "type": "object",
    "properties": {
        "name": {"type": "string"},
        "id": {"type": "string", "pattern": "^[A-Za-z_][A-Za-z0-9_-]*$"},
        "if": {"type": ["string", "boolean"]},
        "run": {"type": "string", "minLength": 1},
        "shell": {"type": "string", "enum": ["bash", "sh", "pwsh", "python", "cmd", "powershell"]},
        "uses": {"type": "string", "pattern": r"^[^\s@]+@[^\s@]+$"},
        "with": {"type": "object", "additionalProperties": SCALAR},
        "env": {"type": "object", "additionalProperties": SCALAR},
        "continue-on-error": {"type": ["boolean", "string"]},
        "working-directory": {"type": "string"},
    },
    "additionalProperties": False,
    "oneOf": [{"required": ["run"]}, {"required": ["uses"]}],
}

ACTION_SCHEMA = {
    "type": "object",
    "required": ["name", "description", "runs"],
    "properties": {
        "name": {"type": "string", "minLength": 1},
        "description": {"type": "string", "minLength": 1},
        "author": {"type": "string"},
        "branding": {"type": "object",
                     "properties": {"icon": {"type": "string"}, "color": {"type": "string"}}},
        "inputs": {
            "type": "object",
            "propertyNames": {"pattern": "^[_a-zA-Z][a-zA-Z0-9_-]*$"},
            "additionalProperties": {
                "type": "object",
                "required": ["description"],
                "properties": {
                    "description": {"type": "string", "minLength": 1},
                    "required": {"type": "boolean"},
                    "default": {"type": "string"},
                    "deprecationMessage": {"type": "string"},
                },
                "additionalProperties": False,
            },
        },
        "outputs": {
            "type": "object",
            "additionalProperties": {
                "type": "object",
                "required": ["description", "value"],
                "properties": {"description": {"type": "string"}, "value": {"type": "string"}},
                "additionalProperties": False,
            },
        },
        "runs": {
            "type": "object",
            "required": ["using", "steps"],
            "properties": {
                "using": {"const": "composite"},
                "steps": {
                    "type": "array",
                    "minItems": 1,
                    "items": {
                        **_STEP,
                        # In a composite action every run step must say which shell to use.
                        "if": {"required": ["run"]},
                        "then": {"required": ["run", "shell"]},
                    },
                },
            },
            "additionalProperties": False,
        },
    },
    "additionalProperties": False,
}

WORKFLOW_SCHEMA = {
    "type": "object",
    "required": ["name", "on", "jobs"],
    "properties": {
        "name": {"type": "string"},
        "on": {"type": ["object", "array", "string"]},
        "permissions": {
            "type": "object",
            "additionalProperties": {"enum": ["read", "write", "none"]},
        },
        "concurrency": {"type": ["object", "string"]},
        "jobs": {
            "type": "object",
            "minProperties": 1,
            "additionalProperties": {
                "type": "object",
                "required": ["runs-on", "steps"],
                "properties": {
                    "runs-on": {"type": ["string", "array"]},
                    "steps": {"type": "array", "minItems": 1, "items": _STEP},
                },
            },
        },
    },
    "additionalProperties": False,
}


def load(path: Path) -> dict:
    data = yaml.safe_load(path.read_text())
    if True in data:  # YAML 1.1 reads the key `on` as a boolean
        data["on"] = data.pop(True)
    return data


def test_action_matches_schema():
    jsonschema.Draft202012Validator(ACTION_SCHEMA).validate(load(ACTION))


def test_action_has_documented_inputs_and_steps():
    action = load(ACTION)
    assert {"paths", "config", "fail-on", "comment-behaviour", "upload-sarif",
            "python-version"} <= set(action["inputs"])
    steps = action["runs"]["steps"]
    uses = [s.get("uses", "") for s in steps]
    assert any(u.startswith("actions/setup-python@") for u in uses)
    assert any(u.startswith("github/codeql-action/upload-sarif@") for u in uses)
    runs = "\n".join(s.get("run", "") for s in steps)
    assert 'pip install --disable-pip-version-check --quiet "${{ github.action_path }}"' in runs
    assert "--format json" in runs and "--format sarif" in runs
    assert 'gpulint diff --base "origin/$GITHUB_BASE_REF" --format json' in runs
    assert "gpulint comment github" in runs
    # Output references point to step ids that exist.
    ids = {s["id"] for s in steps if "id" in s}
    for out in action["outputs"].values():
        for ref in re.findall(r"steps\.([A-Za-z0-9_-]+)\.outputs", out["value"]):
            assert ref in ids


def test_action_scripts_do_not_interpolate_inputs():
    """Inputs must reach scripts via env, not by splicing ${{ }} into the script text."""
    for step in load(ACTION)["runs"]["steps"]:
        for expr in re.findall(r"\$\{\{(.*?)\}\}", step.get("run", "")):
            assert expr.strip() == "github.action_path", expr


def test_action_behaviour_and_fail_on_defaults_are_valid():
    from gpulint.github.comment import BEHAVIOURS

    inputs = load(ACTION)["inputs"]
    assert inputs["comment-behaviour"]["default"] in BEHAVIOURS
    # Empty: the configuration's fail_on decides (tests/test_action_steps.py runs it).
    assert inputs["fail-on"]["default"] in {"", "error", "warning", "info", "never"}


def test_example_workflow_matches_schema():
    wf = load(WORKFLOW)
    jsonschema.Draft202012Validator(WORKFLOW_SCHEMA).validate(wf)
    assert wf["permissions"] == {"contents": "read", "pull-requests": "write",
                                 "security-events": "write"}
    assert "pull_request" in wf["on"]


def test_docs_embed_the_example_workflow():
    blocks = re.findall(r"```yaml\n(.*?)```", DOCS.read_text(), flags=re.S)
    assert WORKFLOW.read_text() in blocks


@pytest.mark.parametrize("bad", [
    {"name": "x", "description": "y", "runs": {"using": "composite", "steps": [{"run": "echo"}]}},
    {"name": "x", "description": "y",
     "runs": {"using": "node20", "steps": [{"run": "echo", "shell": "bash"}]}},
    {"name": "x", "description": "y", "inputs": {"a": {"default": "1"}},
     "runs": {"using": "composite", "steps": [{"run": "echo", "shell": "bash"}]}},
    {"description": "y", "runs": {"using": "composite", "steps": [{"uses": "a/b@v1"}]}},
])
def test_action_schema_rejects_broken_actions(bad):
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.Draft202012Validator(ACTION_SCHEMA).validate(bad)
