"""cocotb test of rtl/fdfm/fdfm_exp.v (Alg. 2 over Alg. 3): random moduli,
bases and exponents drawn here, the expected output, product count and
cycles asked of redc's golden model, and the output checked once more
against Python's pow."""

import os
import random

import cocotb

from bench import fdfm_bits, fetch, load, reset, run
from model import power

CASES = int(os.environ.get("CASES", "10"))


@cocotb.test()
async def random_exponentiations(dut):
    d, ew = int(dut.D.value), int(dut.EW.value)
    rng = random.Random(int(os.environ.get("SEED", "2026")))
    dut.we.value = 0
    await reset(dut)
    for case in range(CASES):
        bits = rng.choice(fdfm_bits(d))
        n = rng.getrandbits(bits) | (1 << (bits - 1)) | 1
        base = rng.randrange(n)
        ebits = rng.randint(1, ew)
        e = rng.getrandbits(ebits) | (1 << (ebits - 1))
        want = power("fdfm", n, base, e)
        dut.minv.value = want["const_minv"]
        r2 = pow(2, 34 * d, n)
        assert want["r2"] == r2, "the model's R^2 mod n against Python's pow"
        for bank, v in ((0, n), (1, r2), (2, 1), (3, base)):
            await load(dut, bank, v, d)
        dut.e.value = e
        dut.ebits.value = ebits
        cycles = await run(dut)
        s = await fetch(dut, int(dut.cbank.value), d)
        s = 0 if s == n else s
        assert s == want["result"] == pow(base, e, n), f"case {case}: {s:#x}, model {want['result']:#x}"
        assert int(dut.products.value) == want["products"], f"case {case}: products"
        assert cycles == want["cycles"], f"case {case}: {cycles} cycles, model {want['cycles']}"
    dut._log.info("%d random exponentiations at D = %d equal to the model", CASES, d)
