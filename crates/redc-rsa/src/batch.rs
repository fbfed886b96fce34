//! Batches of RSA primitives on the batch engine ([`redc::Engine`]).

use crate::Num;
use crate::error::Result;
use crate::key::{CrtMode, RsaPrivateKey, RsaPublicKey};
use rand_core::CryptoRngCore;
use redc::Engine;

/// RSADP / RSASP1 for every input, in order (first version: one at a time).
pub fn rsa_private_batch(
    _engine: &Engine,
    key: &RsaPrivateKey,
    inputs: &[Num],
    rng: &mut impl CryptoRngCore,
) -> Vec<Result<Num>> {
    inputs.iter().map(|c| key.rsadp(c, CrtMode::Garner, rng)).collect()
}

/// RSAEP / RSAVP1 for every input, in order (first version: one at a time).
pub fn rsa_public_batch(_engine: &Engine, key: &RsaPublicKey, inputs: &[Num]) -> Vec<Result<Num>> {
    inputs.iter().map(|m| key.rsaep(m)).collect()
}
