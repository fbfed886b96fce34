//! RSA key generation for OpenSSL (`EVP_PKEY_keygen`, `openssl genpkey
//! -algorithm RSA`): OpenSSL's parameters `bits` (2048 by default),
//! `primes` (2) and `e` (65537), the key made by redc-rsa's generator.
//! With the provider preferred (`default_properties = ?provider=redc`),
//! OpenSSL asks this key management for every new RSA key, so it must
//! make them.
#![allow(unsafe_code)]

use super::{Key, KeyData};
use crate::ffi::{Param, UNSIGNED_INTEGER};
use crate::{guard, guard_heavy, params};
use core::ffi::{CStr, c_int, c_void};
use redc::Num;
use redc_rsa::keygen::generate_multi;
use std::sync::Arc;

/// A key generation in preparation.
struct Job {
    bits: usize,
    primes: usize,
    e: Num,
}

/// What `gen_set_params` takes (OpenSSL's types: `size_t` and a BN).
pub(super) static SETTABLE: [Param; 4] = [
    Param::describe(c"bits", UNSIGNED_INTEGER),
    Param::describe(c"primes", UNSIGNED_INTEGER),
    Param::describe(c"e", UNSIGNED_INTEGER),
    Param::END,
];

/// Applies `list` to `gen`.
///
/// # Safety
///
/// `list` as [`params::entries`].
unsafe fn set(job: &mut Job, list: *const Param) -> Result<(), String> {
    // SAFETY: the caller's contract.
    for p in unsafe { params::entries(list) } {
        // SAFETY: a key is a C string; the values are OpenSSL's.
        unsafe {
            match CStr::from_ptr(p.key).to_bytes() {
                b"bits" => job.bits = usize::try_from(params::get_int(p)?).map_err(|_| "bits out of range")?,
                b"primes" => job.primes = usize::try_from(params::get_int(p)?).map_err(|_| "primes out of range")?,
                b"e" => job.e = params::get_num(p)?,
                _ => {}
            }
        }
    }
    Ok(())
}

pub(super) unsafe extern "C" fn gen_init(_provctx: *mut c_void, _selection: c_int, list: *const Param) -> *mut c_void {
    let mut job = Job {
        bits: 2048,
        primes: 2,
        e: Num::from_u64(65537),
    };
    // SAFETY: OpenSSL's parameters.
    if guard(|| unsafe { set(&mut job, list) }) == 0 {
        return core::ptr::null_mut();
    }
    Box::into_raw(Box::new(job)).cast()
}

pub(super) unsafe extern "C" fn gen_set_params(genctx: *mut c_void, list: *const Param) -> c_int {
    guard(|| {
        // SAFETY: OpenSSL passes what `gen_init` made, and its parameters.
        unsafe { set(genctx.cast::<Job>().as_mut().ok_or("no key generation")?, list) }
    })
}

pub(super) unsafe extern "C" fn gen_settable_params(_genctx: *mut c_void, _provctx: *mut c_void) -> *const Param {
    SETTABLE.as_ptr()
}

/// OpenSSL's progress callback (unused: the generator reports none).
type Progress = Option<unsafe extern "C" fn(*const Param, *mut c_void) -> c_int>;

pub(super) unsafe extern "C" fn generate(genctx: *mut c_void, _cb: Progress, _cbarg: *mut c_void) -> *mut c_void {
    let mut made = None;
    let ok = guard_heavy(|| {
        // SAFETY: OpenSSL passes what `gen_init` made.
        let job = unsafe { genctx.cast::<Job>().as_ref() }.ok_or("no key generation")?;
        // A key the configured security level would refuse is not made.
        let level = super::security_level();
        if job.bits < level.private_min_bits() {
            return Err(format!(
                "RSA key generation: {} bits is below {level}'s {} for private keys",
                job.bits,
                level.private_min_bits()
            ));
        }
        let key =
            generate_multi(job.bits, job.primes, &job.e, &|_| {}).map_err(|e| format!("RSA key generation: {e}"))?;
        let key = key.with_security_level(super::security_level());
        made = Some(Key {
            public: key.public_key().clone(),
            private: Some(key),
        });
        Ok(())
    });
    match made {
        Some(key) if ok == 1 => Box::into_raw(Box::new(KeyData {
            key: Some(Arc::new(key)),
        }))
        .cast(),
        _ => core::ptr::null_mut(),
    }
}

pub(super) unsafe extern "C" fn gen_cleanup(genctx: *mut c_void) {
    if !genctx.is_null() {
        // SAFETY: OpenSSL frees what `gen_init` made, once.
        drop(unsafe { Box::from_raw(genctx.cast::<Job>()) });
    }
}
