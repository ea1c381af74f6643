"""Time and memory of a whole `gpulint scan` of one dense Terraform file (issue 30: a 1.8 MB `.tf`
must be scanned in 10 s and 500 MB, or refused at its size bound with a diagnostic).

    python benchmarks/bench_dense_tf.py [--sizes 1800000,520000,262144]

For each size a dense `.tf` (tests/hostile_inputs.py `dense_tf`) is written alone into a
directory and scanned by a child process, once with the default `--max-hcl-size` and, for a
file above it, once more with the bound raised so the file is parsed. Prints CPU seconds
(user + system), wall seconds and peak resident memory from os.wait4.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(ROOT, "tests"))
import hostile_inputs  # type: ignore[import-not-found]  # noqa: E402

DEFAULT_BOUND_KIB = 512  # gpulint.files.text.DEFAULT_MAX_HCL_BYTES


def measure(directory: str, extra: list[str]) -> tuple[float, float, float]:
    """(CPU seconds, wall seconds, peak MiB) of one scan of `directory`."""
    env = {**os.environ, "PYTHONPATH": os.path.join(ROOT, "src"), "GPULINT_NO_PROGRESS": "1"}
    argv = [sys.executable, "-m", "gpulint", "scan", "--format", "json", "--no-cache",
            "--fail-on", "never", *extra, directory]
    start = time.monotonic()
    proc = subprocess.Popen(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, _, usage = os.wait4(proc.pid, 0)
    proc.returncode = 0  # reaped above
    wall = time.monotonic() - start
    return usage.ru_utime + usage.ru_stime, wall, usage.ru_maxrss / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1800000,520000,262144",
                        help="file sizes in bytes, comma-separated")
    args = parser.parse_args()
    print("| file | --max-hcl-size | outcome | CPU s | wall s | peak MiB |")
    print("| --- | --- | --- | --- | --- | --- |")
    with tempfile.TemporaryDirectory(prefix="gpulint-dense-") as tmp:
        for size in (int(s) for s in args.sizes.split(",")):
            directory = os.path.join(tmp, str(size))
            os.makedirs(directory)
            text = hostile_inputs.dense_tf(size)
            size = len(text.encode())
            with open(os.path.join(directory, "main.tf"), "w", encoding="utf-8") as fh:
                fh.write(text)
            runs = [("default", [])]
            if size > DEFAULT_BOUND_KIB * 1024:
                runs.append((str(size // 1024 + 1), ["--max-hcl-size", str(size // 1024 + 1)]))
            for label, extra in runs:
                cpu, wall, peak = measure(directory, extra)
                parsed = label != "default" or size <= DEFAULT_BOUND_KIB * 1024
                print(f"| {size:,} bytes | {label} | {'parsed' if parsed else 'refused'} "
                      f"| {cpu:.1f} | {wall:.1f} | {peak:.0f} |", flush=True)


if __name__ == "__main__":
    main()
