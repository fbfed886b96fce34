//! The private operation RSADP / RSASP1 (RFC 8017 §5.1.2) for a batch of
//! inputs on the engine, in five steps, each one engine call or one
//! parallel pass:
//!
//! 1. blinding: a fresh uniform `r` per input and `c' = c·r^e mod n`, the
//!    `r^e` of the whole batch as ONE public-exponent engine batch; the
//!    `r^-1` by Montgomery's batch-inversion trick, with one variable-time
//!    inversion per batch whose input is a uniformly random unit — or, when
//!    the CRT jobs of step 2 fill at most half of the lanes (a batch of one
//!    on IFMA), by Fermat, `(r mod r_i)^(r_i - 2) mod r_i`, as more lane jobs
//!    of step 2 (idle lanes cost nothing) recombined like the halves;
//! 2. CRT halves: `(c' mod r_i)^(d mod (r_i - 1)) mod r_i` for every input
//!    and every prime as separate lane jobs of ONE secret engine batch (the
//!    bound `exp_bits` is the public length of `r_i`): the halves of one
//!    operation are lanes of one group, eight lanes hold four two-prime
//!    operations, and a batch of one runs its halves side by side;
//! 3. Garner's recombination ([`crate::crt::recombine`]);
//! 4. the check `y^e = c' (mod n)` of every result as ONE public-exponent
//!    engine batch (the Bellcore fault attack): a mismatch is
//!    [`Error::FaultDetected`] for that input, and nothing is released;
//! 5. unblinding, `m = y·r^-1 mod n`, after checking `r·r^-1 = 1`.
//!
//! Every value is a [`SecretNat`] or a [`Residue`] modulo `n`; the glue
//! (reductions, products, Garner) runs on the same 64-bit kernels as the
//! exponentiations. [`CrtMode::Fdfm`] and [`CrtMode::Plain`] (comparison
//! modes) replace steps 2 and 3 by their scalar code. An input that is not
//! below `n` gets [`Error::OutOfRange`] and leaves the others alone.

use super::{fail_all, in_range, on_ok, pow_e};
use crate::Num;
use crate::crt::{self, CrtMode};
use crate::error::{Error, Result};
use crate::key::{N, RsaPrivateKey, RsaPublicKey};
use rand_core::CryptoRngCore;
use rayon::prelude::*;
use redc::{Domain, Engine, EngineError, PowJob, Residue, SecretNat};
use subtle::ConstantTimeEq;

/// The private batch of the module documentation, with `mode`'s way of
/// combining the primes.
pub(crate) fn private_batch(
    engine: &Engine,
    key: &RsaPrivateKey,
    inputs: &[Num],
    mode: CrtMode,
    rng: &mut impl CryptoRngCore,
) -> Vec<Result<SecretNat>> {
    let public = key.public_key();
    let blinded = on_ok(in_range(public.n(), inputs), |cs| {
        // When the CRT jobs fill at most half of the lanes (a batch of one
        // on IFMA), r^-1 comes from Fermat in the idle lanes, for free;
        // otherwise from one batch inversion.
        let in_lanes = mode == CrtMode::Garner && 2 * cs.len() * key.primes().len() <= engine.lanes();
        blind(engine, public, &cs, !in_lanes, rng)
    });
    let raw = on_ok(blinded, |ops| match mode {
        CrtMode::Garner => halves(engine, key, ops),
        CrtMode::Fdfm => ops
            .into_par_iter()
            .map(|mut op| {
                op.y = crt::fdfm(key, &op.x)?;
                Ok(op)
            })
            .collect(),
        CrtMode::Plain => ops
            .into_par_iter()
            .map(|mut op| {
                op.y = crt::plain(key, &op.x);
                Ok(op)
            })
            .collect(),
    });
    let checked = on_ok(raw, |ops| check(engine, public, ops));
    let n = public.domain();
    on_ok(checked, |ops| ops.into_par_iter().map(|op| unblind(n, &op)).collect())
}

/// One private operation in flight.
struct Op {
    /// The blinding factor `r`, uniform in `[1, n)`.
    r: SecretNat,
    /// `r^-1 mod n` in Montgomery form: from the batch inversion, or (while
    /// `None`) still to come from the CRT lanes.
    r_inv: Option<Residue<N>>,
    /// The blinded input `c' = c·r^e mod n`.
    x: SecretNat,
    /// `c'^d mod n` once computed (zero before).
    y: SecretNat,
}

/// Step 1: blind every input `c < n` with a fresh `r`; with `invert`, find
/// every `r^-1` too (one batch inversion).
fn blind(
    engine: &Engine,
    public: &RsaPublicKey,
    cs: &[&Num],
    invert: bool,
    rng: &mut impl CryptoRngCore,
) -> Vec<Result<Op>> {
    let n = match public.prepared(engine) {
        Ok(n) => n,
        Err(e) => return fail_all(cs.len(), &e),
    };
    let (rs, inverses) = match draw(public, cs.len(), invert, rng) {
        Ok(drawn) => drawn,
        Err(e) => return fail_all(cs.len(), &e),
    };
    let r_e = pow_e(engine, &n, public.e(), &rs.iter().collect::<Vec<_>>());
    let inverses: Vec<Option<Residue<N>>> = match inverses {
        Some(inverses) => inverses.into_iter().map(Some).collect(),
        None => rs.iter().map(|_| None).collect(),
    };
    let (domain, len) = (public.domain(), public.n().digits().len());
    cs.par_iter()
        .zip(rs)
        .zip(inverses)
        .zip(r_e)
        .map(|(((c, r), r_inv), r_e)| {
            // c·r^e: c < n as a number of n's digit count (checked), r^e in
            // Montgomery form, one product gives the plain product.
            let c = SecretNat::from_nat(c, len).ok_or(Error::OutOfRange)?;
            let x = domain.mul_plain(&c, &domain.enter(&r_e?)).ok_or(Error::FaultDetected)?;
            Ok(Op {
                r,
                r_inv,
                x,
                y: SecretNat::zero(len),
            })
        })
        .collect()
}

/// Blinding factors, and their inverses modulo `n` when drawn together.
type Drawn = (Vec<SecretNat>, Option<Vec<Residue<N>>>);

/// `count` blinding factors `r`, uniform in `[1, n)`, and with `invert`
/// their inverses modulo `n` in Montgomery form.
fn draw(public: &RsaPublicKey, count: usize, invert: bool, rng: &mut impl CryptoRngCore) -> Result<Drawn> {
    let n = public.n();
    let random = |rng: &mut _| SecretNat::random_below(n, rng).map_err(|_| Error::Rng);
    loop {
        let rs = (0..count).map(|_| random(rng)).collect::<Result<Vec<_>>>()?;
        if !invert {
            return Ok((rs, None));
        }
        let a = random(rng)?;
        if let Some(inverses) = invert_all(public, &rs, &a) {
            return Ok((rs, Some(inverses)));
        }
    }
}

/// Montgomery's batch-inversion trick: `r_i^-1 mod n` in Montgomery form
/// for every `r_i` from ONE inversion, of `(r_1···r_k)·a` with `a` uniform
/// and independent, so that the variable-time inversion sees only a
/// uniformly random unit. `None` when that product is not a unit (a
/// random value sharing a prime with `n`: negligible).
fn invert_all(public: &RsaPublicKey, rs: &[SecretNat], a: &SecretNat) -> Option<Vec<Residue<N>>> {
    let n = public.domain();
    let rs: Vec<Residue<N>> = rs.par_iter().map(|r| n.enter(r)).collect();
    // prefix[i] = r_1···r_(i+1), in Montgomery form.
    let mut prefix: Vec<Residue<N>> = Vec::with_capacity(rs.len());
    for r in &rs {
        let next = match prefix.last() {
            Some(p) => n.mul(p, r),
            None => r.clone(),
        };
        prefix.push(next);
    }
    let Some(all) = prefix.last() else {
        return Some(Vec::new());
    };
    let alpha = n.enter(a);
    // The masked product leaves the private path: it is a uniform unit.
    let masked = n.leave(&n.mul(all, &alpha)).reveal();
    let inv = masked.inv_mod(public.n())?;
    let inv = SecretNat::from_nat(&inv, public.n().digits().len())?;
    // (Π r · a)^-1 · a = (Π r)^-1, in Montgomery form.
    let mut acc = n.mul(&n.enter(&inv), &alpha);
    // Walk back: r_i^-1 = (r_1···r_i)^-1 · (r_1···r_(i-1)).
    let mut inverses = Vec::with_capacity(rs.len());
    for i in (1..rs.len()).rev() {
        inverses.push(n.mul(&acc, &prefix[i - 1]));
        acc = n.mul(&acc, &rs[i]);
    }
    inverses.push(acc);
    inverses.reverse();
    Some(inverses)
}

/// Steps 2 and 3 with Garner's formula: every half of every operation in
/// one secret engine batch, then the recombination. An operation still
/// without `r^-1` adds the lane jobs `(r mod p_i)^(p_i - 2) mod p_i`
/// (Fermat) and recombines them into `r^-1 mod n`.
fn halves(engine: &Engine, key: &RsaPrivateKey, ops: Vec<Op>) -> Vec<Result<Op>> {
    let primes = match key.prepared_primes(engine) {
        Ok(p) => p,
        Err(e) => return fail_all(ops.len(), &e),
    };
    let exps = key.crt_exponents();
    let fermat: Vec<SecretNat> = key.primes().iter().map(|p| p.wrapping_sub_small(2)).collect();
    // Per operation: x mod p_i, and r mod p_i while r^-1 is missing.
    let residues: Vec<(Vec<SecretNat>, Vec<SecretNat>)> = ops
        .par_iter()
        .map(|op| {
            let rs = if op.r_inv.is_none() {
                crt::residues(key, &op.r)
            } else {
                Vec::new()
            };
            (crt::residues(key, &op.x), rs)
        })
        .collect();
    let jobs: Vec<PowJob<'_>> = residues
        .iter()
        .flat_map(|(xs, rs)| {
            let x_jobs = xs.iter().zip(&exps).map(|(x, d)| (x, *d));
            let r_jobs = rs.iter().zip(&fermat);
            x_jobs
                .chain(r_jobs)
                .zip(primes.iter().cycle())
                .map(|((base, exp), p)| PowJob {
                    base,
                    exp,
                    // The prime's public bound (`d_i`, `r_i - 2 < r_i`).
                    exp_bits: p.bits(),
                    modulus: p,
                })
        })
        .collect();
    let mut answers = engine.pow(&jobs).into_iter();
    type Halves = core::result::Result<Vec<SecretNat>, EngineError>;
    let per_op: Vec<(Halves, Halves)> = residues
        .iter()
        .map(|(xs, rs)| {
            let ys = answers.by_ref().take(xs.len()).collect();
            (ys, answers.by_ref().take(rs.len()).collect())
        })
        .collect();
    let n = key.public_key().domain();
    ops.into_par_iter()
        .zip(per_op)
        .map(|(mut op, (ys, r_invs))| {
            op.y = crt::recombine(key, &ys?)?;
            let r_invs = r_invs?;
            if !r_invs.is_empty() {
                op.r_inv = Some(n.enter(&crt::recombine(key, &r_invs)?));
            }
            Ok(op)
        })
        .collect()
}

/// Step 4: `y^e mod n` for every result as one public-exponent engine
/// batch; only the results that give back their blinded input go on.
fn check(engine: &Engine, public: &RsaPublicKey, ops: Vec<Op>) -> Vec<Result<Op>> {
    let n = match public.prepared(engine) {
        Ok(n) => n,
        Err(e) => return fail_all(ops.len(), &e),
    };
    let ys: Vec<&SecretNat> = ops.iter().map(|op| &op.y).collect();
    let back = pow_e(engine, &n, public.e(), &ys);
    ops.into_iter()
        .zip(back)
        .map(|(op, back)| match back {
            Ok(x) if bool::from(x.ct_eq(&op.x)) => Ok(op),
            // A wrong result, or one not below n.
            _ => Err(Error::FaultDetected),
        })
        .collect()
}

/// Step 5: `m = y·r^-1 mod n`, one Montgomery product of the plain `y` by
/// `r^-1` in Montgomery form, after checking `r·r^-1 = 1` the same way: a
/// fault in `r^-1` (or an `r` that shares a prime with `n`) would otherwise
/// slip past the check of step 4.
fn unblind(n: &Domain<N>, op: &Op) -> Result<SecretNat> {
    let r_inv = op.r_inv.as_ref().ok_or(Error::FaultDetected)?;
    let one = n.mul_plain(&op.r, r_inv).ok_or(Error::FaultDetected)?;
    if !bool::from(one.ct_eq(&SecretNat::from_limbs(vec![1]))) {
        return Err(Error::FaultDetected);
    }
    n.mul_plain(&op.y, r_inv).ok_or(Error::FaultDetected)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hazmat::rsadp_with;
    use rand_core::OsRng;
    use redc::engine::{backend_names, default_engine};

    #[test]
    fn every_mode_agrees_and_faults_are_caught() {
        let (key, c, expect) = crate::test_key();
        let n = key.public_key().n().clone();
        for mode in [CrtMode::Garner, CrtMode::Fdfm, CrtMode::Plain] {
            let got = rsadp_with(default_engine(), &key, &c, mode, &mut OsRng).unwrap();
            assert_eq!(got.reveal(), expect, "{mode:?}");
        }
        // 001 §4: Zp = q^(p-1) mod M, Zq = p^(q-1) mod M.
        let (p, q) = (key.primes()[0].reveal(), key.primes()[1].reveal());
        let (zp, zq) = key.fdfm_values().unwrap();
        let pm1 = p.checked_sub(&Num::one()).unwrap();
        let qm1 = q.checked_sub(&Num::one()).unwrap();
        let pow = |b: &Num, e: &Num| redc::modpow(b, e, &n, redc::PowOptions::default(), None).unwrap();
        assert_eq!(zp.reveal(), pow(&q, &pm1));
        assert_eq!(zq.reveal(), pow(&p, &qm1));
        // A faulty CRT half (the Bellcore attack) is detected, not released.
        let mut faulty = key;
        let wrong = faulty.crt.p.exp.reveal().add(&Num::one());
        faulty.crt.p.exp = SecretNat::from_nat(&wrong, faulty.crt.p.exp.len()).unwrap();
        assert_eq!(faulty.rsadp(&c, &mut OsRng).err(), Some(Error::FaultDetected));
        let fdfm = rsadp_with(default_engine(), &faulty, &c, CrtMode::Fdfm, &mut OsRng);
        assert_eq!(fdfm.err(), Some(Error::FaultDetected));
        assert_eq!(faulty.rsadp(&n, &mut OsRng).err(), Some(Error::OutOfRange));
        assert!(!format!("{faulty:?}").contains(&faulty.d().reveal().to_dec()[..8]));
        // On every backend, in a batch: every in-range input is caught, the
        // out-of-range one keeps its own error.
        for name in backend_names() {
            let Ok(engine) = Engine::named(name) else { continue };
            let inputs = [c.clone(), n.clone(), Num::from_u64(2), Num::from_u64(3)];
            let got: Vec<_> = crate::rsa_private_batch(&engine, &faulty, &inputs, &mut OsRng)
                .into_iter()
                .map(|r| r.err())
                .collect();
            let want = [
                Some(Error::FaultDetected),
                Some(Error::OutOfRange),
                Some(Error::FaultDetected),
                Some(Error::FaultDetected),
            ];
            assert_eq!(got, want, "{name}");
        }
    }
}
