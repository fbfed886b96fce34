//! The RSA encryption context and its paddings, with OpenSSL's parameters
//! as `rsa_enc.c` takes them: `pad-mode` 1 (PKCS#1 v1.5, the default), 3
//! (none), 4 (OAEP) or their names, and 7 (the TLS premaster secret,
//! decryption only: libssl's RSA key exchange); `digest` (OAEP's, SHA-1
//! by default), `mgf1-digest` (the OAEP digest by default), `oaep-label`;
//! `tls-client-version` and `tls-negotiated-version`; `implicit-rejection`
//! (OpenSSL 3.2's; only its default, 1, is taken).
//!
//! Decryption's private operation goes to [`batch::private`] (batched
//! inside an async job); the padding is then removed here, in constant
//! time: OAEP (RFC 8017 §7.1.2), PKCS#1 v1.5 with implicit rejection
//! (draft-irtf-cfrg-rsa-guidance §7: a bad padding gives a synthetic
//! message, as OpenSSL 3.2 and later do), the TLS premaster secret of RFC
//! 5246 §7.4.7.1 (a bad one gives random bytes).
#![allow(unsafe_code)]

use crate::batch;
use crate::digests::hash_named;
use crate::ffi::Param;
use crate::keymgmt::Key;
use crate::params;
use core::ffi::CStr;
use redc_rsa::hazmat::raw_public;
use redc_rsa::oaep::{Oaep, eme_decode};
use redc_rsa::padding::Pkcs1v15Encrypt;
use redc_rsa::pkcs1v15::{TLS_PREMASTER_LEN, eme_decode_implicit, tls_premaster_decode};
use redc_rsa::rand_core::RngCore;
use redc_rsa::{HashAlg, OsRng};
use std::sync::Arc;
use zeroize::Zeroizing;

/// `RSA_PKCS1_PADDING`, `RSA_NO_PADDING`, `RSA_PKCS1_OAEP_PADDING`,
/// `RSA_PKCS1_WITH_TLS_PADDING`.
pub(super) const PKCS1: i64 = 1;
pub(super) const NONE: i64 = 3;
pub(super) const OAEP: i64 = 4;
pub(super) const TLS: i64 = 7;

/// One encryption or decryption in progress.
#[derive(Clone)]
pub(super) struct Ctx {
    pub(super) key: Option<Arc<Key>>,
    pub(super) pad: i64,
    /// OAEP's digest, of the label.
    pub(super) md: HashAlg,
    /// MGF1's digest; OAEP's when `None`.
    pub(super) mgf1: Option<HashAlg>,
    pub(super) label: Vec<u8>,
    /// The versions of a TLS premaster secret: the ClientHello's, and the
    /// negotiated one that some clients send (0: not accepted).
    pub(super) client_version: i64,
    pub(super) alt_version: i64,
}

impl Ctx {
    pub(super) fn new() -> Self {
        Ctx {
            key: None,
            pad: PKCS1,
            md: HashAlg::Sha1,
            mgf1: None,
            label: Vec::new(),
            client_version: 0,
            alt_version: 0,
        }
    }

    pub(super) fn key(&self) -> Result<&Arc<Key>, String> {
        self.key.as_ref().ok_or_else(|| "no RSA key".into())
    }

    /// The most bytes a decryption writes: the premaster secret's 48 for
    /// the TLS padding, else the key's size.
    pub(super) fn decrypted_max(&self) -> Result<usize, String> {
        Ok(match self.pad {
            TLS => TLS_PREMASTER_LEN,
            _ => self.key()?.public.size(),
        })
    }

    fn oaep(&self) -> Oaep {
        Oaep::new(self.md)
            .with_mgf_hash(self.mgf1.unwrap_or(self.md))
            .with_label(self.label.clone())
    }
}

/// The encryption of `msg` under the context's key and padding.
pub(super) fn encrypt(ctx: &Ctx, msg: &[u8]) -> Result<Vec<u8>, String> {
    let public = &ctx.key()?.public;
    let out = match ctx.pad {
        PKCS1 => public.encrypt(Pkcs1v15Encrypt, msg, &mut OsRng),
        OAEP => public.encrypt(ctx.oaep(), msg, &mut OsRng),
        NONE if msg.len() != public.size() => {
            return Err(format!(
                "without padding the input must be the key's {} bytes, not {}",
                public.size(),
                msg.len()
            ));
        }
        NONE => raw_public(public, msg),
        pad => return Err(format!("padding mode {pad} does not encrypt")),
    };
    out.map_err(|e| format!("RSA encryption: {e}"))
}

/// The decryption of `ct` under the context's private key and padding:
/// its private operation through [`batch::private`], then the padding
/// removed without revealing whether it was valid (OAEP's single error
/// aside, as RFC 8017 §7.1.2 has it).
pub(super) fn decrypt(ctx: &Ctx, ct: &[u8]) -> Result<Zeroizing<Vec<u8>>, String> {
    let key = ctx.key()?;
    let private = key.private.as_ref().ok_or("decryption needs a private key")?;
    let k = key.public.size();
    if ct.len() > k {
        return Err(format!(
            "the ciphertext has {} bytes, more than the key's {k}",
            ct.len()
        ));
    }
    if ctx.pad == TLS && !(1..=0xffff).contains(&ctx.client_version) {
        return Err("the TLS padding needs tls-client-version".into());
    }
    if !matches!(ctx.pad, PKCS1 | NONE | OAEP | TLS) {
        return Err(format!("padding mode {} does not decrypt", ctx.pad));
    }
    // A shorter ciphertext is its integer's k-byte form, as OpenSSL reads it.
    let mut full = Zeroizing::new(vec![0u8; k]);
    full[k - ct.len()..].copy_from_slice(ct);
    let em = batch::private(Arc::clone(key), &full)?;
    let out = match ctx.pad {
        NONE => Ok(em),
        OAEP => eme_decode(ctx.md, ctx.mgf1.unwrap_or(ctx.md), &ctx.label, &em),
        PKCS1 => eme_decode_implicit(private, &full, &em),
        _ => {
            let mut random = Zeroizing::new([0u8; TLS_PREMASTER_LEN]);
            OsRng.fill_bytes(&mut random[..]);
            let alt = u16::try_from(ctx.alt_version).ok().filter(|&v| v != 0);
            let client = u16::try_from(ctx.client_version).unwrap_or_default();
            tls_premaster_decode(&em, client, alt, &random).map(|pms| Zeroizing::new(pms.to_vec()))
        }
    };
    out.map_err(|e| format!("RSA decryption: {e}"))
}

/// OpenSSL's name of a padding mode, for `get_ctx_params` (none for the
/// TLS padding, as OpenSSL's).
pub(super) fn pad_name(pad: i64) -> Option<&'static CStr> {
    match pad {
        PKCS1 => Some(c"pkcs1"),
        NONE => Some(c"none"),
        OAEP => Some(c"oaep"),
        _ => None,
    }
}

/// A padding mode given as OpenSSL's number or name.
fn pad_mode(p: &Param) -> Result<i64, String> {
    // SAFETY: OpenSSL's parameter.
    let mode = match unsafe { params::get_int(p) } {
        Ok(n) => n,
        // SAFETY: as above.
        Err(_) => match unsafe { params::get_utf8(p) }? {
            "pkcs1" => PKCS1,
            "none" => NONE,
            // OpenSSL takes its old misspelling too.
            "oaep" | "oeap" => OAEP,
            other => return Err(format!("padding mode {other} is not supported for encryption")),
        },
    };
    match mode {
        PKCS1 | NONE | OAEP | TLS => Ok(mode),
        other => Err(format!("padding mode {other} is not supported for encryption")),
    }
}

/// A TLS protocol version, as libssl passes it (0 for none).
fn version(p: &Param) -> Result<i64, String> {
    // SAFETY: OpenSSL's parameter.
    let v = unsafe { params::get_int_or_text(p) }?;
    if !(0..=0xffff).contains(&v) {
        return Err(format!("TLS version {v} is not valid"));
    }
    Ok(v)
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
            // SAFETY: OpenSSL's parameter.
            b"digest" => ctx.md = hash_named(unsafe { params::get_utf8(p) }?)?,
            // SAFETY: as above.
            b"mgf1-digest" => ctx.mgf1 = Some(hash_named(unsafe { params::get_utf8(p) }?)?),
            // SAFETY: as above.
            b"oaep-label" => ctx.label = unsafe { params::get_octets(p) }?.to_vec(),
            b"tls-client-version" => ctx.client_version = version(p)?,
            b"tls-negotiated-version" => ctx.alt_version = version(p)?,
            // SAFETY: as above.
            b"implicit-rejection" if unsafe { params::get_int_or_text(p) }? == 0 => {
                return Err("redc decrypts PKCS#1 v1.5 with implicit rejection only".into());
            }
            // The fetch properties (this provider has one implementation
            // of each digest) and keys of other providers: ignored.
            _ => {}
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ffi::{INTEGER, OCTET_STRING, UTF8_STRING};

    /// A parameter list entry pointing at `data`.
    fn param(key: &'static CStr, data_type: u32, data: &[u8]) -> Param {
        Param {
            key: key.as_ptr(),
            data_type,
            data: data.as_ptr().cast_mut().cast(),
            data_size: data.len(),
            return_size: 0,
        }
    }

    /// `list` applied to a fresh context.
    fn apply(list: Vec<Param>) -> Result<Ctx, String> {
        let mut list = list;
        list.push(Param::END);
        let mut ctx = Ctx::new();
        // SAFETY: a list ended by END, its data alive for the call.
        unsafe { set(&mut ctx, list.as_ptr()) }.map(|()| ctx)
    }

    #[test]
    fn parameters_set_the_padding_digests_label_and_versions() {
        let six = 6i32.to_ne_bytes();
        let seven = 7i32.to_ne_bytes();
        let zero = 0u32.to_ne_bytes();
        let version = 0x0303u32.to_ne_bytes();
        let ctx = apply(vec![
            param(c"pad-mode", UTF8_STRING, b"oaep"),
            param(c"digest", UTF8_STRING, b"SHA256"),
            param(c"mgf1-digest", UTF8_STRING, b"SHA512"),
            param(c"oaep-label", OCTET_STRING, b"label"),
            param(c"tls-client-version", crate::ffi::UNSIGNED_INTEGER, &version),
        ])
        .unwrap();
        assert_eq!(
            (ctx.pad, ctx.md, ctx.mgf1),
            (OAEP, HashAlg::Sha256, Some(HashAlg::Sha512))
        );
        assert_eq!((ctx.label.as_slice(), ctx.client_version), (&b"label"[..], 0x0303));
        assert_eq!(apply(vec![param(c"pad-mode", INTEGER, &seven)]).unwrap().pad, TLS);
        // PSS signs; explicit rejection is the padding oracle redc refuses.
        assert!(apply(vec![param(c"pad-mode", INTEGER, &six)]).is_err());
        let refused = Some("redc decrypts PKCS#1 v1.5 with implicit rejection only");
        let err = apply(vec![param(c"implicit-rejection", crate::ffi::UNSIGNED_INTEGER, &zero)]).err();
        assert_eq!(err.as_deref(), refused);
        // As `-pkeyopt rsa_pkcs1_implicit_rejection:0` reaches it.
        let err = apply(vec![param(c"implicit-rejection", UTF8_STRING, b"0")]).err();
        assert_eq!(err.as_deref(), refused);
        assert!(apply(vec![param(c"implicit-rejection", UTF8_STRING, b"1")]).is_ok());
    }
}
