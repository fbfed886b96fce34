#!/usr/bin/env bash
# The Python package's tests: a virtual environment (REDC_VENV, default
# target/python), the package built by maturin from this checkout with its
# `test` extra at the versions of constraints.txt, then every pytest suite
# (interop with pyca/cryptography, properties, bad input, Ray on 2 CPUs).
# Extra arguments go to pytest.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
venv="${REDC_VENV:-$root/target/python}"
if [ ! -x "$venv/bin/python" ]; then
  python3 -m venv "$venv"
fi
export PATH="$venv/bin:$PATH"
pip install -q -c "$here/constraints.txt" maturin
# No build isolation: the environment's maturin builds the extension (no
# download per run); cargo reuses the workspace's target/.
pip install -q -c "$here/constraints.txt" --no-build-isolation "$here[test]"
cd "$root"
python -m pytest "$here/tests" -q "$@"
