//! The few types and numbers of OpenSSL's provider interface this provider
//! uses (`openssl/core.h`, `core_dispatch.h`, `core_names.h`), and every
//! libcrypto function it calls: the error queue (`err.h`), the async jobs
//! (`async.h`) and the version; and the slices behind its pointers.
//! They are ABI-stable across OpenSSL 3.x and 4.0.
#![allow(unsafe_code)]

use core::ffi::{c_char, c_int, c_uint, c_void};

/// `OSSL_DISPATCH`: one function of a table, by its number.
#[repr(C)]
pub(crate) struct Dispatch {
    pub(crate) id: c_int,
    pub(crate) function: Option<unsafe extern "C" fn()>,
}

// SAFETY: the tables are immutable statics of function pointers.
unsafe impl Sync for Dispatch {}

/// `OSSL_ALGORITHM`: an algorithm's names, properties and functions.
#[repr(C)]
pub(crate) struct Algorithm {
    pub(crate) names: *const c_char,
    pub(crate) properties: *const c_char,
    pub(crate) implementation: *const Dispatch,
    pub(crate) description: *const c_char,
}

// SAFETY: the tables are immutable statics pointing at statics.
unsafe impl Sync for Algorithm {}

/// `OSSL_PARAM`: one named value passed in or out.
#[repr(C)]
pub(crate) struct Param {
    pub(crate) key: *const c_char,
    pub(crate) data_type: c_uint,
    pub(crate) data: *mut c_void,
    pub(crate) data_size: usize,
    pub(crate) return_size: usize,
}

// SAFETY: the descriptor tables (the `*_types` answers) are immutable
// statics whose pointers are null or point at static strings.
unsafe impl Sync for Param {}

impl Param {
    /// A descriptor (for the `gettable`/`settable` lists): a key and a type.
    pub(crate) const fn describe(key: &'static core::ffi::CStr, data_type: c_uint) -> Self {
        Param {
            key: key.as_ptr(),
            data_type,
            data: core::ptr::null_mut(),
            data_size: 0,
            return_size: UNMODIFIED,
        }
    }

    /// A descriptor of an `unsigned int` (so that OpenSSL's text
    /// conversion of a `-pkeyopt` makes one of that size).
    pub(crate) const fn describe_uint(key: &'static core::ffi::CStr) -> Self {
        Param {
            data_size: size_of::<c_uint>(),
            ..Param::describe(key, UNSIGNED_INTEGER)
        }
    }

    /// The end of a list.
    pub(crate) const END: Param = Param {
        key: core::ptr::null(),
        data_type: 0,
        data: core::ptr::null_mut(),
        data_size: 0,
        return_size: 0,
    };
}

/// `OSSL_PARAM_UNMODIFIED`: a `return_size` not written.
pub(crate) const UNMODIFIED: usize = usize::MAX;

/// `OSSL_PARAM` data types.
pub(crate) const INTEGER: c_uint = 1;
pub(crate) const UNSIGNED_INTEGER: c_uint = 2;
pub(crate) const UTF8_STRING: c_uint = 4;
pub(crate) const OCTET_STRING: c_uint = 5;
pub(crate) const UTF8_PTR: c_uint = 6;
pub(crate) const OCTET_PTR: c_uint = 7;

/// Operation numbers (`OSSL_OP_*`).
pub(crate) const OP_KEYMGMT: c_int = 10;
pub(crate) const OP_SIGNATURE: c_int = 12;
pub(crate) const OP_ASYM_CIPHER: c_int = 13;

/// Provider functions (`OSSL_FUNC_PROVIDER_*`).
pub(crate) const PROVIDER_TEARDOWN: c_int = 1024;
pub(crate) const PROVIDER_GETTABLE_PARAMS: c_int = 1025;
pub(crate) const PROVIDER_GET_PARAMS: c_int = 1026;
pub(crate) const PROVIDER_QUERY_OPERATION: c_int = 1027;

/// Key management functions (`OSSL_FUNC_KEYMGMT_*`).
pub(crate) const KEYMGMT_NEW: c_int = 1;
pub(crate) const KEYMGMT_GEN_INIT: c_int = 2;
pub(crate) const KEYMGMT_GEN_SET_PARAMS: c_int = 4;
pub(crate) const KEYMGMT_GEN_SETTABLE_PARAMS: c_int = 5;
pub(crate) const KEYMGMT_GEN: c_int = 6;
pub(crate) const KEYMGMT_GEN_CLEANUP: c_int = 7;
pub(crate) const KEYMGMT_FREE: c_int = 10;
pub(crate) const KEYMGMT_GET_PARAMS: c_int = 11;
pub(crate) const KEYMGMT_GETTABLE_PARAMS: c_int = 12;
pub(crate) const KEYMGMT_HAS: c_int = 21;
pub(crate) const KEYMGMT_VALIDATE: c_int = 22;
pub(crate) const KEYMGMT_MATCH: c_int = 23;
pub(crate) const KEYMGMT_IMPORT: c_int = 40;
pub(crate) const KEYMGMT_IMPORT_TYPES: c_int = 41;
pub(crate) const KEYMGMT_EXPORT: c_int = 42;
pub(crate) const KEYMGMT_EXPORT_TYPES: c_int = 43;

/// Key selections (`OSSL_KEYMGMT_SELECT_*`).
pub(crate) const SELECT_PRIVATE_KEY: c_int = 0x01;
pub(crate) const SELECT_PUBLIC_KEY: c_int = 0x02;

/// Signature functions (`OSSL_FUNC_SIGNATURE_*`).
pub(crate) const SIGNATURE_NEWCTX: c_int = 1;
pub(crate) const SIGNATURE_SIGN_INIT: c_int = 2;
pub(crate) const SIGNATURE_SIGN: c_int = 3;
pub(crate) const SIGNATURE_VERIFY_INIT: c_int = 4;
pub(crate) const SIGNATURE_VERIFY: c_int = 5;
pub(crate) const SIGNATURE_DIGEST_SIGN_INIT: c_int = 8;
pub(crate) const SIGNATURE_DIGEST_SIGN_UPDATE: c_int = 9;
pub(crate) const SIGNATURE_DIGEST_SIGN_FINAL: c_int = 10;
pub(crate) const SIGNATURE_DIGEST_VERIFY_INIT: c_int = 12;
pub(crate) const SIGNATURE_DIGEST_VERIFY_UPDATE: c_int = 13;
pub(crate) const SIGNATURE_DIGEST_VERIFY_FINAL: c_int = 14;
pub(crate) const SIGNATURE_FREECTX: c_int = 16;
pub(crate) const SIGNATURE_DUPCTX: c_int = 17;
pub(crate) const SIGNATURE_GET_CTX_PARAMS: c_int = 18;
pub(crate) const SIGNATURE_GETTABLE_CTX_PARAMS: c_int = 19;
pub(crate) const SIGNATURE_SET_CTX_PARAMS: c_int = 20;
pub(crate) const SIGNATURE_SETTABLE_CTX_PARAMS: c_int = 21;

/// `OSSL_FUNC_ASYM_CIPHER_*`.
pub(crate) const ASYM_CIPHER_NEWCTX: c_int = 1;
pub(crate) const ASYM_CIPHER_ENCRYPT_INIT: c_int = 2;
pub(crate) const ASYM_CIPHER_ENCRYPT: c_int = 3;
pub(crate) const ASYM_CIPHER_DECRYPT_INIT: c_int = 4;
pub(crate) const ASYM_CIPHER_DECRYPT: c_int = 5;
pub(crate) const ASYM_CIPHER_FREECTX: c_int = 6;
pub(crate) const ASYM_CIPHER_DUPCTX: c_int = 7;
pub(crate) const ASYM_CIPHER_GET_CTX_PARAMS: c_int = 8;
pub(crate) const ASYM_CIPHER_GETTABLE_CTX_PARAMS: c_int = 9;
pub(crate) const ASYM_CIPHER_SET_CTX_PARAMS: c_int = 10;
pub(crate) const ASYM_CIPHER_SETTABLE_CTX_PARAMS: c_int = 11;

/// `ERR_LIB_PROV`, and the common reasons (`ERR_R_*`) this provider gives.
const ERR_LIB_PROV: c_int = 57;
const ERR_RFLAG_COMMON: c_int = 0x2 << 18;
pub(crate) const REASON_INVALID_ARGUMENT: c_int = 262 | ERR_RFLAG_COMMON;
/// `ERR_R_INTERNAL_ERROR`: common and fatal.
pub(crate) const REASON_INTERNAL: c_int = 259 | ERR_RFLAG_COMMON | (0x1 << 18);

/// OpenSSL's cleanup callback of a wait descriptor (`ASYNC_WAIT_CTX`'s).
pub(crate) type WaitCleanup = unsafe extern "C" fn(*mut c_void, *const c_void, c_int, *mut c_void);

// The libcrypto functions the provider calls: the error queue, the async
// jobs (`openssl/async.h`) and the library's version.
#[link(name = "crypto")]
unsafe extern "C" {
    fn ERR_new();
    fn ERR_set_debug(file: *const c_char, line: c_int, func: *const c_char);
    fn ERR_set_error(lib: c_int, reason: c_int, fmt: *const c_char, ...);
    pub(crate) fn ASYNC_get_current_job() -> *mut c_void;
    pub(crate) fn ASYNC_get_wait_ctx(job: *mut c_void) -> *mut c_void;
    pub(crate) fn ASYNC_pause_job() -> c_int;
    pub(crate) fn ASYNC_WAIT_CTX_get_fd(
        ctx: *mut c_void,
        key: *const c_void,
        fd: *mut c_int,
        custom: *mut *mut c_void,
    ) -> c_int;
    pub(crate) fn ASYNC_WAIT_CTX_set_wait_fd(
        ctx: *mut c_void,
        key: *const c_void,
        fd: c_int,
        custom: *mut c_void,
        cleanup: Option<WaitCleanup>,
    ) -> c_int;
    pub(crate) fn OpenSSL_version_num() -> core::ffi::c_ulong;
}

/// Puts an error on the calling thread's OpenSSL error queue: `reason`
/// (one of the `REASON_*` above) and `message`, which names what was wrong
/// and never a secret.
pub(crate) fn raise(reason: c_int, message: &str) {
    let text: Vec<u8> = message.bytes().filter(|&b| b != 0).chain([0]).collect();
    // SAFETY: ERR_new and ERR_set_debug take no pointers but static C
    // strings; ERR_set_error reads "%s" and one NUL-terminated string,
    // which lives across the call.
    unsafe {
        ERR_new();
        ERR_set_debug(c"redc-provider".as_ptr(), 0, c"redc".as_ptr());
        ERR_set_error(ERR_LIB_PROV, reason, c"%s".as_ptr(), text.as_ptr().cast::<c_char>());
    }
}

/// A slice from OpenSSL's pointer and length (empty for a null pointer).
///
/// # Safety
///
/// `data` is null or points at `len` readable bytes.
pub(crate) unsafe fn slice<'a>(data: *const u8, len: usize) -> &'a [u8] {
    if data.is_null() || len == 0 {
        return &[];
    }
    // SAFETY: the caller's contract.
    unsafe { core::slice::from_raw_parts(data, len) }
}

/// Answers an operation that writes at most `max` bytes to OpenSSL's
/// buffer `out` of `size` bytes (a signature, a ciphertext, a
/// plaintext), as OpenSSL's own providers do: a null `out` asks for
/// `max` only; a buffer shorter than `max` is refused before `make`
/// runs, so that no output's length decides between success and
/// failure; else `make`'s bytes are copied and their length written.
///
/// # Safety
///
/// `out` is null or has `size` writable bytes; `len` is null or writable.
pub(crate) unsafe fn answer(
    out: *mut u8,
    len: *mut usize,
    size: usize,
    max: usize,
    make: impl FnOnce() -> Result<zeroize::Zeroizing<Vec<u8>>, String>,
) -> Result<(), String> {
    if len.is_null() {
        return Err("no output length pointer".into());
    }
    if out.is_null() {
        // SAFETY: the caller's contract.
        unsafe { *len = max };
        return Ok(());
    }
    if size < max {
        return Err(format!("the output buffer has {size} bytes, not {max}"));
    }
    let bytes = make()?;
    if bytes.len() > size {
        return Err(format!("the output buffer has {size} bytes, not {}", bytes.len()));
    }
    // SAFETY: the caller's contract; `bytes` fits.
    unsafe {
        core::ptr::copy_nonoverlapping(bytes.as_ptr(), out, bytes.len());
        *len = bytes.len();
    }
    Ok(())
}
