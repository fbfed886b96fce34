//! The one-lane kernel on 64-bit digits: the product and squaring of
//! [`super::adx`] where the CPU has `mulx`, `adcx` and `adox` (chosen once
//! per kernel, at run time), else the portable FIOS product of
//! [`super::fios`] and squaring of [`super::sqr`]; the shared select; for
//! one modulus's [`Consts`]. The scalar backend of the engine,
//! the RSA glue and Miller–Rabin run on it (the modulus constants, made
//! before a `Consts` exists, call the product and squaring directly).

use super::consts::Consts;
use super::size::Size;
use super::{Kernel, fios, select, sqr};
use zeroize::Zeroize;

#[cfg(target_arch = "x86_64")]
use super::adx::Adx;

/// Products modulo one [`Consts`] with `S` digits, and their `2s`-digit
/// scratch (wiped on drop).
pub(crate) struct Scalar<'a, S: Size> {
    sz: S,
    c: &'a Consts,
    t: S::Wide,
    /// The `mulx`/`adx` kernels, where the CPU has them.
    #[cfg(target_arch = "x86_64")]
    adx: Option<Adx>,
}

impl<S: Size> Drop for Scalar<'_, S> {
    fn drop(&mut self) {
        self.t.zeroize();
    }
}

impl<'a, S: Size> Scalar<'a, S> {
    /// Pre: `sz.len() == c.len()`.
    pub(crate) fn new(sz: S, c: &'a Consts) -> Self {
        debug_assert_eq!(sz.len(), c.len());
        Scalar {
            sz,
            c,
            t: sz.wide(),
            #[cfg(target_arch = "x86_64")]
            adx: Adx::detect(),
        }
    }

    /// `x := x·b·R^-1 mod n` on digit slices of at least `s` digits.
    /// Pre: `x·b < n·R` (for instance `x < R` and `b < n`). Post: `x < n`.
    #[inline(always)]
    pub(crate) fn mul_digits(&mut self, x: &mut [u64], b: &[u64]) {
        let (n, n0, t) = (self.c.n(), self.c.n0(), S::wide_mut(&mut self.t));
        #[cfg(target_arch = "x86_64")]
        if let Some(adx) = self.adx {
            return adx.mont_mul(self.sz, x, b, n, n0, t);
        }
        fios::mont_mul(self.sz, x, b, n, n0, t);
    }

    /// `x := x^2·R^-1 mod n`. Pre: `x < n`. Post: `x < n`.
    #[inline(always)]
    pub(crate) fn sqr_digits(&mut self, x: &mut [u64]) {
        let (n, n0, t) = (self.c.n(), self.c.n0(), S::wide_mut(&mut self.t));
        #[cfg(target_arch = "x86_64")]
        if let Some(adx) = self.adx {
            return adx.mont_sqr(self.sz, x, n, n0, t);
        }
        sqr::mont_sqr(self.sz, x, n, n0, t);
    }

    /// `acc := (acc + block)·R^-1 mod n`: one Montgomery reduction (000
    /// Fig. 3 b) of the sum, `s` rows of `s` multiply-adds, half a product.
    /// Pre: `acc < n` and `block < R`, `s` digits each (then the sum is below
    /// `n·R` and the reduction below `2n`). Post: `acc < n`.
    pub(crate) fn fold(&mut self, acc: &mut [u64], block: &[u64]) {
        let s = self.sz.len();
        let (n, n0, t) = (self.c.n(), self.c.n0(), S::wide_mut(&mut self.t));
        let t = &mut t[..2 * s];
        t.fill(0);
        let mut carry = 0u64;
        for j in 0..s {
            let w = u128::from(acc[j]) + u128::from(block[j]) + u128::from(carry);
            t[j] = w as u64;
            carry = (w >> 64) as u64;
        }
        t[s] = carry;
        #[cfg(target_arch = "x86_64")]
        let hi = match self.adx {
            Some(adx) => adx.reduce(t, n, n0),
            None => fios::reduce(t, n, n0),
        };
        #[cfg(not(target_arch = "x86_64"))]
        let hi = fios::reduce(t, n, n0);
        super::subtract::sub_if_not_less(&super::meter::NoMeter, &mut acc[..s], &t[s..], hi, n);
    }

    /// The same kernel on the portable product and squaring only, to test
    /// them where the `mulx`/`adx` ones would be chosen.
    #[cfg(test)]
    #[cfg_attr(not(target_arch = "x86_64"), expect(unused_mut))]
    pub(crate) fn portable(sz: S, c: &'a Consts) -> Self {
        let mut k = Self::new(sz, c);
        #[cfg(target_arch = "x86_64")]
        {
            k.adx = None;
        }
        k
    }

    /// The digits `d` (at most `s`) as a residue buffer.
    pub(crate) fn load(&self, d: &[u64]) -> S::Buf {
        let mut x = self.sz.buf();
        x.as_mut()[..d.len()].copy_from_slice(d);
        x
    }

    /// `x := x·R mod n` (000 Fig. 1 Step 2): `MonPro(x, R^2 mod n)`.
    /// Pre: `x < R` (any `s` digits: `x·(R^2 mod n) < R·n`).
    pub(crate) fn enter(&mut self, x: &mut [u64]) {
        let c = self.c;
        self.mul_digits(x, c.r2());
    }

    /// `x := x·R^-1 mod n`, fully reduced (000 Fig. 1 Step 7): `MonPro(x, 1)`.
    pub(crate) fn leave(&mut self, x: &mut [u64]) {
        let mut unit = self.sz.buf();
        unit.as_mut()[0] = 1;
        self.mul_digits(x, unit.as_ref());
    }
}

impl<S: Size> Kernel for Scalar<'_, S> {
    const LANES: usize = 1;
    type Elem = S::Buf;
    type Index = u64;

    fn one(&self) -> S::Buf {
        self.load(self.c.r1())
    }

    #[inline(always)]
    fn mul(&mut self, x: &mut S::Buf, y: &S::Buf) {
        self.mul_digits(x.as_mut(), y.as_ref());
    }

    #[inline(always)]
    fn sqr(&mut self, x: &mut S::Buf) {
        self.sqr_digits(x.as_mut());
    }

    fn select(&self, out: &mut S::Buf, table: &[S::Buf], idx: u64) {
        select::select(out.as_mut(), table, idx);
    }
}
