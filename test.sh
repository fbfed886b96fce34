#!/usr/bin/env bash
# Every test of the repository: the Rust workspace, then the Python
# package's suites (crates/redc-py/test.sh, which installs what they need),
# then the RTL's testbenches and cocotb tests on Icarus Verilog and
# Verilator against the golden models (rtl/Makefile; needs iverilog and
# verilator, and installs cocotb in target/cocotb).
set -euo pipefail
cd "$(dirname "$0")"
# `cargo test` also builds the CLI the RTL's vectors come from
# (target/debug/redc, for the CLI's tests): no second build of it.
cargo test --workspace
crates/redc-py/test.sh
make -C rtl -j2 test
