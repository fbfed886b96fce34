#!/usr/bin/env bash
# Prepare, on a machine without a GPU, everything run.sh needs on one:
# target/gpu-run/ with the release `redc` built with CUDA, the device test
# binaries, the sweep, the kernel cache compiled for sm_90 (so the GPU
# machine compiles nothing), and CGBN's anchor built with nvcc.
#
#   crates/redc-cuda/device/prepare.sh [CGBN_CHECKOUT]
#
# NVRTC and nvcc come from PyPI's CUDA 13.0 wheels, installed into
# target/cuda-toolkit (the version of the GPU machine's nvcc). CGBN_CHECKOUT
# is a directory holding NVlabs CGBN's include/ and samples/ (never
# committed); without it the anchor is not built. Then, on the GPU machine:
#   crates/redc-cuda/device/run.sh OUT_DIR
set -euo pipefail
cd "$(dirname "$0")/../../.."
bundle=target/gpu-run
mkdir -p "$bundle/bin"

toolkit=target/cuda-toolkit
if [ ! -x "$toolkit/bin/python3" ]; then
    python3 -m venv "$toolkit"
fi
"$toolkit/bin/python3" -m pip install -q "nvidia-cuda-nvrtc==13.0.*" "nvidia-cuda-nvcc==13.0.*" \
    "nvidia-nvvm==13.0.*" "nvidia-cuda-crt==13.0.*" "nvidia-cuda-runtime==13.0.*" "nvidia-cuda-cccl==13.0.*"
cu=$(echo "$toolkit"/lib/python3*/site-packages/nvidia/cu13)
# cudarc looks for the unversioned name.
ln -sf libnvrtc.so.13 "$cu/lib/libnvrtc.so"

echo "== building (release redc with CUDA, the sweep, the device tests)"
cargo build --release -p redc-cli --features cuda
cargo build --release -p redc-cuda --features cuda --example sweep
tests=$(cargo test -p redc-cuda -p redc-cuda-sim --features redc-cuda/cuda --no-run --message-format=json 2>/dev/null |
    python3 -c '
import json, sys
for line in sys.stdin:
    m = json.loads(line)
    if m.get("reason") == "compiler-artifact" and m.get("executable") and m["target"]["name"] in ("device", "engine"):
        print(m["target"]["name"], m["executable"])
')
cp target/release/redc "$bundle/bin/redc"
cp target/release/examples/sweep "$bundle/bin/sweep"
while read -r name path; do
    cp "$path" "$bundle/bin/$name-tests"
done <<<"$tests"
strip "$bundle"/bin/*
ls -la "$bundle/bin"

echo "== the kernel cache for sm_90"
LD_LIBRARY_PATH="$cu/lib" "$bundle/bin/sweep" --precompile "$bundle/cache" --cc 9.0
chmod 700 "$bundle/cache"

if [ $# -ge 1 ]; then
    echo "== CGBN's anchor"
    rm -rf "$bundle/cgbn"
    mkdir -p "$bundle/cgbn"
    cp -r "$1/include" "$1/samples" "$bundle/cgbn/"
    # GMP's header and static library travel too: run.sh rebuilds the
    # anchor with the GPU machine's nvcc, which may have no GMP.
    mkdir -p "$bundle/gmp"
    cp "$(find /usr/include -name gmp.h | head -1)" "$(find /usr/lib -name libgmp.a | head -1)" "$bundle/gmp/"
    PATH="$cu/bin:$PATH" nvcc -O3 -arch=sm_90 -I "$bundle/cgbn/include" -I "$bundle/cgbn/samples/sample_03_powm" \
        -I "$bundle/gmp" crates/redc-cuda/device/cgbn_anchor.cu -o "$bundle/bin/cgbn_anchor" \
        -L "$cu/lib" -cudart static "$bundle/gmp/libgmp.a"
fi
du -sh "$bundle"
