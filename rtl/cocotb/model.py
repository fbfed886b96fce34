"""The golden model, asked through the `redc` command: `redc vectors ARCH
--n N --a A --b B [--a2 A2 --b2 B2] --format json` runs one product through
redc's model of the circuit and returns its words and cycles."""

import json
import os
import subprocess
import tempfile

REDC = os.environ.get("REDC", "redc")


def product(arch, n, a, b, a2=None, b2=None):
    """The model's case for modulus n and operands a, b (and the carry-save
    second words a2, b2): a dict of ints (n, a, b, result, the carry-save
    words, const_*) plus "cycles" and the traces."""
    args = ["--b", hex(b)]
    if a2 is not None:
        args += ["--a2", hex(a2), "--b2", hex(b2)]
    return _case(arch, n, a, args)


def power(arch, n, base, e):
    """The model's exponentiation base^e mod n by the paper's exponentiator:
    a dict of ints (n, r2, a, e, result, products, const_*, cycles)."""
    return _case(arch, n, base, ["--e", hex(e)])


def _case(arch, n, a, extra):
    args = [REDC, "vectors", arch, "--n", hex(n), "--a", hex(a), "--format", "json"] + extra
    with tempfile.TemporaryDirectory() as out:
        subprocess.run(args + ["-o", out], check=True, capture_output=True)
        with open(os.path.join(out, "vectors.json"), encoding="utf-8") as f:
            case = json.load(f)["cases"][0]
    return {k: (int(v, 16) if isinstance(v, str) else v) for k, v in case.items()}
