"""cocotb test of rtl/fdfm/fdfm_mm.v: random moduli and operands drawn
here, the expected output and cycles asked of redc's golden model, and the
output checked once more against Python's pow."""

import os
import random

import cocotb

from bench import fdfm_bits, fetch, load, reset, run
from model import product

CASES = int(os.environ.get("CASES", "20"))


@cocotb.test()
async def random_products(dut):
    d = int(dut.D.value)
    rng = random.Random(int(os.environ.get("SEED", "2026")))
    dut.we.value = 0
    # Banks: M in 0 (the design's), X in 1, Y in 2, S written to 3.
    dut.xb.value, dut.yb.value, dut.sb.value = 1, 2, 3
    await reset(dut)
    for case in range(CASES):
        bits = rng.choice(fdfm_bits(d))
        n = rng.getrandbits(bits) | (1 << (bits - 1)) | 1
        a, b = rng.randrange(2 * n), rng.randrange(2 * n)
        want = product("fdfm", n, a, b)
        minv = (-pow(n, -1, 1 << 17)) % (1 << 17)
        assert want["const_minv"] == minv, "the model's minv against Python's pow"
        dut.minv.value = minv
        for bank, v in ((1, a), (2, b), (0, n)):
            await load(dut, bank, v, d)
        cycles = await run(dut)
        s = await fetch(dut, 3, d)
        assert s == want["result"], f"case {case}: S = {s:#x}, model {want['result']:#x}"
        assert cycles == want["cycles"], f"case {case}: {cycles} cycles, model {want['cycles']}"
        assert s < 2 * n and s % n == a * b * pow(2, -17 * d, n) % n, "against Python's pow"
    dut._log.info("%d random products at D = %d equal to the model", CASES, d)
