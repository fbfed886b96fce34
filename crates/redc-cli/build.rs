//! The commit `redc --version` names (`REDC_COMMIT`: `git describe` of the
//! checkout's commit, or "unknown" outside one).

use std::path::{Path, PathBuf};
use std::process::Command;

fn main() {
    println!("cargo:rustc-env=REDC_COMMIT={}", commit());
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
