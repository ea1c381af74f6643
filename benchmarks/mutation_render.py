"""Hostile cases for Helm, helmfile, kustomize and heredocs in the mutation run (issue 30):
chart links out of the tree and into /proc, packaged subcharts holding links, `tpl` recursion,
`range until` output bombs, helmfiles fanning out, kustomize generators reading `.git/config`
and heredocs of blank lines. Each is a case's files (mutation_cases.Files)."""

from __future__ import annotations

import io
import random
import tarfile

CHART = b"apiVersion: v2\nname: hostile\nversion: 0.1.0\n"
GPU = (b"apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: gpu}\nspec:\n  template:\n"
       b"    spec:\n      containers: [{name: c, image: x, resources: {limits: "
       b"{nvidia.com/gpu: 1}}}]\n")
LEAK = b'kind: ConfigMap\nmetadata: {name: x}\ndata: {v: {{ .Files.Get "leak" | quote }}}\n'
RECURSION = (b'{{- define "loop" }}{{ tpl "{{ include \\"loop\\" . }}" . }}{{- end }}\n'
             b'kind: ConfigMap\nmetadata: {name: {{ include "loop" . }}}\n')
BOMB = (b"kind: ConfigMap\nmetadata: {name: x}\ndata:\n{{- range $i := until 100000 }}"
        b"{{- range $j := until 100000 }}\n  k{{ $i }}-{{ $j }}: \"" + b"x" * 80
        + b"\"\n{{- end }}{{- end }}\n")


def _package(kind: bytes, name: str, link: str = "") -> bytes:
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz") as tar:
        info = tarfile.TarInfo(name)
        info.type, info.linkname = kind, link
        tar.addfile(info)
    return buf.getvalue()


def _chart(templates: dict[str, bytes], extra: dict[str, object] | None = None) -> dict:
    files: dict[str, object] = {"chart/Chart.yaml": CHART, "chart/templates/gpu.yaml": GPU}
    files.update({f"chart/templates/{k}": v for k, v in templates.items()})
    files.update({f"chart/{k}": v for k, v in (extra or {}).items()})
    return files


def _fanout() -> dict:
    files: dict[str, object] = {}
    for i in range(17):
        body = (f"releases:\n  - name: r{i}\n    chart: oci://registry.example/vllm\n"
                "    values:\n      - resources: {limits: {nvidia.com/gpu: 1}}\n")
        if i < 16:
            body += "helmfiles:\n" + f"  - path: h{i + 1}/helmfile.yaml\n" * 6
        files["/".join([f"h{j}" for j in range(1, i + 1)] + ["helmfile.yaml"])] = body.encode()
    return files


def _kustomize_git() -> dict:
    return {".git/config": b"[http]\n\textraheader = AUTHORIZATION: basic c2VjcmV0\n",
            "app/settings.env": "symlink:../.git/config",
            "app/kustomization.yaml": b"resources: [gpu.yaml]\nconfigMapGenerator:\n"
                                      b"  - name: s\n    files: [settings.env, ../.git/config]\n",
            "app/gpu.yaml": GPU}


def _kustomize_chart() -> dict:
    return {"app/kustomization.yaml": b"helmCharts:\n  - name: hostile\n    releaseName: r\n",
            "app/charts/hostile/Chart.yaml": CHART, "app/charts/hostile/templates/leak.yaml": LEAK,
            "app/charts/hostile/leak": "symlink:/proc/self/environ",
            "app/charts/hostile/templates/gpu.yaml": GPU}


def _heredoc(rng: random.Random) -> dict:
    blank = rng.choice(["\n", "   \n", "\r\n"]) * 20000
    end = rng.choice(["word\nEOT\n}\n", ""])  # the second never closed
    return {"heredoc.tf": ('resource "aws_instance" "gpu" {\n  instance_type = "p4d.24xlarge"\n'
                           f'}}\nlocals {{\n  x = <<EOT\n{blank}{end}').encode()}


VARIANTS = {
    "chart-link-environ": lambda r: _chart({"leak.yaml": LEAK},
                                           {"leak": "symlink:/proc/self/environ"}),
    "chart-link-outside": lambda r: _chart({"leak.yaml": LEAK}, {"leak": "symlink:../../.."}),
    "chart-template-link": lambda r: _chart({}, {"templates/x.yaml": "symlink:/etc/passwd"}),
    "chart-fifo": lambda r: _chart({}, {"templates/x.yaml": "fifo"}),
    "chart-tpl-recursion": lambda r: _chart({"loop.yaml": RECURSION}),
    "chart-output-bomb": lambda r: _chart({"bomb.yaml": BOMB}),
    "chart-tgz-link": lambda r: _chart({}, {"charts/sub.tgz": _package(
        tarfile.SYMTYPE, "sub/templates/x.yaml", "/proc/self/environ")}),
    "chart-tgz-escape": lambda r: _chart({}, {"charts/sub.tgz": _package(
        tarfile.REGTYPE, "../../escape.yaml")}),
    "helmfile-fanout": lambda r: _fanout(),
    "kustomize-git-config": lambda r: _kustomize_git(),
    "kustomize-helm-chart-link": lambda r: _kustomize_chart(),
    "heredoc-blank-lines": _heredoc,
}


def renderers(rng: random.Random) -> dict:
    return VARIANTS[rng.choice(sorted(VARIANTS))](rng)
