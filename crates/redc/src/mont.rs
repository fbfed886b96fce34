//! Montgomery arithmetic modulo an odd `n`.
//!
//! With `s` digits of `w` bits, `R = 2^(sw)` (000_be478b6750af4540.txt §2.1
//! Eq. 5) and `n0' = -n^-1 mod 2^w` (Eq. 6, low digit only, §3.1), the
//! Montgomery product is `MonPro(a, b) = a·b·R^-1 mod n` (000 Fig. 2).
//! [`Modulus`] holds `n`, `n0'`, `R mod n` and `R^2 mod n`; [`MontElem`] is a
//! residue in Montgomery form `x·R mod n`, so a plain number cannot be
//! multiplied by mistake; [`Multiplier`] runs one of the six product
//! schedules of [`Product`] with reusable scratch memory and an optional
//! [`Meter`] that counts word operations.

mod cihs;
mod cios;
pub mod counts;
mod fios;
mod fips;
mod radix;
mod rows;
mod sos;

pub use crate::kernel::ModulusError;
pub use crate::kernel::meter::{self, Meter, NoMeter, OpCounts};

use crate::kernel::{Kernel, addsub, consts, select, subtract};
use crate::nat::{Nat, limbs};
use crate::word::Word;
use subtle::Choice;
use zeroize::Zeroize;

/// The word schedule of the Montgomery product (000 §2.2 after Koç, Acar and
/// Kaliski; 001 Alg. 1). All six give bit-identical results.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Product {
    /// Separated Operand Scanning (000 Fig. 3).
    Sos,
    /// Coarsely Integrated Operand Scanning — the default.
    #[default]
    Cios,
    /// Finely Integrated Operand Scanning (not constant-time, see its module).
    Fios,
    /// Finely Integrated Product Scanning.
    Fips,
    /// Coarsely Integrated Hybrid Scanning.
    Cihs,
    /// Digit-serial radix-2^r form of 001 Alg. 1, with `r = w`.
    Radix,
}

impl Product {
    /// Every schedule, in the order of 000 §2.2, then the radix form.
    pub const ALL: [Product; 6] = [
        Product::Sos,
        Product::Cios,
        Product::Fios,
        Product::Fips,
        Product::Cihs,
        Product::Radix,
    ];

    /// The short lower-case name used on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Product::Sos => "sos",
            Product::Cios => "cios",
            Product::Fios => "fios",
            Product::Fips => "fips",
            Product::Cihs => "cihs",
            Product::Radix => "radix",
        }
    }

    /// One line saying what the schedule is, with its source (the help of
    /// `redc modexp --product`).
    pub fn describe(self) -> &'static str {
        match self {
            Product::Sos => "Separated Operand Scanning (Koç, Acar, Kaliski; the dataflow RSA paper 000, Fig. 3)",
            Product::Cios => "Coarsely Integrated Operand Scanning",
            Product::Fios => "Finely Integrated Operand Scanning",
            Product::Fips => "Finely Integrated Product Scanning",
            Product::Cihs => "Coarsely Integrated Hybrid Scanning",
            Product::Radix => "Radix-2^w digit-serial form (Ito, Nakano, Song, 001 Alg. 1)",
        }
    }

    /// Does the schedule run in time independent of the operand values?
    /// Only FIOS, whose `ADD(t[j+1], C)` ripples a carry, does not.
    pub fn is_constant_time(self) -> bool {
        self != Product::Fios
    }

    /// Scratch digits the schedule itself needs for `s`-digit operands (its
    /// working space in Koç's analysis; [`Product::mont_mul`] wants `s`
    /// more, for the result before the final subtraction).
    pub fn scratch_len<W: Word>(self, s: usize) -> usize {
        match self {
            Product::Sos => sos::scratch_len(s),
            Product::Cios => cios::scratch_len(s),
            Product::Fios => fios::scratch_len(s),
            Product::Fips => fips::scratch_len::<W>(s),
            Product::Cihs => cihs::scratch_len::<W>(s),
            Product::Radix => radix::scratch_len(s),
        }
    }

    /// `out := a·b·R^-1 mod n` by this schedule.
    ///
    /// Pre: `out`, `a`, `b`, `n` have `s >= 1` digits; `a, b < n`; `n` odd;
    /// `n0 = -n^-1 mod 2^w`; `scratch.len() >= self.scratch_len::<W>(s) + s`
    /// (the schedule's working digits, then its result before the final
    /// subtraction).
    /// Post: `out < n`. Constant-time (but for FIOS): the final subtraction
    /// ([`subtract::sub_if_not_less`]) is a masked select, not a branch.
    #[allow(clippy::too_many_arguments)]
    pub fn mont_mul<W: Word, M: Meter>(
        self,
        meter: &M,
        out: &mut [W],
        a: &[W],
        b: &[W],
        n: &[W],
        n0: W,
        scratch: &mut [W],
    ) {
        let s = n.len();
        assert!(
            s > 0 && out.len() == s && a.len() == s && b.len() == s && scratch.len() >= self.scratch_len::<W>(s) + s,
            "Product::mont_mul: operands must have the modulus's {s} digits and scratch at least scratch_len(s) + s"
        );
        let (t, u) = scratch.split_at_mut(self.scratch_len::<W>(s));
        let u = &mut u[..s];
        let top = match self {
            Product::Sos => sos::mont_mul(meter, u, a, b, n, n0, t),
            Product::Cios => cios::mont_mul(meter, u, a, b, n, n0, t),
            Product::Fios => fios::mont_mul(meter, u, a, b, n, n0, t),
            Product::Fips => fips::mont_mul(meter, u, a, b, n, n0, t),
            Product::Cihs => cihs::mont_mul(meter, u, a, b, n, n0, t),
            Product::Radix => radix::mont_mul(meter, u, a, b, n, n0, t),
        };
        subtract::sub_if_not_less(meter, out, u, top, n);
    }
}

/// An odd modulus `n >= 3` with its Montgomery constants.
#[derive(Clone, PartialEq, Eq)]
pub struct Modulus<W: Word> {
    n: Vec<W>,
    n0: W,
    r_mod_n: Vec<W>,
    r2_mod_n: Vec<W>,
    bits: usize,
}

impl<W: Word> core::fmt::Debug for Modulus<W> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Modulus")
            .field("n", &Nat::from_digits(self.n.clone()))
            .field("w", &W::BITS)
            .field("s", &self.n.len())
            .finish()
    }
}

impl<W: Word> Modulus<W> {
    /// Precompute `s = ceil(k / w)` (000 Eq. 2), `n0' = -n^-1 mod 2^w`, `R mod n`
    /// and `R^2 mod n` (the constant of 001 Alg. 2), all from the kernel
    /// layer's [`consts`] (no division).
    pub fn new(n: &Nat<W>) -> Result<Self, ModulusError> {
        if n.is_zero() {
            return Err(ModulusError::Zero);
        }
        if n.is_one() {
            return Err(ModulusError::One);
        }
        if !n.is_odd() {
            return Err(ModulusError::Even);
        }
        let s = n.digits().len();
        let sw = s * W::BITS as usize;
        let n64 = n.to_width::<u64>();
        let rem = |k: usize| {
            Nat::<u64>::from_digits(consts::pow2_mod(k, n64.digits()).to_vec())
                .to_width::<W>()
                .to_digits_padded(s)
        };
        Ok(Self {
            n: n.digits().to_vec(),
            n0: n.digits()[0].neg_inv(),
            r_mod_n: rem(sw),
            r2_mod_n: rem(2 * sw),
            bits: n.bits(),
        })
    }

    /// The modulus `n`.
    pub fn value(&self) -> Nat<W> {
        Nat::from_digits(self.n.clone())
    }

    /// The digits of `n` (exactly `s`, the top one non-zero).
    pub fn digits(&self) -> &[W] {
        &self.n
    }

    /// `s`, the number of digits.
    pub fn len(&self) -> usize {
        self.n.len()
    }

    /// Always false: a modulus has at least one digit.
    pub fn is_empty(&self) -> bool {
        false
    }

    /// Bit length `k` of `n`.
    pub fn bits(&self) -> usize {
        self.bits
    }

    /// `n0' = -n^-1 mod 2^w`.
    pub fn n0_inv(&self) -> W {
        self.n0
    }

    /// `R mod n`, which is 1 in Montgomery form.
    pub fn r_mod_n(&self) -> Nat<W> {
        Nat::from_digits(self.r_mod_n.clone())
    }

    /// `R^2 mod n`, the conversion constant into Montgomery form.
    pub fn r2_mod_n(&self) -> Nat<W> {
        Nat::from_digits(self.r2_mod_n.clone())
    }

    /// `a - b mod n` in constant time (both residues of this modulus):
    /// [`addsub::sub_mod`].
    pub fn sub(&self, a: &MontElem<W>, b: &MontElem<W>) -> MontElem<W> {
        let mut d = vec![W::ZERO; self.len()];
        addsub::sub_mod(&mut d, &a.digits, &b.digits, &self.n);
        MontElem { digits: d }
    }

    /// `a + b mod n` in constant time: [`addsub::add_mod`], the sum through
    /// the shared final subtraction.
    pub fn add(&self, a: &MontElem<W>, b: &MontElem<W>) -> MontElem<W> {
        let mut d = vec![W::ZERO; self.len()];
        let mut spare = vec![W::ZERO; self.len()];
        addsub::add_mod(&mut d, &a.digits, &b.digits, &self.n, &mut spare);
        MontElem { digits: d }
    }

    /// 1 in Montgomery form (`R mod n`, 000 Fig. 1 Step 3).
    pub fn one(&self) -> MontElem<W> {
        MontElem {
            digits: self.r_mod_n.clone(),
        }
    }

    /// A multiplier running schedule `product`, without counting.
    pub fn multiplier(&self, product: Product) -> Multiplier<'_, W, NoMeter> {
        self.metered(product, NoMeter)
    }

    /// A multiplier running schedule `product` that reports every word
    /// operation to `meter`.
    pub fn metered<M: Meter>(&self, product: Product, meter: M) -> Multiplier<'_, W, M> {
        let s = self.len();
        Multiplier {
            modulus: self,
            product,
            scratch: vec![W::ZERO; product.scratch_len::<W>(s) + s],
            spare: vec![W::ZERO; s],
            meter,
        }
    }

    /// `x·R mod n` (000 Fig. 1 Step 2): `x` is reduced modulo `n` first
    /// (variable-time division when `x >= n`), then multiplied by `R^2 mod n`.
    pub fn to_mont(&self, x: &Nat<W>, product: Product) -> MontElem<W> {
        self.multiplier(product).to_mont(x)
    }

    /// `x·R^-1 mod n`: the plain value of a Montgomery residue (000 Fig. 1 Step 7).
    pub fn from_mont(&self, x: &MontElem<W>, product: Product) -> Nat<W> {
        self.multiplier(product).from_mont(x)
    }
}

/// A residue `x·R mod n` in Montgomery form: exactly `s` digits, `< n`.
///
/// Made only by a [`Modulus`] or [`Multiplier`], so its value is always
/// reduced; [`Modulus::from_mont`] turns it back into a [`Nat`].
#[derive(Clone, PartialEq, Eq)]
pub struct MontElem<W: Word> {
    digits: Vec<W>,
}

impl<W: Word> MontElem<W> {
    /// The `s` digits of `x·R mod n`.
    pub fn digits(&self) -> &[W] {
        &self.digits
    }

    /// `self := other` if `choice` is set, in constant time.
    pub fn conditional_assign(&mut self, other: &Self, choice: Choice) {
        for (x, y) in self.digits.iter_mut().zip(&other.digits) {
            x.conditional_assign(y, choice);
        }
    }

    /// Swap `a` and `b` if `choice` is set, in constant time.
    pub fn conditional_swap(a: &mut Self, b: &mut Self, choice: Choice) {
        for (x, y) in a.digits.iter_mut().zip(b.digits.iter_mut()) {
            W::conditional_swap(x, y, choice);
        }
    }
}

impl<W: Word> AsRef<[W]> for MontElem<W> {
    fn as_ref(&self) -> &[W] {
        &self.digits
    }
}

impl<W: Word> Zeroize for MontElem<W> {
    /// Overwrite the digits with zeros: the residue 0, still below `n`.
    fn zeroize(&mut self) {
        self.digits.zeroize();
    }
}

impl<W: Word> Drop for MontElem<W> {
    /// Residues may be secret (CRT halves, window tables): wipe on drop.
    fn drop(&mut self) {
        self.digits.zeroize();
    }
}

impl<W: Word> Drop for Modulus<W> {
    /// A modulus may be a secret prime: wipe it and its constants on drop.
    fn drop(&mut self) {
        self.n.zeroize();
        self.n0.zeroize();
        self.r_mod_n.zeroize();
        self.r2_mod_n.zeroize();
    }
}

impl<W: Word, M: Meter> Drop for Multiplier<'_, W, M> {
    /// The scratch holds intermediate digits of the last product.
    fn drop(&mut self) {
        self.scratch.zeroize();
        self.spare.zeroize();
    }
}

impl<W: Word> core::fmt::Debug for MontElem<W> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("MontElem(..)")
    }
}

/// Runs one product schedule modulo one [`Modulus`], reusing its scratch.
pub struct Multiplier<'m, W: Word, M: Meter = NoMeter> {
    modulus: &'m Modulus<W>,
    product: Product,
    scratch: Vec<W>,
    /// The second buffer of an in-place product ([`Kernel::mul`]).
    spare: Vec<W>,
    meter: M,
}

impl<'m, W: Word, M: Meter> Multiplier<'m, W, M> {
    /// The modulus.
    pub fn modulus(&self) -> &'m Modulus<W> {
        self.modulus
    }

    /// The schedule.
    pub fn product(&self) -> Product {
        self.product
    }

    /// The meter (the counts so far, for [`OpCounts`]).
    pub fn meter(&self) -> &M {
        &self.meter
    }

    /// `out := MonPro(a, b) = a·b·R^-1 mod n`.
    pub fn mul_into(&mut self, out: &mut MontElem<W>, a: &MontElem<W>, b: &MontElem<W>) {
        let n = &self.modulus.n;
        self.product.mont_mul(
            &self.meter,
            &mut out.digits,
            &a.digits,
            &b.digits,
            n,
            self.modulus.n0,
            &mut self.scratch,
        );
    }

    /// `MonPro(a, b)` in a new residue.
    pub fn mul(&mut self, a: &MontElem<W>, b: &MontElem<W>) -> MontElem<W> {
        let mut out = self.modulus.one();
        self.mul_into(&mut out, a, b);
        out
    }

    /// `x := MonPro(x, x)`, using `tmp` as the second buffer.
    pub fn square_assign(&mut self, x: &mut MontElem<W>, tmp: &mut MontElem<W>) {
        self.mul_into(tmp, x, x);
        core::mem::swap(x, tmp);
    }

    /// `x := MonPro(x, y)`, using `tmp` as the second buffer.
    pub fn mul_assign(&mut self, x: &mut MontElem<W>, y: &MontElem<W>, tmp: &mut MontElem<W>) {
        self.mul_into(tmp, x, y);
        core::mem::swap(x, tmp);
    }

    /// `x·R mod n` (`x` reduced modulo `n` first).
    pub fn to_mont(&mut self, x: &Nat<W>) -> MontElem<W> {
        let s = self.modulus.len();
        let reduced = if limbs::cmp(x.digits(), &self.modulus.n).is_lt() {
            x.to_digits_padded(s)
        } else {
            x.rem(&self.modulus.value())
                .map(|r| r.to_digits_padded(s))
                .unwrap_or_else(|| vec![W::ZERO; s])
        };
        let xr = MontElem { digits: reduced };
        let r2 = MontElem {
            digits: self.modulus.r2_mod_n.clone(),
        };
        self.mul(&xr, &r2)
    }

    /// The plain value `x·R^-1 mod n`: `MonPro(x, 1)`.
    pub fn from_mont(&mut self, x: &MontElem<W>) -> Nat<W> {
        let mut one = vec![W::ZERO; self.modulus.len()];
        one[0] = W::ONE;
        let one = MontElem { digits: one };
        Nat::from_digits(self.mul(x, &one).digits.clone())
    }
}

impl<W: Word, M: Meter> Kernel for Multiplier<'_, W, M> {
    const LANES: usize = 1;
    type Elem = MontElem<W>;
    type Index = u64;

    fn one(&self) -> MontElem<W> {
        self.modulus.one()
    }

    /// A product into the spare buffer, then a swap: one product, metered
    /// like any other.
    fn mul(&mut self, x: &mut MontElem<W>, y: &MontElem<W>) {
        self.product.mont_mul(
            &self.meter,
            &mut self.spare,
            &x.digits,
            &y.digits,
            &self.modulus.n,
            self.modulus.n0,
            &mut self.scratch,
        );
        core::mem::swap(&mut x.digits, &mut self.spare);
    }

    /// A product of `x` with itself (the schedules have no squaring of their own).
    fn sqr(&mut self, x: &mut MontElem<W>) {
        self.product.mont_mul(
            &self.meter,
            &mut self.spare,
            &x.digits,
            &x.digits,
            &self.modulus.n,
            self.modulus.n0,
            &mut self.scratch,
        );
        core::mem::swap(&mut x.digits, &mut self.spare);
    }

    fn select(&self, out: &mut MontElem<W>, table: &[MontElem<W>], idx: u64) {
        select::select(&mut out.digits, table, idx);
    }
}
