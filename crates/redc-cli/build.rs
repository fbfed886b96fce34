//! The commit `redc --version` names (`REDC_COMMIT`: `git describe` of
//! the checkout's commit, or "unknown" outside one). With the `openssl4` feature,
//! also: build OpenSSL 4.0 from the `openssl-src` crate and link its
//! `libcrypto` statically, for `redc bench`'s anchor.

use std::process::Command;

fn main() {
    println!("cargo:rustc-env=REDC_COMMIT={}", commit());
    #[cfg(feature = "openssl4")]
    {
        let artifacts = openssl_src::Build::new().build();
        println!("cargo:rustc-link-search=native={}", artifacts.lib_dir().display());
        println!("cargo:rustc-link-lib=static=crypto");
    }
}

/// `git describe --always` of the checkout (uncommitted edits are not
/// told apart: the build script does not rerun for them), with the files to
/// watch so that a new commit rebuilds the version; "unknown" without git.
fn commit() -> String {
    let git = |args: &[&str]| {
        Command::new("git")
            .args(args)
            .output()
            .ok()
            .filter(|o| o.status.success())
            .and_then(|o| String::from_utf8(o.stdout).ok())
            .map(|s| s.trim().to_owned())
            .filter(|s| !s.is_empty())
    };
    let Some(dir) = git(&["rev-parse", "--absolute-git-dir"]) else {
        return "unknown".to_owned();
    };
    println!("cargo:rerun-if-changed={dir}/HEAD");
    if let Some(head) = git(&["symbolic-ref", "-q", "HEAD"]) {
        println!("cargo:rerun-if-changed={dir}/{head}");
    }
    println!("cargo:rerun-if-changed={dir}/packed-refs");
    git(&["describe", "--always", "--abbrev=12"]).unwrap_or_else(|| "unknown".to_owned())
}
