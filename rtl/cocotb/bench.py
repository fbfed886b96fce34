"""What the cocotb tests share: the clock and reset, and one product run
from `start` to `done` with its clocks counted as the golden model counts
them (from the edge after `start` to the edge that raises `done`)."""

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


async def run(dut):
    """Pulse start for one clock, wait for done; the clocks it took."""
    dut.start.value = 1
    await FallingEdge(dut.clk)
    dut.start.value = 0
    cycles = 0
    while True:
        await RisingEdge(dut.clk)
        await ReadOnly()
        cycles += 1
        if dut.done.value == 1:
            break
    await FallingEdge(dut.clk)
    return cycles
