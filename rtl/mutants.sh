#!/usr/bin/env bash
# The mutation check: each line below is a deliberate off-by-one in a
# design's carry, counter or exponent scan (a sed edit of one source line). For each,
# a copy of rtl/ with that one edit runs its design's testbenches (Icarus
# Verilog, 17 and 64 bits) and its cocotb test (Icarus); every mutant must
# fail both, and the unmutated copy must pass. Exit 0 when all hold.
# Mutants run MUTANT_JOBS at a time (default: the number of CPUs).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/.." && pwd)"
export REDC="${REDC:-$root/target/debug/redc}"
export COCOTB_VENV="${COCOTB_VENV:-$root/target/cocotb}"

# design @ file @ sed expression @ what it breaks
mutants=(
  "fdfm@fdfm/fdfm_mm.v@s/if (w == 2'd3) begin/if (w == 2'd2) begin/@the quotient phase's and the flush's cycle counter ends one clock early"
  "fdfm@fdfm/fdfm_mm.v@s/cb <= line7\[33:17\];/cb <= line7[32:16];/@Cb takes the product's bits one place too low"
  "fdfm@fdfm/fdfm_mm.v@s/cg <= line8\[17\];/cg <= line8[16];/@Cg takes the sum's top digit bit, not its carry"
  "fdfm_exp@fdfm/fdfm_exp.v@s/begin nop = SQ; nb = ebr - 1'b1; end/begin nop = SQ; nb = ebr; end/@Alg. 2's exponent scan starts one bit above the top"
  "blum_paar@blum_paar/blum_paar_array.v@s/localparam integer LAST = FILL + 2 \\* U - 1;/localparam integer LAST = FILL + 2 * U;/@the slot's clock counter runs one clock long"
  "blum_paar@blum_paar/blum_paar_array.v@s/+ {{K{1'b0}}, c\\[j\\]};/+ {(K+3){1'b0}};/@a unit drops the carry from the unit on its right"
  "csa_r4@carry_save/csa_r4.v@s/            c     <= t\\[2\\];/            c     <= 1'b0;/@the radix-4 serial adder drops its carry between digits"
  "perin@perin/perin_systolic.v@s/.LAST(6 \\* M - 1)/.LAST(6 * M)/@the systolic array's clock counter runs one clock long"
  "perin@perin/perin_systolic.v@s/+ {{K{1'b0}}, x\\[K\\]}/+ {(K+1){1'b0}}/@a PE's carry loses the carry of its two low product words"
  "perin_mux@perin/perin_multiplexed.v@s/.LAST(8 \\* M - 1)/.LAST(8 * M)/@the multiplexed array's clock counter runs one clock long"
  "perin_mux@perin/perin_multiplexed.v@s/if (v3\\[c\\]) cpe\\[c\\] <= pe\\[(K+1)\\*c + K\\];/if (v3[c]) cpe[c] <= 1'b0;/@a PE drops its one-bit carry C_PE"
  "csa_r2@carry_save/csa_r2.v@s/localparam integer LASTI = ITER - 1;/localparam integer LASTI = ITER;/@the iteration counter runs one clock long"
  "csa_r2@carry_save/csa_r2.v@s/wire carry = (ra1\[0\] \& ra2\[0\]) | (c \& (ra1\[0\] ^ ra2\[0\]));/wire carry = ra1[0] \& ra2[0];/@the serial adder drops its carry-in from the carry-out"
)

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

status=0
cp -r "$here" "$work/clean"
rm -rf "$work/clean/build" "$work/clean/cocotb/sim_build"
jobs=${MUTANT_JOBS:-$(nproc)}
if make -s -j"$jobs" -C "$work/clean" BUILD="$work/clean/build" SIZES="17 64" iverilog >/dev/null 2>&1 &&
  make -s -j"$jobs" -C "$work/clean" BUILD="$work/clean/build" SIMS=icarus cocotb >/dev/null 2>&1; then
  echo "unmutated: every design passes"
else
  echo "unmutated: FAILS"; status=1
fi
# One mutant in a copy of its own: its result line in $work/result-<i>.
run_mutant() {
  local i=$1 design file expr what dir tb=caught cc=caught
  IFS='@' read -r design file expr what <<<"${mutants[$i]}"
  dir="$work/m$i"
  cp -r "$work/clean" "$dir"; rm -rf "$dir/build" "$dir/cocotb/sim_build"
  sed -i "$expr" "$dir/$file"
  if cmp -s "$here/$file" "$dir/$file"; then
    echo "mutant not applied ($file: $expr)" >"$work/result-$i"
    return
  fi
  make -s -C "$dir" BUILD="$dir/build" SIZES="17 64" DESIGNS="$design" iverilog >/dev/null 2>&1 && tb=MISSED
  make -s -C "$dir" BUILD="$dir/build" SIMS=icarus COCOTB_TESTS="$design" cocotb >/dev/null 2>&1 && cc=MISSED
  echo "$design: $what: testbench $tb, cocotb $cc" >"$work/result-$i"
  rm -rf "$dir"
}

for i in "${!mutants[@]}"; do
  while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do
    wait -n || true
  done
  run_mutant "$i" &
done
wait
for i in "${!mutants[@]}"; do
  line=$(cat "$work/result-$i" 2>/dev/null || echo "mutant $i: no result")
  echo "$line"
  case "$line" in
    *"testbench caught, cocotb caught") ;;
    *) status=1 ;;
  esac
done
exit $status
