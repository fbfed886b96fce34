//! Differential: `redc::modpow` against `num_bigint::BigUint::modpow`, for
//! every digit width (8, 16, 32, 64 bits), every Montgomery product
//! schedule (SOS, CIOS, FIOS, FIPS, CIHS, radix-2^w) and every
//! exponentiation schedule (LTR, RTL, ladder, fixed window, sliding window),
//! with any modulus `n >= 1` (even ones, powers of two and 1 included) and
//! `n = 0` (an error).
//!
//! Input: `[flags] [base_len] [base] [exp_len] [exp] [modulus]`, big-endian
//! numbers; `flags` bits 0–1 the width, 2–4 the product, 5–7 the schedule.
//! Sizes are cut per width to keep each run short: base, exponent and
//! modulus at most 24, 16, 16 bytes for 8-bit digits; 48, 16, 32 for 16-bit;
//! 72, 24, 48 for 32-bit; 96, 32, 64 (768, 256, 512 bits) for 64-bit.
//!
//! Checks: no panic; `modpow(b, e, n) == b^e mod n` (num-bigint), with and
//! without a trace; `n = 0` is `ZeroModulus`.
#![no_main]

use libfuzzer_sys::fuzz_target;
use num_bigint::BigUint;
use redc::exp::Trace;
use redc::{ModpowError, Nat, PowOptions, Product, Schedule, Word, modpow};
use redc_fuzz::Input;

fn check<W: Word>(b: &[u8], e: &[u8], n: &[u8], opts: PowOptions) {
    let (nb, ne, nn) = (
        Nat::<W>::from_be_bytes(b),
        Nat::<W>::from_be_bytes(e),
        Nat::<W>::from_be_bytes(n),
    );
    let got = modpow(&nb, &ne, &nn, opts, None);
    let modulus = BigUint::from_bytes_be(n);
    if modulus == BigUint::ZERO {
        assert_eq!(got, Err(ModpowError::ZeroModulus));
        return;
    }
    let want = BigUint::from_bytes_be(b).modpow(&BigUint::from_bytes_be(e), &modulus);
    let got = got.expect("modpow with n >= 1");
    assert_eq!(BigUint::from_bytes_be(&got.to_be_bytes()), want, "{opts:?}");
    if e.len() <= 8 {
        let mut trace = Trace::default();
        assert_eq!(modpow(&nb, &ne, &nn, opts, Some(&mut trace)).as_ref(), Ok(&got));
    }
}

fuzz_target!(|data: &[u8]| {
    let mut input = Input(data);
    let flags = input.byte();
    let b = input.prefixed();
    let e = input.prefixed();
    let n = input.rest();
    let (max_b, max_e, max_n) = [(24, 16, 16), (48, 16, 32), (72, 24, 48), (96, 32, 64)][usize::from(flags & 3)];
    let (b, e, n) = (
        &b[..b.len().min(max_b)],
        &e[..e.len().min(max_e)],
        &n[..n.len().min(max_n)],
    );
    let opts = PowOptions {
        product: Product::ALL[usize::from(flags >> 2 & 7) % Product::ALL.len()],
        schedule: Schedule::ALL[usize::from(flags >> 5) % Schedule::ALL.len()],
    };
    match flags & 3 {
        0 => check::<u8>(b, e, n, opts),
        1 => check::<u16>(b, e, n, opts),
        2 => check::<u32>(b, e, n, opts),
        _ => check::<u64>(b, e, n, opts),
    }
});
