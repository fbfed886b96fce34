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
//!
//! Both primitives run on the batch engine ([`crate::batch`]): a single
//! operation is a batch of one on [`redc::engine::default_engine`], so
//! `REDC_BACKEND=scalar|ifma` picks the backend for every scheme. Each key
//! prepares its moduli for the engine once per backend and keeps them.

use crate::Num;
use crate::batch::{private_batch, rsa_public_batch};
use crate::error::{Error, Result};
use rand_core::CryptoRngCore;
use redc::engine::default_engine;
use redc::exp::window;
use redc::{Backend, Engine, EngineError, Modulus, MontElem, Multiplier, Prepared, Product, default_window};
use std::sync::{Arc, OnceLock};
use zeroize::Zeroizing;

/// The product schedule of every RSA operation (constant-time).
pub(crate) const PRODUCT: Product = Product::Cios;

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

/// Values prepared for the batch engine, computed on first use and kept,
/// one slot per [`Backend`] (a [`Prepared`] of one backend lacks the other's
/// constants). Cloning shares the prepared values; the last owner's drop
/// wipes them ([`Prepared`] wipes itself).
struct EngineCache<T>([OnceLock<Arc<T>>; 3]);

impl<T> Clone for EngineCache<T> {
    fn clone(&self) -> Self {
        Self(self.0.clone())
    }
}

impl<T> Default for EngineCache<T> {
    fn default() -> Self {
        Self([OnceLock::new(), OnceLock::new(), OnceLock::new()])
    }
}

impl<T> EngineCache<T> {
    /// The value for `engine`'s backend, made by `init` on first use. Two
    /// threads may both run `init` at once; one result is kept.
    fn get(&self, engine: &Engine, init: impl FnOnce() -> core::result::Result<T, EngineError>) -> Result<Arc<T>> {
        let slot = match engine.backend() {
            Backend::Scalar => &self.0[0],
            Backend::Ifma => &self.0[1],
            Backend::Cuda => &self.0[2],
        };
        if let Some(v) = slot.get() {
            return Ok(Arc::clone(v));
        }
        let v = Arc::new(init()?);
        Ok(Arc::clone(slot.get_or_init(|| v)))
    }
}

/// An RSA public key `(n, e)`.
#[derive(Clone)]
pub struct RsaPublicKey {
    n: Num,
    e: Num,
    modulus: Modulus<u64>,
    /// `n` prepared for the engine.
    prepared: EngineCache<Prepared>,
}

impl PartialEq for RsaPublicKey {
    /// Keys are equal when their numbers are (the rest is derived from them).
    fn eq(&self, other: &Self) -> bool {
        self.n == other.n && self.e == other.e
    }
}

impl Eq for RsaPublicKey {}

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
        Ok(Self {
            n,
            e,
            modulus,
            prepared: EngineCache::default(),
        })
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

    /// RSAVP1 for signature verification: like [`RsaPublicKey::rsaep`], but
    /// a signature representative not below `n` is
    /// [`Error::Verification`] (the signature does not verify), while an
    /// engine that cannot run stays an error of its own.
    pub(crate) fn rsavp1(&self, s: &Num) -> Result<Num> {
        self.rsaep(s).map_err(|e| match e {
            Error::OutOfRange => Error::Verification,
            other => other,
        })
    }

    /// RSAEP / RSAVP1 (RFC 8017 §5.1.1, §5.2.2): `m^e mod n` for `m < n`,
    /// as a batch of one on [`default_engine`].
    pub fn rsaep(&self, m: &Num) -> Result<Num> {
        single(rsa_public_batch(&default_engine()?, self, core::slice::from_ref(m)))
    }

    /// The Montgomery context of `n`.
    pub(crate) fn modulus(&self) -> &Modulus<u64> {
        &self.modulus
    }

    /// `n` prepared for `engine` (once per backend, then shared).
    pub(crate) fn prepared(&self, engine: &Engine) -> Result<Arc<Prepared>> {
        self.prepared.get(engine, || engine.prepare(&self.n))
    }
}

/// The one answer of a batch of one.
fn single(answers: Vec<Result<Num>>) -> Result<Num> {
    answers.into_iter().next().expect("a batch answers every input")
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
    /// `coeff` in the Montgomery form of the prime it is used with in
    /// Garner's formula: `qInv` modulo the first prime, `t_i` modulo `r_i`.
    coeff_mont: MontElem<u64>,
}

/// An RSA private key: the public key, `d`, two or more primes with their
/// CRT values, and (two-prime keys) the FDFM values `Zp`, `Zq`.
pub struct RsaPrivateKey {
    public: RsaPublicKey,
    d: Zeroizing<Num>,
    factors: Vec<Factor>,
    /// `(Zp, Zq)` = `(q^(p-1) mod n, p^(q-1) mod n)` for two-prime keys.
    fdfm: Option<(Zeroizing<Num>, Zeroizing<Num>)>,
    /// The primes prepared for the engine, in order.
    prepared: EngineCache<Vec<Prepared>>,
}

impl core::fmt::Debug for RsaPrivateKey {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("RsaPrivateKey")
            .field("public", &self.public)
            .field("primes", &self.factors.len())
            .finish_non_exhaustive()
    }
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
        let mut factors: Vec<Factor> = Vec::with_capacity(primes.len());
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
            let coeff_mont = {
                let domain = if i == 1 { &factors[0].modulus } else { &modulus };
                enter(&mut domain.multiplier(PRODUCT), &coeff, domain.len())
            };
            prefix = Zeroizing::new(prefix.mul(&p));
            factors.push(Factor {
                prime: Zeroizing::new(p),
                modulus,
                exp,
                coeff: Zeroizing::new(coeff),
                coeff_mont,
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
            prepared: EngineCache::default(),
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
    /// the public exponent before it is returned: a batch of one on
    /// [`default_engine`] (see [`crate::batch`]).
    pub fn rsadp(&self, c: &Num, mode: CrtMode, rng: &mut impl CryptoRngCore) -> Result<Num> {
        single(private_batch(
            &default_engine()?,
            self,
            core::slice::from_ref(c),
            mode,
            rng,
        ))
    }

    /// The primes prepared for `engine` (once per backend, then shared).
    pub(crate) fn prepared_primes(&self, engine: &Engine) -> Result<Arc<Vec<Prepared>>> {
        self.prepared.get(engine, || {
            self.factors.iter().map(|f| engine.prepare(&f.prime)).collect()
        })
    }

    /// `x mod r_i` for every prime, for `x < n`: reductions into each
    /// prime's Montgomery domain over the public digit length of `n`, no
    /// division or comparison (key.rs `enter`), then out of it.
    pub(crate) fn residues(&self, x: &Num) -> Vec<Zeroizing<Num>> {
        let len = self.public.modulus().len();
        self.factors
            .iter()
            .map(|f| {
                let mut mm = f.modulus.multiplier(PRODUCT);
                let xm = enter(&mut mm, x, len);
                Zeroizing::new(mm.from_mont(&xm))
            })
            .collect()
    }

    /// `x^d mod n` without CRT, for `x < n` (CrtMode::Plain; scalar
    /// products, fixed windows over the bit length of `n`).
    pub(crate) fn plain(&self, x: &Num) -> Num {
        let mut mm = self.public.modulus().multiplier(PRODUCT);
        let xm = enter(&mut mm, x, self.public.modulus().len());
        let bits = self.public.n.bits();
        let y = window::pow(&mut mm, &xm, &self.d, bits, default_window(bits), None);
        mm.from_mont(&y)
    }

    /// Step 1 and 2 of CRT for factor `f` on the scalar products:
    /// `(x mod r)^(d mod (r-1)) mod r` for `x` of at most `len` digits.
    fn half(f: &Factor, x: &Num, len: usize) -> Zeroizing<Num> {
        let mut mm = f.modulus.multiplier(PRODUCT);
        let xm = enter(&mut mm, x, len);
        let bits = f.prime.bits();
        let y = window::pow(&mut mm, &xm, &f.exp, bits, default_window(bits), None);
        Zeroizing::new(mm.from_mont(&y))
    }

    /// Garner's recombination over every prime (RFC 8017 §5.1.2 step 2b):
    /// `m mod n` from the halves `m_i = m mod r_i` (Pre: one per prime, in
    /// order, each below its prime), in constant time.
    pub(crate) fn recombine(&self, halves: &[Zeroizing<Num>]) -> Num {
        // A value entering a prime's domain is below n: pad to n's digits.
        let len = self.public.modulus().len();
        let (p, q) = (&self.factors[0], &self.factors[1]);
        // h = (m1 - m2)·qInv mod p; m = m2 + q·h
        let mut mp = p.modulus.multiplier(PRODUCT);
        let m1 = enter(&mut mp, &halves[0], p.modulus.len());
        let m2_p = enter(&mut mp, &halves[1], q.modulus.len());
        let diff = p.modulus.sub(&m1, &m2_p);
        let hm = mp.mul(&diff, &q.coeff_mont);
        let h = Zeroizing::new(mp.from_mont(&hm));
        let mut m = Zeroizing::new(halves[1].add(&q.prime.mul(&h)));
        let mut prefix = Zeroizing::new(p.prime.mul(&q.prime));
        for (f, mi) in self.factors[2..].iter().zip(&halves[2..]) {
            // h = (m_i - m)·t_i mod r_i; m = m + R·h
            let mut mr = f.modulus.multiplier(PRODUCT);
            let mi = enter(&mut mr, mi, f.modulus.len());
            let m_r = enter(&mut mr, &m, len);
            let diff = f.modulus.sub(&mi, &m_r);
            let hm = mr.mul(&diff, &f.coeff_mont);
            let h = Zeroizing::new(mr.from_mont(&hm));
            m = Zeroizing::new(m.add(&prefix.mul(&h)));
            prefix = Zeroizing::new(prefix.mul(&f.prime));
        }
        Num::clone(&m)
    }

    /// The four steps of 001 §4 (CrtMode::Fdfm) on the scalar products.
    pub(crate) fn fdfm(&self, x: &Num) -> Result<Num> {
        let (zp, zq) = self
            .fdfm
            .as_ref()
            .ok_or_else(|| Error::InvalidParameters("the FDFM steps need a two-prime key".into()))?;
        let len = self.public.modulus().len();
        // Steps 1 and 2: Cp = C mod p, Cq = C mod q; Pp = Cp^Dp mod p, Pq = Cq^Dq mod q.
        let pp = Self::half(&self.factors[0], x, len);
        let pq = Self::half(&self.factors[1], x, len);
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
        // The unblinded, unchecked steps on the scalar products.
        let len = key.public_key().modulus().len();
        let halves: Vec<_> = key.factors.iter().map(|f| RsaPrivateKey::half(f, &c, len)).collect();
        assert_eq!(key.recombine(&halves), expect, "raw Garner");
        assert_eq!(key.fdfm(&c).unwrap(), expect, "raw FDFM");
        assert_eq!(key.plain(&c), expect, "raw plain");
        for mode in [CrtMode::Garner, CrtMode::Fdfm, CrtMode::Plain] {
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
        // On every backend, in a batch: every in-range input is caught, the
        // out-of-range one keeps its own error.
        for backend in Backend::ALL.into_iter().filter(|b| b.is_available()) {
            let engine = Engine::with_backend(backend).unwrap();
            let inputs = [c.clone(), n.clone(), Num::from_u64(2), Num::from_u64(3)];
            let got = crate::rsa_private_batch(&engine, &faulty, &inputs, &mut OsRng);
            let want = [
                Err(Error::FaultDetected),
                Err(Error::OutOfRange),
                Err(Error::FaultDetected),
                Err(Error::FaultDetected),
            ];
            assert_eq!(got, want, "{}", backend.name());
        }
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
