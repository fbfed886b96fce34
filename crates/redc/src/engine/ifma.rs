//! The AVX-512 IFMA backend: eight independent exponentiations per vector,
//! one per 64-bit lane, with 52-bit digits (multi-buffer, "vertical" layout:
//! vector `j` of a number holds digit `j` of each lane's number).
//!
//! `vpmadd52luq`/`vpmadd52huq` add the low/high 52 bits of a 52×52-bit
//! product to a 64-bit accumulator, so a digit column can absorb thousands
//! of partial products before a carry must move. The product is Koç's CIOS
//! (000_be478b6750af4540.txt §2.2) with carries left in the accumulators
//! (the carry-save idea of 003_d66d8346d9f8d62c.txt, one level up) and
//! without the final subtraction (almost-Montgomery, as in
//! 004_6b8d1d0d0b5a3b17.txt Alg. 1): with `4n < R = 2^(52·D)`, inputs below
//! `2n` give outputs below `2n`, and only the very last product is brought
//! below `n`.
//!
//! Constant time: every lane runs the same instruction sequence; the window
//! table is read by scanning all entries with per-lane masks; the final
//! subtraction is a per-lane blend.
//!
//! `unsafe` is confined to this module: the kernels are `#[target_feature]`
//! functions, callable only through an [`Ifma`] token that exists only after
//! run-time detection of AVX-512F and AVX-512 IFMA succeeded.
#![allow(unsafe_code)]

use super::{Num, PowJob, Secrecy, bits_at};
use crate::exp::default_window;
use crate::nat::Nat;
use core::arch::x86_64::{
    __m512i, _mm512_add_epi64, _mm512_and_si512, _mm512_cmpeq_epi64_mask, _mm512_madd52hi_epu64, _mm512_madd52lo_epu64,
    _mm512_mask_mov_epi64, _mm512_mask_reduce_add_epi64, _mm512_set_epi64, _mm512_set1_epi64, _mm512_setzero_si512,
    _mm512_srli_epi64, _mm512_sub_epi64,
};
use zeroize::Zeroize;

/// Exponentiations per vector.
pub(crate) const LANES: usize = 8;
/// Bits per digit.
const DIGIT: usize = 52;
const MASK: u64 = (1 << DIGIT) - 1;
/// The digit counts `D` with a compiled kernel; a modulus of `bits` bits
/// uses the smallest `D` with `4n < 2^(52·D)`, that is `52·D >= bits + 2`.
const CLASSES: [usize; 8] = [10, 20, 30, 40, 60, 80, 120, 160];

/// Proof that this CPU has AVX-512F and AVX-512 IFMA.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Ifma(());

impl Ifma {
    /// The token, if the CPU has the instructions.
    pub(crate) fn detect() -> Option<Ifma> {
        (std::is_x86_feature_detected!("avx512f") && std::is_x86_feature_detected!("avx512ifma")).then_some(Ifma(()))
    }
}

/// A modulus in 52-bit digits with `k0 = -n^-1 mod 2^52` and
/// `R^2 mod n` for `R = 2^(52·D)`.
pub(crate) struct Ctx {
    n: Vec<u64>,
    k0: u64,
    r2: Vec<u64>,
}

impl Drop for Ctx {
    fn drop(&mut self) {
        self.n.zeroize();
        self.k0.zeroize();
        self.r2.zeroize();
    }
}

impl Ctx {
    /// Pre: `n` odd and `>= 3`. `None` when `n` is too large for every
    /// compiled class.
    pub(crate) fn new(n: &Num) -> Option<Ctx> {
        let d = *CLASSES.iter().find(|&&d| DIGIT * d >= n.bits() + 2)?;
        let r2 = Nat::pow2(2 * DIGIT * d).rem(n).expect("n is not zero");
        let n0 = n.digits()[0];
        // Newton: y := y·(2 - n0·y) doubles the correct low bits of n0^-1.
        let mut y: u64 = 1;
        for _ in 0..6 {
            y = y.wrapping_mul(2u64.wrapping_sub(n0.wrapping_mul(y)));
        }
        Some(Ctx {
            n: to_digits52(n, d),
            k0: y.wrapping_neg() & MASK,
            r2: to_digits52(&r2, d),
        })
    }

    /// The digit count `D`; jobs of one class share lane groups.
    pub(crate) fn class(&self) -> usize {
        self.n.len()
    }
}

/// `x` as `d` little-endian 52-bit digits. Pre: `x < 2^(52·d)`.
fn to_digits52(x: &Num, d: usize) -> Vec<u64> {
    (0..d).map(|j| bits_at(x.digits(), j * DIGIT, DIGIT)).collect()
}

/// The number with little-endian 52-bit digits `d` (each `< 2^52`).
fn from_digits52(d: &[u64]) -> Num {
    let mut out = vec![0u64; (d.len() * DIGIT).div_ceil(64) + 1];
    for (j, &v) in d.iter().enumerate() {
        let (i, s) = (j * DIGIT / 64, j * DIGIT % 64);
        out[i] |= v << s;
        if s > 64 - DIGIT {
            out[i + 1] |= v >> (64 - s);
        }
    }
    Nat::from_digits(out)
}

/// `base^exp mod n` for up to [`LANES`] jobs of one class, in order.
///
/// Pre: `1 <= jobs.len() <= LANES`; every job's modulus has an IFMA context
/// of the same class; `base < n`; `exp < 2^exp_bits`.
pub(crate) fn pow_group(token: Ifma, jobs: &[PowJob<'_>], secrecy: Secrecy) -> Vec<Num> {
    fn ctx<'a>(j: &PowJob<'a>) -> &'a Ctx {
        j.modulus.ifma.as_ref().expect("caller grouped IFMA jobs only")
    }
    let d = ctx(&jobs[0]).class();
    assert!(
        (1..=LANES).contains(&jobs.len()) && jobs.iter().all(|j| ctx(j).class() == d),
        "one class per group"
    );
    // Idle lanes repeat lane 0 and are discarded.
    let lane = |l: usize| &jobs[if l < jobs.len() { l } else { 0 }];
    let mut n = vec![[0u64; LANES]; d];
    let mut r2 = vec![[0u64; LANES]; d];
    let mut base = vec![[0u64; LANES]; d];
    let mut k0 = [0u64; LANES];
    for l in 0..LANES {
        let job = lane(l);
        let c = ctx(job);
        let b = to_digits52(job.base, d);
        for j in 0..d {
            n[j][l] = c.n[j];
            r2[j][l] = c.r2[j];
            base[j][l] = b[j];
        }
        k0[l] = c.k0;
    }
    let exp_bits = jobs.iter().map(|j| j.exp_bits).max().unwrap_or(0);
    let k = default_window(exp_bits);
    let windows = exp_bits.div_ceil(k as usize).max(1);
    // digits[w][l]: window w of lane l's exponent (zero for idle lanes).
    let mut digits: Vec<[u64; LANES]> = (0..windows)
        .map(|w| {
            core::array::from_fn(|l| match jobs.get(l) {
                Some(j) => bits_at(j.exp.digits(), w * k as usize, k as usize),
                None => 0,
            })
        })
        .collect();
    let input = Input {
        n: &n,
        r2: &r2,
        base: &base,
        k0,
        digits: &digits,
        k,
        secrecy,
    };
    let mut out = vec![[0u64; LANES]; d];
    macro_rules! dispatch {
        ($($c:literal),*) => {
            match d {
                // SAFETY: `token` exists only after `Ifma::detect` found
                // AVX-512F and AVX-512 IFMA on this CPU.
                $($c => unsafe { pow_lanes::<$c>(token, &input, &mut out) },)*
                _ => unreachable!("Ctx::new picks a class from CLASSES"),
            }
        };
    }
    dispatch!(10, 20, 30, 40, 60, 80, 120, 160);
    base.zeroize();
    digits.zeroize();
    let answers = (0..jobs.len())
        .map(|l| {
            let mut ds: Vec<u64> = out.iter().map(|v| v[l]).collect();
            let x = from_digits52(&ds);
            ds.zeroize();
            x
        })
        .collect();
    out.zeroize();
    answers
}

/// A lane group's inputs, digit-major (`n[j][l]`: digit `j` of lane `l`).
struct Input<'a> {
    n: &'a [[u64; LANES]],
    r2: &'a [[u64; LANES]],
    base: &'a [[u64; LANES]],
    k0: [u64; LANES],
    digits: &'a [[u64; LANES]],
    k: u32,
    secrecy: Secrecy,
}

type Vn<const D: usize> = [__m512i; D];

#[target_feature(enable = "avx512f,avx512ifma")]
fn load(x: [u64; LANES]) -> __m512i {
    let v = x.map(|w| w as i64);
    _mm512_set_epi64(v[7], v[6], v[5], v[4], v[3], v[2], v[1], v[0])
}

#[target_feature(enable = "avx512f,avx512ifma")]
fn load_num<const D: usize>(x: &[[u64; LANES]]) -> Vn<D> {
    core::array::from_fn(|j| load(x[j]))
}

#[target_feature(enable = "avx512f,avx512ifma")]
fn store(v: __m512i) -> [u64; LANES] {
    core::array::from_fn(|l| _mm512_mask_reduce_add_epi64(1 << l, v) as u64)
}

/// Overwrite a vector number with zeros in a way the optimiser keeps.
#[target_feature(enable = "avx512f,avx512ifma")]
fn wipe<const D: usize>(x: &mut Vn<D>) {
    *x = [_mm512_setzero_si512(); D];
    core::hint::black_box(x);
}

/// The exponentiation for one lane group with `D` digits.
#[target_feature(enable = "avx512f,avx512ifma")]
fn pow_lanes<const D: usize>(_: Ifma, input: &Input<'_>, out: &mut [[u64; LANES]]) {
    let n: Vn<D> = load_num(input.n);
    let r2: Vn<D> = load_num(input.r2);
    let k0 = load(input.k0);
    let mut one = [_mm512_setzero_si512(); D];
    one[0] = _mm512_set1_epi64(1);
    // table[v] = base^v in Montgomery form (< 2n).
    let mut table: Vec<Vn<D>> = Vec::with_capacity(1 << input.k);
    table.push(amm(&r2, &one, &n, k0));
    let mut b: Vn<D> = load_num(input.base);
    table.push(amm(&b, &r2, &n, k0));
    wipe(&mut b);
    for v in 2..1usize << input.k {
        let next = amm(&table[v - 1], &table[1], &n, k0);
        table.push(next);
    }
    let top = input.digits.len() - 1;
    let mut x = select(&table, load(input.digits[top]));
    for w in (0..top).rev() {
        for _ in 0..input.k {
            x = amm(&x, &x, &n, k0);
        }
        let idx = load(input.digits[w]);
        let needed = match input.secrecy {
            Secrecy::Secret => true,
            Secrecy::Public => input.digits[w].iter().any(|&v| v != 0),
        };
        if needed {
            let mut e = select(&table, idx);
            x = amm(&x, &e, &n, k0);
            wipe(&mut e);
        }
    }
    for t in &mut table {
        wipe(t);
    }
    let mut y = amm(&x, &one, &n, k0);
    wipe(&mut x);
    reduce_below(&mut y, &n);
    for (j, v) in y.iter().enumerate() {
        out[j] = store(*v);
    }
    wipe(&mut y);
}

/// `table[idx[l]]` in lane `l`, reading every entry (constant time).
#[target_feature(enable = "avx512f,avx512ifma")]
fn select<const D: usize>(table: &[Vn<D>], idx: __m512i) -> Vn<D> {
    let mut out = [_mm512_setzero_si512(); D];
    for (v, entry) in table.iter().enumerate() {
        let hit = _mm512_cmpeq_epi64_mask(idx, _mm512_set1_epi64(v as i64));
        for j in 0..D {
            out[j] = _mm512_mask_mov_epi64(out[j], hit, entry[j]);
        }
    }
    out
}

/// Almost-Montgomery product `a·b·R^-1 mod n`, `R = 2^(52·D)`, per lane.
///
/// Pre: digits of `a`, `b`, `n` below `2^52`; `a, b < 2n`; `4n < R`; `n` odd;
/// `k0 = -n^-1 mod 2^52`. Post: digits below `2^52`, value `< 2n` and
/// `≡ a·b·R^-1 (mod n)`.
///
/// CIOS with lazy carries: `acc[j]` holds a running column as a 64-bit sum
/// of 52-bit pieces. Step `i` first finds `m = (acc[0] + a_i·b_0)·k0 mod
/// 2^52`, the multiple of `n` that clears the lowest digit, then makes one
/// pass that adds `a_i·b` and `m·n` (low halves to their own column, high
/// halves one column up) while dropping the cleared digit and moving its
/// carry up. One pass per step keeps each accumulator to one load and one
/// store when `D` exceeds the register file. A column takes at most four
/// pieces per step, so it stays below `4·D·2^52 < 2^62` for `D <= 160`;
/// carries are normalised once, at the end.
#[target_feature(enable = "avx512f,avx512ifma")]
fn amm<const D: usize>(a: &Vn<D>, b: &Vn<D>, n: &Vn<D>, k0: __m512i) -> Vn<D> {
    let zero = _mm512_setzero_si512();
    let mut acc = [zero; D];
    for &ai in a {
        let t0 = _mm512_madd52lo_epu64(acc[0], ai, b[0]);
        let m = _mm512_madd52lo_epu64(zero, t0, k0);
        let carry = _mm512_srli_epi64::<52>(_mm512_madd52lo_epu64(t0, m, n[0]));
        for j in 0..D - 1 {
            let x = _mm512_madd52hi_epu64(_mm512_madd52lo_epu64(acc[j + 1], ai, b[j + 1]), ai, b[j]);
            acc[j] = _mm512_madd52hi_epu64(_mm512_madd52lo_epu64(x, m, n[j + 1]), m, n[j]);
        }
        acc[D - 1] = _mm512_madd52hi_epu64(_mm512_madd52hi_epu64(zero, ai, b[D - 1]), m, n[D - 1]);
        acc[0] = _mm512_add_epi64(acc[0], carry);
    }
    normalize(&mut acc);
    acc
}

/// Propagate carries so every digit is below `2^52`. Pre: the value fits
/// in `D` digits.
#[target_feature(enable = "avx512f,avx512ifma")]
fn normalize<const D: usize>(acc: &mut Vn<D>) {
    let mask = _mm512_set1_epi64(MASK as i64);
    let mut carry = _mm512_setzero_si512();
    for digit in acc.iter_mut() {
        let t = _mm512_add_epi64(*digit, carry);
        carry = _mm512_srli_epi64::<52>(t);
        *digit = _mm512_and_si512(t, mask);
    }
}

/// `x := x - n` in the lanes where `x >= n`, by a per-lane blend (no branch).
/// Pre: normalised digits, `x < 2n`.
#[target_feature(enable = "avx512f,avx512ifma")]
fn reduce_below<const D: usize>(x: &mut Vn<D>, n: &Vn<D>) {
    let mask = _mm512_set1_epi64(MASK as i64);
    let mut diff = [_mm512_setzero_si512(); D];
    let mut borrow = _mm512_setzero_si512();
    for j in 0..D {
        let t = _mm512_sub_epi64(_mm512_sub_epi64(x[j], n[j]), borrow);
        borrow = _mm512_srli_epi64::<63>(t);
        diff[j] = _mm512_and_si512(t, mask);
    }
    let keep_diff = _mm512_cmpeq_epi64_mask(borrow, _mm512_setzero_si512());
    for j in 0..D {
        x[j] = _mm512_mask_mov_epi64(x[j], keep_diff, diff[j]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digit_conversions_round_trip() {
        let x = Nat::from_hex("1234567890abcdef0fedcba987654321deadbeefcafebabe1").unwrap();
        assert_eq!(from_digits52(&to_digits52(&x, 10)), x);
        assert_eq!(from_digits52(&to_digits52(&Num::zero(), 3)), Num::zero());
    }
}
