"""cocotb test of rtl/blum_paar/blum_paar_array.v (002 §4): random moduli
with M k-bit digits, drawn here; M~ computed here and loaded; each slot runs
two products with the same B interleaved (the squaring and multiplication
of an exponent bit, §4.4), MONT(A0, B) and MONT(A1, B), operands below 2M~.
The expected outputs, q_i of product 0 and the cycles are asked of redc's
golden model (one lone product each: the interleaving must not change
them), and the outputs checked once more against Python's pow."""

import os
import random

import cocotb
from cocotb.triggers import FallingEdge, ReadOnly, RisingEdge

from bench import reset, run
from model import product

CASES = int(os.environ.get("CASES", "20"))


async def quotients(dut, into):
    """Record q_i after every iteration of product 0, for the life of the test."""
    while True:
        await RisingEdge(dut.clk)
        await ReadOnly()
        if dut.it_valid.value == 1:
            into.append(int(dut.q_o.value))


@cocotb.test()
async def random_interleaved_products(dut):
    k, m = int(dut.K.value), int(dut.M.value)
    rng = random.Random(int(os.environ.get("SEED", "2026")))
    # 002's m: the k-bit digits of M.
    lengths = [b for b in range(2, k * m + 1) if -(-b // k) == m]
    await reset(dut)
    dut.load.value = 0
    seen = []
    cocotb.start_soon(quotients(dut, seen))
    for case in range(CASES):
        bits = rng.choice(lengths)
        n = rng.getrandbits(bits) | (1 << (bits - 1)) | 1
        mprime = -pow(n, -1, 1 << k) % (1 << k)
        mtilde = mprime * n
        a0, a1, b = (rng.randrange(2 * mtilde) for _ in range(3))
        want0, want1 = product("blum-paar", n, a0, b), product("blum-paar", n, a1, b)
        assert want0["const_mtilde"] == mtilde, "the model's M~ against Python's"
        await FallingEdge(dut.clk)
        dut.mtilde.value, dut.load.value = mtilde, 1
        await FallingEdge(dut.clk)
        dut.load.value = 0
        while dut.ready.value != 1:
            await FallingEdge(dut.clk)
        dut.a0.value, dut.a1.value, dut.b.value, dut.two.value = a0, a1, b, 1
        seen.clear()

        def scramble():
            # The array latched B and the operands at start (M~ at load).
            width = k * (m + 2)
            dut.a0.value, dut.a1.value, dut.b.value = (rng.getrandbits(width) for _ in range(3))
            dut.mtilde.value = rng.getrandbits(k * (m + 1))
            dut.two.value = 0

        cycles = await run(dut, scramble)
        s0, s1 = int(dut.s0.value), int(dut.s1.value)
        assert s0 == want0["result"], f"case {case}: S0 = {s0:#x}, model {want0['result']:#x}"
        assert s1 == want1["result"], f"case {case}: S1 = {s1:#x}, model {want1['result']:#x}"
        assert cycles == want0["cycles"] == (1 << k) - 2 + 2 * (m + 3), f"case {case}: {cycles} cycles"
        assert seen == [int(st["regs"]["q"], 16) for st in want0["trace"]], f"case {case}: q_i"
        r_inv = pow(2, -k * (m + 2), n)
        for s, a in ((s0, a0), (s1, a1)):
            assert s < 2 * mtilde and s % n == a * b * r_inv % n, "against Python's pow"
    dut._log.info("%d slots of two interleaved products at K = %d, M = %d equal to the model", CASES, k, m)
