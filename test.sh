#!/usr/bin/env bash
# Every test of the repository: the Rust workspace, then the Python
# package's suites (crates/redc-py/test.sh, which installs what they need),
# then the RTL's testbenches and cocotb tests on Icarus Verilog and
# Verilator against the golden models (rtl/Makefile; needs iverilog and
# verilator, and installs cocotb in target/cocotb).
set -euo pipefail
cd "$(dirname "$0")"
cargo test --workspace
crates/redc-py/test.sh
cargo build --profile test -p redc-cli
make -C rtl -j2 test
