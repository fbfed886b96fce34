//! Which libcrypto the provider links: the system's (the default), or the
//! one in `REDC_OPENSSL_LIB_DIR` (e.g. OpenSSL 4.0.3 built by
//! `scripts/openssl4.sh` into `target/openssl4/install/lib`): one build per
//! OpenSSL ABI, since the async calls tie a provider to one libcrypto.
//!
//! The library is marked never to be unloaded (`-z nodelete`): its
//! batcher and the engine's thread pool keep running threads, whose code
//! must stay mapped when OpenSSL unloads the provider.

fn main() {
    println!("cargo:rerun-if-env-changed=REDC_OPENSSL_LIB_DIR");
    println!("cargo:rustc-cdylib-link-arg=-Wl,-z,nodelete");
    if let Ok(dir) = std::env::var("REDC_OPENSSL_LIB_DIR") {
        println!("cargo:rustc-link-search=native={dir}");
    }
}
