//! The RSA signature context and its schemes: OpenSSL's parameters as
//! `rsa_sig.c` takes them (`pad-mode` 1, PKCS#1 v1.5, the default, or 6,
//! PSS, or their names; `digest`; `saltlen` in bytes or -1 `digest`, -2
//! `auto`, -3 `max`, -4 `auto-digestmax`; `mgf1-digest`), and the
//! signature or verification of a digest (or, PKCS#1 v1.5 without a
//! digest, of raw bytes) with them, on redc-rsa.
#![allow(unsafe_code)]

use crate::digests::hash_named;
use crate::ffi::Param;
use crate::keymgmt::Key;
use crate::params;
use core::ffi::CStr;
use redc_rsa::hash::Hasher;
use redc_rsa::hazmat::raw_public;
use redc_rsa::pkcs1v15::{Pkcs1v15Sign, emsa_encode};
use redc_rsa::pss::{Pss, emsa_pss_encode};
use redc_rsa::rand_core::RngCore;
use redc_rsa::{HashAlg, OsRng};
use std::sync::Arc;

/// One signing or verification in progress.
#[derive(Clone)]
pub(super) struct Ctx {
    pub(super) key: Option<Arc<Key>>,
    pub(super) pad: i64,
    pub(super) md: Option<HashAlg>,
    pub(super) mgf1: Option<HashAlg>,
    /// OpenSSL's salt length: bytes, or one of its negative codes.
    pub(super) salt: i64,
    /// The message's hash state, for the digest-and-sign calls.
    pub(super) hasher: Option<Hasher>,
}

/// `RSA_PKCS1_PADDING` and `RSA_PKCS1_PSS_PADDING`.
pub(super) const PKCS1: i64 = 1;

pub(super) const PSS: i64 = 6;

/// The largest PSS salt for this key and hash (RFC 8017 §9.1.1 step 3).
fn max_salt(key: &Key, md: HashAlg) -> Result<usize, String> {
    (key.public.bits() - 1)
        .div_ceil(8)
        .checked_sub(md.output_len() + 2)
        .ok_or_else(|| "the key is too small for PSS with this digest".into())
}

/// The salt length to sign with (OpenSSL's codes; `auto` signs with the
/// largest, as OpenSSL does).
pub(super) fn sign_salt(ctx: &Ctx, key: &Key, md: HashAlg) -> Result<usize, String> {
    let max = max_salt(key, md)?;
    match ctx.salt {
        -1 => Ok(md.output_len()),
        -2 | -3 => Ok(max),
        -4 => Ok(md.output_len().min(max)),
        n => usize::try_from(n).map_err(|_| format!("salt length {n} is not valid")),
    }
}

/// The salt length to verify with: `None` reads it from the signature.
fn verify_salt(ctx: &Ctx, key: &Key, md: HashAlg) -> Result<Option<usize>, String> {
    match ctx.salt {
        -1 => Ok(Some(md.output_len())),
        -2 | -4 => Ok(None),
        -3 => max_salt(key, md).map(Some),
        n => usize::try_from(n)
            .map(Some)
            .map_err(|_| format!("salt length {n} is not valid")),
    }
}

/// The PSS parameters of the context for digest `md`.
fn pss(ctx: &Ctx, md: HashAlg, salt: Option<usize>) -> Pss {
    let p = Pss::new(md).with_mgf_hash(ctx.mgf1.unwrap_or(md));
    match salt {
        Some(s) => p.with_salt_len(s),
        None => p,
    }
}

/// PKCS#1 v1.5 type-1 padding of raw bytes (no `DigestInfo`): what
/// OpenSSL signs when no digest is set.
fn raw_pkcs1(data: &[u8], k: usize) -> Result<Vec<u8>, String> {
    if data.len() + 11 > k {
        return Err(format!(
            "{} bytes do not fit a {k}-byte PKCS#1 v1.5 signature",
            data.len()
        ));
    }
    let mut em = vec![0xffu8; k];
    em[0] = 0;
    em[1] = 1;
    em[k - data.len() - 1] = 0;
    em[k - data.len()..].copy_from_slice(data);
    Ok(em)
}

/// The key and the encoded message (RFC 8017's EM) whose private
/// operation is the signature of the digest (or, PKCS#1 v1.5 without a
/// digest, of the raw bytes) `tbs`: light work, done where OpenSSL calls
/// (an async job's small stack included), PSS's salt drawn here.
pub(super) fn encode(ctx: &Ctx, tbs: &[u8]) -> Result<(Arc<Key>, Vec<u8>), String> {
    let key = ctx.key.clone().ok_or("no RSA key")?;
    if key.private.is_none() {
        return Err("signing needs a private key".into());
    }
    let k = key.public.size();
    let em = match (ctx.pad, ctx.md) {
        (PKCS1, Some(md)) => emsa_encode(md, tbs, k),
        (PKCS1, None) => return raw_pkcs1(tbs, k).map(|em| (key, em)),
        (PSS, md) => {
            let md = md.ok_or("PSS needs a digest")?;
            let mut salt = vec![0u8; sign_salt(ctx, &key, md)?];
            OsRng.fill_bytes(&mut salt);
            emsa_pss_encode(md, ctx.mgf1.unwrap_or(md), tbs, &salt, key.public.bits() - 1)
        }
        (pad, _) => return Err(format!("padding mode {pad} is not supported")),
    };
    em.map(|em| (key, em)).map_err(|e| format!("RSA signing: {e}"))
}

/// Whether `sig` is a signature of the digest (or raw bytes) `tbs`.
pub(super) fn verify_digest(ctx: &Ctx, sig: &[u8], tbs: &[u8]) -> Result<(), String> {
    let key = ctx.key.as_ref().ok_or("no RSA key")?;
    let public = &key.public;
    let out = match (ctx.pad, ctx.md) {
        (PKCS1, Some(md)) => public.verify_prehashed(Pkcs1v15Sign::new(md), tbs, sig),
        (PKCS1, None) => {
            let em = raw_pkcs1(tbs, public.size())?;
            match raw_public(public, sig) {
                Ok(x) if x == em => Ok(()),
                _ => Err(redc_rsa::Error::Verification),
            }
        }
        (PSS, md) => {
            let md = md.ok_or("PSS needs a digest")?;
            let salt = verify_salt(ctx, key, md)?;
            public.verify_prehashed(pss(ctx, md, salt), tbs, sig)
        }
        (pad, _) => return Err(format!("padding mode {pad} is not supported")),
    };
    out.map_err(|e| format!("RSA verification: {e}"))
}

/// A padding mode given as OpenSSL's number or name.
fn pad_mode(p: &Param) -> Result<i64, String> {
    // SAFETY: OpenSSL's parameter.
    let mode = match unsafe { params::get_int(p) } {
        Ok(n) => n,
        // SAFETY: as above.
        Err(_) => match unsafe { params::get_utf8(p) }?.to_ascii_lowercase().as_str() {
            "pkcs1" => PKCS1,
            "pss" => PSS,
            other => return Err(format!("padding mode {other} is not supported")),
        },
    };
    match mode {
        PKCS1 | PSS => Ok(mode),
        other => Err(format!("padding mode {other} is not supported")),
    }
}

/// A salt length given as a number, OpenSSL's code or its name.
fn salt_len(p: &Param) -> Result<i64, String> {
    // SAFETY: OpenSSL's parameter.
    let salt = match unsafe { params::get_int(p) } {
        Ok(n) => n,
        // SAFETY: as above.
        Err(_) => match unsafe { params::get_utf8(p) }? {
            "digest" => -1,
            "auto" => -2,
            "max" => -3,
            "auto-digestmax" => -4,
            n => n.parse().map_err(|_| format!("salt length {n} is not valid"))?,
        },
    };
    if salt < -4 {
        return Err(format!("salt length {salt} is not valid"));
    }
    Ok(salt)
}

/// Applies the parameters of `list` to `ctx`.
///
/// # Safety
///
/// `list` as [`params::entries`].
pub(super) unsafe fn set(ctx: &mut Ctx, list: *const Param) -> Result<(), String> {
    // SAFETY: the caller's contract.
    for p in unsafe { params::entries(list) } {
        // SAFETY: a key is a C string.
        match unsafe { CStr::from_ptr(p.key) }.to_bytes() {
            b"pad-mode" => ctx.pad = pad_mode(p)?,
            b"digest" if ctx.hasher.is_some() => {
                return Err("the digest cannot change once the message is being hashed".into());
            }
            // SAFETY: OpenSSL's parameter.
            b"digest" => ctx.md = Some(hash_named(unsafe { params::get_utf8(p) }?)?),
            // SAFETY: as above.
            b"mgf1-digest" => ctx.mgf1 = Some(hash_named(unsafe { params::get_utf8(p) }?)?),
            b"saltlen" => ctx.salt = salt_len(p)?,
            // The fetch properties (this provider has one implementation)
            // and keys of other providers: ignored, as providers do.
            _ => {}
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn raw_pkcs1_padding_is_type_one() {
        let em = raw_pkcs1(b"abc", 16).unwrap();
        assert_eq!(
            em,
            [
                0, 1, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0, b'a', b'b', b'c'
            ]
        );
        // 00 01, at least eight 0xff, 00: 11 bytes around the data.
        assert!(raw_pkcs1(&[7; 5], 16).is_ok());
        assert!(raw_pkcs1(&[7; 6], 16).is_err(), "seven bytes of 0xff");
    }
}
