"""What the cocotb tests share: the clock and reset, one product run from
`start` to `done` with its clocks counted as the golden model counts them
(from the edge after `start` to the edge that raises `done`), and, for the
FDFM designs, whole numbers written to and read from a RAM bank over the
host port (17-bit digits, least significant first)."""

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import FallingEdge, ReadOnly, RisingEdge


async def reset(dut):
    """A 10 ns clock on dut.clk, then two clocks of reset with start low."""
    cocotb.start_soon(Clock(dut.clk, 10, units="ns").start())
    dut.rst.value = 1
    dut.start.value = 0
    await FallingEdge(dut.clk)
    await FallingEdge(dut.clk)
    dut.rst.value = 0


async def run(dut, after_start=None):
    """Pulse start for one clock, wait for done; the clocks it took.
    `after_start`, if given, is called once start is low again (to change
    the inputs a design must have latched)."""
    dut.start.value = 1
    await FallingEdge(dut.clk)
    dut.start.value = 0
    if after_start is not None:
        after_start()
    cycles = 0
    while True:
        await RisingEdge(dut.clk)
        await ReadOnly()
        cycles += 1
        if dut.done.value == 1:
            break
    await FallingEdge(dut.clk)
    return cycles


def fdfm_bits(d):
    """The modulus lengths the FDFM core takes on d digits: those with
    ceil((bits + 3) / 17) = d (001 §5.1's 17d >= bits + 3)."""
    return [b for b in range(2, 17 * d) if -(-(b + 3) // 17) == d]


async def load(dut, bank, value, d):
    """Write the d digits of `value` into bank `bank`, one per clock."""
    for r in range(d):
        await FallingEdge(dut.clk)
        dut.we.value = 1
        dut.wbank.value = bank
        dut.waddr.value = r
        dut.wdata.value = (value >> (17 * r)) & 0x1FFFF
    await FallingEdge(dut.clk)
    dut.we.value = 0


async def fetch(dut, bank, d):
    """The number held in the d digits of bank `bank`."""
    dut.rbank.value = bank
    value = 0
    for r in range(d):
        dut.raddr.value = r
        await FallingEdge(dut.clk)
        value |= int(dut.rdata.value) << (17 * r)
    return value
