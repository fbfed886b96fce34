//! OpenSSL 4.0 in the bench's own process (feature `openssl4`: built from
//! the `openssl-src` crate and linked statically by `build.rs`), timed on
//! the bench's own key and inputs: the RSA private operation (raw, no
//! padding: `EVP_PKEY_sign` with `RSA_NO_PADDING`, which OpenSSL blinds,
//! runs by CRT and checks with `e`, as redc does) and the public one
//! (`EVP_PKEY_encrypt`, no padding), single operations on one thread and on
//! one thread each of the bench's threads, and `BN_mod_mul_montgomery`,
//! product and square, per call; and the finite-field rows: DH derivation
//! (`EVP_PKEY_derive`, the peer set once per thread as `openssl speed
//! ffdh` does, the secret padded to the length of p), DSA signing and
//! verification (`EVP_PKEY_sign`, `EVP_PKEY_verify` on SHA-256 digests),
//! on the bench's own keys, each first answer checked against redc's.
//!
//! The binding covers the functions called, with their prototypes from
//! OpenSSL 4.0's headers; every object is freed on every path (a guard per
//! pointer). The key reaches OpenSSL as PKCS#8 DER, which is wiped.

#![allow(unsafe_code)]

use super::{CHAIN, Num, rate};
use anyhow::{Context, anyhow, bail};
use redc_ffc::encoding::KeyFile;
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
    fn d2i_PUBKEY(a: *mut *mut c_void, pp: *mut *const u8, length: c_long) -> *mut c_void;
    fn EVP_PKEY_derive_init(ctx: *mut c_void) -> c_int;
    fn EVP_PKEY_CTX_set_dh_pad(ctx: *mut c_void, pad: c_int) -> c_int;
    fn EVP_PKEY_derive_set_peer(ctx: *mut c_void, peer: *mut c_void) -> c_int;
    fn EVP_PKEY_derive(ctx: *mut c_void, key: *mut u8, keylen: *mut usize) -> c_int;
    fn EVP_PKEY_verify_init(ctx: *mut c_void) -> c_int;
    fn EVP_PKEY_verify(ctx: *mut c_void, sig: *const u8, siglen: usize, tbs: *const u8, tbslen: usize) -> c_int;
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
        threaded(
            threads,
            seconds,
            inputs.len(),
            |_| self.context(private),
            |ctx, i| self.apply(ctx, private, &inputs[i]).map(drop),
        )
    }
}

/// Single operations per second on `threads` threads, `seconds` long: each
/// thread makes its state with `setup(thread)` and calls `op(state, i)`
/// with `i` going round `0..count` from its own start.
fn threaded<S>(
    threads: usize,
    seconds: f64,
    count: usize,
    setup: impl Fn(usize) -> anyhow::Result<S> + Sync,
    op: impl Fn(&S, usize) -> anyhow::Result<()> + Sync,
) -> anyhow::Result<f64> {
    std::thread::scope(|s| {
        let runs: Vec<_> = (0..threads)
            .map(|t| {
                let (setup, op) = (&setup, &op);
                s.spawn(move || {
                    let state = setup(t)?;
                    let mut i = t;
                    rate(seconds, 1, || {
                        i = (i + 1) % count.max(1);
                        op(&state, i)
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

/// A DH or DSA key in OpenSSL, from its PKCS#8 (private) or SPKI (public) DER.
struct FfcKey(Owned);

// SAFETY: as for `Key`: loaded once, each thread makes its own contexts.
unsafe impl Send for FfcKey {}
// SAFETY: as above.
unsafe impl Sync for FfcKey {}

impl FfcKey {
    fn load(der: &[u8], private: bool) -> anyhow::Result<FfcKey> {
        let mut p = der.as_ptr();
        let len = c_long::try_from(der.len()).context("key too long")?;
        // SAFETY: `p` points to `len` bytes of DER, read and not kept.
        let pkey = unsafe {
            if private {
                d2i_AutoPrivateKey(core::ptr::null_mut(), &mut p, len)
            } else {
                d2i_PUBKEY(core::ptr::null_mut(), &mut p, len)
            }
        };
        Ok(FfcKey(Owned::new(pkey, EVP_PKEY_free, "reading a DH or DSA key")?))
    }

    fn private(key: &impl KeyFile) -> anyhow::Result<FfcKey> {
        FfcKey::load(&key.to_der().map_err(|e| anyhow!("PKCS#8: {e}"))?, true)
    }

    fn public(key: &impl KeyFile) -> anyhow::Result<FfcKey> {
        FfcKey::load(&key.to_der().map_err(|e| anyhow!("SPKI: {e}"))?, false)
    }

    /// A fresh context, made ready by `init`.
    fn context(&self, init: unsafe extern "C" fn(*mut c_void) -> c_int, what: &str) -> anyhow::Result<Owned> {
        // SAFETY: a loaded key; null library context and property query.
        let ctx = unsafe { EVP_PKEY_CTX_new_from_pkey(core::ptr::null_mut(), self.0.ptr, core::ptr::null()) };
        let ctx = Owned::new(ctx, EVP_PKEY_CTX_free, "EVP_PKEY_CTX_new_from_pkey")?;
        // SAFETY: a fresh context of this key.
        ok(unsafe { init(ctx.ptr) }, what)?;
        Ok(ctx)
    }

    /// A derivation context with `peer` set (OpenSSL checks the peer here,
    /// once) and the secret padded.
    fn derive_context(&self, peer: &FfcKey) -> anyhow::Result<Owned> {
        let ctx = self.context(EVP_PKEY_derive_init, "EVP_PKEY_derive_init")?;
        // SAFETY: a derivation context and a loaded public key.
        unsafe {
            ok(EVP_PKEY_CTX_set_dh_pad(ctx.ptr, 1), "EVP_PKEY_CTX_set_dh_pad")?;
            ok(
                EVP_PKEY_derive_set_peer(ctx.ptr, peer.0.ptr),
                "EVP_PKEY_derive_set_peer",
            )?;
        }
        Ok(ctx)
    }
}

/// The shared secret of a derivation context.
fn derive(ctx: &Owned) -> anyhow::Result<Vec<u8>> {
    let mut out = vec![0u8; 1024];
    let mut len = out.len();
    // SAFETY: `out` has room for `len` bytes; `ctx` is ready to derive.
    ok(
        unsafe { EVP_PKEY_derive(ctx.ptr, out.as_mut_ptr(), &mut len) },
        "EVP_PKEY_derive",
    )?;
    out.truncate(len);
    Ok(out)
}

/// A DSA signature (DER) of `digest`.
fn dsa_sign(ctx: &Owned, digest: &[u8]) -> anyhow::Result<Vec<u8>> {
    let mut sig = vec![0u8; 128];
    let mut len = sig.len();
    // SAFETY: `sig` has room for `len` bytes; `digest` is readable.
    let rc = unsafe { EVP_PKEY_sign(ctx.ptr, sig.as_mut_ptr(), &mut len, digest.as_ptr(), digest.len()) };
    ok(rc, "EVP_PKEY_sign")?;
    sig.truncate(len);
    Ok(sig)
}

/// Whether `sig` (DER) verifies on `digest`.
fn dsa_verify(ctx: &Owned, digest: &[u8], sig: &[u8]) -> bool {
    // SAFETY: both buffers are readable for their lengths.
    unsafe { EVP_PKEY_verify(ctx.ptr, sig.as_ptr(), sig.len(), digest.as_ptr(), digest.len()) == 1 }
}

/// OpenSSL 4's rate for a finite-field row on `threads` threads, after its
/// first answers were checked against redc's: the same secret for each
/// peer, a signature redc verifies, redc's signatures verified.
pub(super) fn ffc_rate(work: &super::ffc::Work<'_>, threads: usize, seconds: f64) -> anyhow::Result<f64> {
    use super::ffc::Work;
    match work {
        Work::Dh(dh) => {
            let key = FfcKey::private(&dh.key)?;
            let peers = dh
                .peers
                .iter()
                .map(|p| FfcKey::public(p.public_key()))
                .collect::<anyhow::Result<Vec<_>>>()?;
            let first = derive(&key.derive_context(&peers[0])?)?;
            if first != dh.expected[0] {
                bail!("OpenSSL 4 derived another DH secret than redc's peer; its speed is not reported");
            }
            threaded(
                threads,
                seconds,
                1,
                |t| key.derive_context(&peers[t % peers.len()]),
                |ctx, _| derive(ctx).map(drop),
            )
        }
        Work::DsaSign(dsa) => {
            let key = FfcKey::private(&dsa.key)?;
            let init = || key.context(EVP_PKEY_sign_init, "EVP_PKEY_sign_init");
            let sig = dsa_sign(&init()?, &dsa.digests[0])?;
            let sig =
                redc_ffc::dsa::Signature::from_der(&sig).map_err(|e| anyhow!("OpenSSL 4's DSA signature: {e}"))?;
            if dsa.key.public_key().verify_prehashed(&dsa.digests[0], &sig).is_err() {
                bail!("OpenSSL 4's DSA signature does not verify; its speed is not reported");
            }
            threaded(
                threads,
                seconds,
                dsa.digests.len(),
                |_| init(),
                |ctx, i| dsa_sign(ctx, &dsa.digests[i]).map(drop),
            )
        }
        Work::DsaVerify(dsa) => {
            let key = FfcKey::public(dsa.key.public_key())?;
            let init = || key.context(EVP_PKEY_verify_init, "EVP_PKEY_verify_init");
            let sigs = dsa
                .sigs
                .iter()
                .map(|s| s.to_der().map_err(|e| anyhow!("DSA signature: {e}")))
                .collect::<anyhow::Result<Vec<_>>>()?;
            let ctx = init()?;
            if !dsa.digests.iter().zip(&sigs).all(|(d, s)| dsa_verify(&ctx, d, s)) {
                bail!("OpenSSL 4 refused a DSA signature redc made; its speed is not reported");
            }
            threaded(
                threads,
                seconds,
                sigs.len(),
                |_| init(),
                |ctx, i| {
                    if dsa_verify(ctx, &dsa.digests[i], &sigs[i]) {
                        Ok(())
                    } else {
                        Err(anyhow!("OpenSSL 4: a DSA verification failed while timed"))
                    }
                },
            )
        }
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
