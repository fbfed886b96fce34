//! The commit `redc --version` names (`REDC_COMMIT`: `git describe` of the
//! checkout's commit, or "unknown" outside one). With the `openssl4`
//! feature, also: build OpenSSL 4.0 from the `openssl-src` crate (once per
//! build directory: a new commit reruns this script, not the OpenSSL build)
//! and link its `libcrypto` statically, for `redc bench`'s anchor.

use std::path::{Path, PathBuf};
use std::process::Command;

fn main() {
    println!("cargo:rustc-env=REDC_COMMIT={}", commit());
    #[cfg(feature = "openssl4")]
    openssl4();
}

/// `git describe --always` of the checkout this crate is in, with the
/// files to watch so that a new commit (or a switch of branch) reruns the
/// script; "unknown" without git or outside a checkout of this repository.
/// Uncommitted edits are not told apart (the script does not rerun for
/// them).
fn commit() -> String {
    let crate_dir = std::env::var("CARGO_MANIFEST_DIR")
        .map(PathBuf::from)
        .unwrap_or_default();
    let git = |args: &[&str]| {
        Command::new("git")
            .arg("-C")
            .arg(&crate_dir)
            .args(args)
            .output()
            .ok()
            .filter(|o| o.status.success())
            .and_then(|o| String::from_utf8(o.stdout).ok())
            .map(|s| s.trim().to_owned())
            .filter(|s| !s.is_empty())
    };
    // This crate must be tracked by the checkout git finds (not an
    // untracked copy inside some other repository; a copy committed into
    // another repository reports that repository's commit).
    let tracked = git(&["ls-files", "--error-unmatch", "build.rs"]).is_some();
    if !tracked {
        return "unknown".to_owned();
    }
    // HEAD, its reflog (a line on every commit, also when the branch ref is
    // only in packed-refs), the branch it names and packed-refs, where git
    // keeps them (in a worktree, the branch refs live in the common
    // directory); only files that exist, since cargo reruns for a missing
    // one on every build.
    let mut watch = vec![
        git(&["rev-parse", "--git-path", "HEAD"]),
        git(&["rev-parse", "--git-path", "logs/HEAD"]),
    ];
    if let Some(head) = git(&["symbolic-ref", "-q", "HEAD"]) {
        watch.push(git(&["rev-parse", "--git-path", &head]));
    }
    watch.push(git(&["rev-parse", "--git-path", "packed-refs"]));
    for path in watch.into_iter().flatten() {
        let path = crate_dir.join(path);
        if Path::new(&path).exists() {
            println!("cargo:rerun-if-changed={}", path.display());
        }
    }
    git(&["describe", "--always", "--abbrev=12"]).unwrap_or_else(|| "unknown".to_owned())
}

/// OpenSSL 4.0 from source into `OUT_DIR`, unless an earlier run of this
/// script already installed it there; then link its libcrypto.
#[cfg(feature = "openssl4")]
fn openssl4() {
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
