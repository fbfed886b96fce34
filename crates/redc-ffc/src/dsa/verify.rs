//! Verification (FIPS 186-4 §4.7): `0 < r, s < q`, `w = s^-1 mod q`,
//! `u1 = z w`, `u2 = r w mod q`, `v = (g^u1 y^u2 mod p) mod q`, accepted when
//! `v = r`. Everything here is public: `g^u1` comes from the parameters'
//! fixed-base table (one product a window, on every core), and every
//! signature's `y^u2` runs in one public-exponent engine batch (lanes of the
//! IFMA kernels filled across signatures and keys).

use super::{DsaPublicKey, Signature};
use crate::Num;
use rayon::prelude::*;
use redc::{Engine, Prepared, PublicExpJob};
use std::sync::Arc;

/// `(u1, u2)` of a signature, `None` when `r` or `s` is out of range.
fn exponents(key: &DsaPublicKey, digest: &[u8], sig: &Signature) -> Option<(Num, Num)> {
    let q = key.params.q();
    if sig.r.is_zero() || sig.s.is_zero() || sig.r >= *q || sig.s >= *q {
        return None;
    }
    let w = sig.s.inv_mod(q)?;
    let z = key.params.digest_int(digest);
    let u1 = z.mul(&w).rem(q)?;
    let u2 = sig.r.mul(&w).rem(q)?;
    Some((u1, u2))
}

/// Whether each `(key, digest, signature)` verifies, in order. The digest
/// is the message's hash, truncated to N bits here; keys and their
/// parameters may differ from item to item.
pub fn verify_batch(engine: &Engine, items: &[(&DsaPublicKey, &[u8], &Signature)]) -> Vec<bool> {
    let exps: Vec<Option<(Num, Num)>> = items
        .par_iter()
        .map(|(key, digest, sig)| exponents(key, digest, sig))
        .collect();
    // One prepared p per distinct parameter set (kept with the parameters).
    let mut moduli: Vec<(&Num, Arc<Prepared>)> = Vec::new();
    let mut class = Vec::with_capacity(items.len());
    for (key, _, _) in items {
        let p = key.params.p();
        let index = moduli.iter().position(|(m, _)| *m == p).unwrap_or_else(|| {
            moduli.push((p, key.params.modulus_p().prepare(engine)));
            moduli.len() - 1
        });
        class.push(index);
    }
    // g^u1 from the table, on every core.
    let g_powers: Vec<Option<redc::Residue<crate::ModP>>> = items
        .par_iter()
        .zip(&exps)
        .map(|((key, _, _), e)| {
            let (u1, _) = e.as_ref()?;
            key.params.fixed_g().pow(key.params.modulus_p().domain(), u1)
        })
        .collect();
    let mut slots = Vec::new();
    let mut jobs: Vec<PublicExpJob<'_, Num>> = Vec::new();
    for (i, ((key, _, _), e)) in items.iter().zip(&exps).enumerate() {
        let (Some((_, u2)), Some(_)) = (e, &g_powers[i]) else {
            continue;
        };
        jobs.push(PublicExpJob {
            base: &key.y,
            exp: u2,
            modulus: &moduli[class[i]].1,
        });
        slots.push(i);
    }
    let powers = engine.pow_vartime(&jobs);
    let mut ok = vec![false; items.len()];
    let checked: Vec<(usize, bool)> = slots
        .par_iter()
        .zip(powers.par_iter())
        .map(|(&i, y_power)| {
            let (key, _, sig) = items[i];
            let (Ok(y_power), Some(g_power)) = (y_power, &g_powers[i]) else {
                return (i, false);
            };
            // A plain y^u2 times g^u1 in Montgomery form: the plain product mod p.
            let v = key
                .params
                .modulus_p()
                .domain()
                .mul_plain(y_power, g_power)
                .and_then(|v| v.reveal().rem(key.params.q()));
            (i, v.is_some_and(|v| v == sig.r))
        })
        .collect();
    for (i, good) in checked {
        ok[i] = good;
    }
    ok
}
