//! With the `openssl4` feature: build OpenSSL 4.0 from the `openssl-src`
//! crate and link its `libcrypto` statically, for `redc bench`'s anchor.
//! Without it: nothing.

fn main() {
    #[cfg(feature = "openssl4")]
    {
        let artifacts = openssl_src::Build::new().build();
        println!("cargo:rustc-link-search=native={}", artifacts.lib_dir().display());
        println!("cargo:rustc-link-lib=static=crypto");
    }
}
