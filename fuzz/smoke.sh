#!/usr/bin/env bash
# A short fuzzing run of every target (or of the targets named):
#
#   fuzz/smoke.sh [SECONDS] [TARGET...]      (default 20 seconds each)
#
# Builds all targets once (`cargo +nightly fuzz build`: release, debug
# assertions, AddressSanitizer), then runs each for SECONDS on a temporary
# copy of its committed corpus (fuzz/corpus/<target>, which is left
# unchanged), SMOKE_JOBS targets at a time (default: the number of CPUs;
# each run uses one). Fails if any run finds a crash, a timeout or an
# out-of-memory; the input is saved under fuzz/artifacts/<target>/.
# Prints the executions and speed of each target at the end.
#
# Extra libFuzzer options for every run can be given in FUZZ_ARGS (e.g.
# FUZZ_ARGS=-jobs=2); FUZZ_WORK=DIR keeps the corpora and logs in DIR.
set -euo pipefail
cd "$(dirname "$0")/.."

secs=${1:-20}
shift || true

# Per-target libFuzzer options: the longest input (sized to the seeds and
# to the cost of one run), and for the CLI target closed stdout/stderr (the
# CLI prints a line per bad batch).
declare -A opts=(
  [key_read]="-max_len=4096"
  [key_read_encrypted]="-max_len=4096"
  [verify_pss]="-max_len=1024"
  [verify_pkcs1v15]="-max_len=1024"
  [decrypt_oaep]="-max_len=600"
  [decrypt_pkcs1v15]="-max_len=600"
  [envelope_open]="-max_len=2048"
  [number_text]="-max_len=2048"
  [batch_jsonl]="-max_len=4096 -close_fd_mask=3"
  [modexp_diff]="-max_len=256"
  [batch_vs_single]="-max_len=4096"
  [ffc_read]="-max_len=4096"
)

if [ $# -gt 0 ]; then
  targets=("$@")
else
  mapfile -t targets < <(cargo +nightly fuzz list)
fi

cargo +nightly fuzz build

if [ -n "${FUZZ_WORK:-}" ]; then
  work=$FUZZ_WORK
  mkdir -p "$work"
else
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
fi

# One target's run: its log and its status ("ok" or "FAILED") in $work.
run_target() {
  local t=$1
  mkdir -p "$work/corpus/$t"
  if [ -d "fuzz/corpus/$t" ]; then
    cp -R "fuzz/corpus/$t/." "$work/corpus/$t/"
  fi
  # shellcheck disable=SC2086
  if cargo +nightly fuzz run "$t" "$work/corpus/$t" -- \
    -max_total_time="$secs" -timeout=30 -rss_limit_mb=2560 -print_final_stats=1 \
    ${opts[$t]:-} ${FUZZ_ARGS:-} >"$work/$t.log" 2>&1; then
    echo ok >"$work/$t.status"
  else
    echo FAILED >"$work/$t.status"
  fi
}

# Targets run SMOKE_JOBS at a time (default: one per CPU), each on one core.
jobs=${SMOKE_JOBS:-$(nproc)}
for t in "${targets[@]}"; do
  while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do
    wait -n || true
  done
  echo "== $t: ${secs}s"
  run_target "$t" &
done
wait

failed=()
summary=()
for t in "${targets[@]}"; do
  log="$work/$t.log"
  status=$(cat "$work/$t.status" 2>/dev/null || echo FAILED)
  if [ "$status" != ok ]; then
    failed+=("$t")
    echo "== $t FAILED:"
    grep -m 6 -E 'panicked at|^attempt|==ERROR|ERROR: libFuzzer|SUMMARY|Test unit written' "$log" || true
    tail -n 30 "$log"
  fi
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
  speed=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -n 1)
  summary+=("$(printf '%-20s %-7s %12s execs %8s exec/s' "$t" "$status" "${runs:-?}" "${speed:-?}")")
done

echo
echo "fuzz smoke run, ${secs}s per target:"
printf '  %s\n' "${summary[@]}"
if [ ${#failed[@]} -gt 0 ]; then
  echo "fuzz: failures in: ${failed[*]} (inputs under fuzz/artifacts/)" >&2
  exit 1
fi
