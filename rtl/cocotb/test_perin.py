"""cocotb test of rtl/perin/perin_systolic.v (004 §4.1, 6m clocks) or
perin_multiplexed.v (§4.2, 8m clocks), whichever is the toplevel: random
moduli with the array's word count, operands below 2N, drawn here; the
expected output, q_i of every iteration and the cycles asked of redc's
golden model, and the output checked once more against Python's pow."""

import os
import random

import cocotb
from cocotb.triggers import ReadOnly, RisingEdge

from bench import reset, run
from model import product

CASES = int(os.environ.get("CASES", "20"))


async def quotients(dut, into):
    """Record q_i at every quotient (q_valid), for the life of the test."""
    while True:
        await RisingEdge(dut.clk)
        await ReadOnly()
        if dut.q_valid.value == 1:
            into.append(int(dut.q_i.value))


@cocotb.test()
async def random_products(dut):
    k, m = int(dut.K.value), int(dut.M.value)
    # The golden model's architecture, Table 1's clocks per product, and the
    # words it gives a modulus (the multiplexed array's in whole cores of 4).
    arch, clocks, core = {
        "perin_systolic": ("perin-systolic", 6, 1),
        "perin_multiplexed": ("perin-multiplexed", 8, 4),
    }[dut._name]
    rng = random.Random(int(os.environ.get("SEED", "2026")))
    # 004's m: the fewest k-bit words with 4N < 2^(k·m), at least 2 (and a
    # multiple of 4 on the multiplexed array).
    lengths = [b for b in range(2, k * m) if -(-max(2, -(-(b + 2) // k)) // core) * core == m]
    await reset(dut)
    seen = []
    cocotb.start_soon(quotients(dut, seen))
    for case in range(CASES):
        bits = rng.choice(lengths)
        n = rng.getrandbits(bits) | (1 << (bits - 1)) | 1
        a, b = rng.randrange(2 * n), rng.randrange(2 * n)
        want = product(arch, n, a, b)
        nprime = -pow(n, -1, 1 << k) % (1 << k)
        assert want["const_nprime"] == nprime, "the model's N' against Python's pow"
        dut.n.value, dut.a.value, dut.b.value, dut.nprime.value = n, a, b, nprime
        seen.clear()

        def scramble():
            # The array latched its operands at start: new ones must not matter.
            dut.n.value, dut.a.value, dut.b.value = (rng.getrandbits(k * m) for _ in range(3))
            dut.nprime.value = rng.getrandbits(k)

        cycles = await run(dut, scramble)
        s = int(dut.s.value)
        assert s == want["result"], f"case {case}: S = {s:#x}, model {want['result']:#x}"
        assert cycles == want["cycles"] == clocks * m, f"case {case}: {cycles} cycles, model {want['cycles']}"
        assert seen == [int(st["regs"]["q_i"], 16) for st in want["trace"]], f"case {case}: q_i"
        assert s < 2 * n and s % n == a * b * pow(2, -k * m, n) % n, "against Python's pow"
    dut._log.info("%s: %d random products at K = %d, M = %d equal to the model", arch, CASES, k, m)
