"""Smoke tests of ``python -m redc.bench`` and ``examples/ray_parquet.py``:
each runs small in a subprocess, exits 0 and prints its table. No timing
is checked (the subprocess timeouts only stop a hang)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "ray_parquet.py"
HANG_S = 300


def run(args, cwd):
    proc = subprocess.run(
        [sys.executable, *args],
        cwd=cwd,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        timeout=HANG_S,
        text=True,
    )
    assert proc.returncode == 0, f"exit {proc.returncode}\nstdout:\n{proc.stdout}\nstderr:\n{proc.stderr[-4000:]}"
    return proc.stdout


def test_bench_prints_its_table(tmp_path):
    out_json = tmp_path / "bench.json"
    out = run(["-m", "redc.bench", "--count", "200", "--repeat", "1", "--skip-ray", "--json", str(out_json)], tmp_path)
    assert "machine :" in out and "redc    :" in out and "load    :" in out
    header = next(line for line in out.splitlines() if line.startswith("row "))
    for column in ("median/s", "min/s", "max/s", "vs pyca", "vs pyca-mp"):
        assert column in header
    for op in ("sign-pkcs1v15", "sign-pss", "decrypt-oaep"):
        assert f"{op} redc " in out
    assert "Targets of the issue:" in out
    assert "Ray rows skipped" in out
    assert "failed!" not in out and "wrong" not in out

    doc = json.loads(out_json.read_text())
    ids = {row["id"] for row in doc["rows"]}
    assert {"sign-pkcs1v15/redc", "sign-pss/redc", "decrypt-oaep/redc"} <= ids
    assert all(row["median"] and row["median"] > 0 for row in doc["rows"])
    if _has("cryptography"):
        assert {"sign-pss/pyca", "sign-pss/pyca-mp", "decrypt-oaep/pyca-mp"} <= ids
        assert "OpenSSL" in doc["header"]["pyca"]


def test_bench_only_selects_rows(tmp_path):
    out_json = tmp_path / "bench.json"
    run(["-m", "redc.bench", "--count", "50", "--repeat", "1", "--skip-ray", "--only", "sign-pss/redc", "--json", str(out_json)], tmp_path)
    assert [row["id"] for row in json.loads(out_json.read_text())["rows"]] == ["sign-pss/redc"]


def test_ray_parquet_example(tmp_path):
    pytest.importorskip("ray")
    pytest.importorskip("pyarrow")
    out = run([str(EXAMPLE), "--rows", "2000", "--cpus", "2", "--dir", str(tmp_path)], tmp_path)
    assert "sign     : 2,000 rows" in out and "rows/s" in out
    assert "valid 1,990 (expected 1,990), invalid 8 (expected 8), error 2 (expected 2)" in out
    assert "OK       :" in out
    assert any((tmp_path / "verified").glob("*.parquet"))


def _has(module: str) -> bool:
    import importlib.util

    return importlib.util.find_spec(module) is not None
