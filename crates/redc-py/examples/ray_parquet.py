#!/usr/bin/env python3
"""Sign a Parquet dataset of messages with redc on Ray, then verify it.

    python examples/ray_parquet.py [--rows 1000000] [--dir DIR] [--cpus N]
                                   [--key FILE [--password PW]]

1. Writes ``--rows`` random messages as Parquet (``--files`` files, with
   pyarrow) under ``DIR/messages``: an ``id``, the ``message`` and what the
   row should come out as (``expect``): most rows ``valid``; ``--invalid``
   rows whose signature is corrupted before verification (``invalid``); and
   ``--errors`` rows with a null message (``error``: such a row is
   reported in the error column, the job goes on).
2. The signing job: ``ray.data.read_parquet`` -> ``redc.ray.sign`` ->
   ``write_parquet(DIR/signed)``.
3. The verification job: ``read_parquet(DIR/signed)`` -> corrupt the
   ``invalid`` rows' signatures -> ``redc.ray.verify`` with the public key
   -> ``write_parquet(DIR/verified)``, the result.
4. Reads the result back, prints rows per second of each job and the counts
   of valid, invalid and error rows, and exits 1 if any row is not what it
   should be (above all: a valid row that fails, or a corrupted one that
   passes).

The key: ``--key FILE`` (PEM or DER; PKCS#1, PKCS#8, or encrypted PKCS#8
opened with ``--password``), else a new 2048-bit key kept in memory. The
actors get the key file's bytes, never a pickled key (see ``redc.ray``).

Ray: a local instance with ``--cpus`` CPUs (default: every core), or the
cluster at ``--address``. Without ``--dir`` everything goes to a temporary
directory, removed at the end (``--keep`` keeps it).
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import time

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq
import ray

import redc
import redc.ray
from redc import hashes, padding, serialization

MESSAGE_LEN = 64


def parse() -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--rows", type=int, default=1_000_000, help="messages (default 1000000)")
    p.add_argument("--dir", help="working directory (default: a temporary one, removed at the end)")
    p.add_argument("--cpus", type=int, default=os.cpu_count(), help="num_cpus of the local Ray (default: every core)")
    p.add_argument("--address", help="an existing Ray cluster to use instead of a local one (--cpus is then ignored)")
    p.add_argument("--key", help="private key file (PEM or DER); default: a new key")
    p.add_argument("--password", help="the key file's password (encrypted PKCS#8)")
    p.add_argument("--bits", type=int, default=2048, help="size of a new key (default 2048)")
    p.add_argument("--padding", choices=("pss", "pkcs1v15"), default="pss", help="signature scheme (default pss, SHA-256)")
    p.add_argument("--files", type=int, default=8, help="Parquet files of messages (default 8)")
    p.add_argument("--invalid", type=int, default=8, help="rows whose signature is corrupted before verification (default 8)")
    p.add_argument("--errors", type=int, default=2, help="rows with a null message (default 2)")
    p.add_argument("--keep", action="store_true", help="keep the temporary directory")
    p.add_argument("--progress", action="store_true", help="show Ray Data's progress bars")
    a = p.parse_args()
    if a.rows < 1 or a.files < 1 or a.invalid < 0 or a.errors < 0 or a.invalid + a.errors > a.rows:
        p.error("need rows >= 1, files >= 1, 0 <= invalid + errors <= rows")
    if a.password is not None and a.key is None:
        p.error("--password needs --key")
    return a


def write_messages(directory: str, rows: int, files: int, invalid: int, errors: int) -> int:
    """The messages as ``files`` Parquet files; returns their size in bytes."""
    os.makedirs(directory)
    rng = np.random.default_rng(2024)
    # Which rows are corrupted / null: spread over the dataset.
    special = np.linspace(0, rows - 1, invalid + errors).astype(np.int64) if invalid + errors else np.array([], np.int64)
    special = np.unique(special)
    expect = np.zeros(rows, dtype=np.int8)
    expect[special[:invalid]] = 1
    expect[special[invalid:]] = 2
    size = 0
    bounds = np.linspace(0, rows, files + 1).astype(np.int64)
    names = pa.array(["valid", "invalid", "error"])
    for part, (lo, hi) in enumerate(zip(bounds[:-1], bounds[1:])):
        n = int(hi - lo)
        raw = rng.bytes(n * MESSAGE_LEN)
        fixed = pa.FixedSizeBinaryArray.from_buffers(pa.binary(MESSAGE_LEN), n, [None, pa.py_buffer(raw)])
        kind = pa.array(expect[lo:hi])
        message = pc.if_else(pc.equal(kind, 2), pa.scalar(None, pa.binary()), fixed.cast(pa.binary()))
        table = pa.table(
            {
                "id": pa.array(np.arange(lo, hi, dtype=np.int64)),
                "message": message,
                "expect": pc.take(names, kind.cast(pa.int32())),
            }
        )
        path = os.path.join(directory, f"part-{part:05d}.parquet")
        pq.write_table(table, path)
        size += os.path.getsize(path)
    return size


def corrupt(batch: pa.Table) -> pa.Table:
    """The signatures of the rows marked ``invalid``, reversed (as if damaged
    in storage): still 256 bytes, no longer a signature of the message."""
    sig = batch.column("signature")
    bad = pc.equal(batch.column("expect"), "invalid")
    i = batch.schema.get_field_index("signature")
    return batch.set_column(i, "signature", pc.if_else(bad, pc.binary_reverse(sig), sig))


def rate(rows: int, seconds: float) -> str:
    return f"{rows:,} rows in {seconds:.1f} s = {rows / seconds:,.0f} rows/s"


def main() -> int:
    a = parse()
    started = time.perf_counter()
    if a.key:
        with open(a.key, "rb") as f:
            key_bytes = f.read()
        password = a.password.encode() if a.password is not None else None
        try:
            private = redc.load_private_key(key_bytes, password)
        except redc.Error as e:
            print(f"error: {a.key}: {e}", file=sys.stderr)
            return 2
        origin = a.key
    else:
        private = redc.generate_private_key(65537, a.bits)
        password = None
        key_bytes = private.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
        origin = "new, in memory"
    public_bytes = private.public_key().public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)
    if a.padding == "pss":
        pad = padding.PSS(mgf=padding.MGF1(hashes.SHA256()), salt_length=padding.PSS.MAX_LENGTH)
    else:
        pad = padding.PKCS1v15()
    alg = hashes.SHA256()
    print(f"key      : RSA-{private.key_size} ({origin}), id {private.public_key().key_id[:16]}; {a.padding} SHA-256; engine {redc.engine_info()[0]}")

    work = a.dir or tempfile.mkdtemp(prefix="redc-ray-parquet-")
    dirs = {k: os.path.join(work, k) for k in ("messages", "signed", "verified")}
    for d in dirs.values():
        if os.path.exists(d):
            print(f"error: {d} exists; remove it or choose another --dir", file=sys.stderr)
            return 2
    try:
        return run(a, dirs, key_bytes, password, public_bytes, pad, alg, started)
    finally:
        if a.dir is None and not a.keep:
            shutil.rmtree(work, ignore_errors=True)
        elif a.dir is None:
            print(f"kept     : {work}")


def run(a: argparse.Namespace, dirs: dict, key_bytes: bytes, password, public_bytes: bytes, pad, alg, started: float) -> int:
    """Writes the messages, runs both jobs, checks the result: the exit status."""
    t = time.perf_counter()
    size = write_messages(dirs["messages"], a.rows, a.files, a.invalid, a.errors)
    print(f"messages : {a.rows:,} rows, {a.files} Parquet files, {size / 1e6:.1f} MB in {dirs['messages']} ({time.perf_counter() - t:.1f} s)")

    t = time.perf_counter()
    if a.address:
        ray.init(address=a.address, log_to_driver=False)
    else:
        ray.init(address="local", num_cpus=a.cpus, include_dashboard=False, log_to_driver=False)
    init_s = time.perf_counter() - t
    try:
        ray.data.DataContext.get_current().enable_progress_bars = a.progress
        # redc.ray cuts the blocks to its batch size, so that every actor has
        # work (Ray 2.60 reads a directory of Parquet files as one block).
        plan = redc.ray.pool_plan()
        cpus = ray.cluster_resources().get("CPU", 0)
        print(
            f"ray      : {ray.__version__}, {cpus:g} CPUs, started in {init_s:.1f} s; pool up to {plan.actors} actors x "
            f"{plan.num_cpus} CPU, {plan.threads} engine thread(s) each, batches of {plan.batch_size}"
        )

        # The signing job.
        t = time.perf_counter()
        ds = ray.data.read_parquet(dirs["messages"])
        signed = redc.ray.sign(ds, key_bytes, password=password, padding=pad, algorithm=alg)
        signed.write_parquet(dirs["signed"])
        sign_s = time.perf_counter() - t
        print(f"sign     : {rate(a.rows, sign_s)} (read Parquet, sign, write Parquet)")

        # The verification job, with the public key only.
        t = time.perf_counter()
        ds = ray.data.read_parquet(dirs["signed"])
        ds = ds.map_batches(corrupt, batch_format="pyarrow")
        checked = redc.ray.verify(ds, public_bytes, padding=pad, algorithm=alg)
        checked.write_parquet(dirs["verified"])
        verify_s = time.perf_counter() - t
        print(f"verify   : {rate(a.rows, verify_s)} (read Parquet, verify, write Parquet)")
    finally:
        ray.shutdown()

    # The result, read back with pyarrow.
    result = pq.read_table(dirs["verified"], columns=["id", "expect", "valid", "sign_error", "verify_error"])
    expect = result.column("expect")
    valid = result.column("valid").fill_null(False)
    failed = pc.or_(pc.is_valid(result.column("sign_error")), pc.is_valid(result.column("verify_error")))
    invalid = pc.and_(pc.invert(valid), pc.invert(failed))

    def count(mask: pa.ChunkedArray) -> int:
        return pc.sum(mask.cast(pa.int64())).as_py() or 0

    def matched(name: str, mask: pa.ChunkedArray) -> int:
        return count(pc.and_(pc.equal(expect, name), mask))

    counts = {"valid": count(valid), "invalid": count(invalid), "error": count(failed)}
    wanted = {k: count(pc.equal(expect, k)) for k in counts}
    print(
        f"rows     : {result.num_rows:,} in {dirs['verified']}: "
        + ", ".join(f"{k} {counts[k]:,} (expected {wanted[k]:,})" for k in counts)
    )
    problems = []
    for name, mask in (("valid", valid), ("invalid", invalid), ("error", failed)):
        wrong = wanted[name] - matched(name, mask)
        if wrong:
            problems.append(f"{wrong:,} rows expected {name} came out otherwise")
    if result.num_rows != a.rows:
        problems.append(f"{result.num_rows:,} rows in the result, {a.rows:,} written")
    errors = pc.filter(result, failed).slice(0, 2).to_pylist()
    for e in errors:
        print(f"  error row {e['id']}: sign: {e['sign_error']!r}; verify: {e['verify_error']!r}")
    total = time.perf_counter() - started
    print(f"total    : {total:.1f} s (Ray start {init_s:.1f} s, sign {sign_s:.1f} s, verify {verify_s:.1f} s)")
    if problems:
        print("FAILED   : " + "; ".join(problems), file=sys.stderr)
        return 1
    print("OK       : every valid row verified, every corrupted row rejected, every null row reported")
    return 0


if __name__ == "__main__":
    sys.exit(main())
