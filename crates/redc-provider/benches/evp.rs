//! One RSA signature at a time through OpenSSL's EVP API (`EVP_PKEY_sign`
//! of a SHA-256 digest, PKCS#1 v1.5), with this provider and with the
//! default provider of the same libcrypto, in the same run: the latency a
//! program linked to OpenSSL sees without asynchronous jobs. Beside them,
//! the same signature by redc-rsa called directly (`sign_prehashed`): what
//! the provider's boundary adds.
//!
//! `cargo bench -p redc-provider --bench evp [-- SECONDS]`: keys of 2048,
//! 3072 and 4096 bits made by `openssl genpkey`; rounds alternate between
//! the providers; each row is the median of the rounds' times per
//! signature (wall clock, one thread). Every signature is checked by the
//! other provider's verification before the timing counts.
#![allow(unsafe_code, missing_docs, clippy::print_stdout)]

use redc_rsa::pkcs1v15::Pkcs1v15Sign;
use redc_rsa::{HashAlg, OsRng};
use std::ffi::{CString, c_char, c_int, c_void};
use std::path::Path;
use std::process::Command;
use std::time::Instant;

#[link(name = "crypto")]
unsafe extern "C" {
    fn OSSL_PROVIDER_set_default_search_path(ctx: *mut c_void, path: *const c_char) -> c_int;
    fn OSSL_PROVIDER_load(ctx: *mut c_void, name: *const c_char) -> *mut c_void;
    fn BIO_new_mem_buf(buf: *const c_void, len: c_int) -> *mut c_void;
    fn BIO_free(bio: *mut c_void) -> c_int;
    fn PEM_read_bio_PrivateKey(bio: *mut c_void, x: *mut c_void, cb: *mut c_void, u: *mut c_void) -> *mut c_void;
    fn EVP_PKEY_CTX_new_from_pkey(ctx: *mut c_void, pkey: *mut c_void, propq: *const c_char) -> *mut c_void;
    fn EVP_PKEY_CTX_free(ctx: *mut c_void);
    fn EVP_PKEY_sign_init(ctx: *mut c_void) -> c_int;
    fn EVP_PKEY_verify_init(ctx: *mut c_void) -> c_int;
    fn EVP_PKEY_CTX_set_rsa_padding(ctx: *mut c_void, pad: c_int) -> c_int;
    fn EVP_PKEY_CTX_set_signature_md(ctx: *mut c_void, md: *const c_void) -> c_int;
    fn EVP_sha256() -> *const c_void;
    fn EVP_PKEY_sign(ctx: *mut c_void, sig: *mut u8, siglen: *mut usize, tbs: *const u8, tbslen: usize) -> c_int;
    fn EVP_PKEY_verify(ctx: *mut c_void, sig: *const u8, siglen: usize, tbs: *const u8, tbslen: usize) -> c_int;
}

/// A signing or verifying context of `key` on the provider `propq` names.
fn context(key: *mut c_void, propq: &str, sign: bool) -> *mut c_void {
    let propq = CString::new(propq).unwrap();
    // SAFETY: a live key and a C string; the context is checked and set up
    // with OpenSSL's own calls.
    unsafe {
        let ctx = EVP_PKEY_CTX_new_from_pkey(core::ptr::null_mut(), key, propq.as_ptr());
        assert!(!ctx.is_null(), "no context");
        let init = if sign {
            EVP_PKEY_sign_init(ctx)
        } else {
            EVP_PKEY_verify_init(ctx)
        };
        assert_eq!(init, 1, "init");
        assert_eq!(EVP_PKEY_CTX_set_rsa_padding(ctx, 1), 1, "padding");
        assert!(EVP_PKEY_CTX_set_signature_md(ctx, EVP_sha256()) > 0, "digest");
        ctx
    }
}

/// One signature of `digest` on `ctx`.
fn sign(ctx: *mut c_void, digest: &[u8]) -> Vec<u8> {
    let mut sig = vec![0u8; 1024];
    let mut len = sig.len();
    // SAFETY: a signing context; the buffer has `len` bytes.
    let ok = unsafe { EVP_PKEY_sign(ctx, sig.as_mut_ptr(), &mut len, digest.as_ptr(), digest.len()) };
    assert_eq!(ok, 1, "EVP_PKEY_sign");
    sig.truncate(len);
    sig
}

fn main() {
    let seconds: f64 = std::env::args().skip(1).find_map(|a| a.parse().ok()).unwrap_or(1.0);
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("redc-provider-bench");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    // The bench binary is in target/<profile>/deps, beside the library.
    let exe = std::env::current_exe().unwrap();
    let library = exe.parent().unwrap().join("libredc_provider.so");
    std::os::unix::fs::symlink(&library, dir.join("redc.so")).unwrap();
    let path = CString::new(dir.to_str().unwrap()).unwrap();
    // SAFETY: C strings; the providers stay loaded for the process.
    unsafe {
        assert_eq!(
            OSSL_PROVIDER_set_default_search_path(core::ptr::null_mut(), path.as_ptr()),
            1
        );
        assert!(
            !OSSL_PROVIDER_load(core::ptr::null_mut(), c"redc".as_ptr()).is_null(),
            "redc"
        );
        assert!(
            !OSSL_PROVIDER_load(core::ptr::null_mut(), c"default".as_ptr()).is_null(),
            "default"
        );
    }
    let digest = [0x5au8; 32];
    println!("RSA sign of a SHA-256 digest, PKCS#1 v1.5, one thread, EVP_PKEY_sign; {seconds} s per round, 5 rounds");
    println!();
    println!("| bits | redc provider | default provider | redc / default | redc-rsa direct |");
    println!("| ---: | ---: | ---: | ---: | ---: |");
    for bits in [2048, 3072, 4096] {
        let file = dir.join(format!("{bits}.pem"));
        let status = Command::new("openssl")
            .args([
                "genpkey",
                "-algorithm",
                "RSA",
                "-pkeyopt",
                &format!("rsa_keygen_bits:{bits}"),
                "-out",
            ])
            .arg(&file)
            .stderr(std::process::Stdio::null())
            .status()
            .unwrap();
        assert!(status.success(), "openssl genpkey");
        let pem = std::fs::read(&file).unwrap();
        // SAFETY: the buffer outlives the BIO, freed after the read.
        let key = unsafe {
            let bio = BIO_new_mem_buf(pem.as_ptr().cast(), c_int::try_from(pem.len()).unwrap());
            let key = PEM_read_bio_PrivateKey(bio, core::ptr::null_mut(), core::ptr::null_mut(), core::ptr::null_mut());
            BIO_free(bio);
            key
        };
        assert!(!key.is_null(), "the key");
        let providers = ["provider=redc", "provider=default"];
        let signers = providers.map(|p| context(key, p, true));
        // Each provider's signature verifies under the other.
        for (i, &s) in signers.iter().enumerate() {
            let sig = sign(s, &digest);
            let verifier = context(key, providers[1 - i], false);
            // SAFETY: a verifying context and live buffers.
            let ok = unsafe { EVP_PKEY_verify(verifier, sig.as_ptr(), sig.len(), digest.as_ptr(), digest.len()) };
            assert_eq!(ok, 1, "{} signature at {bits} bits", providers[i]);
            // SAFETY: made above, freed once.
            unsafe { EVP_PKEY_CTX_free(verifier) };
        }
        let direct = redc_rsa::read_private_key(&pem, None).unwrap();
        let padding = Pkcs1v15Sign::new(HashAlg::Sha256);
        let mut times = [Vec::new(), Vec::new(), Vec::new()];
        for _ in 0..5 {
            for (i, t) in times.iter_mut().enumerate() {
                let start = Instant::now();
                let mut count = 0u32;
                while start.elapsed().as_secs_f64() < seconds {
                    match signers.get(i) {
                        Some(&s) => drop(std::hint::black_box(sign(s, &digest))),
                        None => drop(std::hint::black_box(
                            direct.sign_prehashed(padding, &digest, &mut OsRng),
                        )),
                    }
                    count += 1;
                }
                t.push(start.elapsed().as_secs_f64() / f64::from(count) * 1e6);
            }
        }
        let [redc, default, direct] = times.map(|mut t| {
            t.sort_by(f64::total_cmp);
            t[t.len() / 2]
        });
        println!(
            "| {bits} | {redc:.1} µs | {default:.1} µs | {:.2}× | {direct:.1} µs |",
            default / redc
        );
        for s in signers {
            // SAFETY: made above, freed once.
            unsafe { EVP_PKEY_CTX_free(s) };
        }
    }
}
