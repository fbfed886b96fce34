//! Signing (FIPS 186-4 §4.6): `r = (g^k mod p) mod q`, `s = k^-1 (z + x r)
//! mod q`, with `k` from [`super::Nonce`]. `g^k` runs on the engine's
//! constant-time path over `N` bits; `k^-1` is Fermat's `k^(q-2)` and the
//! rest Montgomery products modulo `q`, all constant time in `x` and `k`.
//! A batch signs many digests with one key: every `g^k` in one engine call.
//! A signature made with a deterministic nonce is checked before release
//! (module `check`: a fault there would give `x` away).

use super::check;
use super::nonce::Nonces;
use super::{DsaParams, DsaPrivateKey, Nonce, Signature};
use crate::error::{Error, Result};
use crate::{HashAlg, Num};
use rand_core::CryptoRngCore;
use rayon::prelude::*;
use redc::secret::declassify;
use redc::{Engine, PowJob, SecretNat};
use redc_pki::fault::{self, Stage};
use zeroize::Zeroizing;

/// The random bytes of a hedged nonce (RFC 6979 §3.6's `k'`).
const HEDGE_BYTES: usize = 32;

/// `g^k mod p` for each `k` (secrets below `2^N`), on the default engine.
pub(super) fn g_pow(params: &DsaParams, ks: &[&SecretNat]) -> Vec<Result<SecretNat>> {
    g_pow_on(redc::engine::default_engine(), params, ks)
}

fn g_pow_on(engine: &Engine, params: &DsaParams, ks: &[&SecretNat]) -> Vec<Result<SecretNat>> {
    let p = params.modulus_p();
    let prepared = p.prepare(engine);
    let Some(g) = p.base(params.g()) else {
        return ks
            .iter()
            .map(|_| Err(Error::InvalidParameters("g is not below p".into())))
            .collect();
    };
    let jobs: Vec<PowJob<'_>> = ks
        .iter()
        .map(|k| PowJob {
            base: &g,
            exp: k,
            exp_bits: params.q().bits(),
            modulus: &prepared,
        })
        .collect();
    engine.pow(&jobs).into_iter().map(|r| r.map_err(Error::from)).collect()
}

/// `s = k^-1 (z + x r) mod q`, constant time in `k` and `x`; `None` when
/// `s = 0` (revealed, as a retry is).
fn s_value(key: &DsaPrivateKey, k: &SecretNat, r: &Num, z: &Num) -> Option<Num> {
    let params = key.params();
    let q = params.modulus_q();
    let d = q.domain();
    let public = |v: &Num| SecretNat::from_nat(&v.rem(q.n())?, q.len());
    let (r, z) = (public(r)?, public(z)?);
    let q_minus_2 = q.n().checked_sub(&Num::from_u64(2))?;
    let k_inv = d.pow_vartime(&d.enter(k), &q_minus_2);
    let xr = d.mul(&d.enter(&key.x), &d.enter(&r));
    let sum = d.add(&xr, &d.enter(&z));
    let s = d.leave(&d.mul(&k_inv, &sum));
    if declassify(s.ct_is_zero()) {
        return None;
    }
    Some(s.into_revealed())
}

/// Signs each digest (made with `hash`) with `key`, in order: the nonces
/// drawn (RFC 6979, hedged or random), every `g^k` as one engine batch, then each
/// `s` on every core. A candidate `k` giving `r = 0` or `s = 0` is replaced
/// by the next one (RFC 6979 §3.4), in another batch.
///
/// # Errors
///
/// Per slot: [`Error::UnsupportedHash`] for a hash other than SHA-1 and
/// SHA-2 (deterministic and hedged nonces); [`Error::FaultDetected`] for a
/// deterministic signature that failed its check; [`Error::Engine`];
/// [`Error::Rng`].
pub fn sign_batch(
    engine: &Engine,
    key: &DsaPrivateKey,
    hash: HashAlg,
    digests: &[&[u8]],
    nonce: Nonce,
    rng: &mut impl CryptoRngCore,
) -> Vec<Result<Signature>> {
    let params = key.params();
    if let Err(e) = crate::check_level(key.security_level(), "DSA signing", params.sizes().0) {
        fault::disarm();
        return digests.iter().map(|_| Err(e.clone())).collect();
    }
    // A hedged nonce's additional data, drawn in order in one call.
    let extra_len = if nonce == Nonce::Hedged { HEDGE_BYTES } else { 0 };
    let mut extra = Zeroizing::new(vec![0u8; extra_len * digests.len()]);
    if rng.try_fill_bytes(&mut extra).is_err() {
        fault::disarm();
        return digests.iter().map(|_| Err(Error::Rng)).collect();
    }
    let mut nonces: Vec<Result<Nonces>> = digests
        .par_iter()
        .enumerate()
        .map(|(i, digest)| {
            let extra = &extra[i * extra_len..(i + 1) * extra_len];
            Nonces::new(nonce, params, hash, &key.x, digest, extra)
        })
        .collect();
    let mut results: Vec<Option<Result<Signature>>> = nonces
        .iter()
        .map(|n| n.as_ref().err().map(|e| Err(e.clone())))
        .collect();
    // How many candidates each slot's nonce sequence has given.
    let mut drawn = vec![0usize; digests.len()];
    while results.iter().any(Option::is_none) {
        let pending: Vec<usize> = (0..digests.len()).filter(|&i| results[i].is_none()).collect();
        let mut ks = Vec::with_capacity(pending.len());
        for &i in &pending {
            let Some(Ok(n)) = nonces.get_mut(i) else { continue };
            drawn[i] += 1;
            // (A test's fault is armed on this thread.)
            ks.push(n.next(params, rng).map(|k| match fault::strikes(Stage::DsaNonce, i) {
                true => fault::flip(&k),
                false => k,
            }));
        }
        let refs: Vec<&SecretNat> = ks.iter().filter_map(|k| k.as_ref().ok()).collect();
        let mut powers = g_pow_on(engine, params, &refs).into_iter();
        // g^k mod p leaves the constant-time path here: r, its residue mod
        // q, is published, and g^k reveals no more of k than r does (the
        // discrete logarithm). k stays secret.
        let staged: Vec<(usize, Result<(&SecretNat, Num)>)> = pending
            .iter()
            .zip(&ks)
            .map(|(&i, k)| {
                let staged = match k {
                    Err(e) => Err(e.clone()),
                    Ok(k) => powers.next().unwrap_or(Err(Error::Rng)).map(|gk| {
                        let gk = match fault::strikes(Stage::DsaPower, i) {
                            true => fault::flip(&gk),
                            false => gk,
                        };
                        (k, gk.into_revealed())
                    }),
                };
                (i, staged)
            })
            .collect();
        let done: Vec<(usize, Option<Result<Signature>>)> = staged
            .into_par_iter()
            .map(|(i, staged)| {
                let outcome = match staged {
                    Err(e) => Some(Err(e)),
                    Ok((k, gk)) => finish(key, k, &gk, &params.digest_int(digests[i])).map(Ok),
                };
                (i, outcome)
            })
            .collect();
        for (i, mut outcome) in done {
            if let Some(Ok(sig)) = &mut outcome
                && fault::strikes(Stage::DsaS, i)
            {
                sig.s = fault::flip_public(&sig.s);
            }
            if outcome.is_some() {
                results[i] = outcome;
            }
        }
    }
    let mut results: Vec<Result<Signature>> = results.into_iter().map(|r| r.unwrap_or(Err(Error::Rng))).collect();
    if nonce == Nonce::Deterministic && !fault::checks_skipped() {
        check::before_release(engine, key, hash, digests, &drawn, &mut results);
    }
    fault::disarm();
    results
}

/// `r` and `s` from `g^k mod p`; `None` when either is 0 (retry with the
/// next `k`).
fn finish(key: &DsaPrivateKey, k: &SecretNat, gk: &Num, z: &Num) -> Option<Signature> {
    let r = gk.rem(key.params().q())?;
    if r.is_zero() {
        return None;
    }
    let s = s_value(key, k, &r, z)?;
    Some(Signature { r, s })
}
