"""GPU pools that only unloaded .tfvars files give a root module.

Production repositories keep one root module and one var file per cluster (`projects/leap.tfvars`,
`envs/prod.tfvars`), passed with `terraform apply -var-file=…`. Scanned alone, the root sees the
variables' defaults (often `{}`), so the GPU pools those files declare would vanish without a
word. Each variable that such files give accelerator evidence is named once, at its declaration,
with the files and the flag; `terraform.var_file_variants: true` scans each file as a cluster.
"""

from __future__ import annotations

import os
import re
from typing import Any

from gpulint.facts.terraform.hints import catalog_gpu_name
from gpulint.model import Unknown
from gpulint.terraform.module import ModuleCallNote

# Keys that hold an accelerator in pool maps (`gpu = {enabled = true, count = 1}`,
# `guest_accelerator`, `accelerators`, `gpu_count`, `num_gpus`, `enable_gpu`), matched whole:
# a map key that only contains the word (a pool or disk named `gpu-demo`) is a name.
_KEY = re.compile(r"(num_|enable_)?(gpus?|accelerators?|guest_accelerators?|tpus?)"
                  r"(_count|_type|_enabled)?", re.I)
_OFF = {"", "0", "false", "none", "no", "disabled"}
_MAX_NODES = 10_000  # a var file is small; a pathological one is not walked whole


def _on(value: Any) -> bool:
    """An accelerator setting that asks for one: `{enabled = false}`, 0, "" and {} do not."""
    if isinstance(value, dict):
        if "enabled" in value and not _on(value["enabled"]):
            return False
        return any(_on(v) for k, v in value.items() if k != "enabled")
    if isinstance(value, list):
        return any(_on(v) for v in value)
    if isinstance(value, bool):
        return value
    if isinstance(value, (int, float)):
        return value > 0
    return isinstance(value, str) and value.strip().lower() not in _OFF


def evidence(value: Any) -> str | None:
    """What in a variable's value says accelerator: a GPU machine type or accelerator name the
    catalog knows, or an accelerator key with a value that is on (`gpu.count = 1`)."""
    stack: list[tuple[str, Any]] = [("", value)]
    seen = 0
    while stack and seen < _MAX_NODES:
        where, item = stack.pop()
        seen += 1
        if isinstance(item, str):
            if catalog_gpu_name(item):
                return f"{where or 'value'} = {item.strip()}"
        elif isinstance(item, dict):
            for key, inner in reversed(list(item.items())):
                name = f"{where}.{key}" if where else str(key)
                if _KEY.fullmatch(str(key)):
                    if _on(inner):
                        return name
                    continue  # switched off: an accelerator named inside is not asked for
                stack.append((name, inner))
        elif isinstance(item, list):
            stack.extend((f"{where}[{i}]", v) for i, v in reversed(list(enumerate(item))))
    return None


def notes(settings: list[Any]) -> list[ModuleCallNote]:
    """One "could not evaluate" note per variable that unloaded var files give GPU pools while
    the scan's value for it (its default, or terraform.tfvars') has none. A variable without
    either is unknown already, and its reason names the file."""
    out = []
    for setting in settings:
        if not setting.has_default and not setting.given:
            continue
        if setting.given and (isinstance(setting.used, Unknown) or evidence(setting.used)):
            continue  # an unknown value names its own cause; a GPU value was read
        with_gpu = [(path, why) for path, value in setting.files
                    if not isinstance(value, Unknown) and (why := evidence(value))]
        if not with_gpu:
            continue
        root = os.path.dirname(setting.path) or "."
        names = [os.path.relpath(path, root) for path, _ in with_gpu]
        shown = ", ".join(names[:3]) + (f" and {len(names) - 3} more" if len(names) > 3 else "")
        first_path, first_why = with_gpu[0]
        used = "a value it was given, without accelerators" if setting.given else \
            "its default"
        files = "1 var file gives" if len(names) == 1 else f"{len(names)} var files give"
        out.append(ModuleCallNote(
            f"var.{setting.variable}", setting.path, setting.line,
            f"GPU pools only in var files not loaded, {files} variable "
            f"{setting.variable} accelerators ({shown}, e.g. {first_why}) and the scan used "
            f"{used}; pass --var-file {os.path.relpath(first_path)}, or set "
            f"terraform.var_file_variants to scan each file as a cluster"))
    return out


def stray_notes(stray: list[tuple[str, Any]]) -> list[ModuleCallNote]:
    """One "could not evaluate" note per var file no root in the scan owns whose values hold
    accelerators: the pools it declares exist only with a root gpulint cannot pair it with."""
    out = []
    for path, data in stray:
        why = evidence(data)
        if why is None:
            continue
        out.append(ModuleCallNote(
            os.path.basename(path), path, 1,
            f"{os.path.relpath(path)} gives accelerators ({why}), yet no root module loads it: "
            "GPU pools in a var file beside no Terraform root"))
    return out
