#!/usr/bin/env bash
# Every test of the repository: the Rust workspace, then the Python
# package's suites (crates/redc-py/test.sh, which installs what they need).
set -euo pipefail
cd "$(dirname "$0")"
cargo test --workspace
crates/redc-py/test.sh
