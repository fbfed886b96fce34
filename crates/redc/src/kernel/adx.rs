//! The 64-bit Montgomery product and squaring on `mulx`, `adcx` and `adox`
//! (x86-64 with BMI2 and ADX, detected at run time): separated operand
//! scanning (000_be478b6750af4540.txt Fig. 3), every row one pass of
//! [`addmul_row`].
//!
//! A row `t += a·w` keeps two carry chains in the two flags the ADX
//! instructions own: `adcx` adds the old digit `t_j` to the low half of
//! `a_j·w` (carry in CF), `adox` adds the high half of `a_{j-1}·w` (carry in
//! OF). `mulx` sets no flag, so both chains run through the whole row
//! without saving a carry, eight digits per loop; the loop is counted by
//! `lea` and `jrcxz`, which leave the flags alone.
//!
//! The product is `s` rows of `b_i·a`, then the reduction (000 Fig. 3 b):
//! `s` rows of `m_i·n` with `m_i = t_i·n0' mod 2^64`, each row's carry added
//! above it. The squaring is the triangle `sum_{i<j} a_i·a_j` as rows, the
//! shared doubling and diagonal of [`super::sqr`], then the same reduction:
//! `1.5·s^2` multiplications against `2·s^2`.
//!
//! Constant time: every loop bound and address depends on `s` only.
#![allow(unsafe_code)]

use super::size::Size;
use super::sqr::double_add_diagonal;
use super::subtract::sub_if_not_less;
use crate::kernel::meter::NoMeter;
use core::arch::asm;

/// Proof that this CPU has BMI2 (`mulx`) and ADX (`adcx`, `adox`): the only
/// way to reach the kernels below.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Adx(());

impl Adx {
    /// The token, if the CPU has both extensions.
    pub(crate) fn detect() -> Option<Adx> {
        (std::arch::is_x86_feature_detected!("bmi2") && std::arch::is_x86_feature_detected!("adx")).then_some(Adx(()))
    }

    /// `x := x·b·R^-1 mod n`, `R = 2^(64s)`: the contract of
    /// [`super::fios::mont_mul`].
    ///
    /// Pre: `x`, `b`, `n` have at least `s = sz.len()` digits; `x·b < n·R`;
    /// `n` odd, `n0 = -n^-1 mod 2^64`; `t.len() >= 2s`. Post: `x < n`.
    #[inline(always)]
    pub(crate) fn mont_mul<S: Size>(self, sz: S, x: &mut [u64], b: &[u64], n: &[u64], n0: u64, t: &mut [u64]) {
        // SAFETY: the token proves BMI2 and ADX.
        unsafe { mont_mul(sz, x, b, n, n0, t) }
    }

    /// `x := x^2·R^-1 mod n`: the contract of [`super::sqr::mont_sqr`].
    ///
    /// Pre: `x`, `n` have at least `s = sz.len()` digits; `x < n`; `n` odd,
    /// `n0 = -n^-1 mod 2^64`; `t.len() >= 2s`. Post: `x < n`.
    #[inline(always)]
    pub(crate) fn mont_sqr<S: Size>(self, sz: S, x: &mut [u64], n: &[u64], n0: u64, t: &mut [u64]) {
        // SAFETY: the token proves BMI2 and ADX.
        unsafe { mont_sqr(sz, x, n, n0, t) }
    }

    /// `t := (t + m·n) / R` over the `2s` digits `t`: the contract of
    /// [`super::fios::reduce`].
    #[inline(always)]
    pub(crate) fn reduce(self, t: &mut [u64], n: &[u64], n0: u64) -> u64 {
        // SAFETY: the token proves BMI2 and ADX.
        unsafe { reduce(t, n, n0) }
    }

    /// [`addmul`] for the tests.
    #[cfg(test)]
    fn addmul(self, t: &mut [u64], a: &[u64], w: u64) -> u64 {
        // SAFETY: the token proves BMI2 and ADX.
        unsafe { addmul(t, a, w) }
    }
}

/// [`Adx::mont_mul`], compiled with the extensions so that the rows inline
/// into one loop nest (with a [`super::size::Fixed`] size, the loop over
/// rows has a constant bound; the assembly still branches on each row's
/// length).
#[target_feature(enable = "bmi2,adx")]
fn mont_mul<S: Size>(sz: S, x: &mut [u64], b: &[u64], n: &[u64], n0: u64, t: &mut [u64]) {
    let s = sz.len();
    let (x, b, n, t) = (&mut x[..s], &b[..s], &n[..s], &mut t[..2 * s]);
    t.fill(0);
    for (i, &bi) in b.iter().enumerate() {
        // Row i writes digits i .. i + s; digit i + s was still zero.
        t[i + s] = addmul(&mut t[i..i + s], x, bi);
    }
    let hi = reduce(t, n, n0);
    sub_if_not_less(&NoMeter, x, &t[s..], hi, n);
}

/// [`Adx::mont_sqr`], compiled with the extensions.
#[target_feature(enable = "bmi2,adx")]
fn mont_sqr<S: Size>(sz: S, x: &mut [u64], n: &[u64], n0: u64, t: &mut [u64]) {
    let s = sz.len();
    let (x, n, t) = (&mut x[..s], &n[..s], &mut t[..2 * s]);
    debug_assert!(s >= 1, "a modulus has at least one digit");
    t.fill(0);
    // Row i: x_i·x_{i+1 ..} at digits 2i+1 .. i+s, its carry on i+s.
    for i in 0..s - 1 {
        t[i + s] = addmul(&mut t[2 * i + 1..i + s], &x[i + 1..], x[i]);
    }
    double_add_diagonal(t, x);
    let hi = reduce(t, n, n0);
    sub_if_not_less(&NoMeter, x, &t[s..], hi, n);
}

/// Montgomery reduction of the `2s` digits `t` (000 Fig. 3 b): afterwards
/// `t[s..]` plus the returned top digit `·R` is `(t_in + m·n) / R`.
/// Pre: `t.len() == 2·n.len()`, `t_in < n·R`. Post: the result is `< 2n`.
#[target_feature(enable = "bmi2,adx")]
fn reduce(t: &mut [u64], n: &[u64], n0: u64) -> u64 {
    let s = n.len();
    let mut top = 0u64;
    for i in 0..s {
        let m = t[i].wrapping_mul(n0);
        let c = addmul(&mut t[i..i + s], n, m);
        // Digit i + s takes the row's carry and the carry of the rows
        // before it (0 or 1).
        let w = u128::from(t[i + s]) + u128::from(c) + u128::from(top);
        t[i + s] = w as u64;
        top = (w >> 64) as u64;
    }
    top
}

/// `t := t + a·w` over `a.len()` digits; returns the carry digit.
/// Pre: `t.len() == a.len()`.
#[target_feature(enable = "bmi2,adx")]
fn addmul(t: &mut [u64], a: &[u64], w: u64) -> u64 {
    assert_eq!(t.len(), a.len());
    // SAFETY: this function's features are BMI2 and ADX; `t` and `a` hold
    // `a.len()` digits each, which is all `addmul_row` reads and writes.
    unsafe { addmul_row(t.as_mut_ptr(), a.as_ptr(), a.len(), w) }
}

/// One digit of a row in [`addmul_row`]: `$next:lo = a_j·w` (`mulx`, no
/// flags), `lo += t_j` (`adcx`, carry in CF), `lo += $prev` (`adox`, the
/// previous digit's high half, carry in OF), `t_j = lo`; `$off = 8j`.
macro_rules! step {
    ($off:literal, $prev:literal, $next:literal) => {
        concat!(
            "mulx {",
            $next,
            "}, {lo}, qword ptr [{a} + ",
            $off,
            "]\n",
            "adcx {lo}, qword ptr [{t} + ",
            $off,
            "]\n",
            "adox {lo}, {",
            $prev,
            "}\n",
            "mov qword ptr [{t} + ",
            $off,
            "], {lo}",
        )
    };
}

/// `t[0 .. len] += a[0 .. len]·w`; returns the carry digit (the sum is
/// below `2^(64·len)·(w + 1)`, so the carry fits in a digit).
///
/// Safety: the CPU has BMI2 and ADX; `t` is valid for `len` reads and
/// writes and `a` for `len` reads (`len = 0` touches nothing).
#[target_feature(enable = "bmi2,adx")]
#[inline]
unsafe fn addmul_row(t: *mut u64, a: *const u64, len: usize, w: u64) -> u64 {
    let carry: u64;
    // SAFETY: the caller's contract; the code touches `t[j]` and `a[j]`
    // for `j < len` only: `len mod 4` single digits, then blocks of eight,
    // the first of them from its fifth digit (at the current pointers) when
    // `len / 4` is odd.
    unsafe {
        asm!(
            // The counters and the branch on `len mod 4` first (they change
            // the flags): then `len mod 4` single digits, entered where that
            // many are left; then the blocks of eight, the first entered
            // half-way when `len / 4` is odd (`half`, pointers moved back
            // four digits), counted by rcx from -ceil(len / 8) up to zero
            // (`lea` and `jrcxz` leave the flags alone).
            "mov {blocks}, rcx",
            "shr {blocks}, 2",
            "mov {half}, {blocks}",
            "and {half}, 1",
            "add {blocks}, 1",
            "shr {blocks}, 1",
            "neg {blocks}",
            "and ecx, 3",
            "jz 20f",
            "cmp ecx, 2",
            "jb 21f",
            "je 22f",
            // hi = 0, CF = OF = 0, then to the single digits.
            "xor {hi:e}, {hi:e}",
            "jmp 23f",
            "22:",
            "xor {hi:e}, {hi:e}",
            "jmp 32f",
            "21:",
            "xor {hi:e}, {hi:e}",
            "jmp 31f",
            "20:",
            "xor {hi:e}, {hi:e}",
            "jmp 3f",
            "23:",
            step!(0, "hi", "h1"),
            "mov {hi}, {h1}",
            "lea {a}, [{a} + 8]",
            "lea {t}, [{t} + 8]",
            "32:",
            step!(0, "hi", "h1"),
            "mov {hi}, {h1}",
            "lea {a}, [{a} + 8]",
            "lea {t}, [{t} + 8]",
            "31:",
            step!(0, "hi", "h1"),
            "mov {hi}, {h1}",
            "lea {a}, [{a} + 8]",
            "lea {t}, [{t} + 8]",
            "3:",
            "mov rcx, {half}",
            "jrcxz 4f",
            "lea {a}, [{a} - 32]",
            "lea {t}, [{t} - 32]",
            "mov rcx, {blocks}",
            "jmp 9f",
            "4:",
            "mov rcx, {blocks}",
            "jmp 7f",
            "5:",
            step!(0, "hi", "h1"),
            step!(8, "h1", "hi"),
            step!(16, "hi", "h1"),
            step!(24, "h1", "hi"),
            "9:",
            step!(32, "hi", "h1"),
            step!(40, "h1", "hi"),
            step!(48, "hi", "h1"),
            step!(56, "h1", "hi"),
            "lea {a}, [{a} + 64]",
            "lea {t}, [{t} + 64]",
            "lea rcx, [rcx + 1]",
            "7:",
            "jrcxz 6f",
            "jmp 5b",
            "6:",
            // carry = hi + CF + OF (`mov` keeps the flags).
            "mov {lo}, 0",
            "adcx {hi}, {lo}",
            "adox {hi}, {lo}",
            a = inout(reg) a => _,
            t = inout(reg) t => _,
            inout("rcx") len => _,
            in("rdx") w,
            blocks = out(reg) _,
            half = out(reg) _,
            hi = out(reg) carry,
            h1 = out(reg) _,
            lo = out(reg) _,
            options(nostack),
        );
    }
    carry
}

#[cfg(test)]
mod tests {
    use super::*;
    use num_bigint::BigUint;

    fn big(x: &[u64]) -> BigUint {
        x.iter().rev().fold(BigUint::default(), |acc, &d| (acc << 64u32) + d)
    }

    /// One row against num-bigint at every length mod 4, with and without a
    /// half block, with zero to two full blocks of eight, with all-ones digits (every carry of both
    /// chains set) and mixed ones; whole products and squarings are checked
    /// in `engine::scalar`'s tests.
    #[test]
    fn addmul_row_matches_num_bigint() {
        // A CPU without BMI2 and ADX never runs these kernels (the scalar
        // kernel's tests then check the portable ones twice); every x86-64
        // machine this project runs on has both.
        let Some(adx) = Adx::detect() else { return };
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        for len in 0..=20 {
            for kind in 0..3 {
                let digit = |next: &mut dyn FnMut() -> u64| match kind {
                    0 => u64::MAX,
                    1 => next() | 1 << 63,
                    _ => next(),
                };
                let a: Vec<u64> = (0..len).map(|_| digit(&mut next)).collect();
                let mut t: Vec<u64> = (0..len).map(|_| digit(&mut next)).collect();
                let w = digit(&mut next);
                let want = big(&t) + big(&a) * w;
                let carry = adx.addmul(&mut t, &a, w);
                t.push(carry);
                assert_eq!(big(&t), want, "len {len}, kind {kind}");
            }
        }
    }
}
