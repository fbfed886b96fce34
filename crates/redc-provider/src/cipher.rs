//! RSA encryption (`OSSL_OP_ASYM_CIPHER`): OAEP with its digests and
//! label, PKCS#1 v1.5 (decrypted with implicit rejection, as OpenSSL 3.2
//! and later do), no padding, and the TLS premaster secret of libssl's RSA
//! key exchange (`EVP_PKEY_encrypt`/`_decrypt`, `openssl pkeyutl`). A
//! decryption's private operation is redc-rsa's (blinded, by Garner's CRT,
//! checked with `e`), batched across the lanes inside an async job as a
//! signature's is. This module holds the functions OpenSSL calls; the
//! context and the paddings are in `scheme`.
#![allow(unsafe_code)]

mod scheme;

use crate::digests::openssl_name;
use crate::ffi::{self, Dispatch, Param, slice};
use crate::keymgmt::key_of;
use crate::{context, entry, guard, guard_heavy, params};
use core::ffi::{c_int, c_void};
use scheme::{Ctx, decrypt, encrypt, pad_name, set};
use zeroize::Zeroizing;

/// What `set_ctx_params` takes (`pad-mode` also as an integer).
static SETTABLE: [Param; 10] = [
    Param::describe(c"pad-mode", ffi::UTF8_STRING),
    Param::describe(c"digest", ffi::UTF8_STRING),
    Param::describe(c"digest-props", ffi::UTF8_STRING),
    Param::describe(c"mgf1-digest", ffi::UTF8_STRING),
    Param::describe(c"mgf1-properties", ffi::UTF8_STRING),
    Param::describe(c"oaep-label", ffi::OCTET_STRING),
    Param::describe_uint(c"tls-client-version"),
    Param::describe_uint(c"tls-negotiated-version"),
    Param::describe_uint(c"implicit-rejection"),
    Param::END,
];

/// What `get_ctx_params` answers.
static GETTABLE: [Param; 8] = [
    Param::describe(c"pad-mode", ffi::UTF8_STRING),
    Param::describe(c"digest", ffi::UTF8_STRING),
    Param::describe(c"mgf1-digest", ffi::UTF8_STRING),
    Param::describe(c"oaep-label", ffi::OCTET_PTR),
    Param::describe_uint(c"tls-client-version"),
    Param::describe_uint(c"tls-negotiated-version"),
    Param::describe_uint(c"implicit-rejection"),
    Param::END,
];

/// The encryption functions.
pub(crate) static FUNCTIONS: [Dispatch; 12] = [
    entry!(ffi::ASYM_CIPHER_NEWCTX, newctx),
    entry!(ffi::ASYM_CIPHER_ENCRYPT_INIT, encrypt_init),
    entry!(ffi::ASYM_CIPHER_ENCRYPT, encrypt_call),
    entry!(ffi::ASYM_CIPHER_DECRYPT_INIT, decrypt_init),
    entry!(ffi::ASYM_CIPHER_DECRYPT, decrypt_call),
    entry!(ffi::ASYM_CIPHER_FREECTX, context::free::<Ctx>),
    entry!(ffi::ASYM_CIPHER_DUPCTX, context::dup::<Ctx>),
    entry!(ffi::ASYM_CIPHER_GET_CTX_PARAMS, get_ctx_params),
    entry!(ffi::ASYM_CIPHER_GETTABLE_CTX_PARAMS, gettable),
    entry!(ffi::ASYM_CIPHER_SET_CTX_PARAMS, set_ctx_params),
    entry!(ffi::ASYM_CIPHER_SETTABLE_CTX_PARAMS, settable),
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

unsafe extern "C" fn newctx(_provctx: *mut c_void) -> *mut c_void {
    context::into_raw(Ctx::new())
}

/// Starts an operation on `provkey` (a private key to decrypt), with
/// `list`, the other settings back at their defaults.
///
/// # Safety
///
/// As [`ctx_mut`] and [`key_of`]; `list` as [`params::entries`].
unsafe fn init(ctx: *mut c_void, provkey: *mut c_void, list: *const Param, decrypting: bool) -> Result<(), String> {
    // SAFETY: the caller's contract.
    let ctx = unsafe { ctx_mut(ctx)? };
    // SAFETY: the caller's contract.
    let key = unsafe { key_of(provkey) }.ok_or("no RSA key")?;
    if decrypting && key.private.is_none() {
        return Err("decryption needs a private key".into());
    }
    *ctx = Ctx::new();
    ctx.key = Some(key);
    // SAFETY: the caller's contract.
    unsafe { set(ctx, list) }
}

unsafe extern "C" fn encrypt_init(ctx: *mut c_void, provkey: *mut c_void, list: *const Param) -> c_int {
    // SAFETY: OpenSSL's arguments, as `init` needs them.
    guard(|| unsafe { init(ctx, provkey, list, false) })
}

unsafe extern "C" fn decrypt_init(ctx: *mut c_void, provkey: *mut c_void, list: *const Param) -> c_int {
    // SAFETY: as `encrypt_init`.
    guard(|| unsafe { init(ctx, provkey, list, true) })
}

/// `EVP_PKEY_encrypt`: with a null `out`, only the most it writes (the
/// key's size).
unsafe extern "C" fn encrypt_call(
    ctx: *mut c_void,
    out: *mut u8,
    outlen: *mut usize,
    outsize: usize,
    input: *const u8,
    inlen: usize,
) -> c_int {
    guard_heavy(|| {
        // SAFETY: OpenSSL's context, input and buffer.
        unsafe {
            let ctx = ctx_mut(ctx)?;
            let k = ctx.key()?.public.size();
            let input = slice(input, inlen);
            ffi::answer(out, outlen, outsize, k, || encrypt(ctx, input).map(Zeroizing::new))
        }
    })
}

/// `EVP_PKEY_decrypt`: with a null `out`, only the most it writes. The
/// buffer must hold that most (the key's size, or 48 bytes for the TLS
/// padding), as OpenSSL's own provider requires, so that the length of
/// a message never decides between success and failure.
unsafe extern "C" fn decrypt_call(
    ctx: *mut c_void,
    out: *mut u8,
    outlen: *mut usize,
    outsize: usize,
    input: *const u8,
    inlen: usize,
) -> c_int {
    guard(|| {
        // SAFETY: OpenSSL's context, input and buffer.
        unsafe {
            let ctx = ctx_mut(ctx)?;
            let max = ctx.decrypted_max()?;
            let input = slice(input, inlen);
            ffi::answer(out, outlen, outsize, max, || decrypt(ctx, input))
        }
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
        // SAFETY: OpenSSL's list to fill (each `find_mut` borrow ends
        // before the next begins).
        let find = |name| unsafe { params::find_mut(list, name) };
        if let Some(p) = find(c"pad-mode") {
            let done = match (p.data_type, pad_name(ctx.pad)) {
                (ffi::UTF8_STRING, Some(name)) => params::set_utf8(p, name),
                // The TLS padding has no name, as in OpenSSL.
                (ffi::UTF8_STRING, None) => true,
                (ffi::INTEGER, _) => params::set_int(p, ctx.pad),
                _ => false,
            };
            if !done {
                return Err("cannot answer pad-mode".into());
            }
        }
        let names = [(c"digest", ctx.md), (c"mgf1-digest", ctx.mgf1.unwrap_or(ctx.md))];
        for (name, md) in names {
            if let Some(p) = find(name)
                && !params::set_utf8(p, openssl_name(md))
            {
                return Err(format!("cannot answer {}", name.to_string_lossy()));
            }
        }
        if let Some(p) = find(c"oaep-label")
            && !params::set_octet_ptr(p, &ctx.label)
        {
            return Err("cannot answer oaep-label".into());
        }
        let ints = [
            (c"tls-client-version", ctx.client_version),
            (c"tls-negotiated-version", ctx.alt_version),
            (c"implicit-rejection", 1),
        ];
        for (name, value) in ints {
            if let Some(p) = find(name)
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
