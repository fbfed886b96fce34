"""cocotb test of rtl/fdfm/fdfm_mm.v: random moduli and operands drawn
here, the expected output and cycles asked of redc's golden model, and the
output checked once more against Python's pow."""

import os
import random

import cocotb
from cocotb.triggers import FallingEdge

from bench import reset, run
from model import product

CASES = int(os.environ.get("CASES", "20"))


def bits_range(d):
    """Modulus lengths whose digit count (ceil((bits + 3) / 17)) is d."""
    return [b for b in range(2, 17 * d) if -(-(b + 3) // 17) == d]


@cocotb.test()
async def random_products(dut):
    d = int(dut.D.value)
    rng = random.Random(int(os.environ.get("SEED", "2026")))
    dut.we.value = 0
    await reset(dut)
    for case in range(CASES):
        bits = rng.choice(bits_range(d))
        n = rng.getrandbits(bits) | (1 << (bits - 1)) | 1
        a, b = rng.randrange(2 * n), rng.randrange(2 * n)
        want = product("fdfm", n, a, b)
        minv = (-pow(n, -1, 1 << 17)) % (1 << 17)
        assert want["const_minv"] == minv, "the model's minv against Python's pow"
        dut.minv.value = minv
        for sel, v in ((0, a), (1, b), (2, n)):
            for r in range(d):
                await FallingEdge(dut.clk)
                dut.we.value = 1
                dut.wsel.value = sel
                dut.waddr.value = r
                dut.wdata.value = (v >> (17 * r)) & 0x1FFFF
        await FallingEdge(dut.clk)
        dut.we.value = 0
        cycles = await run(dut)
        s = 0
        for r in range(d):
            dut.raddr.value = r
            await FallingEdge(dut.clk)
            s |= int(dut.rdata.value) << (17 * r)
        assert s == want["result"], f"case {case}: S = {s:#x}, model {want['result']:#x}"
        assert cycles == want["cycles"], f"case {case}: {cycles} cycles, model {want['cycles']}"
        assert s < 2 * n and s % n == a * b * pow(2, -17 * d, n) % n, "against Python's pow"
    dut._log.info("%d random products at D = %d equal to the model", CASES, d)
