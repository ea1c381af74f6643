"""Fact builders never raise, whatever values a resource holds (wrong types, unknowns,
nesting where a scalar belongs): bad input becomes unknown facts, not a traceback."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gpulint.facts.terraform import BUILDERS, build_all
from gpulint.model import Unknown
from gpulint.pricing import price as cost
from gpulint.terraform.values import ValueView
from gpulint.terraform.views import ResourceInstance

pytestmark = pytest.mark.slow

# Attribute and block names the builders read, so generated resources reach their branches.
NAMES = ["instance_type", "instance_types", "capacity_type", "market_type", "min_size",
         "max_size", "desired_size", "desired_capacity", "scaling_config", "launch_template",
         "mixed_instances_policy", "instances_distribution", "on_demand_base_capacity",
         "on_demand_percentage_above_base_capacity", "override", "tags", "labels", "tag",
         "key", "value", "production_variants", "initial_instance_count", "compute_resources",
         "type", "min_vcpus", "max_vcpus", "machine_type", "guest_accelerator", "count",
         "scheduling", "preemptible", "provisioning_model", "spot", "node_config",
         "autoscaling", "min_node_count", "max_node_count", "node_count", "location",
         "node_locations", "zone", "region", "target_size", "version", "gce_setup",
         "accelerator_configs", "accelerator_config", "core_count", "metadata",
         "accelerator_type", "topology", "scheduling_config", "size", "sku", "priority",
         "instances", "vm_size", "default_node_pool", "auto_scaling_enabled", "min_count",
         "max_count", "virtual_machine_size", "idle_time_before_shutdown", "vm_priority",
         "scale_settings", "node_type_id", "driver_node_type_id", "num_workers", "autoscale",
         "min_workers", "max_workers", "aws_attributes", "azure_attributes", "availability",
         "first_on_demand", "autotermination_minutes", "instance_market_options",
         "remove_default_node_pool", "node_pool", "name", "status",
         "managed_instance_scaling", "sku_name"]
SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-5, 500), st.floats(allow_nan=False),
                    st.sampled_from(["g5.xlarge", "ml.g5.xlarge", "SPOT", "Spot", "2x2", "V2",
                                     "v3-8", "nvidia-tesla-t4", "g2-standard-8", "x", "",
                                     "Standard_NC6s_v3", "us-central1-a", "LowPriority"]),
                    st.just(Unknown("test")))
VALUES = st.recursive(SCALARS, lambda inner: st.one_of(
    st.lists(inner, max_size=3), st.dictionaries(st.sampled_from(NAMES), inner, max_size=4)),
    max_leaves=12)


@settings(max_examples=300, deadline=None)
@given(type_=st.sampled_from(sorted(BUILDERS)),
       values=st.dictionaries(st.sampled_from(NAMES), VALUES, max_size=8))
def test_builders_never_raise(type_: str, values: dict[str, Any]) -> None:
    inst = ResourceInstance(f"{type_}.x", type_, "x", "managed", "x.tf", ValueView(values, 3),
                            {}, "")
    for res in build_all(inst):
        cost.price_resource(res)
        assert res.line == 3
