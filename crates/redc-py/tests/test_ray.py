"""redc.ray on a real local Ray cluster of 2 CPUs: 10,000 rows read from
Parquet, signed and verified through the actor pool (the read tasks and
the pool share the CPUs: a pool that held both would never finish), a few
malformed rows reported in the error column, results checked by
pyca/cryptography, and the key found nowhere on disk afterwards."""

from __future__ import annotations

import base64
import os
import signal

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

ray = pytest.importorskip("ray")

import redc  # noqa: E402
import redc.ray  # noqa: E402
from cryptography.exceptions import InvalidSignature  # noqa: E402
from cryptography.hazmat.primitives import hashes as pyca_hashes  # noqa: E402
from cryptography.hazmat.primitives import serialization as pyca_ser  # noqa: E402
from cryptography.hazmat.primitives.asymmetric import padding as pyca_padding  # noqa: E402
from redc import hashes, padding, serialization  # noqa: E402

ROWS = 10_000
# Malformed rows: a null message; an empty message is fine.
NULL_ROWS = {17, 5_000, 9_999}
# The whole module must finish well within this (a starved pool hangs).
DEADLINE_S = 600


@pytest.fixture(scope="module")
def cluster():
    def expired(signum, frame):
        raise TimeoutError(f"the Ray jobs did not finish within {DEADLINE_S} s (starved actor pool?)")

    previous = signal.signal(signal.SIGALRM, expired)
    signal.alarm(DEADLINE_S)
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        yield
    finally:
        ray.shutdown()
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


@pytest.fixture(scope="module")
def key():
    return redc.generate_private_key(65537, 2048)


def pss():
    return padding.PSS(mgf=padding.MGF1(hashes.SHA256()), salt_length=padding.PSS.MAX_LENGTH)


def message(i):
    return None if i in NULL_ROWS else b"row %d" % i if i % 1000 else b""


def parquet_dataset(tmp_path, rows):
    """``rows`` messages in 4 Parquet files, read back by Ray's read tasks."""
    column = [message(i) for i in range(rows)]
    for part in range(4):
        chunk = column[part * rows // 4 : (part + 1) * rows // 4]
        table = pa.table({"message": pa.array(chunk, type=pa.binary())})
        pq.write_table(table, tmp_path / f"part-{part}.parquet")
    return ray.data.read_parquet(str(tmp_path))


def test_pool_plan_leaves_a_cpu_for_the_read_tasks(cluster):
    plan = redc.ray.pool_plan()
    assert plan.actors == 2
    assert plan.num_cpus == 0.5
    assert plan.threads == 1
    assert plan.batch_size >= 256


def test_sign_and_verify_10000_rows(cluster, key, tmp_path):
    pem = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
    public_pem = key.public_key().public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)
    ds = parquet_dataset(tmp_path, ROWS)
    signed = redc.ray.sign(ds, pem, padding=pss(), algorithm=hashes.SHA256()).materialize()
    rows = sorted(signed.take_all(), key=lambda r: -1 if r["message"] is None else 0)
    assert len(rows) == ROWS

    failed = [r for r in rows if r["sign_error"] is not None]
    assert len(failed) == len(NULL_ROWS)
    for r in failed:
        assert r["signature"] is None and r["message"] is None
        assert r["sign_error"] == "message: expected bytes, found NoneType"

    # Every signature checked by pyca/cryptography, an independent oracle.
    oracle = pyca_ser.load_pem_public_key(public_pem)
    pyca_pss = pyca_padding.PSS(mgf=pyca_padding.MGF1(pyca_hashes.SHA256()), salt_length=pyca_padding.PSS.AUTO)
    good = [r for r in rows if r["sign_error"] is None]
    for r in good:
        oracle.verify(r["signature"], r["message"], pyca_pss, pyca_hashes.SHA256())

    # Verify through Ray, with two signatures spoiled and one missing.
    spoiled = {3, 4}
    table = pa.table(
        {
            "message": [r["message"] for r in good],
            "signature": [
                None if i == 5 else bytes(b ^ 1 for b in r["signature"]) if i in spoiled else r["signature"]
                for i, r in enumerate(good)
            ],
            "index": list(range(len(good))),
        }
    )
    checked = redc.ray.verify(ray.data.from_arrow(table), public_pem, padding=pss(), algorithm=hashes.SHA256())
    out = {r["index"]: r for r in checked.take_all()}
    assert len(out) == len(good)
    for i, r in out.items():
        if i in spoiled:
            assert r["valid"] is False and r["verify_error"] is None
        elif i == 5:
            assert r["valid"] is False and r["verify_error"] == "signature: expected bytes, found NoneType"
        else:
            assert r["valid"] is True and r["verify_error"] is None

    with pytest.raises(InvalidSignature):
        oracle.verify(table["signature"][3].as_py(), good[3]["message"], pyca_pss, pyca_hashes.SHA256())


def test_sign_then_verify_in_one_pipeline_from_parquet(cluster, key, tmp_path):
    """Two redc pools and the read tasks in one job on 2 CPUs: every pool
    starts with one actor, so neither starves the other nor the reads
    (fixed pools of two half-CPU actors each took all the CPUs and the job
    never ended). The private key file is given to verify: only its public
    key is sent."""
    pem = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
    ds = parquet_dataset(tmp_path, 4_000)
    signed = redc.ray.sign(ds, pem, padding=pss(), algorithm=hashes.SHA256())
    rows = redc.ray.verify(signed, pem, padding=pss(), algorithm=hashes.SHA256()).take_all()
    assert len(rows) == 4_000
    nulls = [r for r in rows if r["message"] is None]
    assert len(nulls) == len([i for i in NULL_ROWS if i < 4_000])
    for r in nulls:
        assert r["sign_error"] and r["verify_error"] and r["valid"] is False
    assert all(r["valid"] and r["verify_error"] is None for r in rows if r["message"] is not None)


def test_a_parameter_that_fits_no_row_fails_at_the_call(cluster, key):
    pem = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
    ds = ray.data.from_items([{"message": b"x"}])
    with pytest.raises(redc.Error, match="^salt_length: "):
        redc.ray.sign(ds, pem, padding=padding.PSS(mgf=padding.MGF1(hashes.SHA256()), salt_length=300), algorithm=hashes.SHA256())
    with pytest.raises(redc.Error, match="^column: the dataset has no column 'msg'"):
        redc.ray.sign(ds.materialize(), pem, padding=pss(), algorithm=hashes.SHA256(), column="msg")
    with pytest.raises(redc.Error, match="^concurrency: "):
        redc.ray.sign(ds, pem, padding=pss(), algorithm=hashes.SHA256(), concurrency=0)


def test_the_key_is_nowhere_on_disk(cluster, key, tmp_path):
    """After a job, no file of the Ray session (logs, spilled objects) holds
    the key file or its DER."""
    pem = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
    der = key.private_bytes(serialization.Encoding.DER, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
    ds = ray.data.from_items([{"message": b"m%d" % i} for i in range(2_000)])
    rows = redc.ray.sign(ds, pem, padding=pss(), algorithm=hashes.SHA256()).take_all()
    assert all(r["sign_error"] is None for r in rows)

    # The PEM body's lines, the DER and its base64 (as a log might print it).
    needles = [line for line in pem.split(b"\n") if len(line) == 64][:4]
    needles += [der[40:104], base64.b64encode(der[40:104])]
    session = ray._private.worker._global_node.get_session_dir_path()
    scanned = 0
    for root, _, files in os.walk(session):
        for name in files:
            path = os.path.join(root, name)
            try:
                with open(path, "rb") as f:
                    data = f.read()
            except OSError:
                continue
            scanned += 1
            for needle in needles:
                assert needle not in data, f"key material found in {path}"
    assert scanned > 0


def test_encrypted_key_and_wrong_password(cluster, key):
    pem = key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.BestAvailableEncryption(b"pass phrase"),
    )
    with pytest.raises(redc.WrongPassword):
        redc.ray.sign(ray.data.from_items([{"message": b"x"}]), pem, padding=pss(), algorithm=hashes.SHA256(), password=b"wrong")
    ds = ray.data.from_items([{"message": b"m%d" % i} for i in range(300)])
    rows = redc.ray.sign(ds, pem, padding=pss(), algorithm=hashes.SHA256(), password=b"pass phrase").take_all()
    public = key.public_key()
    for r in rows:
        public.verify(r["signature"], r["message"], pss(), hashes.SHA256())


def test_encrypt_then_decrypt_with_a_row_too_long(cluster, key):
    oaep = padding.OAEP(mgf=padding.MGF1(hashes.SHA256()), algorithm=hashes.SHA256(), label=None)
    public_pem = key.public_key().public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)
    pem = key.private_bytes(serialization.Encoding.DER, serialization.PrivateFormat.TraditionalOpenSSL, serialization.NoEncryption())
    messages = [b"secret %d" % i for i in range(500)]
    messages[42] = b"x" * 300  # longer than OAEP-SHA256 allows under a 2048-bit key
    ds = ray.data.from_items([{"message": m, "i": i} for i, m in enumerate(messages)])
    sealed = redc.ray.encrypt(ds, public_pem, padding=oaep)
    opened = {r["i"]: r for r in redc.ray.decrypt(sealed, pem, padding=oaep).take_all()}
    assert "message too long" in opened[42]["encrypt_error"]
    assert opened[42]["ciphertext"] is None and opened[42]["plaintext"] is None
    assert opened[42]["decrypt_error"] == "ciphertext: expected bytes, found NoneType"
    for i, m in enumerate(messages):
        if i != 42:
            assert opened[i]["plaintext"] == m and opened[i]["decrypt_error"] is None and opened[i]["encrypt_error"] is None


def test_a_public_key_cannot_sign(cluster, key):
    public_pem = key.public_key().public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)
    with pytest.raises(redc.Error, match="key: sign needs a private key"):
        redc.ray.sign(ray.data.from_items([{"message": b"x"}]), public_pem, padding=pss(), algorithm=hashes.SHA256())


def test_the_security_level_reaches_the_workers(cluster):
    """A 1024-bit key signs only where the call says ``security_level=1``:
    the level travels with the key file to every actor."""
    small = redc.generate_private_key(65537, 1024, security_level=1)
    pem = small.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
    ds = ray.data.from_items([{"message": b"row %d" % i} for i in range(8)])
    refused = redc.ray.sign(ds, pem, padding=pss(), algorithm=hashes.SHA256()).take_all()
    assert all(r["signature"] is None and "security level 2" in r["sign_error"] for r in refused)
    signed = redc.ray.sign(ds, pem, padding=pss(), algorithm=hashes.SHA256(), security_level=1).take_all()
    for r in signed:
        assert r["sign_error"] is None
        small.public_key().verify(r["signature"], r["message"], pss(), hashes.SHA256())
