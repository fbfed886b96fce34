"""The Python examples of the docs run as they are shown.

Each file's ```python blocks run in order, in one namespace, in a scratch
directory holding ``key.pem`` (the docs make it with ``redc keygen --bits
2048 -o key.pem``; here the package makes the same kind of key). A block
that imports Ray runs only where Ray is installed. The shell blocks of the
same files run in ``crates/redc-cli/tests/docs_commands.rs``, which checks
that every file with a Python block is listed here.
"""

from __future__ import annotations

import importlib.util
import pathlib
import re
import signal

import pytest

import redc
from redc import serialization

ROOT = pathlib.Path(__file__).resolve().parents[3]

#: The files whose ```python blocks run here.
FILES = ["README.md", "docs/python.md"]

#: A Ray block must finish well within this.
DEADLINE_S = 600


def python_blocks(text: str) -> list[str]:
    """The bodies of the ```python blocks of a Markdown text, in order."""
    return re.findall(r"^```python[^\n]*\n(.*?)^```\s*$", text, flags=re.M | re.S)


def test_python_blocks_are_found():
    assert python_blocks((ROOT / "README.md").read_text(encoding="utf-8"))
    assert len(python_blocks((ROOT / "docs/python.md").read_text(encoding="utf-8"))) >= 3


@pytest.mark.parametrize("name", FILES)
def test_docs_python_runs(name, tmp_path, monkeypatch):
    blocks = python_blocks((ROOT / name).read_text(encoding="utf-8"))
    assert blocks, f"{name} has no ```python block"
    monkeypatch.chdir(tmp_path)
    key = redc.generate_private_key(65537, 2048)
    pem = key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    )
    (tmp_path / "key.pem").write_bytes(pem)
    namespace: dict = {"__name__": "__docs__"}
    for n, block in enumerate(blocks, 1):
        if re.search(r"^import ray\b", block, flags=re.M):
            if importlib.util.find_spec("ray") is None:
                pytest.skip(f"{name}: block {n} needs Ray, which is not installed")
            run_ray_block(block, namespace, f"{name}, block {n}")
        else:
            exec(compile(block, f"{name}, block {n}", "exec"), namespace)


def run_ray_block(block: str, namespace: dict, where: str) -> None:
    """Run a block that starts Ray, then shut Ray down, within a deadline."""
    import ray

    def expired(signum, frame):
        raise TimeoutError(f"{where}: the Ray job did not finish within {DEADLINE_S} s")

    previous = signal.signal(signal.SIGALRM, expired)
    signal.alarm(DEADLINE_S)
    try:
        exec(compile(block, where, "exec"), namespace)
    finally:
        ray.shutdown()
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
