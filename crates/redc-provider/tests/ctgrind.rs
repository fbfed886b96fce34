//! The secret-taint check of the provider's private paths, as OpenSSL
//! drives them: each path runs in this test binary under Valgrind's
//! memcheck (`REDC_CTGRIND_PATH` names it), with redc's secrets marked
//! undefined (the feature `ctgrind`, as `crates/redc-rsa/tests/ctgrind.rs`
//! explains), so that a branch or a memory address computed from one is
//! reported. A key made by `openssl genpkey` is loaded by libcrypto and
//! moved into the provider through its key management (`import`: the
//! private parameters become redc's marked secrets); then `EVP_PKEY_sign`
//! (PKCS#1 v1.5, PSS) and `EVP_PKEY_decrypt` (PKCS#1 v1.5 with implicit
//! rejection of a bad padding, OAEP, the TLS premaster secret with the
//! right and a wrong client version) run on the provider. The harness
//! reveals a plaintext before comparing it, as its owner may; the control
//! (a branch on the first byte of a plaintext not revealed) must be
//! caught, which shows that the taint reaches what the provider returns.
//!
//! Not covered: the async-job batches (their private operation is
//! redc-rsa's `raw_private_batch`, covered by redc-rsa's check; the pause
//! itself handles no secret), and what Valgrind cannot see (the IFMA and
//! ADX kernels; see redc-rsa's check). Run by `.ci/run` with `--release
//! --features ctgrind`.

#![allow(clippy::print_stderr, unsafe_code)]

#[path = "../../redc-rsa/tests/ctgrind_support/mod.rs"]
mod ctgrind_support;
mod evp;

use ctgrind_support::{ERROR_EXIT, release_only, report};
use redc::secret::taint;
use std::path::{Path, PathBuf};

/// Every private path, one Valgrind run each.
const PATHS: [&str; 5] = [
    "sign-pkcs1v15",
    "sign-pss",
    "decrypt-pkcs1v15-implicit-rejection",
    "decrypt-oaep",
    "decrypt-tls-premaster",
];

/// The directory the parent and its children share: the provider's link
/// and the key.
fn dir() -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR")).join("redc-provider-ctgrind")
}

/// Reveals a plaintext for the harness's own check of it (its owner may).
fn public(bytes: &[u8]) -> Vec<u8> {
    let mut out = bytes.to_vec();
    taint::declassify(&mut out[..]);
    out
}

/// One path, on the key `key`, with contexts on redc (`provider=redc`)
/// and, to make inputs and check outputs, on the default provider.
fn run_path(path: &str, key: *mut core::ffi::c_void) {
    let digest = [0x5au8; 32];
    let sign = |pad| {
        let ctx = evp::context(key, "provider=redc", true);
        evp::set_padding(ctx, pad);
        // Public once made; revealed before the default provider reads it.
        let sig = public(&evp::sign(ctx, &digest));
        evp::free_context(ctx);
        let check = evp::context(key, "provider=default", false);
        evp::set_padding(check, pad);
        assert!(evp::verifies(check, &sig, &digest), "{path}");
        evp::free_context(check);
    };
    // The encryption of `msg` by the default provider with padding `pad`.
    let encrypt = |pad, msg: &[u8]| {
        let enc = evp::cipher_context(key, "provider=default", false, pad);
        let ct = evp::encrypt(enc, msg);
        evp::free_context(enc);
        ct
    };
    // Its decryption by redc.
    let round_trip = |pad, msg: &[u8]| decrypt_with(key, pad, &encrypt(pad, msg), &|_| {});
    match path {
        "sign-pkcs1v15" => sign(1),
        "sign-pss" => sign(evp::PSS),
        "decrypt-pkcs1v15-implicit-rejection" => {
            let m = round_trip(1, b"secret").expect("valid");
            assert_eq!(public(&m), b"secret");
            // A block below n that is not a type-2 padding: a synthetic
            // message, no error.
            let mut bad = vec![0x3cu8; 256];
            bad[0] = 0;
            assert!(decrypt_with(key, 1, &bad, &|_| {}).is_some(), "implicit rejection");
        }
        "decrypt-oaep" => {
            let m = round_trip(evp::OAEP, b"secret").expect("valid");
            assert_eq!(public(&m), b"secret");
            assert!(decrypt_with(key, evp::OAEP, &[0x3c; 256], &|_| {}).is_none());
        }
        "decrypt-tls-premaster" => {
            let mut pms = [0x77u8; 48];
            pms[..2].copy_from_slice(&[3, 3]);
            let tls = |version| move |ctx| evp::set_tls_version(ctx, version);
            let ct = encrypt(1, &pms);
            let good = decrypt_with(key, evp::TLS, &ct, &tls(0x0303)).expect("premaster");
            assert_eq!(public(&good), pms);
            let other = decrypt_with(key, evp::TLS, &ct, &tls(0x0302)).expect("random premaster");
            assert_ne!(public(&other), pms);
        }
        "leaky-decrypt" => {
            let m = round_trip(1, b"secret").expect("valid");
            std::hint::black_box(leaky_first_byte(&m));
        }
        other => panic!("no path {other}"),
    }
}

/// The decryption of `ct` by redc with padding `pad`, `setup` applied to
/// its context first; `None` when it fails.
fn decrypt_with(
    key: *mut core::ffi::c_void,
    pad: core::ffi::c_int,
    ct: &[u8],
    setup: &dyn Fn(*mut core::ffi::c_void),
) -> Option<Vec<u8>> {
    let ctx = evp::cipher_context(key, "provider=redc", true, pad);
    setup(ctx);
    let m = evp::decrypt(ctx, ct);
    evp::free_context(ctx);
    m
}

/// Leaky on purpose: a branch on a plaintext's first byte.
#[inline(never)]
fn leaky_first_byte(m: &[u8]) -> u64 {
    if std::hint::black_box(m[0]) == b's' {
        std::hint::black_box(3)
    } else {
        eprintln!("not s");
        7
    }
}

/// This binary's `child` test under Valgrind for `path`.
fn valgrind(path: &str) -> (Option<i32>, String) {
    ctgrind_support::valgrind(path, &[])
}

/// The parent's set-up: a fresh directory with a 2048-bit key.
fn prepare() {
    release_only();
    let dir = dir();
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    evp::generate(&dir, 2048);
}

/// Both parent tests share one directory: one at a time.
static PARENT: std::sync::Mutex<()> = std::sync::Mutex::new(());

#[test]
fn provider_private_paths_branch_and_index_on_no_secret() {
    let _one = PARENT.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    prepare();
    let mut failed = Vec::new();
    for path in PATHS {
        let t = std::time::Instant::now();
        let (status, stderr) = valgrind(path);
        eprintln!("ctgrind {path}: exit {status:?} in {:.1} s", t.elapsed().as_secs_f64());
        if status != Some(0) {
            eprintln!("{}", report(&stderr));
            failed.push(path);
        }
    }
    assert!(
        failed.is_empty(),
        "secret-dependent branches or addresses in: {failed:?}"
    );
}

#[test]
fn the_check_catches_a_branch_on_a_plaintext() {
    let _one = PARENT.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    prepare();
    let (status, stderr) = valgrind("leaky-decrypt");
    assert_eq!(status, Some(ERROR_EXIT), "not caught:\n{stderr}");
    let caught = stderr.contains("uninitialised value") && stderr.contains("leaky_first_byte");
    assert!(caught, "the report does not name it:\n{}", report(&stderr));
}

/// The child: one path, inside Valgrind (ignored unless the parent runs it).
#[test]
#[ignore = "run by the parent tests under Valgrind"]
fn child() {
    let Some(path) = ctgrind_support::child_path() else {
        return;
    };
    let dir = dir();
    evp::load_providers(&dir);
    let key = evp::load_key(&dir.join("2048.pem"));
    run_path(&path, key);
    eprintln!("ctgrind child {path}: {} errors", taint::errors());
}
