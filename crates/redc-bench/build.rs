//! With the `openssl4` feature: build OpenSSL 4.0 from the `openssl-src`
//! crate (once per build directory) and link its `libcrypto` statically,
//! the bench's anchor for single operations. Without it, nothing.

fn main() {
    #[cfg(feature = "openssl4")]
    openssl4();
}

/// Builds OpenSSL into `OUT_DIR` unless an earlier run installed it there,
/// and links its static `libcrypto`.
#[cfg(feature = "openssl4")]
fn openssl4() {
    use std::path::PathBuf;
    let out = PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets OUT_DIR"));
    let installed = ["lib64", "lib"]
        .map(|lib| out.join("openssl-build/install").join(lib))
        .into_iter()
        .find(|dir| dir.join("libcrypto.a").exists());
    let lib_dir = match installed {
        Some(dir) => dir,
        None => openssl_src::Build::new()
            .out_dir(out.join("openssl-build"))
            .build()
            .lib_dir()
            .to_path_buf(),
    };
    println!("cargo:rustc-link-search=native={}", lib_dir.display());
    println!("cargo:rustc-link-lib=static=crypto");
}
