//! The decryption of TLS 1.2's RSA key exchange as libssl asks for it
//! (`RSA_PKCS1_WITH_TLS_PADDING` and the `tls-client-version` and
//! `tls-negotiated-version` parameters), on contexts that must come from
//! redc (`provider=redc`): the premaster secret when its padding and
//! version are right, 48 random bytes otherwise (RFC 5246 §7.4.7.1), the
//! negotiated version accepted when libssl allows it, a buffer too short
//! or a missing client version refused.

mod evp;

use core::ffi::{CStr, c_void};
use evp::{Op, Value};

/// A redc decryption context of `key` with the TLS padding and `params`.
fn tls_context(key: *mut c_void, params: &[(&CStr, Value<'_>)]) -> *mut c_void {
    let ctx = evp::new_context(key, "provider=redc", Op::Decrypt);
    evp::set_padding(ctx, evp::TLS);
    assert!(evp::set_params(ctx, params), "parameters");
    ctx
}

/// The decryption of `ct` on a fresh redc context with `params`.
fn decrypt(key: *mut c_void, params: &[(&CStr, Value<'_>)], ct: &[u8]) -> Option<Vec<u8>> {
    let ctx = tls_context(key, params);
    let out = evp::decrypt(ctx, ct);
    evp::free_context(ctx);
    out
}

#[test]
fn the_premaster_secret_or_random_bytes() {
    let dir = evp::with_providers();
    let key = evp::key(&dir, 2048);
    let encrypt = |pms: &[u8]| {
        let ctx = evp::cipher_context(key, "provider=default", false, 1);
        let ct = evp::encrypt(ctx, pms);
        evp::free_context(ctx);
        ct
    };
    let client = |v| (c"tls-client-version", Value::Uint(v));
    let mut pms = [0x42u8; 48];
    pms[..2].copy_from_slice(&[3, 3]);
    let ct = encrypt(&pms);

    let ctx = tls_context(key, &[client(0x0303)]);
    assert_eq!(evp::decrypt_size(ctx, &ct), Some(48), "the size asked with no buffer");
    assert_eq!(evp::decrypt_sized(ctx, &ct, 47), None, "a buffer under 48 bytes");
    assert_eq!(evp::decrypt(ctx, &ct).as_deref(), Some(&pms[..]));
    evp::free_context(ctx);

    // Another version: 48 random bytes, new each time, and no error.
    let a = decrypt(key, &[client(0x0302)], &ct).expect("no error");
    let b = decrypt(key, &[client(0x0302)], &ct).expect("no error");
    assert_eq!((a.len(), b.len()), (48, 48));
    assert!(a != pms && a != b, "random bytes");

    // A client that sent the negotiated version: accepted only when libssl
    // passes that version (its rollback-bug workaround).
    let mut old = pms;
    old[..2].copy_from_slice(&[3, 1]);
    let ct_old = encrypt(&old);
    let negotiated = (c"tls-negotiated-version", Value::Uint(0x0301));
    assert_eq!(
        decrypt(key, &[client(0x0303), negotiated], &ct_old).as_deref(),
        Some(&old[..])
    );
    assert_ne!(decrypt(key, &[client(0x0303)], &ct_old).as_deref(), Some(&old[..]));

    // Not a PKCS#1 block at all: random bytes too.
    let mut bad = [0x3cu8; 256];
    bad[0] = 0;
    let r = decrypt(key, &[client(0x0303)], &bad).expect("no error");
    assert_eq!(r.len(), 48);

    // No client version: refused, as OpenSSL's provider refuses it.
    assert_eq!(decrypt(key, &[], &ct), None);
    evp::free_key(key);
}
