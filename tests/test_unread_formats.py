"""CloudFormation templates and parameter files and AWS ParallelCluster configurations are not
read, but their accelerators are named at their line with the format, never passed silently;
CPU-only items are not named, and none of them is reported as a GPU resource."""

from __future__ import annotations

import os

from gpulint import pipeline
from gpulint.config.settings import Settings
from gpulint.report.coverage import UNACCOUNTED, measure
from gpulint.report.remedies import fix_for
from gpulint.reporters.text import root_cause

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "unread_formats")


def _named() -> dict[tuple[str, str], tuple[int, str]]:
    result = pipeline.run([os.path.relpath(DATA)], [], Settings())
    assert result.resources == []  # not read: nothing is priced as if it were
    return {(os.path.basename(n.path), n.address): (n.line, n.reason)
            for n in result.module_notes}


def test_each_item_with_accelerators_is_named_with_its_format() -> None:
    got = _named()
    assert set(got) == {
        ("batch-p5.yaml", "AWS::Batch::ComputeEnvironment/DistributedDeepLearningCE"),
        ("batch-p5.yaml", "AWS::Batch::JobDefinition/NCCLTest"),
        ("hyperpod-cluster-stack.yaml", "AWS::SageMaker::Cluster/HyperPodCluster"),
        ("g5-params.json", "Parameter/AcceleratedInstanceType"),
        ("cluster-vanilla.yaml", "SlurmQueues/compute-gpu"),
        ("ec2-template.json", "AWS::EC2::Instance/Inference"),
        ("pcluster-two-queues.yaml", "SlurmQueues/train"),
    }
    ce = ("batch-p5.yaml", "AWS::Batch::ComputeEnvironment/DistributedDeepLearningCE")
    line, reason = got[ce]
    assert line == 17 and "InstanceTypes[0] = p5.48xlarge" in reason
    assert "a CloudFormation template, a format gpulint does not read" in reason
    assert "GPU 8" in got[("batch-p5.yaml", "AWS::Batch::JobDefinition/NCCLTest")][1]
    # A parameter reference is followed to the parameter's default.
    assert "!Ref AcceleratedInstanceType (default ml.g5.8xlarge)" in \
        got[("hyperpod-cluster-stack.yaml", "AWS::SageMaker::Cluster/HyperPodCluster")][1]
    line, reason = got[("g5-params.json", "Parameter/AcceleratedInstanceType")]
    assert line == 8 and "a CloudFormation parameter file" in reason
    line, reason = got[("cluster-vanilla.yaml", "SlurmQueues/compute-gpu")]
    assert line == 11 and "${INSTANCE} (unset: might be a GPU queue)" in reason
    assert "an AWS ParallelCluster configuration" in reason
    assert "p4d.24xlarge" in got[("pcluster-two-queues.yaml", "SlurmQueues/train")][1]


def test_the_grouped_cause_has_a_fix() -> None:
    _, reason = _named()[("ec2-template.json", "AWS::EC2::Instance/Inference")]
    assert "add its cost outside the report" in fix_for(root_cause(f"could not evaluate: "
                                                                    f"{reason}"), reason)


def test_the_coverage_benchmark_counts_them_named() -> None:
    cov = measure([os.path.relpath(DATA)])
    assert [i for i in cov.items if i.outcome == UNACCOUNTED] == []
