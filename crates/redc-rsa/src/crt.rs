//! The Chinese remainder theorem steps of the private operation, on the
//! kernel layer's 64-bit kernels: each input's residues modulo the primes,
//! Garner's recombination over every prime (RFC 8017 §5.1.2 step 2b), and
//! the two comparison forms of `hazmat`: the four steps of
//! 001_24b3bbce8c558126.txt §4 (FDFM) and no CRT at all.
//!
//! Every value is a [`SecretNat`] of a public length or a [`Residue`]
//! branded by its prime; every step runs in constant time in them: no
//! division, no comparison, no length read from a value.

use crate::error::{Error, Result};
use crate::key::{Prime, RsaPrivateKey};
use redc::{Residue, SecretNat};

/// How the private operation combines its prime halves (a switch for
/// comparing the papers' forms, offered by [`crate::hazmat`] and the bench;
/// the schemes always use Garner's formula).
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

/// `x mod r_i` for every prime, each in its prime's digit count, for a
/// secret `x` (of any public length): division-free reductions.
pub(crate) fn residues(key: &RsaPrivateKey, x: &SecretNat) -> Vec<SecretNat> {
    let mut out = vec![key.crt.p.domain.reduce(x), key.crt.q.domain.reduce(x)];
    out.extend(key.crt.others.iter().map(|o| o.prime.domain.reduce(x)));
    out
}

/// Garner's recombination: `m mod n` from the halves `m_i = m mod r_i`
/// (Pre: one per prime, in order, each below its prime), in `n`'s digit
/// count.
///
/// `h = (m_1 - m_2)·qInv mod p`, `m = m_2 + q·h`; then for each later
/// prime `h = (m_i - m)·t_i mod r_i`, `m = m + (r_1···r_(i-1))·h`. The
/// products of whole numbers are schoolbook over the primes' digit counts.
/// Fails with [`Error::FaultDetected`] only if the result does not fit
/// `n` (a corrupted key).
pub(crate) fn recombine(key: &RsaPrivateKey, halves: &[SecretNat]) -> Result<SecretNat> {
    let (p, q) = (&key.crt.p, &key.crt.q);
    let h = garner_step(p, &halves[0], &halves[1], &key.crt.q_inv_mont);
    let mut m = halves[1].add(&q.value.mul(&h));
    let mut prefix = p.value.mul(&q.value);
    for (o, mi) in key.crt.others.iter().zip(&halves[2..]) {
        let h = garner_step(&o.prime, mi, &m, &o.coeff_mont);
        m = m.add(&prefix.mul(&h));
        prefix = prefix.mul(&o.prime.value);
    }
    m.resize(key.public_key().n().digits().len())
        .ok_or(Error::FaultDetected)
}

/// `(a - b)·c mod r` in `r`'s digit count, for `a < r`, `b` of any length
/// and `c` in `r`'s Montgomery form: one step of Garner's formula.
fn garner_step<M>(r: &Prime<M>, a: &SecretNat, b: &SecretNat, c: &Residue<M>) -> SecretNat {
    let d = &r.domain;
    let diff = d.sub(&d.enter(a), &d.enter(b));
    d.leave(&d.mul(&diff, c))
}

/// `x^d mod n` by the four steps of 001 §4 ([`CrtMode::Fdfm`]) for `x < n`:
/// Steps 1–2 `Pp = (x mod p)^dp mod p` and `Pq` (fixed windows over each
/// prime's public length), Step 3 `Sp = Pp·Zp`, `Sq = Pq·Zq` modulo `n`,
/// Step 4 `(Sp + Sq) mod n`.
pub(crate) fn fdfm(key: &RsaPrivateKey, x: &SecretNat) -> Result<SecretNat> {
    let (zp, zq) = key
        .crt
        .fdfm
        .as_ref()
        .ok_or_else(|| Error::InvalidParameters("the FDFM steps need a two-prime key".into()))?;
    let pp = half(&key.crt.p, x);
    let pq = half(&key.crt.q, x);
    let n = key.public_key().domain();
    let sp = n.mul(&n.enter(&pp), &n.enter(zp));
    let sq = n.mul(&n.enter(&pq), &n.enter(zq));
    Ok(n.leave(&n.add(&sp, &sq)))
}

/// `x^d mod n` without CRT ([`CrtMode::Plain`]): fixed windows over the
/// public length of `n`.
pub(crate) fn plain(key: &RsaPrivateKey, x: &SecretNat) -> SecretNat {
    let n = key.public_key().domain();
    let bits = 64 * n.len();
    n.leave(&n.pow(&n.enter(x), key.d(), bits))
}

/// Steps 1 and 2 of CRT for one prime on the scalar kernels:
/// `(x mod r)^(d mod (r-1)) mod r`.
fn half<M>(r: &Prime<M>, x: &SecretNat) -> SecretNat {
    let d = &r.domain;
    d.leave(&d.pow(&d.enter(x), &r.exp, r.exp_bits()))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every form of the private operation against redc's own modpow, on
    /// the raw (unblinded, unchecked) steps.
    #[test]
    fn every_mode_agrees_raw() {
        let (key, c, expect) = crate::test_key();
        let n = key.public_key().n().clone();
        let cs = SecretNat::from_nat(&c, n.digits().len()).unwrap();
        let halves: Vec<_> = [half(&key.crt.p, &cs), half(&key.crt.q, &cs)].into();
        assert_eq!(recombine(&key, &halves).unwrap().reveal(), expect, "raw Garner");
        assert_eq!(fdfm(&key, &cs).unwrap().reveal(), expect, "raw FDFM");
        assert_eq!(plain(&key, &cs).reveal(), expect, "raw plain");
        let res = residues(&key, &cs);
        assert_eq!(res[0].reveal(), c.rem(&key.primes()[0].reveal()).unwrap());
        assert_eq!(res[1].reveal(), c.rem(&key.primes()[1].reveal()).unwrap());
    }
}
