//! RSA key management (`OSSL_OP_KEYMGMT`): a key imported from OpenSSL's
//! parameters (`n`, `e`, and for a private key `d` and the primes
//! `rsa-factor1`, `rsa-factor2`, ...), so that a key any program loaded
//! with the default provider moves here when one of this provider's
//! operations is fetched for it; exported back the same way; its size
//! answered to `get_params`; new keys made (`generate`). The CRT values
//! are recomputed from the primes
//! and checked (`RsaPrivateKey::from_components`); the private key is
//! wiped when OpenSSL frees it.
#![allow(unsafe_code)]

mod generate;

use crate::ffi::{self, Dispatch, Param, SELECT_PRIVATE_KEY, SELECT_PUBLIC_KEY, UNSIGNED_INTEGER};
use crate::params::{self, Built};
use crate::{entry, guard, guard_heavy};
use core::ffi::{CStr, c_int, c_void};
use redc::Num;
use redc_rsa::policy::SecurityLevel;
use redc_rsa::{RsaPrivateKey, RsaPublicKey};
use std::sync::Arc;
use std::sync::atomic::{AtomicU8, Ordering};
use zeroize::Zeroizing;

/// An RSA key as OpenSSL holds it for this provider: empty until imported.
#[derive(Default)]
pub(crate) struct KeyData {
    pub(crate) key: Option<Arc<Key>>,
}

/// A public key, with its private half when imported.
pub(crate) struct Key {
    pub(crate) public: RsaPublicKey,
    pub(crate) private: Option<RsaPrivateKey>,
}

/// The smallest keys the provider's operations take, as a
/// [`SecurityLevel`]'s number: `security-level` in `openssl.cnf`, 0 by
/// default (OpenSSL's libcrypto refuses no key for its size; the
/// program's own policy, such as libssl's security level, decides).
static SECURITY_LEVEL: AtomicU8 = AtomicU8::new(0);

/// Sets the security level of the keys imported or made from now on.
pub(crate) fn set_security_level(level: SecurityLevel) {
    SECURITY_LEVEL.store(level.get(), Ordering::Relaxed);
}

/// The security level keys get.
pub(crate) fn security_level() -> SecurityLevel {
    SecurityLevel::new(SECURITY_LEVEL.load(Ordering::Relaxed)).unwrap_or(SecurityLevel::DEFAULT)
}

/// The most primes a key may have (OpenSSL's `RSA_MAX_PRIME_NUM`).
const MAX_PRIMES: usize = 5;

/// The parameter names of the primes, CRT exponents and coefficients.
const FACTORS: [&CStr; MAX_PRIMES] = [
    c"rsa-factor1",
    c"rsa-factor2",
    c"rsa-factor3",
    c"rsa-factor4",
    c"rsa-factor5",
];
const EXPONENTS: [&CStr; MAX_PRIMES] = [
    c"rsa-exponent1",
    c"rsa-exponent2",
    c"rsa-exponent3",
    c"rsa-exponent4",
    c"rsa-exponent5",
];
const COEFFICIENTS: [&CStr; MAX_PRIMES - 1] = [
    c"rsa-coefficient1",
    c"rsa-coefficient2",
    c"rsa-coefficient3",
    c"rsa-coefficient4",
];

/// What `import_types` and `export_types` describe: the public pair, then
/// the private values (`rsa_kmgmt.c`'s list, two primes shown).
static KEY_TYPES: [Param; 9] = [
    Param::describe(c"n", UNSIGNED_INTEGER),
    Param::describe(c"e", UNSIGNED_INTEGER),
    Param::describe(c"d", UNSIGNED_INTEGER),
    Param::describe(c"rsa-factor1", UNSIGNED_INTEGER),
    Param::describe(c"rsa-factor2", UNSIGNED_INTEGER),
    Param::describe(c"rsa-exponent1", UNSIGNED_INTEGER),
    Param::describe(c"rsa-exponent2", UNSIGNED_INTEGER),
    Param::describe(c"rsa-coefficient1", UNSIGNED_INTEGER),
    Param::END,
];

/// What `get_params` answers.
static GETTABLE: [Param; 5] = [
    Param::describe(c"bits", ffi::INTEGER),
    Param::describe(c"security-bits", ffi::INTEGER),
    Param::describe(c"max-size", ffi::INTEGER),
    Param::describe(c"default-digest", ffi::UTF8_STRING),
    Param::END,
];

/// The key management functions.
pub(crate) static FUNCTIONS: [Dispatch; 17] = [
    entry!(ffi::KEYMGMT_NEW, new),
    entry!(ffi::KEYMGMT_GEN_INIT, generate::gen_init),
    entry!(ffi::KEYMGMT_GEN_SET_PARAMS, generate::gen_set_params),
    entry!(ffi::KEYMGMT_GEN_SETTABLE_PARAMS, generate::gen_settable_params),
    entry!(ffi::KEYMGMT_GEN, generate::generate),
    entry!(ffi::KEYMGMT_GEN_CLEANUP, generate::gen_cleanup),
    entry!(ffi::KEYMGMT_FREE, free),
    entry!(ffi::KEYMGMT_HAS, has),
    entry!(ffi::KEYMGMT_IMPORT, import),
    entry!(ffi::KEYMGMT_IMPORT_TYPES, key_types),
    entry!(ffi::KEYMGMT_EXPORT, export),
    entry!(ffi::KEYMGMT_EXPORT_TYPES, key_types),
    entry!(ffi::KEYMGMT_GET_PARAMS, get_params),
    entry!(ffi::KEYMGMT_GETTABLE_PARAMS, gettable_params),
    entry!(ffi::KEYMGMT_MATCH, matches),
    entry!(ffi::KEYMGMT_VALIDATE, validate),
    Dispatch { id: 0, function: None },
];

/// The key of `keydata` (null or empty: none).
///
/// # Safety
///
/// `keydata` is null or a pointer [`new`] returned and [`free`] did not
/// free.
pub(crate) unsafe fn key_of(keydata: *const c_void) -> Option<Arc<Key>> {
    // SAFETY: the caller's contract.
    unsafe { keydata.cast::<KeyData>().as_ref()?.key.clone() }
}

unsafe extern "C" fn new(_provctx: *mut c_void) -> *mut c_void {
    Box::into_raw(Box::<KeyData>::default()).cast()
}

unsafe extern "C" fn free(keydata: *mut c_void) {
    if !keydata.is_null() {
        // SAFETY: OpenSSL frees what `new` made, once; the private key
        // wipes itself when its last reference goes.
        drop(unsafe { Box::from_raw(keydata.cast::<KeyData>()) });
    }
}

unsafe extern "C" fn has(keydata: *const c_void, selection: c_int) -> c_int {
    // SAFETY: OpenSSL passes a key `new` made.
    let key = unsafe { key_of(keydata) };
    let ok = match &key {
        None => selection & (SELECT_PUBLIC_KEY | SELECT_PRIVATE_KEY) == 0,
        Some(k) => selection & SELECT_PRIVATE_KEY == 0 || k.private.is_some(),
    };
    c_int::from(ok)
}

unsafe extern "C" fn import(keydata: *mut c_void, selection: c_int, list: *const Param) -> c_int {
    guard_heavy(|| {
        // SAFETY: OpenSSL passes a key `new` made and a parameter list.
        let data = unsafe { keydata.cast::<KeyData>().as_mut() }.ok_or("no key object")?;
        let num = |key: &CStr| -> Result<Option<Num>, String> {
            // SAFETY: as above.
            unsafe { params::find(list, key).map(|p| params::get_num(p)).transpose() }
        };
        if selection & (SELECT_PUBLIC_KEY | SELECT_PRIVATE_KEY) == 0 {
            return Ok(());
        }
        let n = num(c"n")?.ok_or("the key has no modulus n")?;
        let e = num(c"e")?.ok_or("the key has no public exponent e")?;
        let public = RsaPublicKey::new(n.clone(), e.clone())
            .map_err(|err| format!("the RSA public key: {err}"))?
            .with_security_level(security_level());
        // Wiped whether it is used or not.
        let d = num(c"d")?.map(Zeroizing::new);
        let private = match d {
            Some(d) if selection & SELECT_PRIVATE_KEY != 0 => {
                let mut primes = Zeroizing::new(Vec::new());
                for key in FACTORS {
                    match num(key)? {
                        Some(p) => primes.push(p),
                        None => break,
                    }
                }
                if primes.len() < 2 {
                    return Err("a private RSA key without its primes (rsa-factor1, rsa-factor2)".into());
                }
                let key = RsaPrivateKey::from_components(n, e, (*d).clone(), core::mem::take(&mut *primes))
                    .map_err(|err| format!("the RSA private key: {err}"))?
                    .with_security_level(security_level());
                Some(key)
            }
            _ => None,
        };
        data.key = Some(Arc::new(Key { public, private }));
        Ok(())
    })
}

unsafe extern "C" fn key_types(_selection: c_int) -> *const Param {
    KEY_TYPES.as_ptr()
}

/// OpenSSL's export callback: it reads the list during the call.
type ExportCallback = unsafe extern "C" fn(*const Param, *mut c_void) -> c_int;

unsafe extern "C" fn export(
    keydata: *mut c_void,
    selection: c_int,
    callback: Option<ExportCallback>,
    arg: *mut c_void,
) -> c_int {
    guard(|| {
        // SAFETY: OpenSSL passes a key `new` made.
        let key = unsafe { key_of(keydata) }.ok_or("the key is empty")?;
        let callback = callback.ok_or("no export callback")?;
        let mut built = Built::new();
        if selection & (SELECT_PUBLIC_KEY | SELECT_PRIVATE_KEY) != 0 {
            built.push(c"n", key.public.n());
            built.push(c"e", key.public.e());
        }
        if selection & SELECT_PRIVATE_KEY != 0
            && let Some(private) = &key.private
        {
            built.push(c"d", &Zeroizing::new(private.d().reveal()));
            for (name, p) in FACTORS.iter().zip(private.primes()) {
                built.push(name, &Zeroizing::new(p.reveal()));
            }
            for (name, x) in EXPONENTS.iter().zip(private.crt_exponents()) {
                built.push(name, &Zeroizing::new(x.reveal()));
            }
            for (name, x) in COEFFICIENTS.iter().zip(private.crt_coefficients()) {
                built.push(name, &Zeroizing::new(x.reveal()));
            }
        }
        let list = built.array();
        // SAFETY: the list and its values live across the call.
        match unsafe { callback(list.as_ptr(), arg) } {
            0 => Err("the export callback refused the key".into()),
            _ => Ok(()),
        }
    })
}

/// The security strength of an RSA modulus of `bits` bits, as OpenSSL's
/// `ossl_ifc_ffc_compute_security_bits` gives it: the canonical values of
/// NIST SP 800-56B rev. 2 Appendix D and FIPS 140-2 IG 7.5 for the usual
/// sizes, else the SP 800-56B formula
/// `(1.923·∛(n·ln2·ln(n·ln2)²) - 4.69) / ln2`, rounded to a multiple of 8
/// and capped so that it never exceeds a larger canonical size's value.
fn security_bits(bits: usize) -> i64 {
    match bits {
        2048 => return 112,
        3072 => return 128,
        4096 => return 152,
        6144 => return 176,
        7680 => return 192,
        8192 => return 200,
        15360 => return 256,
        687_737.. => return 1200,
        0..8 => return 0,
        _ => {}
    }
    let cap = if bits <= 7680 {
        192
    } else if bits <= 15360 {
        256
    } else {
        1200
    };
    let ln2 = core::f64::consts::LN_2;
    let x = bits as f64 * ln2;
    let y = ((1.923 * (x * x.ln() * x.ln()).cbrt() - 4.69) / ln2) as i64;
    ((y + 4) & !7).min(cap)
}

unsafe extern "C" fn get_params(keydata: *mut c_void, list: *mut Param) -> c_int {
    guard(|| {
        // SAFETY: OpenSSL passes a key `new` made and a list to fill.
        let key = unsafe { key_of(keydata) }.ok_or("the key is empty")?;
        let bits = key.public.bits();
        let ints = [
            (c"bits", i64::try_from(bits).unwrap_or(0)),
            (c"security-bits", security_bits(bits)),
            (c"max-size", i64::try_from(key.public.size()).unwrap_or(0)),
        ];
        for (name, value) in ints {
            // SAFETY: as above.
            if let Some(p) = unsafe { params::find_mut(list, name) }
                && !params::set_int(p, value)
            {
                return Err(format!("cannot answer {}", name.to_string_lossy()));
            }
        }
        // SAFETY: as above.
        if let Some(p) = unsafe { params::find_mut(list, c"default-digest") }
            && !params::set_utf8(p, c"SHA256")
        {
            return Err("cannot answer default-digest".into());
        }
        Ok(())
    })
}

unsafe extern "C" fn gettable_params(_provctx: *mut c_void) -> *const Param {
    GETTABLE.as_ptr()
}

unsafe extern "C" fn matches(a: *const c_void, b: *const c_void, _selection: c_int) -> c_int {
    // SAFETY: OpenSSL passes two keys `new` made.
    let (a, b) = unsafe { (key_of(a), key_of(b)) };
    match (a, b) {
        (Some(a), Some(b)) => c_int::from(a.public == b.public),
        _ => 0,
    }
}

unsafe extern "C" fn validate(keydata: *const c_void, selection: c_int, _checktype: c_int) -> c_int {
    // The import checked the key (the public checks of `weak`, and for a
    // private key its primes against n, e and d): what is here is valid.
    // SAFETY: OpenSSL passes a key `new` made.
    unsafe { has(keydata, selection) }
}

#[cfg(test)]
mod tests {
    use super::*;
    use redc_rsa::keygen::{DEFAULT_E, generate_multi};

    /// OpenSSL's canonical values, and the formula's at 1024 and 1536 bits
    /// (80 and 96, worked by hand).
    #[test]
    fn security_bits_are_openssls() {
        let want = [
            (1024, 80),
            (1536, 96),
            (2048, 112),
            (3072, 128),
            (4096, 152),
            (6144, 176),
            (7680, 192),
            (8192, 200),
            (15360, 256),
        ];
        for (bits, s) in want {
            assert_eq!(security_bits(bits), s, "{bits} bits");
        }
    }

    /// A key's parameters as OpenSSL's default provider exports them,
    /// `drop` naming one to leave out and `bad` one to give as `value + 2`.
    fn exported(key: &RsaPrivateKey, drop: Option<&CStr>, bad: Option<&CStr>) -> Built {
        let mut values: Vec<(&'static CStr, Num)> = vec![
            (c"n", key.public_key().n().clone()),
            (c"e", key.public_key().e().clone()),
            (c"d", key.d().reveal()),
        ];
        values.extend(FACTORS.iter().copied().zip(key.primes().iter().map(|p| p.reveal())));
        let mut built = Built::new();
        for (name, value) in values {
            if Some(name) == drop {
                continue;
            }
            let value = if Some(name) == bad {
                value.add(&Num::from_u64(2))
            } else {
                value
            };
            built.push(name, &value);
        }
        built
    }

    /// A fresh key object with `built` imported under `selection`: the
    /// object and `import`'s answer.
    fn imported(built: &mut Built, selection: c_int) -> (*mut c_void, c_int) {
        let list = built.array();
        // SAFETY: the functions as OpenSSL calls them: a fresh object, a
        // parameter list that outlives the call.
        unsafe {
            let data = new(core::ptr::null_mut());
            let ok = import(data, selection, list.as_ptr());
            (data, ok)
        }
    }

    /// The parameters an export hands its callback: name and value.
    unsafe extern "C" fn collect(list: *const Param, arg: *mut c_void) -> c_int {
        // SAFETY: `arg` is the test's vector; `list` OpenSSL-shaped.
        unsafe {
            let out = &mut *arg.cast::<Vec<(String, Num)>>();
            for p in params::entries(list) {
                out.push((
                    CStr::from_ptr(p.key).to_string_lossy().into_owned(),
                    params::get_num(p).unwrap(),
                ));
            }
        }
        1
    }

    #[test]
    fn keys_import_answer_and_export_as_openssl_passes_them() {
        const ALL: c_int = 0x87;
        for primes in [2, 3] {
            let key = generate_multi(2048, primes, &Num::from_u64(DEFAULT_E), &|_| {}).unwrap();
            let (data, ok) = imported(&mut exported(&key, None, None), ALL);
            assert_eq!(ok, 1, "{primes} primes");
            // SAFETY: the object `imported` made, freed once at the end.
            unsafe {
                assert_eq!(has(data, SELECT_PRIVATE_KEY | SELECT_PUBLIC_KEY), 1);
                let mut out = [0i32; 3];
                let mut digest = [0u8; 16];
                let mut list = [
                    Param {
                        data: (&raw mut out[0]).cast(),
                        data_size: 4,
                        ..Param::describe(c"bits", ffi::INTEGER)
                    },
                    Param {
                        data: (&raw mut out[1]).cast(),
                        data_size: 4,
                        ..Param::describe(c"security-bits", ffi::INTEGER)
                    },
                    Param {
                        data: (&raw mut out[2]).cast(),
                        data_size: 4,
                        ..Param::describe(c"max-size", ffi::INTEGER)
                    },
                    Param {
                        data: digest.as_mut_ptr().cast(),
                        data_size: 16,
                        ..Param::describe(c"default-digest", ffi::UTF8_STRING)
                    },
                    Param::END,
                ];
                assert_eq!(get_params(data, list.as_mut_ptr()), 1);
                assert_eq!(out, [2048, 112, 256]);
                assert_eq!(&digest[..7], b"SHA256\0");
                let mut got: Vec<(String, Num)> = Vec::new();
                assert_eq!(export(data, ALL, Some(collect), (&raw mut got).cast()), 1);
                let names: Vec<&str> = got.iter().map(|(n, _)| n.as_str()).collect();
                assert_eq!(&names[..3], ["n", "e", "d"]);
                assert_eq!(names.len(), 3 + 3 * primes - 1, "{names:?}");
                assert_eq!(got[2].1, key.d().reveal());
                assert_eq!(got[3].1, key.primes()[0].reveal());
                // The same public key matches; a public-only import has no
                // private half.
                let (public, ok) = imported(&mut exported(&key, Some(c"d"), None), ALL);
                assert_eq!(ok, 1);
                assert_eq!(has(public, SELECT_PUBLIC_KEY), 1);
                assert_eq!(has(public, SELECT_PRIVATE_KEY), 0);
                assert_eq!(matches(data, public, ALL), 1);
                free(public);
                free(data);
            }
        }
    }

    #[test]
    fn bad_keys_are_refused_without_a_panic() {
        const ALL: c_int = 0x87;
        let key = generate_multi(2048, 2, &Num::from_u64(DEFAULT_E), &|_| {}).unwrap();
        let cases = [
            (Some(c"e"), None),
            (Some(c"n"), None),
            (Some(c"rsa-factor2"), None),
            (None, Some(c"rsa-factor1")),
            (None, Some(c"d")),
            (None, Some(c"n")),
        ];
        for (drop, bad) in cases {
            let (data, ok) = imported(&mut exported(&key, drop, bad), ALL);
            assert_eq!(ok, 0, "without {drop:?}, wrong {bad:?}");
            // SAFETY: the object `imported` made, freed once.
            unsafe {
                assert_eq!(has(data, SELECT_PUBLIC_KEY), 0, "nothing kept");
                free(data);
            }
        }
        // A modulus given as a string, and no list at all.
        let mut text = *b"1234\0";
        let list = [
            Param {
                data: text.as_mut_ptr().cast(),
                data_size: 4,
                ..Param::describe(c"n", ffi::UTF8_STRING)
            },
            Param::END,
        ];
        // SAFETY: as OpenSSL calls them.
        unsafe {
            let data = new(core::ptr::null_mut());
            assert_eq!(import(data, ALL, list.as_ptr()), 0);
            assert_eq!(import(data, ALL, core::ptr::null()), 0);
            assert_eq!(import(core::ptr::null_mut(), ALL, list.as_ptr()), 0);
            free(data);
        }
    }
}
