"""cocotb test of rtl/carry_save/csa_r2.v (003 Alg. I) and csa_r4.v
(Alg. II, with n' and 3n): random K-bit moduli and carry-save operands
(A1, A2), (B1, B2) with both words nonzero, drawn here; the expected pair
and cycles asked of redc's golden model, and the value S1 + S2 checked once
more against Python's pow."""

import os
import random

import cocotb

from bench import reset, run
from model import product

CASES = int(os.environ.get("CASES", "20"))


@cocotb.test()
async def random_carry_save_products(dut):
    k = int(dut.K.value)
    radix4 = dut._name == "csa_r4"
    arch, r = ("csa-radix4", 2 * (-(-k // 2) + 1)) if radix4 else ("csa-radix2", k + 2)
    rng = random.Random(int(os.environ.get("SEED", "2026")))
    await reset(dut)
    for case in range(CASES):
        n = rng.getrandbits(k) | (1 << (k - 1)) | 1
        a, b = rng.randrange(2 * n), rng.randrange(2 * n)
        a2, b2 = rng.randrange(a + 1), rng.randrange(b + 1)
        a1, b1 = a - a2, b - b2
        want = product(arch, n, a1, b1, a2, b2)
        dut.n.value = n
        if radix4:
            nprime = -pow(n, -1, 4) % 4
            assert (want["const_nprime"], want["const_n3"]) == (nprime, 3 * n), "the model's constants"
            dut.nprime.value, dut.n3.value = nprime, 3 * n
        dut.a1.value, dut.a2.value, dut.b1.value, dut.b2.value = a1, a2, b1, b2
        cycles = await run(dut)
        s1, s2 = int(dut.s1.value), int(dut.s2.value)
        assert (s1, s2) == (want["s1"], want["s2"]), f"case {case}: (S1, S2) differ from the model"
        assert cycles == want["cycles"] == r // (2 if radix4 else 1), f"case {case}: {cycles} cycles, model {want['cycles']}"
        assert s1 + s2 < 2 * n and (s1 + s2) % n == a * b * pow(2, -r, n) % n, "against Python's pow"
    dut._log.info("%d random carry-save products at K = %d equal to the model", CASES, k)
