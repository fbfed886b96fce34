//! The RFC 8017 primitives: the conversions I2OSP and OS2IP (§4), the
//! public operation RSAEP/RSAVP1 (§5.1.1, §5.2.2) and the private
//! operation RSADP/RSASP1 (§5.1.2, §5.2.1), each for one input on the
//! [`default_engine`] or for a batch on any [`Engine`].
//!
//! The private operation blinds its input with a random `r^e` (the key's
//! blinding chain, or a fresh `r`), runs
//! the CRT halves as constant-time engine jobs, recombines them by Garner
//! (module `crt`), checks the result with the public exponent before it
//! is released (the Bellcore fault attack) and returns a [`SecretNat`]: see
//! `primitive/private.rs` for the steps.

pub(crate) mod private;

use crate::Num;
use crate::crt::CrtMode;
use crate::error::{Error, Result};
use crate::fault::{self, Stage};
use crate::key::{RsaPrivateKey, RsaPublicKey};
use rand_core::CryptoRngCore;
use rayon::prelude::*;
use redc::engine::default_engine;
use redc::{Engine, EngineError, JobBase, Prepared, PublicExpJob, SecretNat};
use zeroize::Zeroizing;

/// I2OSP (RFC 8017 §4.1): `x` as exactly `len` big-endian bytes, or
/// [`Error::OutOfRange`] ("integer too large") when `x >= 256^len`.
///
/// Writes every limb of the fixed width `ceil(len/8)` and checks the excess
/// bytes with an OR ([`SecretNat::to_be_bytes`]), so the work does not
/// depend on how many leading zero bytes `x` has (the timing signal of the
/// Marvin attack); the buffers it uses are wiped. `x` is public (a `Num`),
/// and so are its bytes (for the taint check, see `redc::secret::taint`).
pub fn i2osp(x: &Num, len: usize) -> Result<Zeroizing<Vec<u8>>> {
    let x = SecretNat::from_nat(x, len.div_ceil(8)).ok_or(Error::OutOfRange)?;
    let mut bytes = x.to_be_bytes(len).ok_or(Error::OutOfRange)?;
    redc::secret::taint::declassify(&mut bytes[..]);
    Ok(bytes)
}

/// OS2IP (RFC 8017 §4.2): the big-endian bytes as an integer.
pub fn os2ip(bytes: &[u8]) -> Num {
    Num::from_be_bytes(bytes)
}

impl RsaPublicKey {
    /// RSAEP / RSAVP1 (RFC 8017 §5.1.1, §5.2.2): `m^e mod n` for `m < n`,
    /// as a batch of one on [`default_engine`].
    pub fn rsaep(&self, m: &Num) -> Result<Num> {
        single(rsa_public_batch(default_engine(), self, core::slice::from_ref(m)))
    }
}

impl RsaPrivateKey {
    /// RSADP / RSASP1 (RFC 8017 §5.1.2, §5.2.1): `c^d mod n` for `c < n`,
    /// blinded (the key's blinding chain, or a fresh factor on its first use and
    /// every 32nd), by Garner's CRT, and checked with the
    /// public exponent before it is returned: a batch of one on
    /// [`default_engine`] (see the steps in `primitive/private.rs`).
    pub fn rsadp(&self, c: &Num, rng: &mut impl CryptoRngCore) -> Result<SecretNat> {
        single(private::private_batch(
            default_engine(),
            self,
            core::slice::from_ref(c),
            CrtMode::Garner,
            rng,
        ))
    }
}

/// RSADP / RSASP1 (RFC 8017 §5.1.2, §5.2.1) for every input, in order, on
/// `engine`: CRT with Garner's formula over every prime, blinded with a
/// pair `(r^e, r^-1)` per input (the key's chain, then fresh ones),
/// checked with the public exponent (see the steps in `primitive/private.rs`).
/// Each answer is `c^d mod n` in `n`'s digit count, or the error of that input.
pub fn rsa_private_batch(
    engine: &Engine,
    key: &RsaPrivateKey,
    inputs: &[Num],
    rng: &mut impl CryptoRngCore,
) -> Vec<Result<SecretNat>> {
    private::private_batch(engine, key, inputs, CrtMode::Garner, rng)
}

/// RSAEP / RSAVP1 (RFC 8017 §5.1.1, §5.2.2) for every input, in order: ONE
/// engine batch of `m^e mod n` (windows depend on `e` only). An input not
/// below `n` gets [`Error::OutOfRange`].
pub fn rsa_public_batch(engine: &Engine, key: &RsaPublicKey, inputs: &[Num]) -> Vec<Result<Num>> {
    if let Err(e) = key.security_level().check_rsa_public(key.bits()) {
        return fail_all(inputs.len(), &e.into());
    }
    on_ok(in_range(key.n(), inputs), |xs| {
        // The inputs are read in place (the engine's own copies are not
        // wiped; public_scheme wipes the padded messages it passes).
        pow_e(engine, &key.prepared(engine), key.e(), &xs)
            .into_iter()
            .map(|r| r.map(SecretNat::into_revealed).map_err(Error::from))
            .collect()
    })
}

/// `x^e mod n` for every `x < n` as one engine batch with a public
/// exponent: only `e` decides the windows.
pub(crate) fn pow_e<B: JobBase + ?Sized>(
    engine: &Engine,
    n: &Prepared,
    e: &Num,
    xs: &[&B],
) -> Vec<core::result::Result<SecretNat, EngineError>> {
    let jobs: Vec<PublicExpJob<'_, B>> = xs
        .iter()
        .map(|x| PublicExpJob {
            base: *x,
            exp: e,
            modulus: n,
        })
        .collect();
    engine.pow_vartime(&jobs)
}

/// The batch form of a private-key scheme (decryption; signing goes
/// through [`signature_scheme`]) on
/// `engine`: `encode` each item to its representative (an item it refuses
/// keeps its error and skips the primitive), RSADP/RSASP1 on the others as
/// ONE engine batch ([`rsa_private_batch`]: blinded, CRT, checked with
/// `e`), then `finish` each item with its answer or its error. Encoding and
/// finishing run on every core (each is per item; what an encoding needs
/// at random, a PSS salt, the scheme draws before). A scheme's single
/// operation is this with one item on [`default_engine`].
pub(crate) fn private_scheme<T: Sync, U: Send>(
    engine: &Engine,
    key: &RsaPrivateKey,
    items: &[T],
    rng: &mut impl CryptoRngCore,
    encode: impl Fn(&T) -> Result<Num> + Sync,
    finish: impl Fn(&T, Result<SecretNat>) -> Result<U> + Sync,
) -> Vec<Result<U>> {
    let reps = items.par_iter().map(&encode).collect();
    let answers = on_ok(reps, |cs: Vec<Num>| rsa_private_batch(engine, key, &cs, rng));
    items.par_iter().zip(answers).map(|(item, a)| finish(item, a)).collect()
}

/// [`private_scheme`] for a signature scheme (RSASSA-PSS, RSASSA-PKCS1-v1_5):
/// `encode` each item to its representative `EM`, sign them as one batch,
/// then `recheck` each representative that was signed against its item
/// before the signature (`k` bytes) is released. The e-check in the
/// private operation shows `s^e = c` for the copy `c` of the
/// representative it was given; the recheck shows that the representative
/// kept here encodes the item's digest, so a fault in the encoding, or in
/// the kept representative, is [`Error::FaultDetected`] instead of a valid
/// signature of something else. (A fault in the private batch's own copy
/// of its input between the two gives a correct RSA signature of another
/// number: nothing of the key.) Both are public (anyone computes `s^e`);
/// the recheck costs a PSS verification's hashing or a second PKCS#1 v1.5
/// encoding.
pub(crate) fn signature_scheme<T: Sync>(
    engine: &Engine,
    key: &RsaPrivateKey,
    items: &[T],
    rng: &mut impl CryptoRngCore,
    encode: impl Fn(&T) -> Result<Num> + Sync,
    recheck: impl Fn(&T, &Num) -> Result<()> + Sync,
) -> Vec<Result<Vec<u8>>> {
    let k = key.public_key().size();
    let mut reps: Vec<Result<Num>> = items.par_iter().map(&encode).collect();
    // (A test's fault is armed on this thread.)
    for (slot, rep) in reps.iter_mut().enumerate() {
        if let Ok(em) = rep
            && fault::strikes(Stage::Encoding, slot)
        {
            *em = fault::flip_public(em);
        }
    }
    let skipped = fault::checks_skipped();
    let answers = on_ok(reps.clone(), |cs| rsa_private_batch(engine, key, &cs, rng));
    let signatures = items
        .par_iter()
        .zip(reps)
        .zip(answers)
        .map(|((item, rep), s)| {
            // The signature leaves the private path: public from here on.
            let s = s?.into_revealed();
            if !skipped {
                recheck(item, &rep?).map_err(|_| Error::FaultDetected)?;
            }
            Ok(i2osp(&s, k)?.to_vec())
        })
        .collect();
    // When every encoding failed, no private batch ran to disarm a fault.
    fault::disarm();
    signatures
}

/// The batch form of a public-key scheme (encryption, verification) on
/// `engine`: as [`private_scheme`] around RSAEP/RSAVP1
/// ([`rsa_public_batch`]), but `encode` runs in order on the calling
/// thread (an encryption's padding draws from the caller's RNG); `finish`
/// runs on every core. The representatives (an encryption's padded
/// message) are wiped once used.
pub(crate) fn public_scheme<T: Sync, U: Send>(
    engine: &Engine,
    key: &RsaPublicKey,
    items: &[T],
    mut encode: impl FnMut(&T) -> Result<Num>,
    finish: impl Fn(&T, Result<Num>) -> Result<U> + Sync,
) -> Vec<Result<U>> {
    let reps = items.iter().map(&mut encode).collect();
    let answers = on_ok(reps, |mut xs: Vec<Num>| {
        let out = rsa_public_batch(engine, key, &xs);
        xs.iter_mut().for_each(zeroize::Zeroize::zeroize);
        out
    });
    items.par_iter().zip(answers).map(|(item, a)| finish(item, a)).collect()
}

/// RSASSA verification (RFC 8017 §8.1.2, §8.2.2) for every `(digest,
/// signature)`, as one batch on `engine`: `check` the digest (the scheme's
/// parameters; its error is the item's), step 1 (the signature is `k`
/// bytes), step 2 (RSAVP1, `s >= n` invalid, I2OSP to `em_len` bytes),
/// then `compare`, the scheme's step 3, with the digest and `EM`. Every
/// invalid signature is [`Error::Verification`].
pub(crate) fn rsavp1_batch(
    engine: &Engine,
    key: &RsaPublicKey,
    items: &[(Vec<u8>, &[u8])],
    em_len: usize,
    check: impl Fn(&[u8]) -> Result<()>,
    compare: impl Fn(&[u8], &[u8]) -> Result<()> + Sync,
) -> Vec<Result<()>> {
    let k = key.size();
    let encode = |(digest, sig): &(Vec<u8>, &[u8])| {
        check(digest)?;
        if sig.len() != k {
            return Err(Error::Verification);
        }
        Ok(os2ip(sig))
    };
    let finish = |(digest, _): &(Vec<u8>, &[u8]), m: Result<Num>| {
        let m = m.map_err(|e| match e {
            Error::OutOfRange => Error::Verification,
            other => other,
        })?;
        let em = i2osp(&m, em_len).map_err(|_| Error::Verification)?;
        compare(digest, &em)
    };
    public_scheme(engine, key, items, encode, finish)
}

/// RSAES decryption steps 1–2 (RFC 8017 §7.1.2, §7.2.2) for every
/// ciphertext, as one batch on `engine`: the length check (`k` bytes, and
/// `k >= min_k`), RSADP, I2OSP to `k` bytes, then `decode` (the scheme's
/// step 3) with the ciphertext and `EM`. Public failures (length, `c >= n`)
/// are [`Error::Decryption`].
pub(crate) fn rsadp_bytes_batch<U: Send>(
    engine: &Engine,
    key: &RsaPrivateKey,
    cts: &[&[u8]],
    min_k: usize,
    rng: &mut impl CryptoRngCore,
    decode: impl Fn(&[u8], Zeroizing<Vec<u8>>) -> Result<U> + Sync,
) -> Vec<Result<U>> {
    let k = key.public_key().size();
    let encode = |ct: &&[u8]| {
        if ct.len() != k || k < min_k {
            return Err(Error::Decryption);
        }
        Ok(os2ip(ct))
    };
    let finish = |ct: &&[u8], m: Result<SecretNat>| {
        let m = m.map_err(|e| match e {
            Error::OutOfRange => Error::Decryption,
            other => other,
        })?;
        decode(ct, m.to_be_bytes(k).ok_or(Error::Decryption)?)
    };
    private_scheme(engine, key, cts, rng, encode, finish)
}

/// The one answer of a batch of one.
pub(crate) fn single<T>(answers: Vec<Result<T>>) -> Result<T> {
    answers.into_iter().next().unwrap_or(Err(Error::FaultDetected))
}

/// Every input below `n`, or [`Error::OutOfRange`].
pub(crate) fn in_range<'a>(n: &Num, inputs: &'a [Num]) -> Vec<Result<&'a Num>> {
    inputs
        .iter()
        .map(|x| if x < n { Ok(x) } else { Err(Error::OutOfRange) })
        .collect()
}

/// Run `step` once on the items still in play (the `Ok`s, in order; not at
/// all when there are none) and put its answers, one per item, back in
/// their places; errors stay where they are.
pub(crate) fn on_ok<T, U>(items: Vec<Result<T>>, step: impl FnOnce(Vec<T>) -> Vec<Result<U>>) -> Vec<Result<U>> {
    let mut live = Vec::new();
    let slots: Vec<Option<Error>> = items
        .into_iter()
        .map(|item| match item {
            Ok(x) => {
                live.push(x);
                None
            }
            Err(e) => Some(e),
        })
        .collect();
    let mut answers = if live.is_empty() { Vec::new() } else { step(live) }.into_iter();
    slots
        .into_iter()
        .map(|slot| match slot {
            Some(e) => Err(e),
            None => answers.next().unwrap_or(Err(Error::FaultDetected)),
        })
        .collect()
}

/// The same error for each of `len` items (a step that cannot run at all).
pub(crate) fn fail_all<U>(len: usize, e: &Error) -> Vec<Result<U>> {
    (0..len).map(|_| Err(e.clone())).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn i2osp_widths() {
        let x = Num::from_u64(0x0102_0304_0506_0708);
        assert_eq!(&i2osp(&x, 8).unwrap()[..], &[1, 2, 3, 4, 5, 6, 7, 8]);
        assert_eq!(&i2osp(&x, 10).unwrap()[..], &[0, 0, 1, 2, 3, 4, 5, 6, 7, 8]);
        assert_eq!(i2osp(&x, 7), Err(Error::OutOfRange));
        assert_eq!(i2osp(&x, 0), Err(Error::OutOfRange));
        assert_eq!(&i2osp(&Num::zero(), 3).unwrap()[..], &[0, 0, 0]);
        assert_eq!(&i2osp(&Num::zero(), 0).unwrap()[..], &[] as &[u8]);
        let big = os2ip(&[0xff; 17]);
        assert_eq!(&i2osp(&big, 17).unwrap()[..], &[0xff; 17]);
        assert_eq!(i2osp(&big, 16), Err(Error::OutOfRange));
        for len in 0..40 {
            let bytes: Vec<u8> = (0..len as u8).map(|b| b.wrapping_mul(37) | 1).collect();
            assert_eq!(&i2osp(&os2ip(&bytes), len).unwrap()[..], &bytes[..]);
        }
    }
}
