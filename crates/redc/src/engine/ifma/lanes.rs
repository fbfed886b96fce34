//! The SIMD part of the IFMA backend: eight numbers per vector, one per
//! 64-bit lane, in 52-bit digits ("vertical" layout: vector `j` holds digit
//! `j` of each lane's number). The only `unsafe` of the crate: every AVX-512
//! instruction is reached through a [`Token`] that exists only after
//! run-time detection of AVX-512F and AVX-512 IFMA succeeded, and the lane
//! types below are private to this module.
//!
//! `vpmadd52luq`/`vpmadd52huq` add the low/high 52 bits of a 52×52-bit
//! product to a 64-bit accumulator, so a digit column can absorb thousands
//! of partial products before a carry must move. The product is Koç's CIOS
//! (000_be478b6750af4540.txt §2.2) with carries left in the accumulators
//! (the carry-save idea of 003_4c508dab9c4d2fd2.txt, one level up) and
//! without the final subtraction (almost-Montgomery, as in
//! 004_b65c74827168229f.txt Alg. 1): with `4n < R = 2^(52·D)`, inputs below
//! `2n` give outputs below `2n`, and only the very last value is brought
//! below `n`, by the kernel layer's shared final subtraction. The
//! exponentiation drivers and the table select are the kernel layer's too
//! ([`Lanes`] is a [`Kernel`]).
#![allow(unsafe_code)]

use crate::kernel::limb::Limb;
use crate::kernel::meter::NoMeter;
use crate::kernel::subtract::sub_if_not_less;
use crate::kernel::{Kernel, select, sliding, window};
use crate::nat::limbs;
use core::arch::x86_64::{
    __m512i, _mm512_add_epi64, _mm512_and_si512, _mm512_andnot_si512, _mm512_cmpeq_epi64_mask, _mm512_madd52hi_epu64,
    _mm512_madd52lo_epu64, _mm512_mask_mov_epi64, _mm512_mask_reduce_add_epi64, _mm512_set_epi64, _mm512_set1_epi64,
    _mm512_setzero_si512, _mm512_srli_epi64, _mm512_sub_epi64,
};
use zeroize::{DefaultIsZeroes, Zeroize};

/// Exponentiations per vector.
pub(crate) const LANES: usize = 8;
/// Bits per digit.
pub(crate) const DIGIT: usize = 52;
const MASK: u64 = (1 << DIGIT) - 1;

/// Proof that this CPU has AVX-512F and AVX-512 IFMA.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Token(());

impl Token {
    /// The token, if the CPU has the instructions.
    pub(crate) fn detect() -> Option<Token> {
        (std::is_x86_feature_detected!("avx512f") && std::is_x86_feature_detected!("avx512ifma")).then_some(Token(()))
    }
}

/// One 52-bit digit of each lane's number (private: values are made and
/// used only below a [`Token`]).
#[derive(Clone, Copy)]
#[repr(transparent)]
struct V(__m512i);

impl Default for V {
    fn default() -> V {
        // SAFETY: all-zero bits are a valid __m512i; no instruction is needed.
        V(unsafe { core::mem::zeroed() })
    }
}

impl DefaultIsZeroes for V {}

/// The lanes' digits for the kernel layer's select and final subtraction.
/// A `V` exists only in code reached through a [`Token`].
impl Limb for V {
    type Mask = u8;
    type Index = V;
    const CHUNK: usize = 16;

    #[inline(always)]
    fn zero() -> V {
        V::default()
    }

    #[inline(always)]
    fn sub_borrow(a: V, b: V, borrow: V) -> (V, V) {
        // SAFETY: a `V` exists only below a `Token`: the CPU has AVX-512F.
        unsafe {
            let t = _mm512_sub_epi64(_mm512_sub_epi64(a.0, b.0), borrow.0);
            (
                V(_mm512_and_si512(t, _mm512_set1_epi64(MASK as i64))),
                V(_mm512_srli_epi64::<63>(t)),
            )
        }
    }

    #[inline(always)]
    fn borrow_without_top(borrow: V, top: V) -> u8 {
        // SAFETY: a `V` exists only below a `Token`: the CPU has AVX-512F.
        unsafe { _mm512_cmpeq_epi64_mask(_mm512_andnot_si512(top.0, borrow.0), _mm512_set1_epi64(1)) }
    }

    #[inline(always)]
    fn select(mask: u8, a: V, b: V) -> V {
        // SAFETY: a `V` exists only below a `Token`: the CPU has AVX-512F.
        unsafe { V(_mm512_mask_mov_epi64(b.0, mask, a.0)) }
    }

    #[inline(always)]
    fn index_is(v: u64, idx: V) -> u8 {
        // SAFETY: a `V` exists only below a `Token`: the CPU has AVX-512F.
        unsafe { _mm512_cmpeq_epi64_mask(idx.0, _mm512_set1_epi64(v as i64)) }
    }

    #[inline(always)]
    fn pick(acc: V, x: V, mask: u8) -> V {
        // SAFETY: a `V` exists only below a `Token`: the CPU has AVX-512F.
        unsafe { V(_mm512_mask_mov_epi64(acc.0, mask, x.0)) }
    }
}

/// A number of `D` digits in every lane: a residue of the kernel.
#[derive(Clone, Copy)]
pub(super) struct Num<const D: usize>([V; D]);

impl<const D: usize> AsRef<[V]> for Num<D> {
    fn as_ref(&self) -> &[V] {
        &self.0
    }
}

impl<const D: usize> Zeroize for Num<D> {
    fn zeroize(&mut self) {
        self.0.iter_mut().for_each(Zeroize::zeroize);
    }
}

/// The lanes' moduli with their constants: the IFMA [`Kernel`].
pub(super) struct Lanes<const D: usize> {
    _token: Token,
    n: [V; D],
    k0: V,
    r2: Num<D>,
    one: Num<D>,
}

/// A lane group's inputs, read straight from each lane's buffers: lane
/// `l`'s modulus `n[l]` and `r2[l] = R^2 mod n` in exactly `D` 52-bit
/// digits, its base `base[l]` in 64-bit digits (any count).
pub(super) struct Input<'a> {
    pub(super) n: [&'a [u64]; LANES],
    pub(super) r2: [&'a [u64]; LANES],
    pub(super) base: [&'a [u64]; LANES],
    pub(super) k0: [u64; LANES],
}

/// The exponents of a lane group.
pub(super) enum Exponents<'a> {
    /// Secret: `digits[w][l]` is window `w` of lane `l`'s exponent, `width` bits each.
    Windows { width: u32, digits: &'a [[u64; LANES]] },
    /// Public and the same in every lane: sliding windows of at most `width` bits.
    Shared { width: u32, exp: &'a [u64] },
}

/// `base^exp mod n` in every lane, fully reduced, digit-major in `out`
/// (`out[j][l]`: digit `j` of lane `l`). Pre: every lane's modulus is odd
/// with `4n < 2^(52·D)`, its base below it, digits of `n` and `r2` below
/// `2^52`; `k0 = -n^-1 mod 2^52`; `r2 = R^2 mod n`.
pub(super) fn pow<const D: usize>(token: Token, input: &Input<'_>, exps: &Exponents<'_>, out: &mut [[u64; LANES]; D]) {
    // SAFETY: `token` proves AVX-512F and AVX-512 IFMA.
    unsafe { pow_avx512::<D>(token, input, exps, out) }
}

/// [`pow`] compiled with AVX-512: the drivers and the kernel's methods
/// inline into it, so products and selects run without calls.
#[target_feature(enable = "avx512f,avx512ifma")]
fn pow_avx512<const D: usize>(token: Token, input: &Input<'_>, exps: &Exponents<'_>, out: &mut [[u64; LANES]; D]) {
    let mut k: Lanes<D> = Lanes::new(token, input);
    let mut b = Num(gather::<D>(|l, j| limbs::window(input.base[l], j * DIGIT, DIGIT)));
    let mut r2 = k.r2;
    k.mul(&mut b, &r2);
    r2.zeroize();
    let mut x = match *exps {
        Exponents::Windows { width, digits } => window::pow(&mut k, &b, width, digits.len(), |w| digits[w], &mut ()),
        Exponents::Shared { width, exp } => sliding::pow_vartime(&mut k, &b, exp, width, &mut ()),
    };
    b.zeroize();
    leave(&k, &mut x, out);
    x.zeroize();
}

impl<const D: usize> Drop for Lanes<D> {
    /// The moduli may be secret primes.
    fn drop(&mut self) {
        self.n.iter_mut().for_each(Zeroize::zeroize);
        self.r2.zeroize();
        self.one.zeroize();
    }
}

impl<const D: usize> Lanes<D> {
    #[target_feature(enable = "avx512f,avx512ifma")]
    fn new(token: Token, input: &Input<'_>) -> Lanes<D> {
        let n = gather::<D>(|l, j| input.n[l][j]);
        let k0 = load(input.k0);
        let mut unit = [V::zero(); D];
        unit[0] = V(_mm512_set1_epi64(1));
        let r2 = Num(gather::<D>(|l, j| input.r2[l][j]));
        // SAFETY: this function runs only with AVX-512F and AVX-512 IFMA.
        let one = Num(unsafe { amm(&r2.0, &unit, &n, k0) });
        Lanes {
            _token: token,
            n,
            k0,
            r2,
            one,
        }
    }
}

impl<const D: usize> Kernel for Lanes<D> {
    const LANES: usize = LANES;
    type Elem = Num<D>;
    type Index = [u64; LANES];

    #[inline(always)]
    fn one(&self) -> Num<D> {
        self.one
    }

    #[inline(always)]
    fn mul(&mut self, x: &mut Num<D>, y: &Num<D>) {
        x.0 = self.product(&x.0, &y.0);
    }

    #[inline(always)]
    fn sqr(&mut self, x: &mut Num<D>) {
        x.0 = self.product(&x.0, &x.0);
    }

    #[inline(always)]
    fn select(&self, out: &mut Num<D>, table: &[Num<D>], idx: [u64; LANES]) {
        // SAFETY: a `Lanes` is made only with a `Token`.
        unsafe { select_lanes(out, table, idx) }
    }
}

/// Above this many digits the exponentiation calls one copy of the product
/// instead of inlining a copy per call site (measured at 3072 bits, 60
/// digits: the inlined copies were slower).
const INLINE_DIGITS: usize = 40;

impl<const D: usize> Lanes<D> {
    /// [`amm`] with this kernel's modulus: inlined for the small classes,
    /// called for the large ones (`D` is a constant: the choice is made at
    /// compile time).
    #[inline(always)]
    fn product(&self, a: &[V; D], b: &[V; D]) -> [V; D] {
        // SAFETY: a `Lanes` is made only with a `Token`.
        unsafe {
            if D <= INLINE_DIGITS {
                amm(a, b, &self.n, self.k0)
            } else {
                amm_called(a, b, &self.n, self.k0)
            }
        }
    }
}

/// [`amm`] as one function per class, for the classes above
/// [`INLINE_DIGITS`].
#[target_feature(enable = "avx512f,avx512ifma")]
#[inline(never)]
fn amm_called<const D: usize>(a: &[V; D], b: &[V; D], n: &[V; D], k0: V) -> [V; D] {
    // SAFETY: this function runs only with AVX-512F and AVX-512 IFMA.
    unsafe { amm(a, b, n, k0) }
}

/// The kernel layer's select, compiled here with AVX-512 (the lane
/// operations inline into it).
#[target_feature(enable = "avx512f,avx512ifma")]
fn select_lanes<const D: usize>(out: &mut Num<D>, table: &[Num<D>], idx: [u64; LANES]) {
    select::select(&mut out.0, table, V(load(idx).0));
}

/// `out := x·R^-1 mod n`, fully reduced (`MonPro(x, 1)`, then the kernel
/// layer's final subtraction), stored digit-major.
#[target_feature(enable = "avx512f,avx512ifma")]
fn leave<const D: usize>(k: &Lanes<D>, x: &mut Num<D>, out: &mut [[u64; LANES]; D]) {
    let mut unit = [V::zero(); D];
    unit[0] = V(_mm512_set1_epi64(1));
    // SAFETY: this function runs only with AVX-512F and AVX-512 IFMA.
    let mut y = unsafe { amm(&x.0, &unit, &k.n, k.k0) };
    let mut reduced = [V::zero(); D];
    sub_if_not_less(&NoMeter, &mut reduced, &y, V::zero(), &k.n);
    for (j, v) in reduced.iter().enumerate() {
        out[j] = store(v.0);
    }
    y.iter_mut().for_each(Zeroize::zeroize);
    reduced.iter_mut().for_each(Zeroize::zeroize);
}

#[target_feature(enable = "avx512f,avx512ifma")]
fn load(x: [u64; LANES]) -> V {
    let v = x.map(|w| w as i64);
    V(_mm512_set_epi64(v[7], v[6], v[5], v[4], v[3], v[2], v[1], v[0]))
}

/// `D` vectors whose vector `j` holds `digit(l, j)` in lane `l`.
#[target_feature(enable = "avx512f,avx512ifma")]
fn gather<const D: usize>(digit: impl Fn(usize, usize) -> u64) -> [V; D] {
    core::array::from_fn(|j| load(core::array::from_fn(|l| digit(l, j))))
}

#[target_feature(enable = "avx512f,avx512ifma")]
fn store(v: __m512i) -> [u64; LANES] {
    core::array::from_fn(|l| _mm512_mask_reduce_add_epi64(1 << l, v) as u64)
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
///
/// Always inlined, into the functions compiled with AVX-512 that run the
/// exponentiation (the kernel's `mul` and `sqr` inline into them too): one
/// copy per call site, each scheduled with its neighbours, and no call.
///
/// # Safety
///
/// The CPU must have AVX-512F and AVX-512 IFMA (callers hold a [`Token`]).
#[inline(always)]
unsafe fn amm<const D: usize>(a: &[V; D], b: &[V; D], n: &[V; D], k0: V) -> [V; D] {
    // SAFETY: the caller's contract: the CPU has AVX-512F and AVX-512 IFMA.
    unsafe {
        let zero = _mm512_setzero_si512();
        let mut acc = [zero; D];
        for &V(ai) in a {
            let t0 = _mm512_madd52lo_epu64(acc[0], ai, b[0].0);
            let m = _mm512_madd52lo_epu64(zero, t0, k0.0);
            let carry = _mm512_srli_epi64::<52>(_mm512_madd52lo_epu64(t0, m, n[0].0));
            for j in 0..D - 1 {
                let x = _mm512_madd52hi_epu64(_mm512_madd52lo_epu64(acc[j + 1], ai, b[j + 1].0), ai, b[j].0);
                acc[j] = _mm512_madd52hi_epu64(_mm512_madd52lo_epu64(x, m, n[j + 1].0), m, n[j].0);
            }
            acc[D - 1] = _mm512_madd52hi_epu64(_mm512_madd52hi_epu64(zero, ai, b[D - 1].0), m, n[D - 1].0);
            acc[0] = _mm512_add_epi64(acc[0], carry);
        }
        normalize(&mut acc);
        acc.map(V)
    }
}

/// Propagate carries so every digit is below `2^52`. Pre: the value fits
/// in `D` digits.
///
/// # Safety
///
/// As [`amm`], which it is inlined into.
#[inline(always)]
unsafe fn normalize<const D: usize>(acc: &mut [__m512i; D]) {
    // SAFETY: the caller's contract: the CPU has AVX-512F.
    unsafe {
        let mask = _mm512_set1_epi64(MASK as i64);
        let mut carry = _mm512_setzero_si512();
        for digit in acc.iter_mut() {
            let t = _mm512_add_epi64(*digit, carry);
            carry = _mm512_srli_epi64::<52>(t);
            *digit = _mm512_and_si512(t, mask);
        }
    }
}
