"""Throughput of redc against pyca/cryptography, all rows in one run.

    python -m redc.bench [--count 100000] [--bits 2048] [--repeat 3]
                         [--only PATTERNS] [--json FILE] [--skip-ray]
                         [--ray-count ROWS]

Rows (``OP/METHOD``), each measured ``--repeat`` times, reported as the
median (and min, max) rate in operations per second:

* ops: ``sign-pkcs1v15`` and ``sign-pss`` (SHA-256, PSS with MGF1-SHA-256
  and the maximum salt), ``decrypt-oaep`` (OAEP, SHA-256);
* ``redc``: one ``sign_batch``/``decrypt_batch`` call over ``--count``
  messages (the engine's batch, every core, GIL released);
* ``pyca``: pyca/cryptography's ``sign``/``decrypt`` called in a loop in
  this process; the anchor of the ratio columns;
* ``pyca-mp``: the same in a ``multiprocessing`` pool of ``os.cpu_count()``
  processes, the key loaded once per process from PEM by the initializer,
  chunks fed by ``imap`` (the pool's start-up is not timed);
* ``ray-1``, ``ray-2`` (the sign op of ``--ray-padding``): ``redc.ray.sign``
  over ``ray.data.from_arrow`` of ``--ray-count`` messages on a local Ray
  started with ``ray.init(num_cpus=1)`` and then ``2``, each repeat in a
  fresh subprocess; timed around ``materialize()`` (actor pool start
  included: a worker process imports Ray Data, pyarrow and redc before its
  actor runs, a few seconds on 2 cores), and also with Ray's start-up
  (``ray.init`` and loading the data) added;
* ``redc-1t``: the batch call on one engine thread (``RAYON_NUM_THREADS=1``,
  in a subprocess), what ``ray-1`` compares with.

The pyca rows and ``redc-1t`` run on ``min(--count, --pyca-count)``
messages (a rate does not depend on the count; 100,000 single pyca calls
take minutes); the table says so. Nothing here asserts a timing: the
targets of the issue are printed as met or not met.
"""

from __future__ import annotations

import argparse
import fnmatch
import importlib.util
import json
import multiprocessing
import os
import platform
import random
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass, field
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

# Messages: random bytes of this length (fits OAEP-SHA-256 down to 1024-bit keys).
MESSAGE_LEN = 32
OPS = ("sign-pkcs1v15", "sign-pss", "decrypt-oaep")
METHODS = ("redc", "redc-1t", "pyca", "pyca-mp", "ray-1", "ray-2")
# The targets.
TARGET_MP = 2.0  # redc batch >= 2x pyca with multiprocessing
TARGET_RAY = 0.80  # Ray job >= 80% of the batch API's rate on the same cores
# Rows whose fastest run is this much faster than their slowest are marked.
SPREAD = 1.25


# ---------------------------------------------------------------------------
# Schemes, messages, machine


def scheme_of(op: str, hashes: Any, padding: Any) -> Tuple[Any, Any]:
    """The (padding, hash) of ``op`` (hash ``None`` for decryption) made
    from a package's ``hashes`` and ``padding`` modules (redc's and
    pyca/cryptography's have the same names)."""
    if op == "sign-pkcs1v15":
        return padding.PKCS1v15(), hashes.SHA256()
    if op == "sign-pss":
        return padding.PSS(mgf=padding.MGF1(hashes.SHA256()), salt_length=padding.PSS.MAX_LENGTH), hashes.SHA256()
    if op == "decrypt-oaep":
        return padding.OAEP(mgf=padding.MGF1(hashes.SHA256()), algorithm=hashes.SHA256(), label=None), None
    raise ValueError(f"unknown op {op!r}")


def redc_scheme(op: str) -> Tuple[Any, Any]:
    """redc's (padding, hash) of ``op``."""
    from redc import hashes, padding

    return scheme_of(op, hashes, padding)


def pyca_scheme(op: str) -> Tuple[Any, Any]:
    """pyca/cryptography's (padding, hash) of ``op``."""
    from cryptography.hazmat.primitives import hashes
    from cryptography.hazmat.primitives.asymmetric import padding

    return scheme_of(op, hashes, padding)


def messages(count: int, seed: int) -> List[bytes]:
    """``count`` random messages of ``MESSAGE_LEN`` bytes, the same for a seed."""
    raw = random.Random(seed).getrandbits(8 * MESSAGE_LEN * count).to_bytes(MESSAGE_LEN * count, "little") if count else b""
    return [raw[i : i + MESSAGE_LEN] for i in range(0, len(raw), MESSAGE_LEN)]


def cpu_model() -> str:
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def cpu_flags() -> List[str]:
    """The AVX-512 flags of the first CPU that matter to the engine."""
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("flags"):
                    have = set(line.split(":", 1)[1].split())
                    return [x for x in ("avx512f", "avx512ifma", "avx512vl") if x in have]
    except OSError:
        pass
    return []


def load_average() -> Optional[Tuple[float, float, float]]:
    try:
        return os.getloadavg()
    except OSError:
        return None


def version(dist: str) -> Optional[str]:
    try:
        from importlib.metadata import version as v

        return v(dist)
    except Exception:
        return None


# ---------------------------------------------------------------------------
# Rows


@dataclass
class Row:
    op: str
    method: str
    label: str
    n: int
    seconds: List[float] = field(default_factory=list)
    note: str = ""
    extra: Dict[str, Any] = field(default_factory=dict)

    @property
    def id(self) -> str:
        return f"{self.op}/{self.method}"

    @property
    def rates(self) -> List[float]:
        return [self.n / s for s in self.seconds if s > 0]

    @property
    def median(self) -> Optional[float]:
        return statistics.median(self.rates) if self.rates else None


def timed(fn: Callable[[], Any]) -> Tuple[float, Any]:
    t = time.perf_counter()
    out = fn()
    return time.perf_counter() - t, out


def failures(answers: Sequence[Any]) -> int:
    return sum(isinstance(a, BaseException) for a in answers)


# --- redc, in this process ---------------------------------------------------


def run_redc(row: Row, key: Any, op: str, items: List[bytes], expect: Optional[List[bytes]], repeat: int, backend: Optional[str]) -> None:
    pad, alg = redc_scheme(op)
    if op.startswith("sign"):
        call = lambda xs: key.sign_batch(xs, pad, alg, backend=backend)  # noqa: E731
    else:
        call = lambda xs: key.decrypt_batch(xs, pad, backend=backend)  # noqa: E731
    call(items[:256])  # warm-up: the engine and the key's prepared form
    for _ in range(repeat):
        dt, out = timed(lambda: call(items))
        row.seconds.append(dt)
        bad = failures(out)
        if expect is not None and not bad:
            bad = sum(a != b for a, b in zip(out, expect))
        if bad:
            row.note = f"{bad} items failed!"


def pyca_rejects(pem: bytes, key: Any, op: str, items: List[bytes], backend: Optional[str]) -> int:
    """How many of redc's signatures of ``items`` pyca/cryptography rejects (untimed)."""
    from cryptography.exceptions import InvalidSignature
    from cryptography.hazmat.primitives import serialization

    public = serialization.load_pem_private_key(pem, None).public_key()
    pad, alg = redc_scheme(op)
    ppad, palg = pyca_scheme(op)
    bad = 0
    for m, s in zip(items, key.sign_batch(items, pad, alg, backend=backend)):
        try:
            public.verify(s, m, ppad, palg)
        except (InvalidSignature, TypeError):
            bad += 1
    return bad


# --- pyca, in this process ---------------------------------------------------


def run_pyca(row: Row, pem: bytes, op: str, items: List[bytes], expect: Optional[List[bytes]], repeat: int) -> None:
    from cryptography.hazmat.primitives import serialization

    key = serialization.load_pem_private_key(pem, None)
    pad, alg = pyca_scheme(op)
    for _ in range(repeat):
        if op.startswith("sign"):
            sign = key.sign
            dt, out = timed(lambda: [sign(m, pad, alg) for m in items])
        else:
            decrypt = key.decrypt
            dt, out = timed(lambda: [decrypt(c, pad) for c in items])
        row.seconds.append(dt)
        if expect is not None and out != expect:
            row.note = "wrong plaintexts!"


# --- pyca, multiprocessing pool ------------------------------------------------

_MP_CALL: Optional[Callable[[bytes], bytes]] = None


def _mp_init(pem: bytes, op: str) -> None:
    """Pool initializer: the key loaded once per process, from PEM."""
    global _MP_CALL
    from cryptography.hazmat.primitives import serialization

    key = serialization.load_pem_private_key(pem, None)
    pad, alg = pyca_scheme(op)
    if op.startswith("sign"):
        _MP_CALL = lambda m: key.sign(m, pad, alg)  # noqa: E731
    else:
        _MP_CALL = lambda c: key.decrypt(c, pad)  # noqa: E731


def _mp_work(chunk: List[bytes]) -> List[bytes]:
    call = _MP_CALL
    assert call is not None
    return [call(x) for x in chunk]


def _mp_ready(_: int) -> int:
    time.sleep(0.05)
    return os.getpid()


def run_pyca_mp(row: Row, pem: bytes, op: str, items: List[bytes], expect: Optional[List[bytes]], repeat: int, procs: int, chunk: int) -> None:
    ctx = multiprocessing.get_context("spawn")
    chunks = [items[i : i + chunk] for i in range(0, len(items), chunk)]
    starts = []
    for _ in range(repeat):
        t = time.perf_counter()
        with ctx.Pool(procs, initializer=_mp_init, initargs=(pem, op)) as pool:
            # Every worker up, its key loaded (initializers run first), untimed.
            pool.map(_mp_ready, range(procs), chunksize=1)
            starts.append(time.perf_counter() - t)
            dt, out = timed(lambda: [x for part in pool.imap(_mp_work, chunks) for x in part])
        row.seconds.append(dt)
        if len(out) != len(items) or (expect is not None and out != expect):
            row.note = "wrong results!"
    row.extra["pool_start_s"] = starts
    row.note = row.note or f"{procs} procs, chunks of {chunk}, pool start {statistics.median(starts):.2f} s untimed"


# --- children: redc on one thread, Ray ----------------------------------------


def _child(kind: str, params: Dict[str, Any], env: Optional[Dict[str, str]], timeout: float) -> Dict[str, Any]:
    """Runs ``_child_main(kind)`` in a fresh interpreter, ``params`` (with
    the key's PEM) on stdin; its answer is its last stdout line (JSON)."""
    cmd = [sys.executable, "-c", f"import redc.bench as b; b._child_main({kind!r})"]
    full_env = dict(os.environ)
    full_env.update(env or {})
    with tempfile.TemporaryFile() as err:
        try:
            proc = subprocess.run(
                cmd,
                input=json.dumps(params).encode(),
                stdout=subprocess.PIPE,
                stderr=err,
                env=full_env,
                timeout=timeout,
            )
        except subprocess.TimeoutExpired:
            err.seek(0)
            tail = err.read()[-3000:].decode(errors="replace")
            raise RuntimeError(f"{kind} child ran past {timeout:.0f} s (a starved actor pool?); stderr tail:\n{tail}") from None
        lines = proc.stdout.decode(errors="replace").strip().splitlines()
        if proc.returncode != 0 or not lines:
            err.seek(0)
            tail = err.read()[-3000:].decode(errors="replace")
            raise RuntimeError(f"{kind} child exited {proc.returncode}; stderr tail:\n{tail}")
    return json.loads(lines[-1])


def _child_main(kind: str) -> None:
    params = json.loads(sys.stdin.buffer.read())
    params["pem"] = params["pem"].encode()
    out = {"redc-1t": _child_redc, "ray": _child_ray}[kind](params)
    sys.stdout.write(json.dumps(out) + "\n")
    sys.stdout.flush()


def _child_redc(p: Dict[str, Any]) -> Dict[str, Any]:
    import redc

    key = redc.load_pem_private_key(p["pem"], None)
    items = messages(p["count"], p["seed"])
    pad, alg = redc_scheme(p["op"])
    key.sign_batch(items[:64], pad, alg, backend=p["backend"])
    seconds, bad = [], 0
    for _ in range(p["repeat"]):
        dt, out = timed(lambda: key.sign_batch(items, pad, alg, backend=p["backend"]))
        seconds.append(dt)
        bad += failures(out)
    return {"seconds": seconds, "failed": bad, "threads": os.environ.get("RAYON_NUM_THREADS")}


def _child_ray(p: Dict[str, Any]) -> Dict[str, Any]:
    t = time.perf_counter()
    import pyarrow as pa
    import ray

    import redc
    import redc.ray

    t_import = time.perf_counter() - t
    items = messages(p["count"], p["seed"])
    blocks = max(1, min(p["blocks"], len(items)))
    step = -(-len(items) // blocks)
    tables = [pa.table({"message": pa.array(items[i : i + step], type=pa.binary())}) for i in range(0, len(items), step)]
    pad, alg = redc_scheme(p["op"])

    t0 = time.perf_counter()
    ray.init(address="local", num_cpus=p["cpus"], include_dashboard=False, log_to_driver=False, logging_level="ERROR")
    t1 = time.perf_counter()
    try:
        ctx = ray.data.DataContext.get_current()
        ctx.enable_progress_bars = False
        plan = asdict(redc.ray.pool_plan(backend=p["backend"]))
        ds = ray.data.from_arrow(tables)
        t2 = time.perf_counter()
        out = redc.ray.sign(ds, p["pem"], padding=pad, algorithm=alg, backend=p["backend"]).materialize()
        t3 = time.perf_counter()
        # Untimed checks: every row signed, a sample verifies.
        result = pa.concat_tables(ray.get(out.to_arrow_refs()))
        rows = result.num_rows
        errors = rows - result.column("sign_error").null_count
        sample = result.slice(0, min(rows, 2000))
        public = redc.load_pem_private_key(p["pem"], None).public_key()
        ok = public.verify_batch(sample.column("message"), sample.column("signature"), pad, alg)
        bad_signatures = int((~ok).sum())
    finally:
        ray.shutdown()
    return {
        "import_s": t_import,
        "init_s": t1 - t0,
        "load_s": t2 - t1,
        "exec_s": t3 - t2,
        "rows": rows,
        "errors": errors,
        "bad_signatures": bad_signatures,
        "blocks": len(tables),
        "plan": plan,
    }


def run_redc_1t(row: Row, pem: bytes, op: str, n: int, seed: int, repeat: int, backend: Optional[str]) -> None:
    params = {"pem": pem.decode(), "op": op, "count": n, "seed": seed, "repeat": repeat, "backend": backend}
    out = _child("redc-1t", params, {"RAYON_NUM_THREADS": "1"}, timeout=600 + 60 * repeat)
    row.seconds = out["seconds"]
    row.note = f"RAYON_NUM_THREADS={out['threads']}" + (f"; {out['failed']} items failed!" if out["failed"] else "")


def run_ray(rows: Tuple[Row, Row], pem: bytes, op: str, cpus: int, count: int, seed: int, repeat: int, blocks: int, backend: Optional[str]) -> None:
    exec_row, full_row = rows
    params = {"pem": pem.decode(), "op": op, "count": count, "seed": seed, "cpus": cpus, "blocks": blocks, "backend": backend}
    runs = []
    for _ in range(repeat):
        # A generous bound: a starved pool never finishes.
        r = _child("ray", params, {}, timeout=300 + count / 100)
        runs.append(r)
        exec_row.seconds.append(r["exec_s"])
        full_row.seconds.append(r["init_s"] + r["load_s"] + r["exec_s"])
    plan = runs[0]["plan"]
    med = lambda k: statistics.median(r[k] for r in runs)  # noqa: E731
    problems = sum(r["errors"] + r["bad_signatures"] for r in runs) + sum(r["rows"] != count for r in runs)
    exec_row.note = (
        f"{plan['actors']} actors x {plan['num_cpus']} CPU, {plan['threads']} thread(s), batch {plan['batch_size']}, "
        f"{runs[0]['blocks']} blocks" + ("; ROWS FAILED!" if problems else "")
    )
    full_row.note = f"+ ray.init {med('init_s'):.2f} s, from_arrow {med('load_s'):.2f} s (import ray {med('import_s'):.2f} s not counted)"
    exec_row.extra = {"runs": runs}


# ---------------------------------------------------------------------------
# Report


def fmt_rate(x: Optional[float]) -> str:
    return "-" if x is None else f"{x:,.0f}"


def fmt_ratio(x: Optional[float], y: Optional[float]) -> str:
    return "-" if x is None or not y else f"{x / y:.2f}x"


def table(rows: List[Row], anchors: Dict[str, Tuple[Optional[float], Optional[float]]]) -> str:
    head = ["row", "n", "median/s", "min/s", "max/s", "vs pyca", "vs pyca-mp", "note"]
    body = []
    for r in rows:
        one, mp = anchors.get(r.op, (None, None))
        rates = r.rates
        note = r.note
        if len(rates) > 1 and max(rates) > SPREAD * min(rates):
            # Runs this far apart: something else had the cores for a while.
            note = "; ".join(x for x in (f"NOISY: max/min {max(rates) / min(rates):.2f}", note) if x)
        body.append(
            [
                r.label,
                f"{r.n:,}",
                fmt_rate(r.median),
                fmt_rate(min(rates) if rates else None),
                fmt_rate(max(rates) if rates else None),
                fmt_ratio(r.median, one),
                fmt_ratio(r.median, mp),
                note,
            ]
        )
    widths = [max(len(str(x[i])) for x in [head] + body) for i in range(len(head) - 1)]
    lines = []
    for k, cells in enumerate([head] + body):
        parts = [cells[0].ljust(widths[0])] + [c.rjust(w) for c, w in zip(cells[1:-1], widths[1:])] + [cells[-1]]
        lines.append("  ".join(parts).rstrip())
        if k == 0:
            lines.append("-" * max(len(lines[0]), sum(widths) + 2 * len(widths)))
    return "\n".join(lines)


def targets(by_id: Dict[str, Row], ray_op: str, procs: int) -> Tuple[List[str], List[Dict[str, Any]]]:
    lines, out = [], []

    def verdict(ok: bool) -> str:
        return "MET" if ok else "NOT MET"

    for op in OPS:
        a, b = by_id.get(f"{op}/redc"), by_id.get(f"{op}/pyca-mp")
        if not (a and b and a.median and b.median):
            continue
        if not out:
            lines.append(f"redc batch >= {TARGET_MP:g}x pyca with multiprocessing ({procs} processes):")
        ratio = a.median / b.median
        lines.append(f"  {op:<14} {fmt_rate(a.median):>9}/s vs {fmt_rate(b.median):>9}/s = {ratio:.2f}x  {verdict(ratio >= TARGET_MP)}")
        out.append({"target": f"redc >= {TARGET_MP}x pyca-mp", "op": op, "ratio": ratio, "met": ratio >= TARGET_MP})
    batch, ray2, ray2f = by_id.get(f"{ray_op}/redc"), by_id.get(f"{ray_op}/ray-2"), by_id.get(f"{ray_op}/ray-2+init")
    if batch and batch.median and ray2 and ray2.median:
        lines.append(
            f"Ray job >= {TARGET_RAY:.0%} of the batch API's rate on the same cores ({ray_op}, Ray num_cpus=2 on {ray2.n:,} rows "
            f"vs the batch on {procs} threads on {batch.n:,}):"
        )
        for label, r in (("execution", ray2), ("with start-up", ray2f)):
            if r and r.median:
                ratio = r.median / batch.median
                lines.append(f"  {label:<14} {fmt_rate(r.median):>9}/s vs {fmt_rate(batch.median):>9}/s = {ratio:.0%}  {verdict(ratio >= TARGET_RAY)}")
                out.append({"target": f"ray-2 >= {TARGET_RAY} redc", "op": ray_op, "timing": label, "ratio": ratio, "met": ratio >= TARGET_RAY})
    one, ray1 = by_id.get(f"{ray_op}/redc-1t"), by_id.get(f"{ray_op}/ray-1")
    if one and one.median and ray1 and ray1.median:
        ratio = ray1.median / one.median
        lines.append(
            f"  (one CPU: Ray num_cpus=1 on {ray1.n:,} rows {fmt_rate(ray1.median)}/s vs the batch on 1 thread on {one.n:,} "
            f"{fmt_rate(one.median)}/s = {ratio:.0%}  {verdict(ratio >= TARGET_RAY)})"
        )
        out.append({"target": f"ray-1 >= {TARGET_RAY} redc-1t", "op": ray_op, "timing": "execution", "ratio": ratio, "met": ratio >= TARGET_RAY})
    if not out:
        lines.append("  (no target could be checked with the rows selected)")
    return lines, out


# ---------------------------------------------------------------------------
# Main


def parse(argv: Optional[Sequence[str]]) -> argparse.Namespace:
    p = argparse.ArgumentParser(
        prog="python -m redc.bench",
        description="RSA throughput of redc (batch API, Ray job) against pyca/cryptography (single calls, multiprocessing).",
    )
    p.add_argument("--count", type=int, default=100_000, help="messages for the redc batch (and the Ray rows: --ray-count) (default 100000)")
    p.add_argument("--pyca-count", type=int, default=20_000, help="at most this many for the pyca and redc-1t rows (default 20000)")
    p.add_argument("--bits", type=int, default=2048, help="RSA key size (default 2048)")
    p.add_argument("--repeat", type=int, default=3, help="runs of each row; the median is reported (default 3)")
    p.add_argument(
        "--only",
        default="",
        help="comma-separated glob patterns of rows (OP/METHOD, OP or METHOD): e.g. 'sign-pss', 'pyca*', "
        f"'decrypt-oaep/redc'. Ops: {', '.join(OPS)}; methods: {', '.join(METHODS)}",
    )
    p.add_argument("--json", metavar="FILE", help="also write the results as JSON to FILE")
    p.add_argument("--skip-ray", action="store_true", help="leave out the Ray rows (and redc-1t)")
    p.add_argument("--ray-cpus", default="1,2", help="num_cpus of each local Ray (default 1,2)")
    p.add_argument(
        "--ray-count",
        type=int,
        default=0,
        help="rows of the Ray jobs (default --count): Ray's start-up, a few seconds, weighs less on a longer job",
    )
    p.add_argument("--ray-padding", choices=("pss", "pkcs1v15"), default="pss", help="the signature scheme of the Ray rows (default pss)")
    p.add_argument("--ray-blocks", type=int, default=0, help="Dataset blocks for the Ray rows (default: one per 4096 rows, at least 8)")
    p.add_argument("--processes", type=int, default=0, help="pyca-mp processes (default os.cpu_count())")
    p.add_argument("--chunk", type=int, default=250, help="messages per imap chunk of pyca-mp (default 250)")
    p.add_argument("--backend", default=None, help="redc backend (default: redc's, REDC_BACKEND or auto)")
    p.add_argument("--seed", type=int, default=1)
    a = p.parse_args(argv)
    for name in ("count", "pyca_count", "repeat", "bits", "chunk"):
        if getattr(a, name) < 1:
            p.error(f"--{name.replace('_', '-')} must be positive")
    if a.ray_count < 0:
        p.error("--ray-count must be positive (or 0: --count)")
    a.ray_count = a.ray_count or a.count
    return a


def selected(patterns: List[str], op: str, method: str) -> bool:
    if not patterns:
        return True
    names = (f"{op}/{method}", op, method)
    return any(fnmatch.fnmatchcase(n, pat) for pat in patterns for n in names)


def main(argv: Optional[Sequence[str]] = None) -> int:
    a = parse(argv)
    started = time.perf_counter()
    load_before = load_average()

    import redc
    from redc import serialization

    procs = a.processes or os.cpu_count() or 1
    small = min(a.count, a.pyca_count)
    patterns = [x.strip() for x in a.only.split(",") if x.strip()]
    ray_op = f"sign-{a.ray_padding}"
    ray_cpus = [int(x) for x in a.ray_cpus.split(",") if x.strip()]

    try:
        import cryptography
        from cryptography.hazmat.backends.openssl import backend as openssl

        pyca = f"cryptography {cryptography.__version__}, {openssl.openssl_version_text()}"
    except ImportError:
        pyca = None
    ray_missing = ""
    if a.skip_ray:
        ray_missing = "--skip-ray"
    elif importlib.util.find_spec("ray") is None or importlib.util.find_spec("pyarrow") is None:
        ray_missing = "ray (or pyarrow) is not installed: pip install 'redc[ray]'"

    engine = redc.engine_info(a.backend)
    header = {
        "cpu": cpu_model(),
        "cpu_flags": cpu_flags(),
        "cores": os.cpu_count(),
        "affinity": len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else None,
        "load_before": load_before,
        "python": f"{platform.python_implementation()} {platform.python_version()}",
        "redc": version("redc"),
        "engine": {"name": engine[0], "lanes": engine[1], "describe": engine[2]},
        "backends": redc.backends(),
        "pyca": pyca,
        "ray": None if ray_missing else version("ray"),
        "count": a.count,
        "ray_count": a.ray_count,
        "pyca_count": small,
        "bits": a.bits,
        "repeat": a.repeat,
    }
    print(f"redc benchmark, {time.strftime('%Y-%m-%d %H:%M:%S')}")
    print(f"  machine : {header['cpu']} ({' '.join(header['cpu_flags']) or 'no AVX-512'}), {header['cores']} cores (affinity {header['affinity']})")
    print(f"  load    : {' '.join(f'{x:.2f}' for x in load_before) if load_before else '?'} (1, 5, 15 min) before")
    print(f"  python  : {header['python']} ({sys.executable})")
    print(f"  redc    : {header['redc']}, engine {engine[0]} ({engine[1]} lanes: {engine[2]}), backends {', '.join(header['backends'])}")
    print(f"  pyca    : {pyca or 'not installed: pip install cryptography (the pyca rows are left out)'}")
    print(f"  ray     : {header['ray'] or 'rows skipped (' + ray_missing + ')'}")
    print(
        f"  workload: RSA-{a.bits}, {MESSAGE_LEN}-byte messages, SHA-256; redc batch on {a.count:,}, Ray on {a.ray_count:,}, "
        f"pyca and redc-1t on {small:,}{' (a subset)' if small < a.count else ''}; median of {a.repeat} runs"
    )
    print(flush=True)

    t, key = timed(lambda: redc.generate_private_key(65537, a.bits))
    pem = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
    msgs = messages(a.count, a.seed)

    rows: List[Row] = []

    def add(op: str, method: str, label: str, n: int) -> Optional[Row]:
        if not selected(patterns, op, method):
            return None
        row = Row(op, method, label, n)
        rows.append(row)
        return row

    def progress(row: Row) -> None:
        rates = row.rates
        tail = f"{fmt_rate(row.median)}/s (min {fmt_rate(min(rates))}, max {fmt_rate(max(rates))})" if rates else "no result"
        print(f"  .. {row.label:<34} {tail} [{time.perf_counter() - started:.0f} s]", file=sys.stderr, flush=True)

    for op in OPS:
        verb = "sign" if op.startswith("sign") else "decrypt"
        want = [selected(patterns, op, m) for m in ("redc", "pyca", "pyca-mp")]
        if not any(want):
            continue
        if op.startswith("sign"):
            items, plain = msgs, None
        else:
            pad, _ = redc_scheme(op)
            items = key.public_key().encrypt_batch(msgs, pad, backend=a.backend)
            plain = msgs
        row = add(op, "redc", f"{op} redc {verb}_batch", a.count)
        if row:
            run_redc(row, key, op, items, plain, a.repeat, a.backend)
            if pyca is not None and op.startswith("sign"):
                rejected = pyca_rejects(pem, key, op, items[:200], a.backend)
                if rejected:
                    row.note = "; ".join(x for x in (row.note, f"pyca rejects {rejected} of 200 signatures!") if x)
            progress(row)
        for method, label in (("pyca", f"{op} pyca {verb}() loop"), ("pyca-mp", f"{op} pyca mp x{procs}")):
            if pyca is None:
                continue
            row = add(op, method, label, small)
            if row is None:
                continue
            if method == "pyca":
                run_pyca(row, pem, op, items[:small], plain and plain[:small], a.repeat)
            else:
                run_pyca_mp(row, pem, op, items[:small], plain and plain[:small], a.repeat, procs, a.chunk)
            progress(row)

    ray_note = ""
    if ray_missing:
        ray_note = f"Ray rows skipped: {ray_missing}"
    else:
        row = add(ray_op, "redc-1t", f"{ray_op} redc sign_batch 1 thread", small)
        if row:
            run_redc_1t(row, pem, ray_op, small, a.seed, a.repeat, a.backend)
            progress(row)
        blocks = a.ray_blocks or max(8, a.ray_count // 4096)
        for cpus in ray_cpus:
            method = f"ray-{cpus}"
            if not selected(patterns, ray_op, method):
                continue
            pair = (
                Row(ray_op, method, f"{ray_op} redc.ray num_cpus={cpus}", a.ray_count),
                Row(ray_op, method + "+init", f"{ray_op} redc.ray num_cpus={cpus} +start", a.ray_count),
            )
            try:
                run_ray(pair, pem, ray_op, cpus, a.ray_count, a.seed, a.repeat, blocks, a.backend)
            except RuntimeError as e:
                pair[0].note = f"FAILED: {str(e).splitlines()[0]}"
                print(str(e), file=sys.stderr)
            rows.extend(pair)
            for r in pair:
                progress(r)

    load_after = load_average()
    anchors: Dict[str, Tuple[Optional[float], Optional[float]]] = {}
    by_id = {r.id: r for r in rows}
    for op in OPS:
        one, mp = by_id.get(f"{op}/pyca"), by_id.get(f"{op}/pyca-mp")
        anchors[op] = (one.median if one else None, mp.median if mp else None)

    print(table(rows, anchors))
    print()
    if small < a.count and any(r.method in ("pyca", "pyca-mp", "redc-1t") for r in rows):
        print(f"pyca, pyca-mp and redc-1t ran on the first {small:,} of the {a.count:,} messages (--pyca-count); rates are per operation.")
    print("'vs pyca': against pyca's single sign()/decrypt() loop in one process (the anchor); 'vs pyca-mp': against pyca on every core.")
    if ray_note:
        print(ray_note)
    print()
    lines, met = targets(by_id, ray_op, procs)
    print("Targets of the issue:")
    for line in lines:
        print("  " + line)
    wall = time.perf_counter() - started
    print()
    print(
        f"load    : {' '.join(f'{x:.2f}' for x in load_after) if load_after else '?'} after "
        f"(before {' '.join(f'{x:.2f}' for x in load_before) if load_before else '?'}); wall time {wall:.0f} s; key generation {t:.2f} s"
    )
    if load_before and load_before[0] > 0.5 * (os.cpu_count() or 1):
        # (The load after counts this run's own work too.)
        print("note    : the machine was busy before the run (1-min load above half the cores): rates may be lower than on an idle machine")
    if any(len(r.rates) > 1 and max(r.rates) > SPREAD * min(r.rates) for r in rows):
        print(f"note    : NOISY rows: their runs differ by more than {SPREAD:g}x; rerun (more --repeat) on a quiet machine before trusting them")

    if a.json:
        header["load_after"] = load_after
        header["wall_s"] = wall
        doc = {
            "header": header,
            "rows": [
                {
                    "id": r.id,
                    "label": r.label,
                    "n": r.n,
                    "seconds": r.seconds,
                    "rates": r.rates,
                    "median": r.median,
                    "min": min(r.rates) if r.rates else None,
                    "max": max(r.rates) if r.rates else None,
                    "vs_pyca": (r.median / anchors[r.op][0]) if r.median and anchors.get(r.op, (None,))[0] else None,
                    "vs_pyca_mp": (r.median / anchors[r.op][1]) if r.median and anchors.get(r.op, (None, None))[1] else None,
                    "note": r.note,
                    "extra": r.extra,
                }
                for r in rows
            ],
            "targets": met,
        }
        with open(a.json, "w") as f:
            json.dump(doc, f, indent=2)
        print(f"json    : {a.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
