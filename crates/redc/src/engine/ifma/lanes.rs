//! The SIMD part of the IFMA backend: one number per 64-bit lane, in 52-bit
//! digits ("vertical" layout: vector `j` holds digit `j` of each lane's
//! number), on one of two vector widths: [`Z`], eight lanes in a 512-bit
//! vector (throughput: a full group), and [`Y`], four lanes in a 256-bit
//! vector (latency: a group of one to four). The code is written once over
//! [`Vector`]. With its children (`lanes/vector.rs`, `lanes/product.rs`,
//! `lanes/square.rs`, the horizontal kernels `lanes/pairs.rs`,
//! `lanes/pairs/` and `lanes/single.rs`, and for the unit tests
//! `lanes/plain.rs`), the crate's SIMD `unsafe` (the root
//! `Cargo.toml` lists the rest): every AVX-512 instruction is reached
//! through a [`Token`] that exists only after run-time detection of
//! AVX-512F, VL and IFMA succeeded, and the lane types below are private
//! to this module.
//!
//! Why two widths: a lone operation, whose CRT halves fill two to four
//! lanes, does not pay for eight. On the project's Xeon (Sapphire Rapids
//! class) both widths issue two `vpmadd52luq` per cycle at the limit, but
//! the core runs about 7% slower while 512-bit vectors are busy (`redc
//! bench` measures both), and the wide product reaches a smaller share of
//! its limit: one 1024-bit product takes about 200 ns on four lanes of `Y`
//! against 250 ns on eight of `Z`, one 2048-bit product 1.15 µs against
//! 1.34 µs (`redc bench`'s per-product table).
//!
//! `vpmadd52luq`/`vpmadd52huq` add the low/high 52 bits of a 52×52-bit
//! product to a 64-bit accumulator, so a digit column can absorb thousands
//! of partial products before a carry must move. The product is Koç's CIOS
//! (000_be478b6750af4540.txt §2.2) with carries left in the accumulators
//! (the carry-save idea of 003_4c508dab9c4d2fd2.txt, one level up) and
//! without the final subtraction (almost-Montgomery, as in
//! 004_b65c74827168229f.txt Alg. 1): with `4n < R = 2^(52·D)`, inputs below
//! `2n` give outputs below `2n`, and only the very last value is brought
//! below `n`, by the kernel layer's shared final subtraction. A squaring
//! is its own kernel (`lanes/square.rs`: each cross product once, `3·D² +
//! D` multiply-adds against the product's `4·D² + D`). The
//! exponentiation drivers and the table select are the kernel layer's too
//! ([`Lanes`] is a [`Kernel`]).
#![allow(unsafe_code)]

use crate::kernel::limb::Limb;
use crate::kernel::meter::NoMeter;
use crate::kernel::subtract::sub_if_not_less;
use crate::kernel::{Kernel, select, sliding, window};
use crate::nat::limbs;
use zeroize::{DefaultIsZeroes, Zeroize};

pub(super) mod pairs;
#[cfg(test)]
mod plain;
mod product;
pub(super) mod single;
mod square;
mod vector;

use self::product::amm;
use self::square::ams;
pub(crate) use self::vector::{Token, Vector, Y, Z};

/// The most exponentiations per vector (of [`Z`]); a group's inputs and
/// outputs are arrays of this many lanes, of which a [`Y`] kernel uses the
/// first four.
pub(crate) const LANES: usize = 8;
/// Bits per digit.
pub(crate) const DIGIT: usize = 52;
const MASK: u64 = (1 << DIGIT) - 1;

/// One 52-bit digit of each lane's number (private: values are made and
/// used only below a [`Token`]).
#[derive(Clone, Copy, Default)]
#[repr(transparent)]
struct V<W: Vector>(W);

impl<W: Vector> DefaultIsZeroes for V<W> {}

/// The lanes' digits for the kernel layer's select and final subtraction.
/// A `V` exists only in code reached through a [`Token`].
impl<W: Vector> Limb for V<W> {
    type Mask = u8;
    type Index = V<W>;
    const CHUNK: usize = 16;

    #[inline(always)]
    fn zero() -> V<W> {
        V::default()
    }

    #[inline(always)]
    fn sub_borrow(a: V<W>, b: V<W>, borrow: V<W>) -> (V<W>, V<W>) {
        // SAFETY: a `V` exists only below a `Token`.
        unsafe {
            let t = W::sub(W::sub(a.0, b.0), borrow.0);
            (V(W::and(t, W::splat(MASK))), V(W::shr63(t)))
        }
    }

    #[inline(always)]
    fn borrow_without_top(borrow: V<W>, top: V<W>) -> u8 {
        // SAFETY: a `V` exists only below a `Token`.
        unsafe { W::eq(W::andnot(top.0, borrow.0), W::splat(1)) }
    }

    #[inline(always)]
    fn select(mask: u8, a: V<W>, b: V<W>) -> V<W> {
        // SAFETY: a `V` exists only below a `Token`.
        unsafe { V(W::blend(mask, a.0, b.0)) }
    }

    #[inline(always)]
    fn index_is(v: u64, idx: V<W>) -> u8 {
        // SAFETY: a `V` exists only below a `Token`.
        unsafe { W::eq(idx.0, W::splat(v)) }
    }

    #[inline(always)]
    fn pick(acc: V<W>, x: V<W>, mask: u8) -> V<W> {
        // SAFETY: a `V` exists only below a `Token`.
        unsafe { V(W::blend(mask, x.0, acc.0)) }
    }
}

/// A number of `D` digits in every lane: a residue of the kernel.
#[derive(Clone, Copy)]
pub(super) struct Num<W: Vector, const D: usize>([V<W>; D]);

impl<W: Vector, const D: usize> AsRef<[V<W>]> for Num<W, D> {
    fn as_ref(&self) -> &[V<W>] {
        &self.0
    }
}

impl<W: Vector, const D: usize> Zeroize for Num<W, D> {
    fn zeroize(&mut self) {
        self.0.iter_mut().for_each(Zeroize::zeroize);
    }
}

/// A horizontal kernel's modulus (or two) with its constants, in the
/// kernel's layout `E` (`lanes/pairs.rs`: two numbers, `lanes/single.rs`:
/// one): `n`; `n` shifted up one digit and its top digit shifted out (in
/// the lowest lane of each number); `k0 = -n^-1 mod 2^52` in each number's
/// lanes; `R^2 mod n`; `R mod n`. Made only with a [`Token`]; wiped on drop
/// (the moduli may be secret primes).
struct Horizontal<E: Zeroize> {
    _token: Token,
    n: E,
    n_up: E,
    n_top: V<Y>,
    k0: V<Y>,
    r2: E,
    one: E,
}

impl<E: Zeroize> Drop for Horizontal<E> {
    fn drop(&mut self) {
        self.n.zeroize();
        self.n_up.zeroize();
        self.n_top.zeroize();
        self.k0.zeroize();
        self.r2.zeroize();
        self.one.zeroize();
    }
}

/// The lanes' moduli with their constants: the IFMA [`Kernel`].
pub(super) struct Lanes<W: Vector, const D: usize> {
    _token: Token,
    n: [V<W>; D],
    k0: V<W>,
    r2: Num<W, D>,
    one: Num<W, D>,
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
    /// No exponent: `count` products by the base (`b^(count+1)`), or with
    /// `square` `count` squarings (`b^(2^count)`), one after another, to
    /// time and test one product at a time (`super::Ifma::chain`).
    Chain { count: usize, square: bool },
}

/// `base^exp mod n` in the first `W::LANES` lanes, fully reduced,
/// digit-major in `out` (`out[j][l]`: digit `j` of lane `l`; lanes beyond
/// `W::LANES` are zero). Pre: every lane's modulus is odd with
/// `4n < 2^(52·D)`, its base below it, digits of `n` and `r2` below
/// `2^52`; `k0 = -n^-1 mod 2^52`; `r2 = R^2 mod n`.
pub(super) fn pow<W: Vector, const D: usize>(
    token: Token,
    input: &Input<'_>,
    exps: &Exponents<'_>,
    out: &mut [[u64; LANES]; D],
) {
    // SAFETY: `token` proves AVX-512F, VL and IFMA.
    unsafe { pow_avx512::<W, D>(token, input, exps, out) }
}

/// [`pow`] compiled with AVX-512: the drivers and the kernel's methods
/// inline into it, so products and selects run without calls.
#[target_feature(enable = "avx512f,avx512vl,avx512ifma")]
fn pow_avx512<W: Vector, const D: usize>(
    token: Token,
    input: &Input<'_>,
    exps: &Exponents<'_>,
    out: &mut [[u64; LANES]; D],
) {
    let mut k: Lanes<W, D> = Lanes::new(token, input);
    let b = Num(gather::<W, D>(|l, j| limbs::window(input.base[l], j * DIGIT, DIGIT)));
    let r2 = k.r2;
    let mut x = exponentiate(&mut k, b, r2, exps);
    leave(&k, &mut x, out);
    x.zeroize();
}

/// `b·R mod n` (one product with `r2 = R^2 mod n`) raised to the lanes'
/// exponents by the kernel layer's drivers, for every kernel of this
/// backend; `b` and `r2` are wiped.
#[inline(always)]
fn exponentiate<K: Kernel<Index = [u64; LANES]>>(
    k: &mut K,
    mut b: K::Elem,
    mut r2: K::Elem,
    exps: &Exponents<'_>,
) -> K::Elem {
    k.mul(&mut b, &r2);
    r2.zeroize();
    let x = match *exps {
        Exponents::Windows { width, digits } => window::pow(k, &b, width, digits.len(), |w| digits[w], &mut ()),
        Exponents::Shared { width, exp } => sliding::pow_vartime(k, &b, exp, width, &mut ()),
        Exponents::Chain { count, square } => {
            let mut x = b.clone();
            for _ in 0..count {
                if square {
                    k.sqr(&mut x);
                } else {
                    k.mul(&mut x, &b);
                }
            }
            x
        }
    };
    b.zeroize();
    x
}

impl<W: Vector, const D: usize> Drop for Lanes<W, D> {
    /// The moduli may be secret primes.
    fn drop(&mut self) {
        self.n.iter_mut().for_each(Zeroize::zeroize);
        self.k0.zeroize();
        self.r2.zeroize();
        self.one.zeroize();
    }
}

impl<W: Vector, const D: usize> Lanes<W, D> {
    #[target_feature(enable = "avx512f,avx512vl,avx512ifma")]
    fn new(token: Token, input: &Input<'_>) -> Lanes<W, D> {
        let n = gather::<W, D>(|l, j| input.n[l][j]);
        // SAFETY: this function runs only with AVX-512F, VL and IFMA.
        unsafe {
            let k0 = V(W::load(&input.k0));
            let r2 = gather::<W, D>(|l, j| input.r2[l][j]);
            let one = amm(&r2, &unit(), &n, k0);
            Lanes {
                _token: token,
                n,
                k0,
                r2: Num(r2),
                one: Num(one),
            }
        }
    }
}

impl<W: Vector, const D: usize> Kernel for Lanes<W, D> {
    const LANES: usize = W::LANES;
    type Elem = Num<W, D>;
    type Index = [u64; LANES];

    #[inline(always)]
    fn one(&self) -> Num<W, D> {
        self.one
    }

    #[inline(always)]
    fn mul(&mut self, x: &mut Num<W, D>, y: &Num<W, D>) {
        x.0 = self.product(&x.0, &y.0);
    }

    #[inline(always)]
    fn sqr(&mut self, x: &mut Num<W, D>) {
        x.0 = self.square(&x.0);
    }

    #[inline(always)]
    fn select(&self, out: &mut Num<W, D>, table: &[Num<W, D>], idx: [u64; LANES]) {
        // SAFETY: a `Lanes` is made only with a `Token`.
        unsafe { select_lanes(out, table, idx) }
    }
}

/// Above this many digits the exponentiation calls one copy of the product
/// instead of inlining a copy per call site (measured at 3072 bits, 60
/// digits: the inlined copies were slower).
const INLINE_DIGITS: usize = 40;

impl<W: Vector, const D: usize> Lanes<W, D> {
    /// [`amm`] with this kernel's modulus: inlined for the small classes,
    /// called for the large ones (`D` is a constant: the choice is made at
    /// compile time).
    #[inline(always)]
    fn product(&self, a: &[V<W>; D], b: &[V<W>; D]) -> [V<W>; D] {
        // SAFETY: a `Lanes` is made only with a `Token`.
        unsafe {
            if D <= INLINE_DIGITS {
                amm(a, b, &self.n, self.k0)
            } else {
                amm_called(a, b, &self.n, self.k0)
            }
        }
    }

    /// [`ams`] with this kernel's modulus, inlined or called as
    /// [`Lanes::product`].
    #[inline(always)]
    fn square(&self, a: &[V<W>; D]) -> [V<W>; D] {
        // SAFETY: a `Lanes` is made only with a `Token`.
        unsafe {
            if D <= INLINE_DIGITS {
                ams(a, &self.n, self.k0)
            } else {
                ams_called(a, &self.n, self.k0)
            }
        }
    }
}

/// [`amm`] as one function per class, for the classes above
/// [`INLINE_DIGITS`].
#[target_feature(enable = "avx512f,avx512vl,avx512ifma")]
#[inline(never)]
fn amm_called<W: Vector, const D: usize>(a: &[V<W>; D], b: &[V<W>; D], n: &[V<W>; D], k0: V<W>) -> [V<W>; D] {
    // SAFETY: this function runs only with AVX-512F, VL and IFMA.
    unsafe { amm(a, b, n, k0) }
}

/// [`ams`] as one function per class, for the classes above
/// [`INLINE_DIGITS`].
#[target_feature(enable = "avx512f,avx512vl,avx512ifma")]
#[inline(never)]
fn ams_called<W: Vector, const D: usize>(a: &[V<W>; D], n: &[V<W>; D], k0: V<W>) -> [V<W>; D] {
    // SAFETY: this function runs only with AVX-512F, VL and IFMA.
    unsafe { ams(a, n, k0) }
}

/// The kernel layer's select, compiled here with AVX-512 (the lane
/// operations inline into it).
#[target_feature(enable = "avx512f,avx512vl,avx512ifma")]
fn select_lanes<W: Vector, const D: usize>(out: &mut Num<W, D>, table: &[Num<W, D>], idx: [u64; LANES]) {
    // SAFETY: this function runs only with AVX-512F, VL and IFMA.
    select::select(&mut out.0, table, V(unsafe { W::load(&idx) }));
}

/// `out := x·R^-1 mod n`, fully reduced (`MonPro(x, 1)`, then the kernel
/// layer's final subtraction), stored digit-major.
#[target_feature(enable = "avx512f,avx512vl,avx512ifma")]
fn leave<W: Vector, const D: usize>(k: &Lanes<W, D>, x: &mut Num<W, D>, out: &mut [[u64; LANES]; D]) {
    // SAFETY: this function runs only with AVX-512F, VL and IFMA.
    unsafe { reduce_out(amm(&x.0, &unit(), &k.n, k.k0), &k.n, out) }
}

/// The end of every IFMA kernel: `y < 2n`, digit `j` of each lane's number
/// in vector `j` (the horizontal kernels lay theirs out so first), brought
/// below `n` by the kernel layer's final subtraction and stored
/// digit-major in `out`; `y` and the difference wiped.
///
/// # Safety
///
/// The CPU must have AVX-512F, VL and IFMA.
#[inline(always)]
unsafe fn reduce_out<W: Vector, const D: usize>(mut y: [V<W>; D], n: &[V<W>; D], out: &mut [[u64; LANES]; D]) {
    let mut reduced = [V::zero(); D];
    sub_if_not_less(&NoMeter, &mut reduced, &y, V::zero(), n);
    for (j, v) in reduced.iter().enumerate() {
        // SAFETY: the caller's contract.
        out[j] = unsafe { v.0.store() };
    }
    y.zeroize();
    reduced.zeroize();
}

/// The number 1 in every lane, as `D` digits.
#[inline(always)]
unsafe fn unit<W: Vector, const D: usize>() -> [V<W>; D] {
    let mut u = [V::zero(); D];
    // SAFETY: the caller's contract: the CPU has AVX-512F, VL and IFMA.
    u[0] = V(unsafe { W::splat(1) });
    u
}

/// `D` vectors whose vector `j` holds `digit(l, j)` in lane `l`.
#[target_feature(enable = "avx512f,avx512vl,avx512ifma")]
fn gather<W: Vector, const D: usize>(digit: impl Fn(usize, usize) -> u64) -> [V<W>; D] {
    // SAFETY: this function runs only with AVX-512F, VL and IFMA.
    core::array::from_fn(|j| {
        V(unsafe { W::load(&core::array::from_fn(|l| if l < W::LANES { digit(l, j) } else { 0 })) })
    })
}
