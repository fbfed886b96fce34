//! A small harness on OpenSSL's EVP and ASYNC APIs (libcrypto, the one the
//! provider links), shared by the tests and the bench: the providers
//! loaded, a PEM key, signing and verifying contexts on a named provider,
//! and a driver of asynchronous jobs as an event-driven server runs them
//! (start every job, poll the wait descriptors of the paused ones, resume
//! those that are ready).
#![allow(unsafe_code, dead_code, unreachable_pub)]

use std::ffi::{CStr, CString, c_char, c_int, c_void};
use std::os::fd::BorrowedFd;
use std::path::Path;
use std::process::{Command, Stdio};

#[link(name = "crypto")]
unsafe extern "C" {
    fn OSSL_PROVIDER_set_default_search_path(ctx: *mut c_void, path: *const c_char) -> c_int;
    fn OSSL_PROVIDER_load(ctx: *mut c_void, name: *const c_char) -> *mut c_void;
    fn BIO_new_mem_buf(buf: *const c_void, len: c_int) -> *mut c_void;
    fn BIO_free(bio: *mut c_void) -> c_int;
    fn PEM_read_bio_PrivateKey(bio: *mut c_void, x: *mut c_void, cb: *mut c_void, u: *mut c_void) -> *mut c_void;
    fn PEM_read_bio_PUBKEY(bio: *mut c_void, x: *mut c_void, cb: *mut c_void, u: *mut c_void) -> *mut c_void;
    fn EVP_PKEY_free(key: *mut c_void);
    fn EVP_PKEY_CTX_new_from_pkey(ctx: *mut c_void, pkey: *mut c_void, propq: *const c_char) -> *mut c_void;
    fn EVP_PKEY_CTX_free(ctx: *mut c_void);
    fn EVP_PKEY_sign_init(ctx: *mut c_void) -> c_int;
    fn EVP_PKEY_verify_init(ctx: *mut c_void) -> c_int;
    fn EVP_PKEY_CTX_set_rsa_padding(ctx: *mut c_void, pad: c_int) -> c_int;
    fn EVP_PKEY_CTX_set_signature_md(ctx: *mut c_void, md: *const c_void) -> c_int;
    fn EVP_sha256() -> *const c_void;
    fn EVP_PKEY_sign(ctx: *mut c_void, sig: *mut u8, siglen: *mut usize, tbs: *const u8, tbslen: usize) -> c_int;
    fn EVP_PKEY_verify(ctx: *mut c_void, sig: *const u8, siglen: usize, tbs: *const u8, tbslen: usize) -> c_int;
    fn EVP_PKEY_encrypt_init(ctx: *mut c_void) -> c_int;
    fn EVP_PKEY_decrypt_init(ctx: *mut c_void) -> c_int;
    fn EVP_PKEY_encrypt(ctx: *mut c_void, out: *mut u8, outlen: *mut usize, input: *const u8, inlen: usize) -> c_int;
    fn EVP_PKEY_decrypt(ctx: *mut c_void, out: *mut u8, outlen: *mut usize, input: *const u8, inlen: usize) -> c_int;
    fn EVP_PKEY_CTX_set_rsa_oaep_md(ctx: *mut c_void, md: *const c_void) -> c_int;
    fn EVP_PKEY_CTX_set_params(ctx: *mut c_void, params: *const OsslParam) -> c_int;
    fn ASYNC_WAIT_CTX_new() -> *mut c_void;
    fn ASYNC_WAIT_CTX_free(ctx: *mut c_void);
    fn ASYNC_WAIT_CTX_get_all_fds(ctx: *mut c_void, fds: *mut c_int, numfds: *mut usize) -> c_int;
    fn ASYNC_start_job(
        job: *mut *mut c_void,
        ctx: *mut c_void,
        ret: *mut c_int,
        func: unsafe extern "C" fn(*mut c_void) -> c_int,
        args: *mut c_void,
        size: usize,
    ) -> c_int;
}

/// `ASYNC_start_job`'s answers.
const ASYNC_ERR: c_int = 0;
const ASYNC_PAUSE: c_int = 2;
const ASYNC_FINISH: c_int = 3;

/// A fresh scratch directory for this test binary, with the providers
/// loaded from it ([`load_providers`]).
pub fn with_providers() -> std::path::PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("redc-provider-{}", env!("CARGO_CRATE_NAME")));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    load_providers(&dir);
    dir
}

/// Loads the provider from `dir` (as `redc.so`, the test binary's
/// `libredc_provider.so` linked there) and the default provider.
pub fn load_providers(dir: &Path) {
    let exe = std::env::current_exe().unwrap();
    let library = exe.parent().unwrap().join("libredc_provider.so");
    let link = dir.join("redc.so");
    let _ = std::fs::remove_file(&link);
    std::os::unix::fs::symlink(&library, &link).unwrap();
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
}

/// A key of `bits` bits made by `openssl genpkey` in `dir`, loaded.
pub fn key(dir: &Path, bits: usize) -> *mut c_void {
    load_key(&generate(dir, bits))
}

/// A key of `bits` bits made by `openssl genpkey` in `dir`: its file.
pub fn generate(dir: &Path, bits: usize) -> std::path::PathBuf {
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
        .stderr(Stdio::null())
        .status()
        .unwrap();
    assert!(status.success(), "openssl genpkey");
    file
}

/// The private key of the PEM file `file`, loaded by libcrypto.
pub fn load_key(file: &Path) -> *mut c_void {
    let key = pem_key(&std::fs::read(file).unwrap(), true);
    assert!(!key.is_null(), "the key");
    key
}

/// A key from PEM text, private or public (`PUBLIC KEY`); null when
/// libcrypto cannot read it.
pub fn pem_key(pem: &[u8], private: bool) -> *mut c_void {
    let null = core::ptr::null_mut();
    // SAFETY: the buffer outlives the BIO, freed after the read.
    unsafe {
        let bio = BIO_new_mem_buf(pem.as_ptr().cast(), c_int::try_from(pem.len()).unwrap());
        let key = if private {
            PEM_read_bio_PrivateKey(bio, null, null, null)
        } else {
            PEM_read_bio_PUBKEY(bio, null, null, null)
        };
        BIO_free(bio);
        key
    }
}

/// Frees a key.
pub fn free_key(key: *mut c_void) {
    // SAFETY: a key from `pem_key` or `load_key`, freed once.
    unsafe { EVP_PKEY_free(key) };
}

/// What a context is for.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Op {
    Sign,
    Verify,
    Encrypt,
    Decrypt,
}

/// A context of `key` for `op` on the provider `propq` names
/// (`provider=redc`, `provider=default`), with OpenSSL's defaults.
pub fn new_context(key: *mut c_void, propq: &str, op: Op) -> *mut c_void {
    let propq = CString::new(propq).unwrap();
    // SAFETY: a live key and a C string; OpenSSL's own calls set it up.
    unsafe {
        let ctx = EVP_PKEY_CTX_new_from_pkey(core::ptr::null_mut(), key, propq.as_ptr());
        assert!(!ctx.is_null(), "no context");
        let init = match op {
            Op::Sign => EVP_PKEY_sign_init(ctx),
            Op::Verify => EVP_PKEY_verify_init(ctx),
            Op::Encrypt => EVP_PKEY_encrypt_init(ctx),
            Op::Decrypt => EVP_PKEY_decrypt_init(ctx),
        };
        assert_eq!(init, 1, "init");
        ctx
    }
}

/// A PKCS#1 v1.5 SHA-256 signing (or verifying) context of `key` on the
/// provider `propq` names.
pub fn context(key: *mut c_void, propq: &str, sign: bool) -> *mut c_void {
    let ctx = new_context(key, propq, if sign { Op::Sign } else { Op::Verify });
    set_padding(ctx, 1);
    // SAFETY: a live context.
    assert!(
        unsafe { EVP_PKEY_CTX_set_signature_md(ctx, EVP_sha256()) } > 0,
        "digest"
    );
    ctx
}

/// `RSA_PKCS1_PSS_PADDING`, `RSA_PKCS1_OAEP_PADDING`,
/// `RSA_PKCS1_WITH_TLS_PADDING`.
pub const PSS: c_int = 6;
pub const OAEP: c_int = 4;
pub const TLS: c_int = 7;

/// Sets the padding of a context (PSS on a signing context, ...).
pub fn set_padding(ctx: *mut c_void, pad: c_int) {
    // SAFETY: a live context.
    assert_eq!(unsafe { EVP_PKEY_CTX_set_rsa_padding(ctx, pad) }, 1, "padding {pad}");
}

/// An encryption (or decryption) context of `key` on the provider `propq`
/// names, with padding `pad` (OAEP with SHA-256).
pub fn cipher_context(key: *mut c_void, propq: &str, decrypt: bool, pad: c_int) -> *mut c_void {
    let ctx = new_context(key, propq, if decrypt { Op::Decrypt } else { Op::Encrypt });
    set_padding(ctx, pad);
    if pad == OAEP {
        // SAFETY: a live context.
        assert!(
            unsafe { EVP_PKEY_CTX_set_rsa_oaep_md(ctx, EVP_sha256()) } > 0,
            "OAEP digest"
        );
    }
    ctx
}

/// `OSSL_PARAM`, for [`set_params`].
#[repr(C)]
pub struct OsslParam {
    key: *const c_char,
    data_type: u32,
    data: *mut c_void,
    data_size: usize,
    return_size: usize,
}

/// A parameter's value, for [`set_params`].
pub enum Value<'a> {
    Utf8(&'a str),
    Int(i32),
    Uint(u32),
    Octets(&'a [u8]),
}

/// Sets `list` on a context (`EVP_PKEY_CTX_set_params`): whether OpenSSL
/// and the provider took it.
pub fn set_params(ctx: *mut c_void, list: &[(&CStr, Value<'_>)]) -> bool {
    // The values' bytes, alive until the call returns.
    let mut data: Vec<Vec<u8>> = list
        .iter()
        .map(|(_, v)| match v {
            Value::Utf8(s) => s.as_bytes().to_vec(),
            Value::Int(i) => i.to_ne_bytes().to_vec(),
            Value::Uint(u) => u.to_ne_bytes().to_vec(),
            Value::Octets(o) => o.to_vec(),
        })
        .collect();
    let mut params: Vec<OsslParam> = list
        .iter()
        .zip(data.iter_mut())
        .map(|((key, value), bytes)| OsslParam {
            key: key.as_ptr(),
            data_type: match value {
                Value::Int(_) => 1,
                Value::Uint(_) => 2,
                Value::Utf8(_) => 4,
                Value::Octets(_) => 5,
            },
            data_size: bytes.len(),
            data: bytes.as_mut_ptr().cast(),
            return_size: usize::MAX,
        })
        .collect();
    params.push(OsslParam {
        key: core::ptr::null(),
        data_type: 0,
        data: core::ptr::null_mut(),
        data_size: 0,
        return_size: 0,
    });
    // SAFETY: a live context and a list ended by a null key, its data
    // alive for the call.
    unsafe { EVP_PKEY_CTX_set_params(ctx, params.as_ptr()) == 1 }
}

/// Sets the `tls-client-version` of a decryption context.
pub fn set_tls_version(ctx: *mut c_void, version: u32) {
    assert!(
        set_params(ctx, &[(c"tls-client-version", Value::Uint(version))]),
        "tls-client-version"
    );
}

/// `EVP_PKEY_encrypt` of `msg`.
pub fn encrypt(ctx: *mut c_void, msg: &[u8]) -> Vec<u8> {
    let mut out = vec![0u8; 1024];
    let mut len = out.len();
    // SAFETY: an encryption context; the buffer has `len` bytes.
    let ok = unsafe { EVP_PKEY_encrypt(ctx, out.as_mut_ptr(), &mut len, msg.as_ptr(), msg.len()) };
    assert_eq!(ok, 1, "EVP_PKEY_encrypt");
    out.truncate(len);
    out
}

/// `EVP_PKEY_decrypt` of `ct`; `None` when it fails.
pub fn decrypt(ctx: *mut c_void, ct: &[u8]) -> Option<Vec<u8>> {
    decrypt_sized(ctx, ct, 1024)
}

/// `EVP_PKEY_decrypt` of `ct` into a buffer of `size` bytes; `None` when
/// it fails.
pub fn decrypt_sized(ctx: *mut c_void, ct: &[u8], size: usize) -> Option<Vec<u8>> {
    let mut out = vec![0u8; size];
    let mut len = out.len();
    // SAFETY: a decryption context; the buffer has `len` bytes.
    let ok = unsafe { EVP_PKEY_decrypt(ctx, out.as_mut_ptr(), &mut len, ct.as_ptr(), ct.len()) };
    (ok == 1).then(|| {
        out.truncate(len);
        out
    })
}

/// What `EVP_PKEY_decrypt` says it writes at most, asked with no buffer.
pub fn decrypt_size(ctx: *mut c_void, ct: &[u8]) -> Option<usize> {
    let mut len = 0;
    // SAFETY: a decryption context; a null buffer asks for the size.
    let ok = unsafe { EVP_PKEY_decrypt(ctx, core::ptr::null_mut(), &mut len, ct.as_ptr(), ct.len()) };
    (ok == 1).then_some(len)
}

/// Frees a context made by [`context`] or [`cipher_context`].
pub fn free_context(ctx: *mut c_void) {
    // SAFETY: made by `context`, freed once.
    unsafe { EVP_PKEY_CTX_free(ctx) };
}

/// One signature of `digest` on the signing context `ctx`.
pub fn sign(ctx: *mut c_void, digest: &[u8]) -> Vec<u8> {
    try_sign(ctx, digest).expect("EVP_PKEY_sign")
}

/// One signature of `digest` on the signing context `ctx`; `None` when it
/// fails.
pub fn try_sign(ctx: *mut c_void, digest: &[u8]) -> Option<Vec<u8>> {
    let mut sig = vec![0u8; 1024];
    let mut len = sig.len();
    // SAFETY: a signing context; the buffer has `len` bytes.
    let ok = unsafe { EVP_PKEY_sign(ctx, sig.as_mut_ptr(), &mut len, digest.as_ptr(), digest.len()) };
    (ok == 1).then(|| {
        sig.truncate(len);
        sig
    })
}

/// Whether `sig` verifies for `digest` on the verifying context `ctx`.
pub fn verifies(ctx: *mut c_void, sig: &[u8], digest: &[u8]) -> bool {
    // SAFETY: a verifying context and live buffers.
    unsafe { EVP_PKEY_verify(ctx, sig.as_ptr(), sig.len(), digest.as_ptr(), digest.len()) == 1 }
}

/// What one job signs and where it writes.
#[repr(C)]
struct Work {
    ctx: *mut c_void,
    digest: *const u8,
    len: usize,
    sig: *mut u8,
    siglen: *mut usize,
}

/// The job's function: one `EVP_PKEY_sign`.
unsafe extern "C" fn sign_job(arg: *mut c_void) -> c_int {
    // SAFETY: `arg` is the job's copy of a `Work`, whose pointers the
    // driver keeps alive until the job finishes.
    unsafe {
        let w = &*arg.cast::<Work>();
        EVP_PKEY_sign(w.ctx, w.sig, w.siglen, w.digest, w.len)
    }
}

/// One signature per digest, each by its own async job on the signing
/// context of the same index, driven as an event loop: start every job,
/// then wait on the descriptors of the paused ones (`poll`) and resume the
/// ready ones until all have finished. Returns the signatures and how many
/// times a job paused.
pub fn sign_in_jobs(contexts: &[*mut c_void], digests: &[Vec<u8>]) -> (Vec<Vec<u8>>, usize) {
    let n = digests.len();
    let mut sigs = vec![vec![0u8; 1024]; n];
    let mut lens = vec![1024usize; n];
    // SAFETY: one wait context per job, freed below.
    let waits: Vec<*mut c_void> = (0..n).map(|_| unsafe { ASYNC_WAIT_CTX_new() }).collect();
    let mut jobs = vec![core::ptr::null_mut::<c_void>(); n];
    let mut done = vec![false; n];
    let mut pauses = 0;
    let mut ready: Vec<bool> = vec![true; n];
    while done.iter().any(|d| !d) {
        for i in 0..n {
            if done[i] || !ready[i] {
                continue;
            }
            let mut work = Work {
                ctx: contexts[i],
                digest: digests[i].as_ptr(),
                len: digests[i].len(),
                sig: sigs[i].as_mut_ptr(),
                siglen: &raw mut lens[i],
            };
            let mut ret = 0;
            // SAFETY: the job's work points at buffers that live until the
            // job finishes (they are not touched meanwhile); a paused job is
            // resumed with the same job pointer.
            let status = unsafe {
                ASYNC_start_job(
                    &raw mut jobs[i],
                    waits[i],
                    &raw mut ret,
                    sign_job,
                    (&raw mut work).cast(),
                    size_of::<Work>(),
                )
            };
            match status {
                ASYNC_FINISH => {
                    assert_eq!(ret, 1, "job {i}: EVP_PKEY_sign failed");
                    done[i] = true;
                }
                ASYNC_PAUSE => pauses += 1,
                ASYNC_ERR => panic!("job {i}: ASYNC_start_job failed"),
                other => panic!("job {i}: ASYNC_start_job answered {other}"),
            }
        }
        // Wait for any paused job's descriptor, then resume the ready ones.
        let mut fds: Vec<(usize, c_int)> = Vec::new();
        for i in (0..n).filter(|&i| !done[i]) {
            let mut count = 0usize;
            // SAFETY: a live wait context; first the count, then the fds.
            unsafe {
                ASYNC_WAIT_CTX_get_all_fds(waits[i], core::ptr::null_mut(), &mut count);
                let mut these = vec![0 as c_int; count];
                ASYNC_WAIT_CTX_get_all_fds(waits[i], these.as_mut_ptr(), &mut count);
                fds.extend(these.into_iter().map(|fd| (i, fd)));
            }
        }
        ready = vec![false; n];
        if fds.is_empty() {
            continue;
        }
        // SAFETY: the descriptors are the wait contexts', open while they live.
        let borrowed: Vec<BorrowedFd<'_>> = fds
            .iter()
            .map(|&(_, fd)| unsafe { BorrowedFd::borrow_raw(fd) })
            .collect();
        let mut polled: Vec<rustix::event::PollFd<'_>> = borrowed
            .iter()
            .map(|fd| rustix::event::PollFd::new(fd, rustix::event::PollFlags::IN))
            .collect();
        rustix::event::poll(&mut polled, None).unwrap();
        for (p, &(i, _)) in polled.iter().zip(&fds) {
            if p.revents().contains(rustix::event::PollFlags::IN) {
                ready[i] = true;
            }
        }
    }
    for w in waits {
        // SAFETY: made above, every job finished.
        unsafe { ASYNC_WAIT_CTX_free(w) };
    }
    for (sig, len) in sigs.iter_mut().zip(lens) {
        sig.truncate(len);
    }
    (sigs, pauses)
}

/// Starts one job signing `digest` on `ctx` and, once it has paused,
/// frees its wait context without resuming it, as a server does for a
/// connection closed while its handshake waits. The job's buffers are
/// leaked: the job is never resumed to write them.
pub fn abandon_paused_job(ctx: *mut c_void, digest: &[u8]) {
    let sig: &'static mut [u8] = Box::leak(vec![0u8; 1024].into_boxed_slice());
    let len: &'static mut usize = Box::leak(Box::new(1024));
    let digest: &'static [u8] = Box::leak(digest.to_vec().into_boxed_slice());
    let mut work = Work {
        ctx,
        digest: digest.as_ptr(),
        len: digest.len(),
        sig: sig.as_mut_ptr(),
        siglen: len,
    };
    let mut job = core::ptr::null_mut();
    let mut ret = 0;
    // SAFETY: a fresh wait context; the job's buffers live forever; the
    // context is freed once, with the job paused.
    unsafe {
        let wait = ASYNC_WAIT_CTX_new();
        let status = ASYNC_start_job(
            &mut job,
            wait,
            &mut ret,
            sign_job,
            (&raw mut work).cast(),
            size_of::<Work>(),
        );
        assert_eq!(status, ASYNC_PAUSE, "the job did not pause");
        ASYNC_WAIT_CTX_free(wait);
    }
}

/// Signs `digests[i]` on `contexts[i]`, every job started with the one
/// wait context `shared` (or none when it is null), each driven to its
/// end before the next starts... except that the first is left paused
/// while the others run, then finished: what a caller that shares a wait
/// context between jobs gets. Returns the signatures.
pub fn sign_sharing_wait_ctx(contexts: &[*mut c_void], digests: &[Vec<u8>], with_wait_ctx: bool) -> Vec<Vec<u8>> {
    let n = digests.len();
    let mut sigs = vec![vec![0u8; 1024]; n];
    let mut lens = vec![1024usize; n];
    // SAFETY: one wait context (or none), freed below.
    let wait = if with_wait_ctx {
        unsafe { ASYNC_WAIT_CTX_new() }
    } else {
        core::ptr::null_mut()
    };
    let mut jobs = vec![core::ptr::null_mut::<c_void>(); n];
    let mut works: Vec<Work> = (0..n)
        .map(|i| Work {
            ctx: contexts[i],
            digest: digests[i].as_ptr(),
            len: digests[i].len(),
            sig: sigs[i].as_mut_ptr(),
            siglen: &raw mut lens[i],
        })
        .collect();
    let mut start = |i: usize, jobs: &mut Vec<*mut c_void>| {
        let mut ret = 0;
        // SAFETY: the job's work points at buffers that outlive it.
        let status = unsafe {
            ASYNC_start_job(
                &raw mut jobs[i],
                wait,
                &raw mut ret,
                sign_job,
                (&raw mut works[i]).cast(),
                size_of::<Work>(),
            )
        };
        (status, ret)
    };
    let mut first = start(0, &mut jobs);
    for i in 1..n {
        let (status, ret) = start(i, &mut jobs);
        assert_eq!((status, ret), (ASYNC_FINISH, 1), "job {i} sharing the wait context");
    }
    while first.0 == ASYNC_PAUSE {
        first = start(0, &mut jobs);
    }
    assert_eq!(first, (ASYNC_FINISH, 1), "the first job");
    if !wait.is_null() {
        // SAFETY: made above, every job finished.
        unsafe { ASYNC_WAIT_CTX_free(wait) };
    }
    for (sig, len) in sigs.iter_mut().zip(lens) {
        sig.truncate(len);
    }
    sigs
}
