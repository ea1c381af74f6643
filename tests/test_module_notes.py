"""Module calls not followed are one note per source, and no message names a Python type."""

from __future__ import annotations

import os
import re

import pytest

from gpulint import pipeline as scan
from gpulint.terraform.expressions import get_attr, index

HERE = os.path.dirname(__file__)
REMOTE = os.path.relpath(os.path.join(HERE, "terraform", "remote_modules"))
PYTHON_NAMES = re.compile(r"NoneType|\bdict\b|\btuple\b|\bstr\b|\bfloat\b|\bint\b|Unknown\(|"
                          r"<class")


def test_one_note_per_source_with_the_number_of_calls() -> None:
    result = scan.run([REMOTE], [])
    notes = sorted((n.address, n.reason) for n in result.module_notes
                   if n.address.startswith("module."))
    # An instance whose type reads a remote module's missing setting is named apart.
    assert [n.address for n in result.module_notes if not n.address.startswith("module.")] \
        == ["aws_instance.from_settings"]
    assert notes == [
        ("module.buckets", "module source 'terraform-aws-modules/s3-bucket/aws' is not local "
                           "and not downloaded under .terraform/modules (2 calls)"),
        ("module.gpu_pool_a", "local module directory ../modules/gpu-pool does not exist "
                              "(2 calls)"),
        ("module.irsa", "module source 'git::https://github.com/acme/terraform-iam.git//roles"
                        "?ref=v1.4.0' is not local and not downloaded under .terraform/modules "
                        "(1 call)"),
        ("module.vpc_training", "module source 'terraform-aws-modules/vpc/aws' is not local and "
                                "not downloaded under .terraform/modules (2 calls)"),
    ]


def test_values_are_named_as_terraform_names_them() -> None:
    assert get_attr(None, "metrics_adapter").reason == \
        "cannot read attribute 'metrics_adapter' of a null value"
    assert get_attr("x", "a").reason == "cannot read attribute 'a' of a string"
    assert index(3, 0).reason == "cannot index a number"
    assert index(True, 0).reason == "cannot index a bool"


@pytest.mark.slow
def test_no_message_of_the_fixtures_names_a_python_type() -> None:
    result = scan.run([os.path.relpath(os.path.join(HERE, "terraform"))], [])
    messages = [n.reason for n in result.module_notes] + \
        [d.message for d in result.diagnostics] + \
        [reason for r in result.resources for _, reason in r.unknowns]
    leaked = [m for m in messages if PYTHON_NAMES.search(m)]
    assert not leaked, leaked
