//! The AVX-512 vectors of the IFMA lanes: the [`Token`] of run-time
//! detection of AVX-512F, VL and IFMA, the [`Vector`] trait of the few
//! instructions the kernel uses (`vpmadd52luq`/`vpmadd52huq` among them),
//! and its two widths, [`Z`] (eight lanes, 512 bits) and [`Y`] (four
//! lanes, 256 bits). Every instruction is an `unsafe` method reached only
//! below a [`Token`].
#![allow(unsafe_code)]

use super::LANES;
use core::arch::x86_64::{
    __m256i, __m512i, _mm256_add_epi64, _mm256_and_si256, _mm256_andnot_si256, _mm256_cmpeq_epi64_mask,
    _mm256_madd52hi_epu64, _mm256_madd52lo_epu64, _mm256_mask_mov_epi64, _mm256_set1_epi64x, _mm256_srli_epi64,
    _mm256_sub_epi64, _mm512_add_epi64, _mm512_and_si512, _mm512_andnot_si512, _mm512_cmpeq_epi64_mask,
    _mm512_madd52hi_epu64, _mm512_madd52lo_epu64, _mm512_mask_mov_epi64, _mm512_set1_epi64, _mm512_srli_epi64,
    _mm512_sub_epi64,
};

/// Proof that this CPU has AVX-512F, AVX-512VL and AVX-512 IFMA.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Token(());

impl Token {
    /// The token, if the CPU has the instructions.
    pub(crate) fn detect() -> Option<Token> {
        (std::is_x86_feature_detected!("avx512f")
            && std::is_x86_feature_detected!("avx512vl")
            && std::is_x86_feature_detected!("avx512ifma"))
        .then_some(Token(()))
    }
}

/// A vector of 64-bit lanes and the few instructions the kernel uses.
///
/// # Safety
///
/// Every method needs AVX-512F, AVX-512VL and AVX-512 IFMA: callers are
/// below a [`Token`] (the vector types are private to this module).
pub(crate) trait Vector: Copy + Default + 'static {
    /// Lanes per vector (at most [`LANES`]).
    const LANES: usize;
    /// `x` in every lane.
    unsafe fn splat(x: u64) -> Self;
    /// Lane `l` from `x[l]` (the first [`Vector::LANES`] entries).
    unsafe fn load(x: &[u64; LANES]) -> Self;
    /// The lanes, then zeros up to [`LANES`].
    unsafe fn store(self) -> [u64; LANES];
    /// `a + b` per lane.
    unsafe fn add(a: Self, b: Self) -> Self;
    /// `a - b` per lane (wrapping).
    unsafe fn sub(a: Self, b: Self) -> Self;
    /// `a & b`.
    unsafe fn and(a: Self, b: Self) -> Self;
    /// `!a & b`.
    unsafe fn andnot(a: Self, b: Self) -> Self;
    /// `a >> 52` per lane.
    unsafe fn shr52(a: Self) -> Self;
    /// `a >> 63` per lane.
    unsafe fn shr63(a: Self) -> Self;
    /// `acc + lo52(a·b)` per lane (`vpmadd52luq`).
    unsafe fn madd_lo(acc: Self, a: Self, b: Self) -> Self;
    /// `acc + hi52(a·b)` per lane (`vpmadd52huq`).
    unsafe fn madd_hi(acc: Self, a: Self, b: Self) -> Self;
    /// The mask of the lanes where `a == b`.
    unsafe fn eq(a: Self, b: Self) -> u8;
    /// `a` in the lanes of `mask`, `b` in the others.
    unsafe fn blend(mask: u8, a: Self, b: Self) -> Self;
}

/// Implements [`Vector`] for a wrapper of one register type.
macro_rules! vector {
    ($name:ident, $reg:ty, $lanes:literal, $doc:literal, $splat:ident, $add:ident, $sub:ident, $and:ident,
     $andnot:ident, $srli:ident, $lo:ident, $hi:ident, $eq:ident, $mov:ident) => {
        #[doc = $doc]
        #[derive(Clone, Copy)]
        #[repr(transparent)]
        pub(crate) struct $name(pub(super) $reg);

        impl Default for $name {
            fn default() -> $name {
                // SAFETY: all-zero bits are a valid vector; no instruction is needed.
                $name(unsafe { core::mem::zeroed() })
            }
        }

        // SAFETY (every method): the trait's contract, the CPU has AVX-512F,
        // VL and IFMA; the transmutes are between types of one size.
        impl Vector for $name {
            const LANES: usize = $lanes;
            #[inline(always)]
            unsafe fn splat(x: u64) -> Self {
                unsafe { $name($splat(x as i64)) }
            }
            #[inline(always)]
            unsafe fn load(x: &[u64; LANES]) -> Self {
                let lanes: [u64; $lanes] = core::array::from_fn(|l| x[l]);
                unsafe { $name(core::mem::transmute::<[u64; $lanes], $reg>(lanes)) }
            }
            #[inline(always)]
            unsafe fn store(self) -> [u64; LANES] {
                let lanes = unsafe { core::mem::transmute::<$reg, [u64; $lanes]>(self.0) };
                core::array::from_fn(|l| lanes.get(l).copied().unwrap_or(0))
            }
            #[inline(always)]
            unsafe fn add(a: Self, b: Self) -> Self {
                unsafe { $name($add(a.0, b.0)) }
            }
            #[inline(always)]
            unsafe fn sub(a: Self, b: Self) -> Self {
                unsafe { $name($sub(a.0, b.0)) }
            }
            #[inline(always)]
            unsafe fn and(a: Self, b: Self) -> Self {
                unsafe { $name($and(a.0, b.0)) }
            }
            #[inline(always)]
            unsafe fn andnot(a: Self, b: Self) -> Self {
                unsafe { $name($andnot(a.0, b.0)) }
            }
            #[inline(always)]
            unsafe fn shr52(a: Self) -> Self {
                unsafe { $name($srli::<52>(a.0)) }
            }
            #[inline(always)]
            unsafe fn shr63(a: Self) -> Self {
                unsafe { $name($srli::<63>(a.0)) }
            }
            #[inline(always)]
            unsafe fn madd_lo(acc: Self, a: Self, b: Self) -> Self {
                unsafe { $name($lo(acc.0, a.0, b.0)) }
            }
            #[inline(always)]
            unsafe fn madd_hi(acc: Self, a: Self, b: Self) -> Self {
                unsafe { $name($hi(acc.0, a.0, b.0)) }
            }
            #[inline(always)]
            unsafe fn eq(a: Self, b: Self) -> u8 {
                unsafe { $eq(a.0, b.0) }
            }
            #[inline(always)]
            unsafe fn blend(mask: u8, a: Self, b: Self) -> Self {
                unsafe { $name($mov(b.0, mask, a.0)) }
            }
        }
    };
}

vector!(
    Z,
    __m512i,
    8,
    "Eight lanes in a 512-bit vector: the throughput kernel.",
    _mm512_set1_epi64,
    _mm512_add_epi64,
    _mm512_sub_epi64,
    _mm512_and_si512,
    _mm512_andnot_si512,
    _mm512_srli_epi64,
    _mm512_madd52lo_epu64,
    _mm512_madd52hi_epu64,
    _mm512_cmpeq_epi64_mask,
    _mm512_mask_mov_epi64
);
vector!(
    Y,
    __m256i,
    4,
    "Four lanes in a 256-bit vector: the latency kernel.",
    _mm256_set1_epi64x,
    _mm256_add_epi64,
    _mm256_sub_epi64,
    _mm256_and_si256,
    _mm256_andnot_si256,
    _mm256_srli_epi64,
    _mm256_madd52lo_epu64,
    _mm256_madd52hi_epu64,
    _mm256_cmpeq_epi64_mask,
    _mm256_mask_mov_epi64
);
