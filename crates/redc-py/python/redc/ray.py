"""Sign, verify, encrypt or decrypt a column of a Ray Dataset on redc.

Each function adds columns with ``Dataset.map_batches`` over a pool of
actors; each actor opens the key once and keeps it with its prepared
engine, and runs every batch as one engine batch. A row that cannot be
processed (not bytes, null, too long, ...) gets its message in the error
column and a null result; the job never fails because of a row. A
parameter that fits no row (a salt too long for the key, a missing
column) fails at the call, in the driver.

The pool is sized from the cluster so that it cannot starve the tasks
that read and write, nor another redc pool in the same pipeline
(``pool_plan``): on every node one CPU stays free, the rest is shared by
at most one actor per CPU, each running the engine on one thread; a pool
starts with one actor and grows while CPUs are free. With the CUDA
backend and GPUs in the cluster, one actor per GPU.

The key: ``verify`` and ``encrypt`` send only the public key, whatever key
file they are given. ``sign`` and ``decrypt`` hand the private key file
(and its password) to one holder actor of the job as an argument of its
creation, small enough to travel inline in the task; each worker asks the
holder for it once, in a reply that also travels inline. It is never put
in Ray's object store (which spills to disk under memory pressure), never
written to a file and never logged by redc; its ``repr`` hides it.

    >>> import ray, redc, redc.ray
    >>> from redc import hashes, padding
    >>> ds = ray.data.from_items([{"message": b"m%d" % i} for i in range(1000)])
    >>> pss = padding.PSS(mgf=padding.MGF1(hashes.SHA256()), salt_length=padding.PSS.MAX_LENGTH)
    >>> signed = redc.ray.sign(ds, key_pem, padding=pss, algorithm=hashes.SHA256())
    >>> checked = redc.ray.verify(signed, key_pem, padding=pss, algorithm=hashes.SHA256())
    >>> # columns: message, signature, sign_error, valid, verify_error
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass
from typing import Any, List, Optional, Tuple

import pyarrow as pa
import ray
from ray.data import ActorPoolStrategy, Dataset

from redc import _redc
from redc._items import as_list
from redc._scheme import scheme, signature_hash

__all__ = ["PoolPlan", "pool_plan", "sign", "verify", "encrypt", "decrypt"]


@dataclass(frozen=True)
class PoolPlan:
    """How ``map_batches`` runs: a pool of 1 to ``actors`` actors of
    ``num_cpus`` CPUs (and ``num_gpus`` GPUs) each, ``batch_size`` rows per
    call, ``threads`` engine threads per actor."""

    actors: int
    num_cpus: float
    num_gpus: float
    batch_size: int
    threads: int


def _node_cpus() -> List[float]:
    """The CPUs of every live node that has some."""
    cpus = [float(n["Resources"].get("CPU", 0.0)) for n in ray.nodes() if n.get("Alive")]
    return [c for c in cpus if c > 0] or [float(ray.cluster_resources().get("CPU", 1.0))]


def pool_plan(
    concurrency: Optional[int] = None, batch_size: Optional[int] = None, backend: Optional[str] = None
) -> PoolPlan:
    """The pool for this cluster (``ray.init()`` first if Ray is not running).

    CPUs: with ``C`` CPUs on the smallest node, one CPU per node (all of it
    when ``C < 2``) stays free for the read and write tasks, which take a
    whole CPU each: a pool that holds every CPU starves them and the job
    never ends. The other ``C - 1`` are shared by up to ``C`` actors per
    node (``concurrency`` in all, when given), one engine thread each; the
    pool starts with one actor and grows while CPUs are free, so two redc
    pools of one pipeline do not starve each other either. Batches: 128 rows
    per lane of the backend, at least 256. GPUs (backend ``cuda``): up to
    one actor per GPU.
    """
    if not ray.is_initialized():
        ray.init()
    if concurrency is not None and (not isinstance(concurrency, int) or concurrency < 1):
        raise _redc.Error(f"concurrency: must be a positive int, found {concurrency!r}")
    if batch_size is not None and (not isinstance(batch_size, int) or batch_size < 1):
        raise _redc.Error(f"batch_size: must be a positive int, found {batch_size!r}")
    name, lanes, _ = _redc.engine_info(backend)
    batch_size = batch_size or max(256, 128 * lanes)
    gpus = float(ray.cluster_resources().get("GPU", 0.0))
    if name == "cuda" and gpus >= 1:
        return PoolPlan(concurrency or int(gpus), 0.0, 1.0, batch_size, 1)
    nodes = _node_cpus()
    smallest = min(nodes)
    actors = concurrency or max(1, int(smallest)) * len(nodes)
    per_node = math.ceil(actors / len(nodes))
    share = math.floor(max(0.0, smallest - 1.0) / per_node * 100) / 100
    return PoolPlan(actors, share, 0.0, batch_size, 1)


class _Secret:
    """A private key file's bytes and password on their way to the holder
    actor; ``repr`` shows neither."""

    __slots__ = ("data", "password")

    def __init__(self, data: bytes, password: Optional[bytes]) -> None:
        self.data = bytes(data)
        self.password = None if password is None else bytes(password)

    def __repr__(self) -> str:
        return "<redc key material: hidden>"

    def __reduce__(self) -> Any:
        return (_Secret, (self.data, self.password))


@ray.remote(num_cpus=0)
class _KeyHolder:
    """Holds one job's private key file for its workers: created with it
    (an inline argument) and asked once by each worker (an inline reply),
    so the key never enters the object store."""

    def __init__(self, secret: _Secret) -> None:
        self._secret = secret

    def secret(self) -> _Secret:
        return self._secret


class _Worker:
    """One actor: the key opened once; each call one engine batch."""

    def __init__(
        self, op: str, key: Any, level: Optional[int], args: Tuple[Any, ...], columns: Tuple[str, ...], threads: int
    ) -> None:
        # Before the engine first runs in this process (rayon reads it once);
        # the plan decides, not an inherited setting.
        os.environ["RAYON_NUM_THREADS"] = str(threads)
        if isinstance(key, bytes):
            self.key = _redc.Key.load(key, None, level)
        else:
            secret = ray.get(key.secret.remote())
            self.key = _redc.Key.load(secret.data, secret.password, level)
            del secret
        self.op, self.args, self.columns = op, args, columns

    def __call__(self, table: pa.Table) -> pa.Table:
        op, key, args = self.op, self.key, self.args
        names = self.columns
        inputs = [as_list(table.column(n), n) for n in names[: 2 if op == "verify" else 1]]
        return _attach(table, op, _call(op, key, inputs, names, args), names[2], names[3])


def _call(op: str, key: Any, inputs: List[List[Any]], names: Tuple[str, ...], args: Tuple[Any, ...]) -> List[Any]:
    """The extension's batch of ``op`` on ``inputs``; errors name the
    column (an index would be the batch's, not the row's)."""
    if op == "verify":
        return _redc.verify(key, inputs[0], inputs[1], names[0], names[1], *args)
    if op == "sign":
        return _redc.sign(key, inputs[0], names[0], *args)
    return _redc.cipher(key, inputs[0], names[0], args[0], op == "decrypt", *args[1:])


def _put(table: pa.Table, name: str, column: pa.Array) -> pa.Table:
    """``table`` with column ``name`` added, or replaced if it exists."""
    i = table.schema.get_field_index(name)
    return table.set_column(i, name, column) if i >= 0 else table.append_column(name, column)


def _attach(table: pa.Table, op: str, answers: List[Any], output: str, error: str) -> pa.Table:
    """``table`` with the result column and the error column."""
    errors: List[Optional[str]] = []
    values: List[Any] = []
    for a in answers:
        failed = isinstance(a, BaseException)
        if op == "verify":
            # An invalid signature is an answer (False), not a failed row.
            values.append(a is None)
            failed = failed and not isinstance(a, _redc.InvalidSignature)
        else:
            values.append(None if failed else a)
        errors.append(str(a) if failed else None)
    kind = pa.bool_() if op == "verify" else pa.binary()
    table = _put(table, output, pa.array(values, type=kind))
    return _put(table, error, pa.array(errors, type=pa.string()))


def _run(
    ds: Dataset,
    op: str,
    keyfile: Tuple[bytes, Optional[bytes], Optional[int]],
    args: Tuple[Any, ...],
    columns: Tuple[str, ...],
    pool: Tuple[Optional[int], Optional[int], Optional[str]],
) -> Dataset:
    """``map_batches`` of ``op``; every check that does not need a row
    happens here, in the driver. ``keyfile``: the key file's bytes, its
    password, and the security level of the key (None: the default)."""
    key, password, level = keyfile
    if not isinstance(key, (bytes, bytearray)):
        raise TypeError(f"key: expected the key file's bytes (PEM or DER), found {type(key).__name__}")
    opened = _redc.Key.load(bytes(key), None if password is None else bytes(password), level)
    if op in ("sign", "decrypt") and not opened.is_private:
        raise _redc.Error(f"key: {op} needs a private key, found a public key")
    # The scheme against the key, on no rows: a salt or hash that fits no
    # row fails here, naming the parameter.
    _call(op, opened, [[], []], columns, args[:-1])
    if op in ("sign", "decrypt"):
        sent: Any = _KeyHolder.remote(_Secret(key, password))
    else:
        # Only the public key travels, whatever file was given.
        sent = opened.public().public_bytes("spki", True)
    schema = ds.schema(fetch_if_missing=False)
    if schema is not None:
        for what, name in (("column", columns[0]), ("signature", columns[1])):
            if name and name not in schema.names:
                raise _redc.Error(f"{what}: the dataset has no column {name!r} (it has {', '.join(schema.names)})")
    plan = pool_plan(*pool)
    # Blocks of at most four batches, so that every actor gets work (Ray
    # reads a directory of Parquet files as one block); smaller blocks cost
    # more than they spread (measured: a fifth of the rate at one batch).
    ds = ds.repartition(target_num_rows_per_block=4 * plan.batch_size)
    out = ds.map_batches(
        _Worker,
        fn_constructor_kwargs={
            "op": op,
            "key": sent,
            "level": level,
            "args": args,
            "columns": columns,
            "threads": plan.threads,
        },
        compute=ActorPoolStrategy(min_size=1, max_size=plan.actors),
        batch_size=plan.batch_size,
        batch_format="pyarrow",
        num_cpus=plan.num_cpus,
        num_gpus=plan.num_gpus or None,
    )
    # The holder lives while this dataset does (its workers ask it once).
    out._redc_key_holder = sent
    return out


def sign(
    ds: Dataset,
    key: bytes,
    *,
    padding: Any,
    algorithm: Any,
    password: Optional[bytes] = None,
    security_level: Optional[int] = None,
    column: str = "message",
    output: str = "signature",
    error: str = "sign_error",
    concurrency: Optional[int] = None,
    batch_size: Optional[int] = None,
    backend: Optional[str] = None,
) -> Dataset:
    """``ds`` with ``output`` (binary: the signature of ``column``, null for
    a failed row) and ``error`` (the failed row's message, else null).
    ``key``: a private key file's bytes (PEM or DER, encrypted PKCS#8 with
    ``password``)."""
    name, pre = signature_hash(algorithm)
    args = (scheme(padding, name), pre, backend)
    return _run(ds, "sign", (key, password, security_level), args, (column, "", output, error), (concurrency, batch_size, backend))


def verify(
    ds: Dataset,
    key: bytes,
    *,
    padding: Any,
    algorithm: Any,
    password: Optional[bytes] = None,
    security_level: Optional[int] = None,
    column: str = "message",
    signature: str = "signature",
    output: str = "valid",
    error: str = "verify_error",
    concurrency: Optional[int] = None,
    batch_size: Optional[int] = None,
    backend: Optional[str] = None,
) -> Dataset:
    """``ds`` with ``output`` (bool: whether ``signature`` is valid for
    ``column``) and ``error`` (a malformed row's message; an invalid
    signature is ``False`` with no error). ``key``: a public key file's
    bytes, or a private key's (only its public key is sent)."""
    name, pre = signature_hash(algorithm)
    args = (scheme(padding, name), pre, backend)
    columns = (column, signature, output, error)
    return _run(ds, "verify", (key, password, security_level), args, columns, (concurrency, batch_size, backend))


def encrypt(
    ds: Dataset,
    key: bytes,
    *,
    padding: Any,
    password: Optional[bytes] = None,
    security_level: Optional[int] = None,
    column: str = "message",
    output: str = "ciphertext",
    error: str = "encrypt_error",
    concurrency: Optional[int] = None,
    batch_size: Optional[int] = None,
    backend: Optional[str] = None,
) -> Dataset:
    """``ds`` with ``output`` (binary: ``column`` encrypted) and ``error``;
    only the public key of ``key`` is sent."""
    args = (scheme(padding), backend)
    return _run(ds, "encrypt", (key, password, security_level), args, (column, "", output, error), (concurrency, batch_size, backend))


def decrypt(
    ds: Dataset,
    key: bytes,
    *,
    padding: Any,
    password: Optional[bytes] = None,
    security_level: Optional[int] = None,
    column: str = "ciphertext",
    output: str = "plaintext",
    error: str = "decrypt_error",
    concurrency: Optional[int] = None,
    batch_size: Optional[int] = None,
    backend: Optional[str] = None,
) -> Dataset:
    """``ds`` with ``output`` (binary: ``column`` decrypted) and ``error``."""
    args = (scheme(padding), backend)
    return _run(ds, "decrypt", (key, password, security_level), args, (column, "", output, error), (concurrency, batch_size, backend))
