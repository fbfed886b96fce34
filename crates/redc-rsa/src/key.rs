//! RSA keys and the two primitives (RFC 8017 §5.1): the public operation
//! `m^e mod n` and the private operation `c^d mod n` — by CRT over every
//! prime with Garner's formula (the default), by the four steps of
//! 001_24b3bbce8c558126.txt §4 with `Zp = q^(p-1) mod M` and
//! `Zq = p^(q-1) mod M`, or without CRT for comparison.
//!
//! The private operation blinds its input with a fresh random `r^e`, runs in
//! constant time in the secret values (fixed-window exponentiation over the
//! public bit length of each prime, CIOS products, reductions into each
//! prime's Montgomery domain without division or comparison, over the
//! public digit length of `n`), checks its result with the public exponent before releasing it
//! (the Bellcore fault attack), and keeps every secret in memory that is
//! wiped on drop. `Debug` shows only public values.

use crate::Num;
use crate::error::{Error, Result};
use rand_core::CryptoRngCore;
use redc::exp::{sliding, window};
use redc::{Modulus, MontElem, Multiplier, Product, default_window};
use zeroize::Zeroizing;

/// The product schedule of every RSA operation (constant-time).
const PRODUCT: Product = Product::Cios;

/// Smallest and largest modulus redc's RSA accepts, in bits.
pub const MIN_BITS: usize = 512;
/// Largest modulus, in bits.
pub const MAX_BITS: usize = 16384;

/// How the private operation combines its prime halves.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum CrtMode {
    /// Garner's formula with `qInv` (RFC 8017 §5.1.2), over every prime.
    #[default]
    Garner,
    /// The four steps of 001 §4: `Cp, Cq`; `Pp, Pq`; `Sp = Pp·Zp`,
    /// `Sq = Pq·Zq`; `P = (Sp + Sq) mod M`. Two-prime keys only.
    Fdfm,
    /// No CRT: `c^d mod n` (for comparison).
    Plain,
}

/// An RSA public key `(n, e)`.
#[derive(Clone, PartialEq, Eq)]
pub struct RsaPublicKey {
    n: Num,
    e: Num,
    modulus: Modulus<u64>,
}

impl core::fmt::Debug for RsaPublicKey {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("RsaPublicKey")
            .field("bits", &self.n.bits())
            .field("e", &self.e.to_dec())
            .finish()
    }
}

impl RsaPublicKey {
    /// A public key, checked: `n` odd of `MIN_BITS..=MAX_BITS` bits, `e` odd
    /// with `3 <= e < n`.
    pub fn new(n: Num, e: Num) -> Result<Self> {
        let bits = n.bits();
        if !(MIN_BITS..=MAX_BITS).contains(&bits) {
            return Err(Error::InvalidKey(format!(
                "modulus has {bits} bits; redc accepts {MIN_BITS} to {MAX_BITS}"
            )));
        }
        if !n.is_odd() {
            return Err(Error::InvalidKey("modulus is even".into()));
        }
        if e < Num::from_u64(3) || !e.is_odd() || e >= n {
            return Err(Error::InvalidKey(format!(
                "public exponent {} must be odd, at least 3 and less than the modulus",
                if e.bits() <= 64 {
                    e.to_dec()
                } else {
                    format!("of {} bits", e.bits())
                }
            )));
        }
        let modulus = Modulus::new(&n).map_err(|err| Error::InvalidKey(err.to_string()))?;
        Ok(Self { n, e, modulus })
    }

    /// The modulus `n`.
    pub fn n(&self) -> &Num {
        &self.n
    }

    /// The public exponent `e`.
    pub fn e(&self) -> &Num {
        &self.e
    }

    /// The modulus length `k` in bytes.
    pub fn size(&self) -> usize {
        self.n.bits().div_ceil(8)
    }

    /// The modulus length in bits.
    pub fn bits(&self) -> usize {
        self.n.bits()
    }

    /// RSAEP / RSAVP1 (RFC 8017 §5.1.1, §5.2.2): `m^e mod n` for `m < n`.
    pub fn rsaep(&self, m: &Num) -> Result<Num> {
        if *m >= self.n {
            return Err(Error::OutOfRange);
        }
        Ok(self.pow_public(m))
    }

    /// `x^e mod n` for `x < n` (sliding window: `e` is public).
    fn pow_public(&self, x: &Num) -> Num {
        let mut mm = self.modulus.multiplier(PRODUCT);
        let xm = mm.to_mont(x);
        let k = default_window(self.e.bits());
        let y = sliding::pow_vartime(&mut mm, &xm, &self.e, k, None);
        mm.from_mont(&y)
    }

    /// The Montgomery context of `n`.
    pub(crate) fn modulus(&self) -> &Modulus<u64> {
        &self.modulus
    }
}

/// One prime factor with its CRT values, all secret.
struct Factor {
    /// The prime `r_i`.
    prime: Zeroizing<Num>,
    /// Montgomery context of `r_i`.
    modulus: Modulus<u64>,
    /// `d_i = d mod (r_i - 1)`.
    exp: Zeroizing<Num>,
    /// The CRT coefficient: `qInv = q^-1 mod p` for the second prime,
    /// `t_i = (r_1···r_(i-1))^-1 mod r_i` for the others (RFC 8017 §3.2);
    /// unused (zero) for the first prime.
    coeff: Zeroizing<Num>,
}

/// An RSA private key: the public key, `d`, two or more primes with their
/// CRT values, and (two-prime keys) the FDFM values `Zp`, `Zq`.
pub struct RsaPrivateKey {
    public: RsaPublicKey,
    d: Zeroizing<Num>,
    factors: Vec<Factor>,
    /// `(Zp, Zq)` = `(q^(p-1) mod n, p^(q-1) mod n)` for two-prime keys.
    fdfm: Option<(Zeroizing<Num>, Zeroizing<Num>)>,
}

impl core::fmt::Debug for RsaPrivateKey {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("RsaPrivateKey")
            .field("public", &self.public)
            .field("primes", &self.factors.len())
            .finish_non_exhaustive()
    }
}

/// `a·b mod m` for `a, b < m`, in constant time (Montgomery).
fn mul_mod(m: &Modulus<u64>, a: &Num, b: &Num) -> Num {
    let mut mm = m.multiplier(PRODUCT);
    let (am, bm) = (enter(&mut mm, a, m.len()), enter(&mut mm, b, m.len()));
    let p = mm.mul(&am, &bm);
    mm.from_mont(&p)
}

/// `x mod r` in Montgomery form, for a secret `x` of at most `len` digits
/// (a public bound): division-free, comparison-free, and the work depends on
/// `len` only (`Multiplier::reduce_digits_to_mont`).
fn enter(mm: &mut Multiplier<'_, u64>, x: &Num, len: usize) -> MontElem<u64> {
    let digits = Zeroizing::new(x.to_digits_padded(len));
    mm.reduce_digits_to_mont(&digits)
}

impl RsaPrivateKey {
    /// A private key from `n`, `e`, `d` and the primes (two or more, in
    /// RFC 8017 order `p, q, r_3, ...`); the CRT values are computed.
    ///
    /// Checked: the primes multiply to `n`, each is odd and greater than 2,
    /// `e·d ≡ 1 (mod r_i - 1)` for every prime, plus the public-key checks.
    pub fn from_components(n: Num, e: Num, d: Num, primes: Vec<Num>) -> Result<Self> {
        // Secrets are wiped on every path out, the error paths included.
        let d = Zeroizing::new(d);
        let primes = Zeroizing::new(primes);
        let public = RsaPublicKey::new(n, e)?;
        if primes.len() < 2 {
            return Err(Error::InvalidKey("a key needs at least two primes".into()));
        }
        let mut product = Zeroizing::new(Num::one());
        for (i, p) in primes.iter().enumerate() {
            if !p.is_odd() || p.bits() < 2 {
                return Err(Error::InvalidKey(format!(
                    "prime {} is not an odd number above 2",
                    i + 1
                )));
            }
            product = Zeroizing::new(product.mul(p));
        }
        if *product != public.n {
            return Err(Error::InvalidKey(
                "the primes do not multiply to the modulus (p·q != n)".into(),
            ));
        }
        if d.is_zero() || *d >= public.n {
            return Err(Error::InvalidKey("private exponent d is not in 1..n".into()));
        }
        let mut factors = Vec::with_capacity(primes.len());
        let mut prefix = Zeroizing::new(Num::one());
        for (i, p) in primes.iter().cloned().enumerate() {
            let pm1 = Zeroizing::new(p.checked_sub(&Num::one()).unwrap_or_default());
            let exp = Zeroizing::new(d.rem(&pm1).unwrap_or_default());
            if public.e.mul(&exp).rem(&pm1) != Some(Num::one()) {
                return Err(Error::InvalidKey(format!(
                    "wrong private exponent: e·d is not 1 modulo (prime {} - 1)",
                    i + 1
                )));
            }
            // qInv = q^-1 mod p for the second prime; t_i = (r_1···r_(i-1))^-1 mod r_i after.
            let coeff = match i {
                0 => Some(Num::zero()),
                1 => p.inv_mod(&prefix),
                _ => prefix.inv_mod(&p),
            }
            .ok_or_else(|| Error::InvalidKey("two primes are equal or share a factor".into()))?;
            let modulus = Modulus::new(&p).map_err(|err| Error::InvalidKey(format!("prime {}: {err}", i + 1)))?;
            prefix = Zeroizing::new(prefix.mul(&p));
            factors.push(Factor {
                prime: Zeroizing::new(p),
                modulus,
                exp,
                coeff: Zeroizing::new(coeff),
            });
        }
        let fdfm = (factors.len() == 2).then(|| {
            // Zp = q·(q^-1 mod p) = q^(p-1) mod n: ≡ 1 (mod p), ≡ 0 (mod q);
            // Zq = n + 1 - Zp: ≡ 0 (mod p), ≡ 1 (mod q).
            let zp = factors[1].prime.mul(&factors[1].coeff);
            let zq = public.n.add(&Num::one()).checked_sub(&zp).unwrap_or_default();
            (Zeroizing::new(zp), Zeroizing::new(zq))
        });
        Ok(Self {
            public,
            d,
            factors,
            fdfm,
        })
    }

    /// The public key.
    pub fn public_key(&self) -> &RsaPublicKey {
        &self.public
    }

    /// The private exponent `d`.
    pub fn d(&self) -> &Num {
        &self.d
    }

    /// The primes, in RFC 8017 order.
    pub fn primes(&self) -> Vec<&Num> {
        self.factors.iter().map(|f| &*f.prime).collect()
    }

    /// `d mod (r_i - 1)` for each prime.
    pub fn crt_exponents(&self) -> Vec<&Num> {
        self.factors.iter().map(|f| &*f.exp).collect()
    }

    /// The CRT coefficients: `qInv` then `t_3, t_4, ...` (RFC 8017 §3.2).
    pub fn crt_coefficients(&self) -> Vec<&Num> {
        self.factors.iter().skip(1).map(|f| &*f.coeff).collect()
    }

    /// `(Zp, Zq) = (q^(p-1) mod M, p^(q-1) mod M)` of 001 §4, for two-prime keys.
    pub fn fdfm_values(&self) -> Option<(&Num, &Num)> {
        self.fdfm.as_ref().map(|(zp, zq)| (&**zp, &**zq))
    }

    /// RSADP / RSASP1 (RFC 8017 §5.1.2, §5.2.1): `c^d mod n` for `c < n`,
    /// blinded with a fresh `r`, combined as `mode` says, and checked with
    /// the public exponent before it is returned.
    pub fn rsadp(&self, c: &Num, mode: CrtMode, rng: &mut impl CryptoRngCore) -> Result<Num> {
        let n = &self.public.n;
        if *c >= *n {
            return Err(Error::OutOfRange);
        }
        let m = self.public.modulus();
        // Blinding: c' = c·r^e, m = m'·r^-1. r^-1 is computed as a·(r·a)^-1
        // so that the variable-time inversion sees only the uniform r·a.
        let (r, r_inv) = loop {
            let r = random_below(n, rng)?;
            let a = random_below(n, rng)?;
            let ra = mul_mod(m, &r, &a);
            if let Some(inv) = ra.inv_mod(n) {
                break (Zeroizing::new(r), Zeroizing::new(mul_mod(m, &inv, &a)));
            }
        };
        let blinded = Zeroizing::new(mul_mod(m, c, &self.public.pow_public(&r)));
        let out = Zeroizing::new(self.private_op(&blinded, mode)?);
        if self.public.pow_public(&out) != *blinded {
            return Err(Error::FaultDetected);
        }
        Ok(mul_mod(m, &out, &r_inv))
    }

    /// `x^d mod n` for `x < n`, unblinded and unchecked.
    fn private_op(&self, x: &Num, mode: CrtMode) -> Result<Num> {
        match mode {
            CrtMode::Plain => {
                let mut mm = self.public.modulus().multiplier(PRODUCT);
                let xm = enter(&mut mm, x, self.public.modulus().len());
                let bits = self.public.n.bits();
                let y = window::pow(&mut mm, &xm, &self.d, bits, default_window(bits), None);
                Ok(mm.from_mont(&y))
            }
            CrtMode::Garner => Ok(self.garner(x)),
            CrtMode::Fdfm => self.fdfm(x),
        }
    }

    /// Step 1 and 2 of CRT for factor `f`: `(x mod r)^(d mod (r-1)) mod r`,
    /// in Montgomery form, with the factor's multiplier.
    fn half<'a>(f: &'a Factor, x: &Num, len: usize) -> (Multiplier<'a, u64>, MontElem<u64>) {
        let mut mm = f.modulus.multiplier(PRODUCT);
        let xm = enter(&mut mm, x, len);
        let bits = f.prime.bits();
        let y = window::pow(&mut mm, &xm, &f.exp, bits, default_window(bits), None);
        (mm, y)
    }

    /// Garner's recombination over every prime (RFC 8017 §5.1.2 step 2b).
    fn garner(&self, x: &Num) -> Num {
        // Every value entering a prime's Montgomery domain is below n: pad to n's digits.
        let len = self.public.modulus().len();
        let (p, q) = (&self.factors[0], &self.factors[1]);
        let (mut mp, m1) = Self::half(p, x, len);
        let (mut mq, m2) = Self::half(q, x, len);
        let m2 = Zeroizing::new(mq.from_mont(&m2));
        // h = (m1 - m2)·qInv mod p; m = m2 + q·h
        let m2_p = enter(&mut mp, &m2, len);
        let diff = p.modulus.sub(&m1, &m2_p);
        let qinv = enter(&mut mp, &q.coeff, len);
        let hm = mp.mul(&diff, &qinv);
        let h = Zeroizing::new(mp.from_mont(&hm));
        let mut m = Zeroizing::new(m2.add(&q.prime.mul(&h)));
        let mut prefix = Zeroizing::new(p.prime.mul(&q.prime));
        for f in &self.factors[2..] {
            let (mut mr, mi) = Self::half(f, x, len);
            // h = (m_i - m)·t_i mod r_i; m = m + R·h
            let m_r = enter(&mut mr, &m, len);
            let diff = f.modulus.sub(&mi, &m_r);
            let t = enter(&mut mr, &f.coeff, len);
            let hm = mr.mul(&diff, &t);
            let h = Zeroizing::new(mr.from_mont(&hm));
            m = Zeroizing::new(m.add(&prefix.mul(&h)));
            prefix = Zeroizing::new(prefix.mul(&f.prime));
        }
        Num::clone(&m)
    }

    /// The four steps of 001 §4.
    fn fdfm(&self, x: &Num) -> Result<Num> {
        let (zp, zq) = self
            .fdfm
            .as_ref()
            .ok_or_else(|| Error::InvalidParameters("the FDFM steps need a two-prime key".into()))?;
        let len = self.public.modulus().len();
        // Steps 1 and 2: Cp = C mod p, Cq = C mod q; Pp = Cp^Dp mod p, Pq = Cq^Dq mod q.
        let (mut mp, pp) = Self::half(&self.factors[0], x, len);
        let (mut mq, pq) = Self::half(&self.factors[1], x, len);
        let (pp, pq) = (Zeroizing::new(mp.from_mont(&pp)), Zeroizing::new(mq.from_mont(&pq)));
        // Step 3: Sp = Pp·Zp mod M, Sq = Pq·Zq mod M (Montgomery modulo M).
        let m = self.public.modulus();
        let mut mm = m.multiplier(PRODUCT);
        let (ppm, zpm) = (enter(&mut mm, &pp, len), enter(&mut mm, zp, len));
        let (pqm, zqm) = (enter(&mut mm, &pq, len), enter(&mut mm, zq, len));
        let sp = mm.mul(&ppm, &zpm);
        let sq = mm.mul(&pqm, &zqm);
        // Step 4: P = (Sp + Sq) mod M.
        let sum = m.add(&sp, &sq);
        Ok(mm.from_mont(&sum))
    }
}

/// A uniform random number in `[1, n)` (rejection sampling on `bits(n)` bits).
pub(crate) fn random_below(n: &Num, rng: &mut impl CryptoRngCore) -> Result<Num> {
    let bits = n.bits();
    let mut buf = Zeroizing::new(vec![0u8; bits.div_ceil(8)]);
    loop {
        rng.try_fill_bytes(&mut buf).map_err(|_| Error::Rng)?;
        let extra = buf.len() * 8 - bits;
        buf[0] &= 0xff >> extra;
        let x = Num::from_be_bytes(&buf);
        if !x.is_zero() && x < *n {
            return Ok(x);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::keygen::{DEFAULT_E, generate};
    use rand_core::OsRng;

    #[test]
    fn every_mode_agrees_and_faults_are_caught() {
        let key = generate(1024, &Num::from_u64(DEFAULT_E), &|_| {}).unwrap();
        let n = key.public_key().n().clone();
        let c = Num::from_u64(0x1234_5678_9abc_def1);
        let expect = redc::modpow(&c, key.d(), &n, redc::PowOptions::default(), None).unwrap();
        for mode in [CrtMode::Garner, CrtMode::Fdfm, CrtMode::Plain] {
            assert_eq!(key.private_op(&c, mode).unwrap(), expect, "raw {mode:?}");
            assert_eq!(key.rsadp(&c, mode, &mut OsRng).unwrap(), expect, "{mode:?}");
        }
        // 001 §4: Zp = q^(p-1) mod M, Zq = p^(q-1) mod M.
        let (p, q) = (key.primes()[0].clone(), key.primes()[1].clone());
        let (zp, zq) = key.fdfm_values().unwrap();
        let pm1 = p.checked_sub(&Num::one()).unwrap();
        let qm1 = q.checked_sub(&Num::one()).unwrap();
        assert_eq!(
            *zp,
            redc::modpow(&q, &pm1, &n, redc::PowOptions::default(), None).unwrap()
        );
        assert_eq!(
            *zq,
            redc::modpow(&p, &qm1, &n, redc::PowOptions::default(), None).unwrap()
        );
        // A faulty CRT half (the Bellcore attack) is detected, not released.
        let mut faulty = key;
        let wrong = faulty.factors[0].exp.add(&Num::one());
        faulty.factors[0].exp = Zeroizing::new(wrong);
        assert_eq!(faulty.rsadp(&c, CrtMode::Garner, &mut OsRng), Err(Error::FaultDetected));
        assert_eq!(faulty.rsadp(&c, CrtMode::Fdfm, &mut OsRng), Err(Error::FaultDetected));
        assert_eq!(faulty.rsadp(&n, CrtMode::Garner, &mut OsRng), Err(Error::OutOfRange));
        assert!(!format!("{faulty:?}").contains(&faulty.d().to_dec()[..8]));
    }

    #[test]
    fn inconsistent_keys_are_rejected() {
        let key = generate(1024, &Num::from_u64(3), &|_| {}).unwrap();
        let (n, e, d) = (
            key.public_key().n().clone(),
            key.public_key().e().clone(),
            key.d().clone(),
        );
        let (p, q) = (key.primes()[0].clone(), key.primes()[1].clone());
        let err = |r: Result<RsaPrivateKey>| r.unwrap_err().to_string();
        let bad_q = q.add(&Num::from_u64(2));
        assert!(
            err(RsaPrivateKey::from_components(
                n.clone(),
                e.clone(),
                d.clone(),
                vec![p.clone(), bad_q]
            ))
            .contains("p·q != n")
        );
        let bad_d = d.add(&Num::from_u64(2));
        assert!(
            err(RsaPrivateKey::from_components(
                n.clone(),
                e.clone(),
                bad_d,
                vec![p.clone(), q.clone()]
            ))
            .contains("private exponent")
        );
        assert!(
            err(RsaPrivateKey::from_components(
                n.clone(),
                Num::one(),
                d.clone(),
                vec![p.clone(), q.clone()]
            ))
            .contains("public exponent")
        );
        let even = n.add(&Num::one());
        assert!(err(RsaPrivateKey::from_components(even, e, d, vec![p, q])).contains("even"));
    }
}
