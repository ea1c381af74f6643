"""Hostile cases for the mutation run (mutation.py): each is a copy of a real-world-shaped
fixture directory (examples/, tests/terraform, tests/fixtures, tests/rules) with one hostile
file written into it: random mutations of the fixture's own files, deep nesting, huge numbers,
hostile regular expressions, memory doublers, symbolic links out of the tree, FIFOs, odd
encodings and file names, YAML and Terraform structures that once crashed or hung gpulint.

Files that cannot be committed come from tests/hostile_inputs.py where it has them. Every case
is deterministic for a seed.
"""

from __future__ import annotations

import glob
import os
import random
import shutil
import sys
from collections.abc import Callable
from dataclasses import dataclass

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(ROOT, "tests"))
import mutation_render  # noqa: E402

import hostile_inputs  # type: ignore[import-not-found]  # noqa: E402

SEED_DIRS = sorted({os.path.dirname(p) for pattern in (
    "examples/**/*.tf", "examples/**/*.yaml", "tests/terraform/**/*.tf",
    "tests/terraform/**/*.tfvars", "tests/fixtures/**/*.yaml", "tests/fixtures/**/*.tf",
    "tests/rules/**/*.tf", "tests/rules/**/*.yaml") for p in glob.glob(
    os.path.join(ROOT, pattern), recursive=True)})
PUNCTUATION = [b"{", b"}", b"[", b"]", b"(", b")", b'"', b"${", b"%{", b"=", b":", b",", b"- ",
               b"---\n", b"&a ", b"*a ", b"<<: *a\n", b"\t", b"#", b"<<EOF\n", b"\\", b"\x00",
               b"\xff\xfe", b"\r\n", b"{{ .Values.x }}", b"!!python/object ", b"?", b"1e999",
               b"9" * 5000, b"\u202e".decode("unicode_escape").encode(), b"\xef\xbb\xbf"]

Special = str  # "fifo" or "symlink:TARGET"
Files = dict[str, "bytes | Special"]


@dataclass
class Case:
    name: str  # category/variant
    seed: str  # the fixture directory copied
    files: Files  # relative path -> content, "fifo" or "symlink:target"
    own_scan: bool = False  # a configuration file: scanned alone, from its directory

    def write(self, directory: str) -> int:
        """Copy the seed's files and write the case's; the number of hostile files written."""
        os.makedirs(directory, exist_ok=True)
        for name in sorted(os.listdir(self.seed)):
            src = os.path.join(self.seed, name)
            if os.path.isfile(src) and not os.path.islink(src):
                shutil.copy(src, os.path.join(directory, name))
        for rel, content in self.files.items():
            path = os.path.join(directory.encode(), rel.encode("utf-8", "surrogateescape"))
            os.makedirs(os.path.dirname(path), exist_ok=True)
            if os.path.lexists(path):
                os.remove(path)
            if content == "fifo":
                os.mkfifo(path)
            elif isinstance(content, str) and content.startswith("symlink:"):
                os.symlink(content[len("symlink:"):], path)
            else:
                with open(path, "wb") as fh:
                    fh.write(content if isinstance(content, bytes) else content.encode())
        return len(self.files)


def _read(path: str) -> bytes:
    with open(path, "rb") as fh:
        return fh.read()


def _seed_files(seed: str) -> list[str]:
    return sorted(n for n in os.listdir(seed) if n.endswith((".tf", ".yaml", ".yml", ".tfvars",
                                                             ".json"))
                  and os.path.isfile(os.path.join(seed, n)))


def _mutate(rng: random.Random, data: bytes) -> bytes:
    buf = bytearray(data)
    for op in rng.choices(["flip", "truncate", "drop", "dup", "insert"], k=rng.randint(1, 4)):
        lines = bytes(buf).split(b"\n")
        if op == "flip" and buf:
            buf[rng.randrange(len(buf))] ^= rng.randint(1, 255)
        elif op == "truncate":
            buf = buf[:rng.randint(0, len(buf))]
        elif op in ("drop", "dup") and lines:
            i = rng.randrange(len(lines))
            lines[i:i + 1] = [] if op == "drop" else [lines[i]] * rng.choice([2, 50])
            buf = bytearray(b"\n".join(lines))
        elif op == "insert":
            pos = rng.randint(0, len(buf))
            buf[pos:pos] = rng.choice(PUNCTUATION) * rng.choice([1, 1, 3, 200])
    return bytes(buf)


def _tf(body: str) -> bytes:
    return (body + '\nresource "aws_instance" "gpu" {\n  instance_type = "p4d.24xlarge"\n'
            '  tags = { team = "ml" }\n}\n').encode()


def _pod(extra: str) -> bytes:
    return ("apiVersion: v1\nkind: Pod\nmetadata:\n  name: gpu\nspec:\n  containers:\n"
            "  - name: c\n    image: vllm/vllm-openai:v0.6.0\n    resources:\n      limits:\n"
            "        nvidia.com/gpu: 1\n" + extra).encode()


def _nested(rng: random.Random) -> Files:
    depth = rng.choice([50, 199, 201, 1000, 5000, 30_000])
    kind = rng.choice(["hcl-list", "hcl-object", "yaml-flow", "yaml-block", "json", "tf-json",
                       "yaml-named"])
    if kind == "yaml-named":  # YAML read by other paths than the manifest loader
        name = rng.choice(["values.yaml", "Chart.yaml", "kustomization.yaml", "helmfile.yaml",
                           "values-prod.yaml"])
        return {name: b"x: " + b"[" * depth + b"]" * depth + b"\n"}
    if kind == "hcl-list":
        return {"deep.tf": _tf("locals {\n  x = " + "[" * depth + "1" + "]" * depth + "\n}")}
    if kind == "hcl-object":
        return {"deep.tf": _tf("locals {\n  x = " + "{a = " * depth + "1" + "}" * depth + "\n}")}
    if kind == "yaml-flow":
        return {"deep.yaml": _pod("  x: " + "[" * depth + "]" * depth + "\n")}
    if kind == "yaml-block":
        depth = min(depth, 3000)
        return {"deep.yaml": _pod("".join("  " * (i + 1) + "- \n" for i in range(depth)))}
    if kind == "json":
        return {"deep.json": b'{"apiVersion": "v1", "kind": "Pod", "spec": ' + b"[" * depth
                + b"]" * depth + b"}"}
    return {"deep.tf.json": b'{"locals": {"x": ' + b"[" * depth + b"]" * depth + b"}}"}


_NUMBERS = [
    "count = 1e999", "count = -1e999", 'count = "1e999"', "count = 99999999999999999999999",
    "count = 1/0", "count = 0/0 == 0 ? 1 : 2", "count = pow(10, 400)", "count = pow(2, 1e6)",
    "count = parseint(\"" + "9" * 5000 + "\", 10)", "count = " + "9" * 5000,
    "count = " + "9" * 4300 + " / 3", "count = max(1e308 * 10, 1)", "count = floor(1e999)",
    "count = ceil(-1e999)", "count = log(0, 10)", "count = signum(0/0)",
    "count = length(range(1e9))", "count = abs(-" + "7" * 4400 + ")",
    "count = tonumber(\"" + "1" * 5000 + "\")", "count = 1e-999 == 0 ? 1 : 0",
]


def _numbers(rng: random.Random) -> Files:
    which = rng.randrange(len(_NUMBERS) + 4)
    if which < len(_NUMBERS):
        line = _NUMBERS[which]
        return {"numbers.tf": _tf('resource "aws_instance" "n" {\n  instance_type = '
                                  f'"g5.xlarge"\n  {line}\n}}')}
    digits = "9" * rng.choice([4301, 5000, 100_000])
    pod = '{"apiVersion": "v1", "kind": "Pod", "spec": {"x": ' + digits + "}}"
    choices: list[Files] = [
            {"n.json": pod.encode()},
            {"n.yaml": _pod(f"  replicas: {digits}\n  f: 1e999\n  g: .nan\n")},
            {"n.tfvars": f"gpu_count = {digits}\n".encode()},
            {"n.auto.tfvars.json": f'{{"gpu_count": {digits}}}'.encode()}]
    return choices[which - len(_NUMBERS)]


_REGEXES = [
    'regex("(", "x")', 'try(regex("(", "x"), "p4d.24xlarge")', 'regex("(a+)+$", "' + "a" * 40
    + '!")', 'replace("' + "a" * 40 + '!", "/(a|aa)+$/", "")', 'regexall("(x*)*y", "'
    + "x" * 5000 + '")', 'can(regex("[", "x")) ? "g5.xlarge" : "p5.48xlarge"',
    'replace("x", "/(?P<n>", "")', 'regex("\\\\p{Foo}", "x")', 'regex("' + "(" * 500 + ')' * 500
    + '", "x")', 'regex("a{99999}{99999}", "a")',
]


def _regexes(rng: random.Random) -> Files:
    expr = rng.choice(_REGEXES)
    if rng.random() < 0.2:  # a tag pattern in the configuration: its own scan
        return {".gpulint.yaml": b'tags:\n  required: [team]\n  patterns:\n    team: "(a+)+$"\n',
                "tags.tf": ('resource "aws_instance" "t" {\n  instance_type = "p4d.24xlarge"\n'
                            '  tags = { team = "' + "a" * 40 + '!" }\n}\n').encode()}
    return {"regex.tf": _tf(f'resource "aws_instance" "r" {{\n  instance_type = {expr}\n}}')}


_DOUBLERS = [
    'format("%.999999999f", 1)', 'format("%999999999d", 1)', 'format("%-999999999s", "x")',
    'join(",", [for i in range(100000) : join(",", range(1000))])',
    'strrev(join("", [for i in range(100000) : "abcdefghij"]))',
    'length(concat([for i in range(100000) : i], [for i in range(100000) : i]))',
    'length(flatten([for i in range(1000) : [for j in range(1000) : j]]))',
    'replace(join("", [for i in range(100000) : "ab"]), "a", join("", range(1000)))',
    '"%{ for i in range(100000) }%{ for j in range(1000) }abcdefghij%{ endfor }%{ endfor }"',
    '"%{ for i in range(100000) }${join("", [for j in range(100000) : "ab"])}%{ endfor }"',
    '"' + "%{ if true }" * 5000 + "x" + "%{ endif }" * 5000 + '"',
    '"' + "%{ for x in [1, 2] }" * 40 + "ab" + "%{ endfor }" * 40 + '"',
    'length(fileset("/", "**"))', 'length(fileset(".", "**/**/**/**/**/*"))',
    'length(fileset(".", "{a,b}{c,d}{e,f}{g,h}{i,j}{k,l}{m,n}{o,p}{q,r}"))',
]


def _memory(rng: random.Random) -> Files:
    if rng.random() < 0.4:  # a chain of locals, each twice the last: 2^40 characters
        chain = ["  l0 = \"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\""] + [
            f'  l{i} = "${{local.l{i - 1}}}${{local.l{i - 1}}}"' for i in range(1, 41)]
        join_chain = ["  j0 = [\"x\"]"] + [f"  j{i} = concat(local.j{i - 1}, local.j{i - 1})"
                                          for i in range(1, 41)]
        body = "\n".join(rng.choice([chain, join_chain]))
        return {"doubling.tf": _tf("locals {\n" + body + "\n}\nresource \"aws_instance\" \"d\" "
                                   "{\n  instance_type = length(local.l40) > 0 ? \"g5.xlarge\" "
                                   ": \"p5.48xlarge\"\n}")}
    expr = rng.choice(_DOUBLERS)
    return {"memory.tf": _tf(f'locals {{\n  x = {expr}\n}}\nresource "aws_instance" "m" {{\n'
                             '  instance_type = "g5.xlarge"\n  tags = { v = local.x }\n}')}


def _links(rng: random.Random) -> Files:
    target = rng.choice(["/etc/hostname", "/etc/passwd", "/", "/dev/zero", "/dev/urandom",
                         "/proc/self/environ", "..", ".", "../../..", "missing.tf",
                         "/nonexistent/x.tf"])
    name = rng.choice(["x.auto.tfvars", "terraform.tfvars", "secret.auto.tfvars.json",
                       "main.tf", "values.yaml", "modules", "link", "zero.tf", "pod.yaml",
                       "vars.tfvars"])
    files: Files = {name: f"symlink:{target}"}
    if name == "modules":
        files["calls.tf"] = _tf('module "m" {\n  source = "./modules/anything"\n}')
    return files


def _fifos(rng: random.Random) -> Files:
    name = rng.choice(["main.tf", "pod.yaml", "x.auto.tfvars", "x.auto.tfvars.json",
                       "terraform.tfvars", "values.yaml", "Chart.yaml", "kustomization.yaml",
                       "plan.json", ".terraform/modules/modules.json", "templates/x.yaml"])
    return {name: "fifo"}


def _encodings(rng: random.Random, seed: str) -> Files:
    names = _seed_files(seed) or ["main.tf"]
    name = rng.choice(names)
    path = os.path.join(seed, name)
    text = _read(path) if os.path.isfile(path) else _tf("")
    variant = rng.choice(["utf16le", "utf16be", "utf32", "latin1", "nul", "bom-crlf", "cr",
                          "name", "name-bidi", "mixed"])
    decoded = text.decode("utf-8", "replace")
    if variant == "utf16le":
        return {name: b"\xff\xfe" + decoded.encode("utf-16-le")}
    if variant == "utf16be":
        return {name: b"\xfe\xff" + decoded.encode("utf-16-be")}
    if variant == "utf32":
        return {name: decoded.encode("utf-32")}
    if variant == "latin1":
        return {name: text + "\n# caf\u00e9 na\u00efve\n".encode("latin-1")}
    if variant == "nul":
        return {name: text[: len(text) // 2] + b"\x00" + text[len(text) // 2:]}
    if variant == "bom-crlf":
        return {name: b"\xef\xbb\xbf" + text.replace(b"\n", b"\r\n")}
    if variant == "cr":
        return {name: text.replace(b"\n", b"\r")}
    if variant == "name":  # a file name that is not valid UTF-8
        return {"caf\udce9" + os.path.splitext(name)[1]: text}
    if variant == "name-bidi":
        return {"\u202egpu\u200b" + name: text}
    return {name: text.replace(b"\n", b"\r\n", 3)}


_YAML = [
    _pod("  x: 2020-13-45\n"), _pod("  x: !!timestamp 2020-13-45\n"), _pod("  x: !!binary 'x'\n"),
    _pod("  x: !!set {a, b}\n"), _pod("  x: !!python/object:os.system ['id']\n"),
    _pod("  x: &a [*a]\n"), _pod("  ? [a, b]\n  : c\n"), _pod("  x: !Ref y\n"),
    b"---\n" * 20000 + _pod(""), (_pod("") + b"---\n") * 2000,
    _pod("  x: '" + "y" * 1_000_000 + "'\n"), _pod("  {a: 1}: 2\n"), _pod("  1.5: x\n  null: y\n"),
    b"apiVersion: v1\nkind: List\nitems:\n" + b"".join(b"- " + _pod("").replace(b"\n", b"\n  ")
                                                      + b"\n" for _ in range(500)),
]


def _yaml(rng: random.Random) -> Files:
    which = rng.randrange(len(_YAML) + 1)
    if which == len(_YAML):
        return {"bomb.yaml": _read(os.path.join(hostile_inputs.HOSTILE, "alias-bomb.yaml"))}
    return {"odd.yaml": _YAML[which]}


def _structure(rng: random.Random) -> Files:
    kind = rng.choice(["self", "cycle", "dup", "directives", "heredoc", "tfjson", "kustomize",
                       "many", "dynamic", "helm-set"])
    if kind == "helm-set":  # a --set list index Helm refuses: must not grow a list to it
        index = rng.choice([70_000, 900_000_000])
        return {"release.tf": _tf('resource "helm_release" "x" {\n  name  = "x"\n'
                                  '  chart = "vllm-stack"\n  set {\n    name  = '
                                  f'"servingEngineSpec.modelSpec[{index}].requestGPU"\n'
                                  '    value = "1"\n  }\n}'),
                "helmfile.yaml": ("releases:\n  - name: chat\n    chart: vllm/vllm-stack\n"
                                  "    set:\n      - name: servingEngineSpec.modelSpec"
                                  f"[{index}].requestGPU\n        value: 1\n").encode()}
    if kind == "self":
        return {"self.tf": _tf('module "me" {\n  source = "./"\n  count = 3\n}')}
    if kind == "cycle":
        return {"a/main.tf": _tf('module "b" {\n  source = "../b"\n  count = 3\n}'),
                "b/main.tf": _tf('module "a" {\n  source = "../a"\n  count = 3\n}'),
                "root.tf": _tf('module "a" {\n  source = "./a"\n  count = 3\n}')}
    if kind == "dup":
        return {"dup.tf": _tf('module "x" {\n  source = "./m"\n}\nmodule "x" {\n  source = "./m"'
                              '\n}'), "m/main.tf": _tf("")}
    if kind == "directives":
        n = rng.choice([10_000, 100_000])
        return {"directives.tf": _tf("".join("# gpulint: ignore gpu-training-on-demand\n"
                                             for _ in range(n)))}
    if kind == "heredoc":
        size = rng.choice([2_000, 10_000, 30_000])
        return {"heredoc.tf": _tf('locals {\n  s = <<EOT\n' + "line of text\n" * (size // 13)
                                  + 'EOT\n}')}
    if kind == "tfjson":
        n = rng.choice([1_000, 20_000])
        blocks = ",".join(f'"r{i}": {{"instance_type": "g5.xlarge"}}' for i in range(n))
        return {"many.tf.json": ('{"resource": {"aws_instance": {' + blocks + "}}}").encode()}
    if kind == "kustomize":  # a remote resource on loopback's discard port: must not be fetched
        return {"kustomization.yaml": b"resources:\n- pod.yaml\n- http://127.0.0.1:9/x.yaml\n"
                b"- ../../../../etc\n- /etc/passwd\n", "pod.yaml": _pod("")}
    if kind == "many":
        return {"many.tf": _tf('resource "aws_instance" "many" {\n  count = 1000000000\n'
                               '  instance_type = "g5.xlarge"\n}')}
    return {"dynamic.tf": _tf('locals {\n  n = range(100000)\n}\nresource "aws_instance" "dy" {'
                              '\n  for_each = toset([for i in local.n : tostring(i)])\n'
                              '  instance_type = "g5.xlarge"\n}')}


def _random(rng: random.Random, seed: str) -> Files:
    names = _seed_files(seed)
    if not names:
        return {"main.tf": _mutate(rng, _tf(""))}
    name = rng.choice(names)
    return {name: _mutate(rng, _read(os.path.join(seed, name)))}


def _generated(rng: random.Random) -> Files:
    rel, (data, _) = rng.choice(sorted(hostile_inputs.GENERATED.items()))
    return {rel: data}


# (weight, generator): random mutations of the fixture's own files are the bulk, as in fuzzing.
CATEGORIES: dict[str, tuple[int, Callable[[random.Random, str], Files]]] = {
    "random": (30, _random), "nesting": (8, lambda r, s: _nested(r)),
    "numbers": (8, lambda r, s: _numbers(r)), "regex": (7, lambda r, s: _regexes(r)),
    "memory": (7, lambda r, s: _memory(r)), "symlink": (8, lambda r, s: _links(r)),
    "fifo": (5, lambda r, s: _fifos(r)), "encoding": (8, _encodings),
    "yaml": (7, lambda r, s: _yaml(r)), "structure": (7, lambda r, s: _structure(r)),
    "hostile-inputs": (5, lambda r, s: _generated(r)),
    "renderers": (8, lambda r, s: mutation_render.renderers(r)),
}


def cases(count: int, seed: int = 19) -> list[Case]:
    rng = random.Random(seed)
    names = sorted(CATEGORIES)
    weights = [CATEGORIES[n][0] for n in names]
    out = []
    for i in range(count):
        category = rng.choices(names, weights)[0]
        fixture = rng.choice(SEED_DIRS)
        files = CATEGORIES[category][1](rng, fixture)
        out.append(Case(f"{i:04d}-{category}", fixture, files,
                        own_scan=".gpulint.yaml" in files))
    return out
