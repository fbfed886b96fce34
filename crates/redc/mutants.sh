#!/usr/bin/env bash
# The IFMA kernels' mutation check: each line below is a deliberate fault
# in a kernel's source (a sed edit of one line: a dropped carry, a wrong
# quotient digit, a cross product of the wrong digits). For each, the
# kernels' tests must fail; unmutated they must pass. The vertical
# squaring's faults meet its unit tests (`engine::ifma::lanes`: the
# kernel's code run on plain integers against num-bigint, on any CPU); the
# 2-way and 1-way kernels are written with AVX-512 instructions, so their
# faults meet the integration test `tests/ifma.rs` (every layout against
# num-bigint; the 1-way carry pass also its unit test), and only on a CPU
# with AVX-512 IFMA (elsewhere they are skipped, and said so). Each mutant
# meets only the tests that can catch it. The file is edited in place and
# restored on exit, also on a signal (CI runs this last, after every build
# that reads the tree). Exit 0 when all hold.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"
lanes=crates/redc/src/engine/ifma/lanes
filter=engine::ifma::lanes

# file @ sed expression @ what it breaks
mutants=(
  "square.rs@s/            carry = carry_out(t1);/            carry = W::shr52(t1);/@the reduction's carry out of a cleared column loses its round-up"
  "square.rs@s/        t.set(D, W::add(low, carry));/        t.set(D, low);/@the reduction drops its last carry"
  "square.rs@s/            let m1 = W::madd_lo(zero, t1, k0);/            let m1 = W::madd_lo(zero, t0, k0);/@the second quotient digit of a pass is the first one's"
  "square.rs@s/            (p2, p1) = (p1, aj);/            (p2, p1) = (aj, aj);/@the cross products take a wrong digit"
)
# The same for the 2-way kernel's squaring and product (AVX-512 IFMA only).
simd_mutants=(
  "pairs/reduce.rs@s/Y::madd_hi(carry, m1, n\[0\]));/Y::madd_hi(zero, m1, n[0]));/@the reduction drops the carry out of its second column"
  "pairs/reduce.rs@s/digits(Y::madd_lo(zero, t1, k0)).1;/digits(Y::madd_lo(zero, low, k0)).1;/@the second quotient digit of a step is taken before the first's terms"
  "pairs/square.rs@s/t.set(2 \* p + 1, Y(_mm256_mask_madd52lo_epu64(c.0, UPPER, o.0, up\[p + 1\].0)));/t.set(2 * p + 1, c);/@the odd row's first cross product is lost"
  "pairs/square.rs@s/Y::madd_lo(Y::add(x, x), d,/Y::madd_lo(x, d,/@the cross products are not doubled"
  "pairs/square.rs@s/Y::load(&\[MASK, MASK, 0, 0,/Y::load(\&[0, MASK, 0, 0,/@the first number's diagonal loses its low halves"
  "pairs/sos.rs@s/Y::madd_lo(c, o, up\[q\]), o, a\[q - 1\]));/Y::madd_lo(c, o, up[q]), o, a[q]));/@the product's odd row takes a wrong digit"
  "pairs/sos.rs@s/Y::madd_lo(before::<H>(&t, p, p), e, a\[0\])/Y::madd_lo(Y::default(), e, a[0])/@the product drops a pass's lowest column"
  "pairs/sos.rs@s/let c = Y::madd_lo(Y::madd_hi(before::<H>(t, p, p + H), e, top), o, top);/let c = Y::madd_hi(before::<H>(t, p, p + H), e, top);/@the odd row loses the top digit's low half"
)
# The 1-way kernel's product and carry pass (AVX-512 IFMA only).
simd_mutants+=(
  "single.rs@s/            acc\[0\] = Y::add(acc\[0\], carry);/            acc[0] = Y::add(acc[0], zero);/@the 1-way product drops the carry out of its lowest column"
  "single.rs@s/Y::madd_lo(Y::madd_lo(zero, ak0, bi), acc\[0\], k0)/Y::madd_lo(zero, acc[0], k0)/@the 1-way quotient digit misses the step's b_i·a_0"
  "single.rs@s/let c = ((g << 1).wrapping_add(p)) ^ p;/let c = g << 1;/@the 1-way carry pass does not ripple through full digits"
)
if grep -qw avx512ifma /proc/cpuinfo 2>/dev/null; then
  mutants+=("${simd_mutants[@]}")
else
  echo "skipped: the horizontal kernels' ${#simd_mutants[@]} mutants (this CPU has no AVX-512 IFMA)"
fi

saved="$(mktemp -d)"
restore() {
  for m in "${mutants[@]}"; do
    file="${m%%@*}"
    if [ -f "$saved/$file" ]; then cp "$saved/$file" "$lanes/$file"; fi
  done
  rm -rf "$saved"
}
trap restore EXIT
trap 'exit 130' INT TERM HUP
for m in "${mutants[@]}"; do
  file="${m%%@*}"
  mkdir -p "$(dirname "$saved/$file")"
  cp "$lanes/$file" "$saved/$file"
done

# The tests that meet a mutant of file $1: the 2-way kernel's
# (`pairs/`) the integration test; the 1-way kernel's that and its unit
# test of the carry pass; the vertical ones the unit tests. Their targets,
# then their name filters.
targets_of() {
  case "$1" in
    pairs/*) echo "--test ifma" ;;
    single.rs) echo "--test ifma --lib" ;;
    *) echo "--lib" ;;
  esac
}
filters_of() {
  case "$1" in
    pairs/*) ;;
    single.rs) echo "$filter::single every_layout" ;;
    *) echo "$filter" ;;
  esac
}
# They build (a mutant that does not compile is a broken check, not a
# caught fault), and they pass.
builds() {
  # shellcheck disable=SC2046 # the words of targets_of
  cargo test -q -p redc $(targets_of "$1") --no-run >/dev/null 2>&1
}
unit_tests() {
  # shellcheck disable=SC2046 # the words of targets_of and filters_of
  cargo test -q -p redc $(targets_of "$1") -- $(filters_of "$1") >/dev/null 2>&1
}

status=0
if unit_tests square.rs && unit_tests pairs/ && unit_tests single.rs; then
  echo "unmutated: the kernels' tests pass"
else
  echo "unmutated: FAILS"; status=1
fi
for m in "${mutants[@]}"; do
  IFS='@' read -r file expr what <<<"$m"
  sed -i "$expr" "$lanes/$file"
  if cmp -s "$saved/$file" "$lanes/$file"; then
    echo "mutant not applied ($file: $expr)"; status=1
  elif ! builds "$file"; then
    echo "$file: $what: does not compile"; status=1
  elif unit_tests "$file"; then
    echo "$file: $what: MISSED"; status=1
  else
    echo "$file: $what: caught"
  fi
  cp "$saved/$file" "$lanes/$file"
done
exit $status
