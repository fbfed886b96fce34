//! RSA signatures (`OSSL_OP_SIGNATURE`): PKCS#1 v1.5 (with a digest's
//! `DigestInfo`, or over raw bytes when no digest is set, as OpenSSL's
//! `pkeyutl -sign` does) and PSS, of a digest (`EVP_PKEY_sign`/`_verify`)
//! or of a message hashed here (`EVP_DigestSign*`/`EVP_DigestVerify*`).
//! The private operation is redc-rsa's: blinded, by Garner's CRT on the
//! engine's latency path, checked with `e` before it is released. This
//! module holds the functions OpenSSL calls; the context and the schemes
//! are in `scheme`.
#![allow(unsafe_code)]

mod algorithm_id;
mod scheme;

use crate::digests::{hash_named, openssl_name};
use crate::ffi::slice;
use crate::ffi::{self, Dispatch, Param};
use crate::keymgmt::key_of;
use crate::{batch, context, entry, guard, guard_heavy, params};
use core::ffi::{CStr, c_char, c_int, c_void};
use redc_rsa::HashAlg;
use scheme::{Ctx, PKCS1, encode, set, verify_digest};
use zeroize::Zeroizing;

/// What `set_ctx_params` takes, every one as a string as OpenSSL's own
/// RSA signature declares them: the text of `-pkeyopt` and `-sigopt` is
/// converted by these types (an integer is taken too).
static SETTABLE: [Param; 7] = [
    Param::describe(c"pad-mode", ffi::UTF8_STRING),
    Param::describe(c"digest", ffi::UTF8_STRING),
    Param::describe(c"properties", ffi::UTF8_STRING),
    Param::describe(c"saltlen", ffi::UTF8_STRING),
    Param::describe(c"mgf1-digest", ffi::UTF8_STRING),
    Param::describe(c"mgf1-properties", ffi::UTF8_STRING),
    Param::END,
];

/// What `get_ctx_params` answers.
static GETTABLE: [Param; 6] = [
    Param::describe(c"algorithm-id", ffi::OCTET_STRING),
    Param::describe(c"digest", ffi::UTF8_STRING),
    Param::describe(c"mgf1-digest", ffi::UTF8_STRING),
    Param::describe(c"pad-mode", ffi::INTEGER),
    Param::describe(c"saltlen", ffi::INTEGER),
    Param::END,
];

/// The signature functions.
pub(crate) static FUNCTIONS: [Dispatch; 18] = [
    entry!(ffi::SIGNATURE_NEWCTX, newctx),
    entry!(ffi::SIGNATURE_FREECTX, context::free::<Ctx>),
    entry!(ffi::SIGNATURE_DUPCTX, context::dup::<Ctx>),
    entry!(ffi::SIGNATURE_SIGN_INIT, sign_init),
    entry!(ffi::SIGNATURE_SIGN, sign),
    entry!(ffi::SIGNATURE_VERIFY_INIT, verify_init),
    entry!(ffi::SIGNATURE_VERIFY, verify),
    entry!(ffi::SIGNATURE_DIGEST_SIGN_INIT, digest_sign_init),
    entry!(ffi::SIGNATURE_DIGEST_SIGN_UPDATE, digest_update),
    entry!(ffi::SIGNATURE_DIGEST_SIGN_FINAL, digest_sign_final),
    entry!(ffi::SIGNATURE_DIGEST_VERIFY_INIT, digest_verify_init),
    entry!(ffi::SIGNATURE_DIGEST_VERIFY_UPDATE, digest_update),
    entry!(ffi::SIGNATURE_DIGEST_VERIFY_FINAL, digest_verify_final),
    entry!(ffi::SIGNATURE_GET_CTX_PARAMS, get_ctx_params),
    entry!(ffi::SIGNATURE_GETTABLE_CTX_PARAMS, gettable),
    entry!(ffi::SIGNATURE_SET_CTX_PARAMS, set_ctx_params),
    entry!(ffi::SIGNATURE_SETTABLE_CTX_PARAMS, settable),
    Dispatch { id: 0, function: None },
];

/// The context behind OpenSSL's pointer.
///
/// # Safety
///
/// As [`context::get`].
unsafe fn ctx_mut<'a>(ctx: *mut c_void) -> Result<&'a mut Ctx, String> {
    // SAFETY: the caller's contract.
    unsafe { context::get(ctx) }
}

unsafe extern "C" fn newctx(_provctx: *mut c_void, _propq: *const c_char) -> *mut c_void {
    let ctx = Ctx {
        key: None,
        pad: PKCS1,
        md: None,
        mgf1: None,
        salt: default_salt(),
        hasher: None,
    };
    context::into_raw(ctx)
}

/// The PSS salt length a signature context starts with, as the default
/// provider of the linked OpenSSL: `auto` (-2: the largest when signing)
/// before 3.1, `auto-digestmax` (-4: the digest's length, at most the
/// largest) from 3.1 on.
fn default_salt() -> i64 {
    // SAFETY: no arguments; a constant of the library.
    if unsafe { ffi::OpenSSL_version_num() } >= 0x3010_0000 {
        -4
    } else {
        -2
    }
}

/// Starts an operation on `provkey` (a private key to sign), with `list`.
///
/// # Safety
///
/// As [`ctx_mut`] and [`key_of`]; `list` as [`params::entries`].
unsafe fn init<'a>(
    ctx: *mut c_void,
    provkey: *mut c_void,
    list: *const Param,
    signing: bool,
) -> Result<&'a mut Ctx, String> {
    // SAFETY: the caller's contract.
    let ctx = unsafe { ctx_mut(ctx)? };
    // SAFETY: the caller's contract.
    if let Some(key) = unsafe { key_of(provkey) } {
        if signing && key.private.is_none() {
            return Err("signing needs a private key".into());
        }
        ctx.key = Some(key);
    } else if ctx.key.is_none() {
        return Err("no RSA key".into());
    }
    ctx.hasher = None;
    // SAFETY: the caller's contract.
    unsafe { set(ctx, list)? };
    Ok(ctx)
}

unsafe extern "C" fn sign_init(ctx: *mut c_void, provkey: *mut c_void, list: *const Param) -> c_int {
    // SAFETY: OpenSSL's arguments, as `init` needs them.
    guard(|| unsafe { init(ctx, provkey, list, true) }.map(drop))
}

unsafe extern "C" fn verify_init(ctx: *mut c_void, provkey: *mut c_void, list: *const Param) -> c_int {
    // SAFETY: as `sign_init`.
    guard(|| unsafe { init(ctx, provkey, list, false) }.map(drop))
}

/// The digest-and-sign start: the digest `mdname` (SHA-256 when none).
///
/// # Safety
///
/// As [`init`]; `mdname` null or a C string.
unsafe fn digest_init(
    ctx: *mut c_void,
    mdname: *const c_char,
    provkey: *mut c_void,
    list: *const Param,
    signing: bool,
) -> Result<(), String> {
    // SAFETY: the caller's contract.
    let ctx = unsafe { init(ctx, provkey, list, signing)? };
    let md = match mdname.is_null() {
        // SAFETY: the caller's contract.
        false => hash_named(&unsafe { CStr::from_ptr(mdname) }.to_string_lossy())?,
        true => ctx.md.unwrap_or(HashAlg::Sha256),
    };
    ctx.md = Some(md);
    ctx.hasher = Some(md.hasher());
    Ok(())
}

unsafe extern "C" fn digest_sign_init(
    ctx: *mut c_void,
    mdname: *const c_char,
    provkey: *mut c_void,
    list: *const Param,
) -> c_int {
    // SAFETY: OpenSSL's arguments.
    guard(|| unsafe { digest_init(ctx, mdname, provkey, list, true) })
}

unsafe extern "C" fn digest_verify_init(
    ctx: *mut c_void,
    mdname: *const c_char,
    provkey: *mut c_void,
    list: *const Param,
) -> c_int {
    // SAFETY: OpenSSL's arguments.
    guard(|| unsafe { digest_init(ctx, mdname, provkey, list, false) })
}

unsafe extern "C" fn digest_update(ctx: *mut c_void, data: *const u8, len: usize) -> c_int {
    guard(|| {
        // SAFETY: OpenSSL's context and data.
        let (ctx, data) = unsafe { (ctx_mut(ctx)?, slice(data, len)) };
        ctx.hasher.as_mut().ok_or("the digest was not started")?.update(data);
        Ok(())
    })
}

/// The digest of what was hashed so far (the state is kept: OpenSSL may
/// finish a copy and go on).
fn digest_so_far(ctx: &Ctx) -> Result<Vec<u8>, String> {
    Ok(ctx.hasher.clone().ok_or("the digest was not started")?.finish())
}

/// The signature of `tbs`: encoded here, its private operation batched
/// with other jobs' while the calling async job is paused, or at once
/// outside one ([`batch::private`]; nothing heavy on a job's small stack).
fn sign_here(ctx: &Ctx, tbs: &[u8]) -> Result<Zeroizing<Vec<u8>>, String> {
    let (key, em) = encode(ctx, tbs)?;
    batch::private(key, &em)
}

unsafe extern "C" fn sign(
    ctx: *mut c_void,
    sig: *mut u8,
    siglen: *mut usize,
    sigsize: usize,
    tbs: *const u8,
    tbslen: usize,
) -> c_int {
    guard(|| {
        // SAFETY: OpenSSL's context and buffers.
        unsafe {
            let ctx = ctx_mut(ctx)?;
            let tbs = slice(tbs, tbslen);
            let k = ctx.key.as_ref().ok_or("no RSA key")?.public.size();
            ffi::answer(sig, siglen, sigsize, k, || sign_here(ctx, tbs))
        }
    })
}

unsafe extern "C" fn verify(ctx: *mut c_void, sig: *const u8, siglen: usize, tbs: *const u8, tbslen: usize) -> c_int {
    guard_heavy(|| {
        // SAFETY: OpenSSL's context and buffers.
        unsafe { verify_digest(ctx_mut(ctx)?, slice(sig, siglen), slice(tbs, tbslen)) }
    })
}

unsafe extern "C" fn digest_sign_final(ctx: *mut c_void, sig: *mut u8, siglen: *mut usize, sigsize: usize) -> c_int {
    guard(|| {
        // SAFETY: OpenSSL's context and buffers.
        unsafe {
            let ctx = ctx_mut(ctx)?;
            let k = ctx.key.as_ref().ok_or("no RSA key")?.public.size();
            ffi::answer(sig, siglen, sigsize, k, || sign_here(ctx, &digest_so_far(ctx)?))
        }
    })
}

unsafe extern "C" fn digest_verify_final(ctx: *mut c_void, sig: *const u8, siglen: usize) -> c_int {
    guard_heavy(|| {
        // SAFETY: OpenSSL's context and buffer.
        let (ctx, sig) = unsafe { (ctx_mut(ctx)?, slice(sig, siglen)) };
        verify_digest(ctx, sig, &digest_so_far(ctx)?)
    })
}

unsafe extern "C" fn set_ctx_params(ctx: *mut c_void, list: *const Param) -> c_int {
    // SAFETY: OpenSSL's context and parameters.
    guard(|| unsafe { set(ctx_mut(ctx)?, list) })
}

unsafe extern "C" fn get_ctx_params(ctx: *mut c_void, list: *mut Param) -> c_int {
    guard(|| {
        // SAFETY: OpenSSL's context.
        let ctx = unsafe { ctx_mut(ctx)? };
        // SAFETY: OpenSSL's list to fill.
        if let Some(p) = unsafe { params::find_mut(list, c"algorithm-id") } {
            // Never left unanswered (OpenSSL 3.0's X.509 signing reads the
            // length it finds even when nothing was written); none without
            // a digest, as the default provider answers.
            p.return_size = 0;
            let der = if ctx.md.is_some() {
                algorithm_id::der(ctx)?
            } else {
                Vec::new()
            };
            if !params::set_octets(p, &der) {
                return Err("cannot answer algorithm-id".into());
            }
        }
        let names = [(c"digest", ctx.md), (c"mgf1-digest", ctx.mgf1.or(ctx.md))];
        for (name, md) in names {
            // SAFETY: OpenSSL's list to fill.
            if let (Some(p), Some(md)) = (unsafe { params::find_mut(list, name) }, md)
                && !params::set_utf8(p, openssl_name(md))
            {
                return Err(format!("cannot answer {}", name.to_string_lossy()));
            }
        }
        let ints = [(c"pad-mode", ctx.pad), (c"saltlen", ctx.salt)];
        for (name, value) in ints {
            // SAFETY: OpenSSL's list to fill.
            if let Some(p) = unsafe { params::find_mut(list, name) }
                && !params::set_int(p, value)
            {
                return Err(format!("cannot answer {}", name.to_string_lossy()));
            }
        }
        Ok(())
    })
}

unsafe extern "C" fn gettable(_ctx: *mut c_void, _provctx: *mut c_void) -> *const Param {
    GETTABLE.as_ptr()
}

unsafe extern "C" fn settable(_ctx: *mut c_void, _provctx: *mut c_void) -> *const Param {
    SETTABLE.as_ptr()
}
