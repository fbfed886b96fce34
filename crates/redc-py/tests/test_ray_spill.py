"""The private key never enters Ray's object store: on a cluster with a
small object store, a signing job followed by enough objects to spill
everything to disk leaves no key material in the spilled files, while a
canary put in the store beside it is found there (so the spilling and
the scan are real)."""

from __future__ import annotations

import os

import numpy as np
import pytest

ray = pytest.importorskip("ray")

import redc  # noqa: E402
import redc.ray  # noqa: E402
from redc import hashes, padding, serialization  # noqa: E402

CANARY = b"redc spill canary 7f3a9c"


def session_files():
    session = ray._private.worker._global_node.get_session_dir_path()
    for root, _, files in os.walk(session):
        for name in files:
            path = os.path.join(root, name)
            try:
                with open(path, "rb") as f:
                    yield path, f.read()
            except OSError:
                continue


def test_the_key_is_not_in_spilled_objects(tmp_path):
    ray.init(num_cpus=2, object_store_memory=80 * 1024 * 1024, include_dashboard=False, log_to_driver=False)
    try:
        key = redc.generate_private_key(65537, 2048)
        pem = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
        pss = padding.PSS(mgf=padding.MGF1(hashes.SHA256()), salt_length=padding.PSS.MAX_LENGTH)
        ds = ray.data.from_items([{"message": b"m%d" % i} for i in range(2_000)])
        signed = redc.ray.sign(ds, pem, padding=pss, algorithm=hashes.SHA256()).materialize()
        assert signed.count() == 2_000
        canary = ray.put(np.frombuffer(CANARY * 1000, dtype=np.uint8))
        # 200 MB in a store of 80 MB: the older objects go to disk.
        ballast = [ray.put(np.full(10 * 1024 * 1024, i, dtype=np.uint8)) for i in range(20)]
        needles = [line for line in pem.split(b"\n") if len(line) == 64][:4]
        spilled = found_canary = 0
        for path, data in session_files():
            if "spilled" in path:
                spilled += 1
            found_canary += CANARY in data
            for needle in needles:
                assert needle not in data, f"key material found in {path}"
        assert spilled > 0, "nothing was spilled: the check proves nothing"
        assert found_canary > 0, "the canary was not found on disk: the scan proves nothing"
        del ballast, canary, signed
    finally:
        ray.shutdown()
