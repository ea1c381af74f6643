"""The Helm SDK's own process: `python -m gpulint.render.helm_child`, one render per run.

The SDK is Helm's Go code loaded into Python; a chart that recurses in `tpl` overflows Go's stack
(a fatal error no Python code can catch) and a chart that prints without end exhausts memory. So
the SDK is imported only here, in a child that confine.py starts with its limits, and that sets
them again itself before the import (a child started by other means is bounded too).

Request on standard input, JSON: {"chart": dir, "release": name, "namespace": ns, "values": {},
"timeout": seconds}. Answer on standard output, JSON: {"renderer": name, "templates": {path:
text}} or {"renderer": name, "error": why}; a template error is an answer (exit 0), a limit is not.
"""

from __future__ import annotations

import json
import sys
from typing import Any


def _answer(data: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(data))
    sys.stdout.flush()


def main() -> int:
    request = json.loads(sys.stdin.read())
    from gpulint.render.confine import limiter

    apply = limiter(float(request.get("timeout") or 60))
    if apply is not None:
        apply()
    try:
        import helm_python  # type: ignore[import-not-found, unused-ignore]
    except (ImportError, OSError) as e:  # no native library for this platform
        _answer({"renderer": "Helm SDK", "error": f"the Helm SDK cannot be loaded ({e})"})
        return 0
    name = f"Helm SDK {helm_python.helm_sdk_version()}"
    try:
        with helm_python.Chart.load(request["chart"]) as chart:
            out = chart.render(request.get("values") or {}, name=request["release"],
                               namespace=request.get("namespace") or "default")
    except Exception as e:  # the SDK's errors: a template, a missing value, a bad chart
        detail = str(getattr(e, "detail", "") or e).strip().splitlines()
        _answer({"renderer": name, "error": detail[-1] if detail else type(e).__name__})
        return 0
    if not isinstance(out, dict):
        _answer({"renderer": name, "error": "no output"})
        return 0
    _answer({"renderer": name, "templates": {str(k): str(v) for k, v in out.items()}})
    return 0


if __name__ == "__main__":
    sys.exit(main())
