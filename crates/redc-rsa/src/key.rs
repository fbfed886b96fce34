//! RSA keys (RFC 8017 §3): the numbers, their validation, and the values
//! prepared for the kernels and the engine. The operations on keys live in
//! [`crate::primitive`] (RSAEP/RSADP) and the `crt` module (the CRT steps).
//!
//! Every private value is a [`SecretNat`] of a public length (its
//! modulus's digit count): `d`, the primes, `d mod (r_i - 1)`, the CRT
//! coefficients and the FDFM values; each prime carries its Montgomery
//! [`Domain`], branded by its role (`P`, `Q`, `R` for the primes after the
//! second, `N` for the modulus), so a residue modulo `p` cannot meet one
//! modulo `q`. `Debug` shows only public values. Loading a key (the checks
//! below, `d mod (r_i - 1)`, the coefficients) uses variable-time
//! arithmetic once; every operation afterwards runs in constant time in
//! the secrets.

use crate::Num;
use crate::blinding::Blinding;
use crate::error::{Error, Result};
use crate::policy::SecurityLevel;
use crate::pss_key::KeyAlgorithm;
pub(crate) use crate::role::{N, P, Q, R};
use redc::engine::EngineCache;
use redc::{Domain, Engine, Prepared, Residue, SecretNat};
use std::sync::Arc;
use zeroize::Zeroizing;

/// Smallest and largest modulus redc's RSA accepts, in bits.
pub const MIN_BITS: usize = 512;
/// Largest modulus, in bits.
pub const MAX_BITS: usize = 16384;

/// An RSA public key `(n, e)`.
#[derive(Clone)]
pub struct RsaPublicKey {
    n: Num,
    e: Num,
    /// What the key may be used for ([`crate::policy`]).
    level: SecurityLevel,
    /// Which schemes may use it ([`crate::pss_key`]).
    algorithm: KeyAlgorithm,
    domain: Domain<N>,
    /// `n` prepared for each engine used.
    prepared: EngineCache<Prepared>,
}

impl PartialEq for RsaPublicKey {
    /// Keys are equal when their numbers are (the rest is derived from
    /// them, or is policy: the security level).
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
    /// A public key, checked: `n` odd of `MIN_BITS..=MAX_BITS` bits without
    /// a prime factor below [`crate::weak::TRIAL_BOUND`], neither prime nor
    /// a perfect power ([`crate::weak::structure`]), `e` odd with
    /// `3 <= e < n`. Its security level is [`SecurityLevel::DEFAULT`].
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
        if let Some(p) = crate::weak::small_factor(&n) {
            return Err(Error::InvalidKey(format!("modulus has the small prime factor {p}")));
        }
        if let Some(why) = crate::weak::structure(&n) {
            return Err(Error::InvalidKey(why));
        }
        let domain = Domain::public(&n).map_err(|err| Error::InvalidKey(err.to_string()))?;
        Ok(Self {
            n,
            e,
            level: SecurityLevel::DEFAULT,
            algorithm: KeyAlgorithm::Rsa,
            domain,
            prepared: EngineCache::default(),
        })
    }

    /// Which schemes may use the key: any (`rsaEncryption`, the default)
    /// or PSS only (`id-RSASSA-PSS`, as read from a key file of that
    /// algorithm), restricted or not.
    pub fn algorithm(&self) -> KeyAlgorithm {
        self.algorithm
    }

    /// The key as a key of `algorithm` (e.g. an RSASSA-PSS key with a
    /// restriction, to write as such).
    pub fn with_algorithm(mut self, algorithm: KeyAlgorithm) -> Self {
        self.algorithm = algorithm;
        self
    }

    /// The key's security level ([`SecurityLevel::DEFAULT`] unless set):
    /// public operations refuse a modulus below its minimum.
    pub fn security_level(&self) -> SecurityLevel {
        self.level
    }

    /// The key at security level `level` (relaxed or tightened).
    pub fn with_security_level(mut self, level: SecurityLevel) -> Self {
        self.level = level;
        self
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

    /// The Montgomery domain of `n`.
    pub(crate) fn domain(&self) -> &Domain<N> {
        &self.domain
    }

    /// `n` prepared for `engine` (once per engine configuration, then shared).
    pub(crate) fn prepared(&self, engine: &Engine) -> Arc<Prepared> {
        self.prepared
            .get(engine, || engine.prepare_consts(self.domain.consts(), self.n.bits()))
    }
}

/// One prime with its CRT exponent, all secret, in the prime's own length.
pub(crate) struct Prime<M> {
    /// The prime `r_i`.
    pub(crate) value: SecretNat,
    /// Its Montgomery domain.
    pub(crate) domain: Domain<M>,
    /// `d_i = d mod (r_i - 1)`.
    pub(crate) exp: SecretNat,
    /// `r_i - 2`, the exponent of an inversion by Fermat.
    pub(crate) fermat: SecretNat,
    /// A public bound on the prime's bit length (see [`prime_bounds`]).
    pub(crate) bound: usize,
}

impl<M> Clone for Prime<M> {
    fn clone(&self) -> Self {
        Self {
            value: self.value.clone(),
            domain: self.domain.clone(),
            exp: self.exp.clone(),
            fermat: self.fermat.clone(),
            bound: self.bound,
        }
    }
}

impl<M> Prime<M> {
    /// The public bound on `d_i`'s length (`d_i < r_i`): the prime's bound.
    pub(crate) fn exp_bits(&self) -> usize {
        self.bound
    }
}

/// A public bound on each prime's bit length, from public numbers only:
/// `n`'s bit length and the primes' digit counts. Since `r_i = n / Π r_j`
/// (`j ≠ i`) and `r_j >= 2^(64(len_j - 1))`, `r_i < 2^(bits(n) - Σ 64(len_j - 1))`;
/// and `r_i < 2^(64 len_i)`. The smaller of the two: no secret's bit length
/// is read, and a 1025-bit prime of a 2050-bit key is bounded by 1026, not
/// by its 17 digits' 1088 (which would cost windows and an IFMA class).
fn prime_bounds(n_bits: usize, lens: &[usize]) -> Vec<usize> {
    let low: usize = lens.iter().map(|&l| 64 * (l - 1)).sum();
    lens.iter()
        .map(|&l| (n_bits + 64 * (l - 1)).saturating_sub(low).min(64 * l))
        .collect()
}

/// A prime after the second with its CRT coefficient
/// `t_i = (r_1···r_(i-1))^-1 mod r_i` (RFC 8017 §3.2), in its own domain.
#[derive(Clone)]
pub(crate) struct Other {
    pub(crate) prime: Prime<R>,
    pub(crate) coeff: SecretNat,
    pub(crate) coeff_mont: Residue<R>,
}

/// An RSA private key: the public key, `d`, two or more primes with their
/// CRT values, and (two-prime keys) the FDFM values `Zp`, `Zq`.
#[derive(Clone)]
pub struct RsaPrivateKey {
    public: RsaPublicKey,
    d: SecretNat,
    /// The primes and their CRT values (boxed: a key is moved around).
    pub(crate) crt: Box<CrtValues>,
    /// The primes prepared for each engine used, in order.
    prepared: EngineCache<Vec<Prepared>>,
    /// The blinding chain of the private operation.
    pub(crate) blinding: Blinding,
}

/// The primes of a private key with their CRT values.
#[derive(Clone)]
pub(crate) struct CrtValues {
    pub(crate) p: Prime<P>,
    pub(crate) q: Prime<Q>,
    /// `qInv = q^-1 mod p`, as stored in a key file.
    pub(crate) q_inv: SecretNat,
    /// `qInv` in the Montgomery form of `p`, where Garner's formula uses it.
    pub(crate) q_inv_mont: Residue<P>,
    pub(crate) others: Vec<Other>,
    /// `(Zp, Zq)` = `(q^(p-1) mod n, p^(q-1) mod n)` for two-prime keys.
    pub(crate) fdfm: Option<(SecretNat, SecretNat)>,
}

impl core::fmt::Debug for RsaPrivateKey {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("RsaPrivateKey")
            .field("public", &self.public)
            .field("primes", &(2 + self.crt.others.len()))
            .finish_non_exhaustive()
    }
}

/// `x` as a secret in `len` digits (it fits: checked by the caller).
fn secret(x: &Num, len: usize) -> Result<SecretNat> {
    SecretNat::from_nat(x, len).ok_or_else(|| Error::InvalidKey("a key value is longer than its modulus".into()))
}

/// A prime with its CRT exponent, in the prime's digit count, and its
/// public bound.
fn prime<M>(p: &Num, exp: &Num, i: usize, bound: usize) -> Result<Prime<M>> {
    let value = secret(p, p.digits().len())?;
    let domain = Domain::new(&value).map_err(|err| Error::InvalidKey(format!("prime {}: {err}", i + 1)))?;
    crate::weak::check_fermat(i, &value, &domain, bound)?;
    Ok(Prime {
        exp: secret(exp, value.len())?,
        fermat: value.wrapping_sub_small(2),
        value,
        domain,
        bound,
    })
}

/// `x mod m` in Montgomery form, for a secret `x` whose length is public.
fn residue<M>(domain: &Domain<M>, x: &Num) -> Residue<M> {
    domain.enter(&SecretNat::from_nat(x, x.digits().len()).unwrap_or_default())
}

impl RsaPrivateKey {
    /// A private key from `n`, `e`, `d` and the primes (two or more, in
    /// RFC 8017 order `p, q, r_3, ...`); the CRT values are computed. The
    /// given numbers are wiped once converted.
    ///
    /// Checked: the primes multiply to `n`, each is odd and greater than 2,
    /// has at least half its share of `n`'s bits and passes a Fermat test,
    /// `e·d ≡ 1 (mod r_i - 1)` for every prime, plus the public-key checks
    /// (no prime factor below `2^16`): [`crate::weak`].
    pub fn from_components(n: Num, e: Num, d: Num, primes: Vec<Num>) -> Result<Self> {
        // Secrets are wiped on every path out, the error paths included.
        let (d, primes) = (Zeroizing::new(d), Zeroizing::new(primes));
        Self::with_public(RsaPublicKey::new(n, e)?, &d, &primes)
    }

    /// [`RsaPrivateKey::from_components`] for a public key already checked
    /// (a key file's reader checks it first, to bound its work); the
    /// caller wipes `d` and the primes.
    pub(crate) fn with_public(public: RsaPublicKey, d: &Num, primes: &[Num]) -> Result<Self> {
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
        for (i, p) in primes.iter().enumerate() {
            crate::weak::check_prime_size(i, p.bits(), primes.len(), public.n.bits())?;
        }
        if d.is_zero() || *d >= public.n {
            return Err(Error::InvalidKey("private exponent d is not in 1..n".into()));
        }
        let mut exps = Vec::with_capacity(primes.len());
        for (i, p) in primes.iter().enumerate() {
            let pm1 = Zeroizing::new(p.checked_sub(&Num::one()).unwrap_or_default());
            let exp = Zeroizing::new(d.rem(&pm1).unwrap_or_default());
            let ed = Zeroizing::new(public.e.mul(&exp));
            if ed.rem(&pm1) != Some(Num::one()) {
                return Err(Error::InvalidKey(format!(
                    "wrong private exponent: e·d is not 1 modulo (prime {} - 1)",
                    i + 1
                )));
            }
            exps.push(exp);
        }
        let shared = || Error::InvalidKey("two primes are equal or share a factor".into());
        let lens: Vec<usize> = primes.iter().map(|p| p.digits().len()).collect();
        let bounds = prime_bounds(public.n.bits(), &lens);
        let p: Prime<P> = prime(&primes[0], &exps[0], 0, bounds[0])?;
        let q: Prime<Q> = prime(&primes[1], &exps[1], 1, bounds[1])?;
        // qInv = q^-1 mod p; t_i = (r_1···r_(i-1))^-1 mod r_i after.
        let q_inv = Zeroizing::new(primes[1].inv_mod(&primes[0]).ok_or_else(shared)?);
        let q_inv_mont = residue(&p.domain, &q_inv);
        let mut prefix = Zeroizing::new(primes[0].mul(&primes[1]));
        let mut others = Vec::with_capacity(primes.len() - 2);
        for (i, (r, exp)) in primes.iter().zip(&exps).enumerate().skip(2) {
            let t = Zeroizing::new(prefix.inv_mod(r).ok_or_else(shared)?);
            let prime: Prime<R> = prime(r, exp, i, bounds[i])?;
            others.push(Other {
                coeff_mont: residue(&prime.domain, &t),
                coeff: secret(&t, prime.value.len())?,
                prime,
            });
            prefix = Zeroizing::new(prefix.mul(r));
        }
        let fdfm = if others.is_empty() {
            // Zp = q·(q^-1 mod p) = q^(p-1) mod n: ≡ 1 (mod p), ≡ 0 (mod q);
            // Zq = n + 1 - Zp: ≡ 0 (mod p), ≡ 1 (mod q).
            let zp = Zeroizing::new(primes[1].mul(&q_inv));
            let zq = Zeroizing::new(public.n.add(&Num::one()).checked_sub(&zp).unwrap_or_default());
            let len = public.n.digits().len();
            Some((secret(&zp, len)?, secret(&zq, len)?))
        } else {
            None
        };
        Ok(Self {
            d: secret(d, public.n.digits().len())?,
            crt: Box::new(CrtValues {
                q_inv: secret(&q_inv, p.value.len())?,
                p,
                q,
                q_inv_mont,
                others,
                fdfm,
            }),
            public,
            prepared: EngineCache::default(),
            blinding: Blinding::default(),
        })
    }

    /// The public key.
    pub fn public_key(&self) -> &RsaPublicKey {
        &self.public
    }

    /// The key's security level ([`SecurityLevel::DEFAULT`] unless set):
    /// private operations refuse a modulus below its minimum or more
    /// primes than it allows, public ones follow the public key's rule.
    pub fn security_level(&self) -> SecurityLevel {
        self.public.level
    }

    /// The key at security level `level` (relaxed or tightened), its
    /// public key too.
    pub fn with_security_level(mut self, level: SecurityLevel) -> Self {
        self.public.level = level;
        self
    }

    /// The key as a key of `algorithm`, its public key too
    /// ([`RsaPublicKey::with_algorithm`]).
    pub fn with_algorithm(mut self, algorithm: KeyAlgorithm) -> Self {
        self.public.algorithm = algorithm;
        self
    }

    /// Whether the key's level allows private operations with it.
    pub(crate) fn check_policy(&self) -> Result<()> {
        self.public
            .level
            .check_rsa_private(self.public.n.bits(), 2 + self.crt.others.len())
            .map_err(Error::from)
    }

    /// The private exponent `d`, in `n`'s digit count.
    pub fn d(&self) -> &SecretNat {
        &self.d
    }

    /// The primes, in RFC 8017 order, each in its own digit count.
    pub fn primes(&self) -> Vec<&SecretNat> {
        let c = &self.crt;
        let others = c.others.iter().map(|o| &o.prime.value);
        [&c.p.value, &c.q.value].into_iter().chain(others).collect()
    }

    /// `d mod (r_i - 1)` for each prime.
    pub fn crt_exponents(&self) -> Vec<&SecretNat> {
        let c = &self.crt;
        let others = c.others.iter().map(|o| &o.prime.exp);
        [&c.p.exp, &c.q.exp].into_iter().chain(others).collect()
    }

    /// `r_i - 2` for each prime: the exponents of inversions by Fermat.
    pub(crate) fn fermat_exponents(&self) -> Vec<&SecretNat> {
        let c = &self.crt;
        let others = c.others.iter().map(|o| &o.prime.fermat);
        [&c.p.fermat, &c.q.fermat].into_iter().chain(others).collect()
    }

    /// The CRT coefficients: `qInv` then `t_3, t_4, ...` (RFC 8017 §3.2).
    pub fn crt_coefficients(&self) -> Vec<&SecretNat> {
        let c = &self.crt;
        core::iter::once(&c.q_inv)
            .chain(c.others.iter().map(|o| &o.coeff))
            .collect()
    }

    /// `(Zp, Zq) = (q^(p-1) mod M, p^(q-1) mod M)` of
    /// 001_24b3bbce8c558126.txt §4, for two-prime keys.
    pub fn fdfm_values(&self) -> Option<(&SecretNat, &SecretNat)> {
        self.crt.fdfm.as_ref().map(|(zp, zq)| (zp, zq))
    }

    /// The primes prepared for `engine`, in order (once per engine
    /// configuration, then shared; the kernel constants are the domains').
    pub(crate) fn prepared_primes(&self, engine: &Engine) -> Arc<Vec<Prepared>> {
        let c = &self.crt;
        self.prepared.get(engine, || {
            let mut out = vec![
                engine.prepare_consts(c.p.domain.consts(), c.p.exp_bits()),
                engine.prepare_consts(c.q.domain.consts(), c.q.exp_bits()),
            ];
            out.extend(
                c.others
                    .iter()
                    .map(|o| engine.prepare_consts(o.prime.domain.consts(), o.prime.exp_bits())),
            );
            out
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::keygen::generate;

    /// The public bounds hold every prime, and are the primes' own sizes
    /// for balanced keys.
    #[test]
    fn prime_bounds_hold_the_primes() {
        assert_eq!(prime_bounds(2048, &[16, 16]), [1024, 1024]);
        assert_eq!(prime_bounds(2050, &[17, 17]), [1026, 1026]);
        assert_eq!(prime_bounds(3072, &[24, 24]), [1536, 1536]);
        // Unbalanced: 640 and 1408 bits (10 and 22 digits).
        assert_eq!(prime_bounds(2048, &[10, 22]), [640, 1408]);
        // Three primes of 512 bits.
        assert_eq!(prime_bounds(1536, &[8, 8, 8]), [512, 512, 512]);
        let key = generate(1024, &Num::from_u64(65537), &|_| {}).unwrap();
        for p in [&key.crt.p.value, &key.crt.q.value] {
            assert!(p.reveal().bits() <= key.crt.p.bound.max(key.crt.q.bound));
        }
    }

    #[test]
    fn inconsistent_keys_are_rejected() {
        let key = generate(1024, &Num::from_u64(3), &|_| {}).unwrap();
        let (n, e, d) = (
            key.public_key().n().clone(),
            key.public_key().e().clone(),
            key.d().reveal(),
        );
        let (p, q) = (key.primes()[0].reveal(), key.primes()[1].reveal());
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
