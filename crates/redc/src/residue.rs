//! Residues branded by their modulus: the arithmetic of the RSA glue
//! (residues into each prime, Garner's recombination, blinding and
//! unblinding, the FDFM steps of 001_24b3bbce8c558126.txt §4) on the same
//! 64-bit kernels as the engine's exponentiations.
//!
//! A [`Domain<M>`] is a modulus with its kernel constants; a
//! [`Residue<M>`] is a value in its Montgomery form. The brand `M` is a
//! type of the caller's (an empty enum per role, as ring's `Elem<M>`), so
//! mixing residues modulo `p` with residues modulo `q`, or using a residue
//! where a plain number is wanted, does not compile. A brand names a role,
//! not a number: two domains made with the same brand (RSA's primes after
//! the second share one) are not told apart by the compiler, so give each
//! modulus that can meet another a brand of its own.
//!
//! ```compile_fail,E0308
//! use redc::{Domain, Nat, SecretNat};
//! enum P {}
//! enum Q {}
//! let p = Domain::<P>::public(&Nat::from_u64(1009)).unwrap();
//! let q = Domain::<Q>::public(&Nat::from_u64(1013)).unwrap();
//! let x = p.enter(&SecretNat::from_limbs(vec![5]));
//! let y = q.enter(&SecretNat::from_limbs(vec![7]));
//! let _ = p.mul(&x, &y); // a residue modulo q in a product modulo p
//! ```
//!
//! ```compile_fail,E0308
//! use redc::{Domain, Nat, SecretNat};
//! enum P {}
//! let p = Domain::<P>::public(&Nat::from_u64(1009)).unwrap();
//! let x = p.enter(&SecretNat::from_limbs(vec![5]));
//! let plain: SecretNat = p.mul(&x, &x); // still in Montgomery form: p.leave(..) is missing
//! ```
//!
//! Every operation is constant time in the values: the work depends on the
//! digit counts (public) only.

use crate::kernel::scalar::Scalar;
use crate::kernel::size::with_size;
use crate::kernel::{Consts, ModulusError, addsub, sliding, window};
use crate::nat::Nat;
use crate::secret::SecretNat;
use core::marker::PhantomData;
use std::sync::Arc;
use subtle::{Choice, ConstantTimeEq};
use zeroize::Zeroizing;

/// The Montgomery domain of one odd modulus `m >= 3` (secret or public),
/// branded `M`.
pub struct Domain<M> {
    c: Arc<Consts>,
    brand: PhantomData<fn() -> M>,
}

impl<M> Clone for Domain<M> {
    fn clone(&self) -> Self {
        Self {
            c: Arc::clone(&self.c),
            brand: PhantomData,
        }
    }
}

impl<M> core::fmt::Debug for Domain<M> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Domain")
            .field("digits", &self.c.len())
            .finish_non_exhaustive()
    }
}

/// A residue modulo the modulus of a [`Domain<M>`], in Montgomery form
/// (`x·R mod m`, exactly the modulus's digit count). Wiped on drop; `Debug`
/// shows nothing of the value.
pub struct Residue<M> {
    d: Zeroizing<Vec<u64>>,
    brand: PhantomData<fn() -> M>,
}

impl<M> Clone for Residue<M> {
    fn clone(&self) -> Self {
        Self {
            d: self.d.clone(),
            brand: PhantomData,
        }
    }
}

impl<M> core::fmt::Debug for Residue<M> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "Residue({} digits)", self.d.len())
    }
}

impl<M> ConstantTimeEq for Residue<M> {
    fn ct_eq(&self, other: &Self) -> Choice {
        self.d.as_slice().ct_eq(other.d.as_slice())
    }
}

impl<M> Residue<M> {
    fn new(d: Vec<u64>) -> Self {
        Self {
            d: Zeroizing::new(d),
            brand: PhantomData,
        }
    }
}

impl<M> Domain<M> {
    /// The domain of a secret modulus given in exactly its digits (a prime
    /// of a key): constants without division, in constant time.
    pub fn new(m: &SecretNat) -> Result<Self, ModulusError> {
        Ok(Self::from_consts(Arc::new(Consts::new(m.limbs())?)))
    }

    /// The domain of a public modulus.
    pub fn public(m: &Nat<u64>) -> Result<Self, ModulusError> {
        Ok(Self::from_consts(Arc::new(Consts::new(m.digits())?)))
    }

    /// The domain of prepared constants (shared, not recomputed).
    pub fn from_consts(c: Arc<Consts>) -> Self {
        Self { c, brand: PhantomData }
    }

    /// The kernel constants (to prepare the same modulus for the engine).
    pub fn consts(&self) -> &Arc<Consts> {
        &self.c
    }

    /// The modulus's digit count `s` (public).
    pub fn len(&self) -> usize {
        self.c.len()
    }

    /// Always false: a modulus has at least one digit.
    pub fn is_empty(&self) -> bool {
        false
    }

    /// The modulus itself.
    pub fn modulus(&self) -> SecretNat {
        SecretNat::from_limbs(self.c.n().to_vec())
    }

    /// 1 in Montgomery form.
    pub fn one(&self) -> Residue<M> {
        Residue::new(self.c.r1().to_vec())
    }

    /// `x mod m` in Montgomery form, for `x` of any length: Horner's rule
    /// over chunks `c_i` of `s` digits from the top, `acc := acc·R + c_i`,
    /// each chunk entering by one product `MonPro(c_i, R^2 mod m)` (valid
    /// for any `c_i < R`: `c_i·(R^2 mod m) < R·m`) and the accumulator
    /// shifted by the same product. No division and no comparison: the work
    /// depends on `x.len()` and `s` only.
    pub fn enter(&self, x: &SecretNat) -> Residue<M> {
        let s = self.len();
        let chunks = x.len().div_ceil(s).max(1);
        with_size!(s, sz => {
            let mut k = Scalar::new(sz, &self.c);
            let mut acc: Option<Zeroizing<Vec<u64>>> = None;
            for i in (0..chunks).rev() {
                let mut c = Zeroizing::new(vec![0u64; s]);
                for (j, d) in c.iter_mut().enumerate() {
                    *d = x.limbs().get(i * s + j).copied().unwrap_or(0);
                }
                k.enter(&mut c);
                acc = Some(match acc {
                    None => c,
                    Some(mut a) => {
                        k.enter(&mut a);
                        let sum = self.add_digits(&a, &c);
                        Zeroizing::new(sum)
                    }
                });
            }
            Residue::new(acc.map(|a| a.to_vec()).unwrap_or_else(|| vec![0; s]))
        })
    }

    /// `x·R^-k mod m` for a public `x` of `k` blocks of `s` digits (the
    /// last one short, `k >= 1`), fully reduced: Montgomery's reduction
    /// (000 Fig. 3 b) run over every digit of `x`, from the lowest block,
    /// into one accumulator, `acc := (acc + block)·R^-1`. One reduction row
    /// per digit, a quarter of [`Domain::enter`]'s work (two products per
    /// block), for a caller the factor `R^-k` does not disturb: a gcd with
    /// `m` (redc-rsa's check for small factors) or a test for zero.
    /// Variable time in `x`'s length only.
    pub fn fold_public(&self, x: &Nat<u64>) -> Nat<u64> {
        let s = self.len();
        let mut acc = vec![0u64; s];
        with_size!(s, sz => {
            let mut k = Scalar::new(sz, &self.c);
            let mut block = vec![0u64; s];
            for chunk in x.digits().chunks(s) {
                block.fill(0);
                block[..chunk.len()].copy_from_slice(chunk);
                k.fold(&mut acc, &block);
            }
        });
        Nat::from_digits(acc)
    }

    /// The plain value `x·R^-1 mod m` (`MonPro(x, 1)`), fully reduced, in `s` digits.
    pub fn leave(&self, x: &Residue<M>) -> SecretNat {
        let mut d = x.d.to_vec();
        with_size!(self.len(), sz => Scalar::new(sz, &self.c).leave(&mut d));
        SecretNat::from_limbs(d)
    }

    /// `x mod m` as a plain number in `s` digits ([`Domain::enter`], then out).
    pub fn reduce(&self, x: &SecretNat) -> SecretNat {
        self.leave(&self.enter(x))
    }

    /// `a·b` (Montgomery product: `MonPro(aR, bR) = abR`).
    pub fn mul(&self, a: &Residue<M>, b: &Residue<M>) -> Residue<M> {
        let mut x = a.clone();
        self.mul_assign(&mut x, b);
        x
    }

    /// `a := a·b`, in place (no allocation).
    pub fn mul_assign(&self, a: &mut Residue<M>, b: &Residue<M>) {
        with_size!(self.len(), sz => Scalar::new(sz, &self.c).mul_digits(&mut a.d, &b.d));
    }

    /// The 64×64-bit multiplications of one [`Domain::mul_assign`] and one
    /// [`Domain::sqr_assign`] (the same with `mulx` and without): `2s^2 + s`
    /// for the product (`s^2` digit products, `s^2` in the reduction and
    /// one quotient digit per row, as in 000_be478b6750af4540.txt §2.2's
    /// CIOS count) and `1.5·s^2 + 1.5·s` for the squaring (`s(s-1)/2` in
    /// the triangle, `s` on the diagonal, then the same reduction), `s` the
    /// modulus's digit count. For a bench's share of the multiplier's limit.
    pub fn multiplies(&self) -> (usize, usize) {
        let s = self.len();
        (2 * s * s + s, s * (s - 1) / 2 + s + s * s + s)
    }

    /// `a^2`.
    pub fn sqr(&self, a: &Residue<M>) -> Residue<M> {
        let mut x = a.clone();
        self.sqr_assign(&mut x);
        x
    }

    /// `a := a^2`, in place (no allocation).
    pub fn sqr_assign(&self, a: &mut Residue<M>) {
        with_size!(self.len(), sz => Scalar::new(sz, &self.c).sqr_digits(&mut a.d));
    }

    /// `a + b`.
    pub fn add(&self, a: &Residue<M>, b: &Residue<M>) -> Residue<M> {
        Residue::new(self.add_digits(&a.d, &b.d))
    }

    /// `a - b`.
    pub fn sub(&self, a: &Residue<M>, b: &Residue<M>) -> Residue<M> {
        let mut d = vec![0u64; self.len()];
        addsub::sub_mod(&mut d, &a.d, &b.d, self.c.n());
        Residue::new(d)
    }

    /// `a·b mod m` as a plain number, for a plain `a` of at most `s` digits
    /// and `b` in Montgomery form: one product, `MonPro(a, bR) = ab` (valid
    /// for any `a < R`). `None` when `a` has more digits than `m` (a public
    /// length).
    pub fn mul_plain(&self, a: &SecretNat, b: &Residue<M>) -> Option<SecretNat> {
        let mut d = Zeroizing::new(a.limbs().to_vec());
        if d.len() > self.len() {
            return None;
        }
        d.resize(self.len(), 0);
        with_size!(self.len(), sz => Scalar::new(sz, &self.c).mul_digits(&mut d, &b.d));
        Some(SecretNat::from_limbs(d.to_vec()))
    }

    /// `MonPro(a, b) = a·b·R^-1 mod m` of two plain numbers of at most `s`
    /// digits with `a·b < m·R` (both below `m`, say): one product, for a
    /// product of many numbers modulo `m` up to a known power of `R^-1`
    /// (what a gcd with `m` does not see, `R` being a unit). `None` when an
    /// operand has more digits than `m` (public lengths).
    pub fn monpro(&self, a: &SecretNat, b: &SecretNat) -> Option<SecretNat> {
        let s = self.len();
        if a.len() > s || b.len() > s {
            return None;
        }
        let mut d = Zeroizing::new(a.limbs().to_vec());
        d.resize(s, 0);
        let mut e = Zeroizing::new(b.limbs().to_vec());
        e.resize(s, 0);
        with_size!(s, sz => Scalar::new(sz, &self.c).mul_digits(&mut d, &e));
        Some(SecretNat::from_limbs(d.to_vec()))
    }

    /// `base^exp` with fixed windows over the public bound `exp_bits`
    /// ([`window::pow`] on the scalar kernel): constant time in `base` and
    /// `exp`. Pre: `exp < 2^exp_bits` (higher bits are not read).
    pub fn pow(&self, base: &Residue<M>, exp: &SecretNat, exp_bits: usize) -> Residue<M> {
        with_size!(self.len(), sz => {
            let mut k = Scalar::new(sz, &self.c);
            let b = Zeroizing::new(k.load(&base.d));
            let x = Zeroizing::new(window::pow_digits(&mut k, &b, exp.limbs(), exp_bits));
            Residue::new(AsRef::<[u64]>::as_ref(&*x).to_vec())
        })
    }

    /// `base^exp` for a public `exp` (sliding windows, [`sliding::pow_vartime`]):
    /// the time depends on `exp`, not on `base`.
    pub fn pow_vartime(&self, base: &Residue<M>, exp: &Nat<u64>) -> Residue<M> {
        let width = window::default_window(exp.bits());
        with_size!(self.len(), sz => {
            let mut k = Scalar::new(sz, &self.c);
            let b = Zeroizing::new(k.load(&base.d));
            let x = Zeroizing::new(sliding::pow_vartime(&mut k, &b, exp.digits(), width, &mut ()));
            Residue::new(AsRef::<[u64]>::as_ref(&*x).to_vec())
        })
    }

    fn add_digits(&self, a: &[u64], b: &[u64]) -> Vec<u64> {
        let mut d = vec![0u64; self.len()];
        let mut spare = Zeroizing::new(vec![0u64; self.len()]);
        addsub::add_mod(&mut d, a, b, self.c.n(), &mut spare);
        d
    }
}
