//! OpenSSL 4.0 in the bench's own process (feature `openssl4`: built from
//! the `openssl-src` crate and linked statically by `build.rs`), timed on
//! the bench's own key and inputs: the RSA private operation (raw, no
//! padding: `EVP_PKEY_sign` with `RSA_NO_PADDING`, which OpenSSL blinds,
//! runs by CRT and checks with `e`, as redc does) and the public one
//! (`EVP_PKEY_encrypt`, no padding), single operations on one thread and on
//! one thread each of the bench's threads, and `BN_mod_mul_montgomery`,
//! product and square, per call.
//!
//! The binding covers the functions called, with their prototypes from
//! OpenSSL 4.0's headers; every object is freed on every path (a guard per
//! pointer). The key reaches OpenSSL as PKCS#8 DER, which is wiped.

#![allow(unsafe_code)]

use super::products::CHAIN;
use super::{Num, rate};
use anyhow::{Context, anyhow, bail};
use redc_rsa::RsaPrivateKey;
use std::ffi::{CStr, c_char, c_int, c_long, c_void};

/// `RSA_NO_PADDING` of `rsa.h`.
const RSA_NO_PADDING: c_int = 3;
/// `OPENSSL_VERSION` of `crypto.h`.
const OPENSSL_VERSION: c_int = 0;

unsafe extern "C" {
    fn OpenSSL_version(t: c_int) -> *const c_char;
    fn d2i_AutoPrivateKey(a: *mut *mut c_void, pp: *mut *const u8, length: c_long) -> *mut c_void;
    fn EVP_PKEY_free(pkey: *mut c_void);
    fn EVP_PKEY_CTX_new_from_pkey(libctx: *mut c_void, pkey: *mut c_void, propquery: *const c_char) -> *mut c_void;
    fn EVP_PKEY_CTX_free(ctx: *mut c_void);
    fn EVP_PKEY_sign_init(ctx: *mut c_void) -> c_int;
    fn EVP_PKEY_encrypt_init(ctx: *mut c_void) -> c_int;
    fn EVP_PKEY_CTX_set_rsa_padding(ctx: *mut c_void, pad: c_int) -> c_int;
    fn EVP_PKEY_sign(ctx: *mut c_void, sig: *mut u8, siglen: *mut usize, tbs: *const u8, tbslen: usize) -> c_int;
    fn EVP_PKEY_encrypt(ctx: *mut c_void, out: *mut u8, outlen: *mut usize, input: *const u8, inlen: usize) -> c_int;
    fn BN_new() -> *mut c_void;
    fn BN_free(a: *mut c_void);
    fn BN_bin2bn(s: *const u8, len: c_int, ret: *mut c_void) -> *mut c_void;
    fn BN_CTX_new() -> *mut c_void;
    fn BN_CTX_free(ctx: *mut c_void);
    fn BN_MONT_CTX_new() -> *mut c_void;
    fn BN_MONT_CTX_free(mont: *mut c_void);
    fn BN_MONT_CTX_set(mont: *mut c_void, m: *const c_void, ctx: *mut c_void) -> c_int;
    fn BN_to_montgomery(r: *mut c_void, a: *const c_void, mont: *mut c_void, ctx: *mut c_void) -> c_int;
    fn BN_mod_mul_montgomery(
        r: *mut c_void,
        a: *const c_void,
        b: *const c_void,
        mont: *mut c_void,
        ctx: *mut c_void,
    ) -> c_int;
}

/// An OpenSSL object, freed by `free` on drop.
struct Owned {
    ptr: *mut c_void,
    free: unsafe extern "C" fn(*mut c_void),
}

impl Owned {
    /// `ptr`, or an error naming `what` when it is null.
    fn new(ptr: *mut c_void, free: unsafe extern "C" fn(*mut c_void), what: &str) -> anyhow::Result<Owned> {
        if ptr.is_null() {
            bail!("OpenSSL 4: {what} failed");
        }
        Ok(Owned { ptr, free })
    }
}

impl Drop for Owned {
    fn drop(&mut self) {
        // SAFETY: `ptr` came from the allocator that `free` belongs to, and
        // is freed once.
        unsafe { (self.free)(self.ptr) }
    }
}

/// An OpenSSL return code: 1 (or above) is success.
fn ok(rc: c_int, what: &str) -> anyhow::Result<()> {
    if rc <= 0 {
        bail!("OpenSSL 4: {what} failed");
    }
    Ok(())
}

/// The linked OpenSSL's version line.
pub(super) fn version() -> String {
    // SAFETY: OpenSSL_version returns a static NUL-terminated string.
    unsafe { CStr::from_ptr(OpenSSL_version(OPENSSL_VERSION)) }
        .to_string_lossy()
        .into_owned()
}

/// One key loaded into OpenSSL.
pub(super) struct Key {
    pkey: Owned,
    /// The modulus length in bytes.
    size: usize,
}

// SAFETY: an EVP_PKEY is safe to share between threads once loaded (each
// thread makes its own EVP_PKEY_CTX; OpenSSL 4 locks what it caches).
unsafe impl Send for Key {}
// SAFETY: as above.
unsafe impl Sync for Key {}

impl Key {
    /// `key` as an OpenSSL key, through PKCS#8 DER.
    pub(super) fn load(key: &RsaPrivateKey) -> anyhow::Result<Key> {
        let der = key.to_pkcs8_der().map_err(|e| anyhow!("PKCS#8: {e}"))?;
        let mut p = der.as_ptr();
        let len = c_long::try_from(der.len()).context("key too long")?;
        // SAFETY: `p` points to `len` bytes of DER, read and not kept.
        let pkey = unsafe { d2i_AutoPrivateKey(core::ptr::null_mut(), &mut p, len) };
        Ok(Key {
            pkey: Owned::new(pkey, EVP_PKEY_free, "d2i_AutoPrivateKey")?,
            size: key.public_key().size(),
        })
    }

    /// A context for the private (`sign`) or public (`encrypt`) raw operation.
    fn context(&self, private: bool) -> anyhow::Result<Owned> {
        // SAFETY: `pkey` is a loaded key; a null library context and
        // property query are the defaults.
        let ctx = unsafe { EVP_PKEY_CTX_new_from_pkey(core::ptr::null_mut(), self.pkey.ptr, core::ptr::null()) };
        let ctx = Owned::new(ctx, EVP_PKEY_CTX_free, "EVP_PKEY_CTX_new_from_pkey")?;
        // SAFETY: `ctx` is a fresh context of an RSA key.
        unsafe {
            if private {
                ok(EVP_PKEY_sign_init(ctx.ptr), "EVP_PKEY_sign_init")?;
            } else {
                ok(EVP_PKEY_encrypt_init(ctx.ptr), "EVP_PKEY_encrypt_init")?;
            }
            ok(
                EVP_PKEY_CTX_set_rsa_padding(ctx.ptr, RSA_NO_PADDING),
                "EVP_PKEY_CTX_set_rsa_padding",
            )?;
        }
        Ok(ctx)
    }

    /// The raw private or public operation on `input` (below `n`).
    fn apply(&self, ctx: &Owned, private: bool, input: &Num) -> anyhow::Result<Num> {
        let mut x = input.to_be_bytes();
        if x.len() > self.size {
            bail!("OpenSSL 4: input longer than the modulus");
        }
        x.splice(0..0, core::iter::repeat_n(0, self.size - x.len()));
        let mut out = vec![0u8; self.size];
        let mut len = out.len();
        // SAFETY: `out` has room for `len` bytes; `x` is `size` bytes; `ctx`
        // was initialised for this operation.
        let rc = unsafe {
            if private {
                EVP_PKEY_sign(ctx.ptr, out.as_mut_ptr(), &mut len, x.as_ptr(), x.len())
            } else {
                EVP_PKEY_encrypt(ctx.ptr, out.as_mut_ptr(), &mut len, x.as_ptr(), x.len())
            }
        };
        ok(rc, if private { "EVP_PKEY_sign" } else { "EVP_PKEY_encrypt" })?;
        Ok(Num::from_be_bytes(&out[..len.min(out.len())]))
    }

    /// The answer to the first input, for the bench's check.
    pub(super) fn first(&self, private: bool, input: &Num) -> anyhow::Result<Num> {
        let ctx = self.context(private)?;
        self.apply(&ctx, private, input)
    }

    /// Single operations per second over `inputs`, on `threads` threads
    /// each with its own context, `seconds` long.
    pub(super) fn rate(&self, private: bool, inputs: &[Num], threads: usize, seconds: f64) -> anyhow::Result<f64> {
        std::thread::scope(|s| {
            let runs: Vec<_> = (0..threads)
                .map(|t| {
                    s.spawn(move || {
                        let ctx = self.context(private)?;
                        let mut i = t;
                        rate(seconds, 1, || {
                            i = (i + 1) % inputs.len();
                            self.apply(&ctx, private, &inputs[i]).map(drop)
                        })
                    })
                })
                .collect();
            let mut total = 0.0;
            for run in runs {
                total += run.join().map_err(|_| anyhow!("OpenSSL 4: a timing thread failed"))??;
            }
            Ok(total)
        })
    }
}

/// `BN_mod_mul_montgomery` modulo `n`: `(product, square)` calls per
/// second, each on the previous result (a chain, as in an exponentiation),
/// `seconds` each.
pub(super) fn montgomery_rates(n: &Num, x: &Num, seconds: f64) -> anyhow::Result<(f64, f64)> {
    let bn = |v: &Num| -> anyhow::Result<Owned> {
        let bytes = v.to_be_bytes();
        let len = c_int::try_from(bytes.len()).context("number too long")?;
        // SAFETY: `bytes` holds `len` bytes; a null `ret` asks for a new BIGNUM.
        Owned::new(
            unsafe { BN_bin2bn(bytes.as_ptr(), len, core::ptr::null_mut()) },
            BN_free,
            "BN_bin2bn",
        )
    };
    let (n, x) = (bn(n)?, bn(x)?);
    // SAFETY: the constructors take no arguments.
    let (ctx, mont) = unsafe {
        (
            Owned::new(BN_CTX_new(), BN_CTX_free, "BN_CTX_new")?,
            Owned::new(BN_MONT_CTX_new(), BN_MONT_CTX_free, "BN_MONT_CTX_new")?,
        )
    };
    // SAFETY: every pointer is a live object of its type; results go to
    // BIGNUMs of their own.
    unsafe {
        ok(BN_MONT_CTX_set(mont.ptr, n.ptr, ctx.ptr), "BN_MONT_CTX_set")?;
        let (a, b) = (
            Owned::new(BN_new(), BN_free, "BN_new")?,
            Owned::new(BN_new(), BN_free, "BN_new")?,
        );
        ok(BN_to_montgomery(a.ptr, x.ptr, mont.ptr, ctx.ptr), "BN_to_montgomery")?;
        ok(BN_to_montgomery(b.ptr, x.ptr, mont.ptr, ctx.ptr), "BN_to_montgomery")?;
        // a := a·y, CHAIN times per clock reading.
        let chain = |y: *const c_void| {
            rate(seconds, CHAIN, || {
                for _ in 0..CHAIN {
                    ok(
                        BN_mod_mul_montgomery(a.ptr, a.ptr, y, mont.ptr, ctx.ptr),
                        "BN_mod_mul_montgomery",
                    )?;
                }
                Ok(())
            })
        };
        Ok((chain(b.ptr)?, chain(a.ptr)?))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use num_bigint::BigUint;

    fn big(x: &Num) -> BigUint {
        BigUint::from_bytes_be(&x.to_be_bytes())
    }

    /// OpenSSL 4's raw private and public operations on redc's key agree
    /// with num-bigint, and every rate is a positive figure.
    #[test]
    fn the_linked_openssl_agrees_with_num_bigint() {
        assert!(version().starts_with("OpenSSL 4."), "{}", version());
        let key = redc_rsa::keygen::generate(1024, &Num::from_u64(65537), &|_| {}).unwrap();
        let n = key.public_key().n();
        let x = Num::from_u64(0x1234_5678_9abc_def1);
        let loaded = Key::load(&key).unwrap();
        let d = big(&key.d().reveal());
        let e = big(key.public_key().e());
        assert_eq!(big(&loaded.first(true, &x).unwrap()), big(&x).modpow(&d, &big(n)));
        assert_eq!(big(&loaded.first(false, &x).unwrap()), big(&x).modpow(&e, &big(n)));
        for private in [true, false] {
            assert!(loaded.rate(private, std::slice::from_ref(&x), 2, 0.01).unwrap() > 0.0);
        }
        let (product, square) = montgomery_rates(n, &x, 0.01).unwrap();
        assert!(product > 0.0 && square > 0.0);
    }
}
