#!/usr/bin/env bash
# The GPU run, in one script that stops itself within 9 minutes: the device
# tests, the sweep of every kernel (which chooses the plan), `redc bench
# --backend cuda` with that plan, and CGBN's anchor on the same GPU.
#
#   crates/redc-cuda/device/run.sh OUT_DIR [STEPS]
#
# STEPS is a comma list of info, tests, sweep, bench, cgbn, profile
# (default: all, in that order); a second run names only what must be
# redone, and
# PLAN=spec gives the bench a plan without a sweep. It reads what
# prepare.sh left in target/gpu-run (binaries, the sm_90 kernel cache,
# CGBN's anchor; REDC_GPU_BUNDLE names another) and needs no network. OUT_DIR receives summary.txt and
# run.tgz (every log, the sweep's and the bench's JSON); the summary is
# also printed last.
set -uo pipefail
out=${1:?usage: run.sh OUT_DIR [STEPS]}
mkdir -p "$out" && out=$(cd "$out" && pwd)
steps=${2:-info,tests,sweep,bench,cgbn,profile}
seconds=${RUN_SECONDS:-540}
[[ $seconds =~ ^[0-9]+$ ]] || { echo "RUN_SECONDS=$seconds: not a number of seconds" >&2; exit 2; }
cd "$(dirname "$0")/../../.."
bundle=${REDC_GPU_BUNDLE:-$PWD/target/gpu-run}
work=$(mktemp -d /tmp/redc-gpu-run.XXXXXX)
logs=$work/logs
mkdir -p "$logs"
start=$(date +%s)
deadline=$((start + seconds))
summary=$logs/summary.txt

say() { echo "$*" | tee -a "$summary"; }
pack() { tar czf "$out/run.tgz" -C "$work" logs 2>/dev/null; cp "$summary" "$out/summary.txt"; }
wanted() { [[ ",$steps," == *",$1,"* ]]; }

# step NAME SECONDS COMMAND...: run with a timeout (cut to the deadline),
# log to logs/NAME.log, record the exit status and the time.
step() {
    local name=$1 limit=$2
    shift 2
    local left=$((deadline - $(date +%s)))
    if [ "$left" -lt 10 ]; then
        say "SKIPPED $name: the run's deadline has passed"
        return 1
    fi
    [ "$limit" -gt "$left" ] && limit=$left
    local t0
    t0=$(date +%s%N)
    timeout -k 5 "$limit" "$@" >"$logs/$name.log" 2>&1
    local rc=$?
    local ms=$((($(date +%s%N) - t0) / 1000000))
    printf '%s\t%s\t%s\n' "$name" "$rc" "$ms" >>"$logs/steps.tsv"
    say "step $name: exit $rc in $((ms / 1000)).$((ms % 1000 / 100)) s (limit $limit s)"
    [ "$rc" -ne 0 ] && tail -8 "$logs/$name.log" | tee -a "$summary"
    pack
    return $rc
}

# The driver and NVRTC: cudarc loads libnvrtc.so (unversioned), which a
# CUDA 13 machine may only have as libnvrtc.so.13.
mkdir -p "$work/lib"
nvrtc=$(ldconfig -p 2>/dev/null | awk '/libnvrtc\.so/ {print $NF; exit}')
# The newest when several toolkits are installed (the bundled kernel cache
# is NVRTC 13.0's: another version compiles again, in parallel).
[ -z "$nvrtc" ] && nvrtc=$(find /usr/local /usr/lib /opt -name 'libnvrtc.so*' ! -name '*builtins*' ! -name '*alt*' 2>/dev/null | sort -V | tail -1)
if [ -n "$nvrtc" ]; then
    ln -sf "$nvrtc" "$work/lib/libnvrtc.so"
    export LD_LIBRARY_PATH="$work/lib:$(dirname "$nvrtc")${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
fi
export REDC_CUDA_CACHE=$work/cache
cp -r "$bundle/cache" "$REDC_CUDA_CACHE" && chmod 700 "$REDC_CUDA_CACHE"
bin=$bundle/bin

say "redc GPU run $(date -u +%Y-%m-%dT%H:%M:%SZ), steps: $steps, commit $(git rev-parse --short HEAD 2>/dev/null || echo '?')"
if wanted info; then
    {
        timeout 10 nvidia-smi --query-gpu=name,memory.total,clocks.max.sm,clocks.sm,power.limit,driver_version --format=csv
        timeout 10 nvidia-smi -q -d CLOCK,PERFORMANCE | head -60
        nproc
        grep -m1 'model name' /proc/cpuinfo
        cat /proc/loadavg
        echo "nvrtc: ${nvrtc:-not found}"
        ldconfig -p | grep -E 'libcuda\.so|libnvrtc' || true
        command -v nvcc && nvcc --version | tail -2
        ls -la "$bin"
    } >"$logs/info.log" 2>&1
    say "$(head -2 "$logs/info.log" | tail -1)"
    say "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
    say "nvrtc: ${nvrtc:-not found}"
    pack
fi

if wanted tests; then
    # --nocapture: a test that found no GPU says SKIPPED, and must not pass unseen.
    step device-tests 200 "$bin/device-tests" --test-threads 4 --nocapture
    grep -E '^test |test result|SKIPPED|panicked' "$logs/device-tests.log" | tee -a "$summary"
    step engine-tests 120 "$bin/engine-tests" --nocapture
    grep -E '^test |test result|SKIPPED|panicked' "$logs/engine-tests.log" | tee -a "$summary"
    say "SKIPPED lines in the GPU tests: $(cat "$logs"/*-tests.log | grep -c SKIPPED)"
fi

plan=${PLAN:-}
if wanted sweep; then
    step sweep 200 "$bin/sweep" --json "$logs/sweep.jsonl" --budget 0.6
    grep -E '^\||fastest|opened|sweep:' "$logs/sweep.log" | tee -a "$summary"
    [ -z "$plan" ] && plan=$(sed -n 's/^fastest plan: REDC_CUDA_THREADS=//p' "$logs/sweep.log")
fi

if wanted bench; then
    say "bench plan: ${plan:-the default}"
    for spec in "2048 131072" "4096 16384"; do
        set -- $spec
        REDC_CUDA_THREADS=${plan:-} step "bench-$1" 120 "$bin/redc" bench --backend cuda --gpu-only --sizes "$1" \
            --gpu-batch "$2" --seconds 2 --json "$logs/bench-$1.json"
        sed -n '/^GPU:/,$p' "$logs/bench-$1.log" | tee -a "$summary"
    done
fi

if wanted cgbn; then
    # CGBN's anchor rebuilt here with the machine's nvcc when it has one
    # (after the measurements above, so that it takes none of their CPU),
    # else the one prepare.sh built.
    cgbn_bin=$bin/cgbn_anchor
    if command -v nvcc >/dev/null && [ -d "$bundle/cgbn" ]; then
        step cgbn-build 90 nvcc -O3 -arch=sm_90 -I "$bundle/cgbn/include" -I "$bundle/cgbn/samples/sample_03_powm" \
            -I "$bundle/gmp" crates/redc-cuda/device/cgbn_anchor.cu -o "$work/cgbn_anchor" \
            -cudart static "$bundle/gmp/libgmp.a" && cgbn_bin=$work/cgbn_anchor
    fi
    say "cgbn binary: $cgbn_bin"
    step cgbn 90 "$cgbn_bin"
    grep '^{' "$logs/cgbn.log" | tee -a "$summary"
fi

# With time left: the other sizes, then the clocks after the load.
if wanted bench; then
    for spec in "1024 262144" "3072 32768"; do
        set -- $spec
        REDC_CUDA_THREADS=${plan:-} step "bench-$1" 90 "$bin/redc" bench --backend cuda --gpu-only --sizes "$1" \
            --gpu-batch "$2" --seconds 2 --json "$logs/bench-$1.json" &&
            sed -n '/^GPU:/,$p' "$logs/bench-$1.log" | tee -a "$summary"
    done
fi
# Nsight Compute on one launch of redc's kernel for each class RSA-2048
# uses (1024-bit secret halves, 2048-bit public) and of CGBN's 2048-bit
# powm (its fourth configuration: launches 18 to 23): where the issue
# slots go, what the warps wait on, how many are resident.
ncu=$(command -v ncu || ls /usr/local/cuda/bin/ncu /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | tail -1)
if wanted profile && [ -n "$ncu" ]; then
    sections="--section SpeedOfLight --section Occupancy --section LaunchStats --section WarpStateStats --section SchedulerStats --section ComputeWorkloadAnalysis --section InstructionStats --metrics regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio"
    for spec in "32 redc_pow_t8_n32_s" "64 redc_pow_t16_n64_s" "64 redc_pow_t32_n64_p"; do
        set -- $spec
        step "profile-$2" 90 "$ncu" --clock-control none -k "regex:^$2\$" -s 1 -c 1 $sections \
            "$bin/sweep" --classes "$1" --budget 0.2
        grep -E 'Duration|Executed Ipc|Issue Slots Busy|Achieved Occupancy|Theoretical Occupancy|Registers Per|Stall|No Eligible|Warp Cycles Per Issued|Block Limit|stalled' \
            "$logs/profile-$2.log" | head -60 | tee -a "$summary"
    done
    [ -x "${cgbn_bin:-}" ] || cgbn_bin=$bin/cgbn_anchor
    step profile-cgbn 120 "$ncu" --clock-control none -k regex:kernel_powm_odd -s 18 -c 1 $sections "$cgbn_bin"
    grep -E 'Duration|Executed Ipc|Issue Slots Busy|Achieved Occupancy|Theoretical Occupancy|Registers Per|Stall|No Eligible|Warp Cycles Per Issued|Block Limit|stalled' \
        "$logs/profile-cgbn.log" | head -60 | tee -a "$summary"
fi
timeout 10 nvidia-smi --query-gpu=clocks.sm,clocks.max.sm,temperature.gpu,power.draw,clocks_throttle_reasons.active --format=csv 2>&1 |
    tee -a "$summary"
say "done in $(($(date +%s) - start)) s"
pack
