//! `redc-provider`: redc inside OpenSSL 3 and 4, as a provider (a shared
//! library OpenSSL loads by `-provider redc` with `-provider-path`, or by
//! `openssl.cnf`), so that every program linked to OpenSSL reaches redc's
//! RSA.
//!
//! It offers RSA key management ([`keymgmt`]: keys loaded by any program,
//! moved here by OpenSSL through their parameters), RSA signatures
//! ([`signature`]: PKCS#1 v1.5 and PSS, of a digest or a message) and RSA
//! encryption ([`cipher`]: OAEP, PKCS#1 v1.5 with implicit rejection, the
//! TLS premaster secret), all under the property `provider=redc`. What it does not offer, OpenSSL
//! takes from the default provider. The private operations are
//! redc-rsa's, blinded and checked with `e`. Errors go on OpenSSL's error
//! queue with a message naming what was wrong; a panic is caught at the
//! boundary and becomes such an error.
//!
//! The build links the libcrypto it is built against (its error queue): one
//! build per OpenSSL ABI, the system's 3.x by default.
#![allow(unsafe_code)]

mod batch;
pub mod cipher;
mod context;
mod digests;
mod ffi;
mod fiber;
pub mod keymgmt;
mod params;
pub mod signature;

use core::ffi::{CStr, c_int, c_void};
use ffi::{Algorithm, Dispatch, Param};

/// A dispatch table entry: function `$f` under OpenSSL's number `$id`.
macro_rules! entry {
    ($id:expr, $f:expr) => {
        $crate::ffi::Dispatch {
            id: $id,
            // SAFETY: OpenSSL calls the function through the type its number
            // stands for in `core_dispatch.h`, which is `$f`'s type.
            function: Some(unsafe { core::mem::transmute::<*const (), unsafe extern "C" fn()>($f as *const ()) }),
        }
    };
}
pub(crate) use entry;

/// Runs `body`, light work, for an OpenSSL call on the calling thread: 1
/// on success; on an error, the error on OpenSSL's queue and 0; a panic
/// is caught (never unwinds into C) and reported the same way.
pub(crate) fn guard(body: impl FnOnce() -> Result<(), String>) -> c_int {
    report(std::panic::catch_unwind(std::panic::AssertUnwindSafe(body)))
}

/// [`guard`] for work on redc's kernels (a key's checks, a key
/// generation, a public operation), kept off an async job's small stack
/// ([`fiber::run`]); the error is raised on the calling thread.
pub(crate) fn guard_heavy(body: impl FnOnce() -> Result<(), String>) -> c_int {
    let outcome = fiber::run(|| std::panic::catch_unwind(std::panic::AssertUnwindSafe(body)));
    report(outcome.unwrap_or_else(|e| Ok(Err(e))))
}

/// 1, or 0 with the error or the panic on OpenSSL's queue.
fn report(outcome: std::thread::Result<Result<(), String>>) -> c_int {
    match outcome {
        Ok(Ok(())) => 1,
        Ok(Err(message)) => {
            ffi::raise(ffi::REASON_INVALID_ARGUMENT, &message);
            0
        }
        Err(_) => {
            ffi::raise(ffi::REASON_INTERNAL, "internal error in redc-provider");
            0
        }
    }
}

/// The names OpenSSL knows RSA by (`rsaEncryption`), and the property every
/// algorithm here carries.
const RSA_NAMES: &CStr = c"RSA:rsaEncryption:1.2.840.113549.1.1.1";
const PROPERTIES: &CStr = c"provider=redc";

static KEYMGMT: [Algorithm; 2] = [
    Algorithm {
        names: RSA_NAMES.as_ptr(),
        properties: PROPERTIES.as_ptr(),
        implementation: keymgmt::FUNCTIONS.as_ptr(),
        description: c"redc RSA key management".as_ptr(),
    },
    END,
];

static ASYM_CIPHER: [Algorithm; 2] = [
    Algorithm {
        names: RSA_NAMES.as_ptr(),
        properties: PROPERTIES.as_ptr(),
        implementation: cipher::FUNCTIONS.as_ptr(),
        description: c"redc RSA encryption (OAEP, PKCS#1 v1.5, TLS premaster)".as_ptr(),
    },
    END,
];

static SIGNATURE: [Algorithm; 2] = [
    Algorithm {
        names: RSA_NAMES.as_ptr(),
        properties: PROPERTIES.as_ptr(),
        implementation: signature::FUNCTIONS.as_ptr(),
        description: c"redc RSA signatures (PKCS#1 v1.5, PSS)".as_ptr(),
    },
    END,
];

const END: Algorithm = Algorithm {
    names: core::ptr::null(),
    properties: core::ptr::null(),
    implementation: core::ptr::null(),
    description: core::ptr::null(),
};

unsafe extern "C" fn query_operation(
    _provctx: *mut c_void,
    operation: c_int,
    no_cache: *mut c_int,
) -> *const Algorithm {
    if !no_cache.is_null() {
        // SAFETY: OpenSSL passes a writable int.
        unsafe { *no_cache = 0 };
    }
    match operation {
        ffi::OP_KEYMGMT => KEYMGMT.as_ptr(),
        ffi::OP_SIGNATURE => SIGNATURE.as_ptr(),
        ffi::OP_ASYM_CIPHER => ASYM_CIPHER.as_ptr(),
        _ => core::ptr::null(),
    }
}

/// What the provider's `get_params` answers.
static PROVIDER_PARAMS: [Param; 5] = [
    Param::describe(c"name", ffi::UTF8_PTR),
    Param::describe(c"version", ffi::UTF8_PTR),
    Param::describe(c"buildinfo", ffi::UTF8_PTR),
    Param::describe(c"status", ffi::INTEGER),
    Param::END,
];

const VERSION: &CStr = match CStr::from_bytes_with_nul(concat!(env!("CARGO_PKG_VERSION"), "\0").as_bytes()) {
    Ok(v) => v,
    Err(_) => c"unknown",
};

unsafe extern "C" fn gettable_params(_provctx: *mut c_void) -> *const Param {
    PROVIDER_PARAMS.as_ptr()
}

unsafe extern "C" fn get_params(_provctx: *mut c_void, list: *mut Param) -> c_int {
    guard(|| {
        let text = [(c"name", c"redc"), (c"version", VERSION), (c"buildinfo", VERSION)];
        for (key, value) in text {
            // SAFETY: OpenSSL's list to fill.
            if let Some(p) = unsafe { params::find_mut(list, key) }
                && !params::set_utf8(p, value)
            {
                return Err(format!("cannot answer {}", key.to_string_lossy()));
            }
        }
        // SAFETY: as above.
        if let Some(p) = unsafe { params::find_mut(list, c"status") }
            && !params::set_int(p, 1)
        {
            return Err("cannot answer status".into());
        }
        Ok(())
    })
}

unsafe extern "C" fn teardown(_provctx: *mut c_void) {}

static PROVIDER: [Dispatch; 5] = [
    entry!(ffi::PROVIDER_TEARDOWN, teardown),
    entry!(ffi::PROVIDER_GETTABLE_PARAMS, gettable_params),
    entry!(ffi::PROVIDER_GET_PARAMS, get_params),
    entry!(ffi::PROVIDER_QUERY_OPERATION, query_operation),
    Dispatch { id: 0, function: None },
];

/// `OSSL_FUNC_CORE_GET_PARAMS`: the core's function that answers the
/// provider's configuration (its `openssl.cnf` section, as strings).
const CORE_GET_PARAMS: c_int = 2;

/// Reads the provider's configuration from the core's dispatch table
/// `core`: `batch-wait-us`, how long a short group of async jobs' private
/// operations waits for more (microseconds, at most one second), and
/// `security-level`, the smallest keys redc takes (redc's levels 0 to 5;
/// 0, as OpenSSL's libcrypto, when left out: the program's own policy,
/// such as libssl's security level, decides).
///
/// # Safety
///
/// `core` is null or OpenSSL's dispatch table, ended by id 0; `handle` its
/// handle.
unsafe fn configure(handle: *const c_void, core: *const Dispatch) -> Result<(), String> {
    // SAFETY: the caller's contract.
    let Some(get) = (unsafe { core_get_params(core) }) else {
        return Ok(());
    };
    // SAFETY: OpenSSL's function and handle.
    if let Some(text) = unsafe { setting(get, handle, c"batch-wait-us") } {
        let us: u64 = text
            .trim()
            .parse()
            .ok()
            .filter(|&us| us <= batch::MAX_WAIT_US)
            .ok_or_else(|| {
                format!(
                    "batch-wait-us = {text}: a number of microseconds up to {}",
                    batch::MAX_WAIT_US
                )
            })?;
        batch::set_max_wait(us);
    }
    // SAFETY: as above.
    if let Some(text) = unsafe { setting(get, handle, c"security-level") } {
        let level = text
            .trim()
            .parse()
            .ok()
            .and_then(|l| redc_rsa::policy::SecurityLevel::new(l).ok())
            .ok_or_else(|| format!("security-level = {text}: a level from 0 to 5"))?;
        keymgmt::set_security_level(level);
    }
    Ok(())
}

/// The core's `get_params` (its answers are the provider's `openssl.cnf`
/// section), from its dispatch table.
type CoreGetParams = unsafe extern "C" fn(*const c_void, *mut Param) -> c_int;

/// The core's `get_params` in the dispatch table `core`, if offered.
///
/// # Safety
///
/// As [`configure`].
unsafe fn core_get_params(core: *const Dispatch) -> Option<CoreGetParams> {
    let mut at = core;
    // SAFETY: the caller's contract: the table ends with id 0.
    while let Some(d) = unsafe { at.as_ref() } {
        match (d.id, d.function) {
            (0, _) => break,
            // SAFETY: id 2's type in core_dispatch.h.
            (CORE_GET_PARAMS, Some(f)) => {
                return Some(unsafe { core::mem::transmute::<unsafe extern "C" fn(), CoreGetParams>(f) });
            }
            _ => {}
        }
        // SAFETY: not the last entry, so the next one exists.
        at = unsafe { at.add(1) };
    }
    None
}

/// The value of `name` in the provider's `openssl.cnf` section, if set.
///
/// # Safety
///
/// `get` and `handle` are the core's.
unsafe fn setting(get: CoreGetParams, handle: *const c_void, name: &'static CStr) -> Option<String> {
    let mut value: *const core::ffi::c_char = core::ptr::null();
    let mut list = [
        Param {
            data: (&raw mut value).cast(),
            ..Param::describe(name, ffi::UTF8_PTR)
        },
        Param::END,
    ];
    // SAFETY: a list OpenSSL fills; `value` is then null or a C string of
    // the configuration.
    if unsafe { get(handle, list.as_mut_ptr()) } != 1 || value.is_null() {
        return None;
    }
    // SAFETY: as above.
    Some(unsafe { CStr::from_ptr(value) }.to_string_lossy().into_owned())
}

/// The provider's entry point, which OpenSSL looks up by name when it
/// loads the library: reads the configuration (`batch-wait-us`,
/// `security-level`) and hands back the provider's functions and a
/// context (unused: every key and operation carries its own state).
///
/// # Safety
///
/// Called by OpenSSL with its dispatch table `core` and writable `out` and
/// `provctx`: `out` receives an `OSSL_DISPATCH` table.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn OSSL_provider_init(
    handle: *const c_void,
    core: *const c_void,
    out: *mut *const c_void,
    provctx: *mut *mut c_void,
) -> c_int {
    if out.is_null() || provctx.is_null() {
        return 0;
    }
    // SAFETY: OpenSSL's table and handle.
    if guard(|| unsafe { configure(handle, core.cast()) }) == 0 {
        return 0;
    }
    // SAFETY: OpenSSL's contract: both are writable.
    unsafe {
        *out = PROVIDER.as_ptr().cast();
        *provctx = handle.cast_mut();
    }
    1
}
