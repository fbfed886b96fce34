//! The secret-taint checks' shared harness (redc-rsa's `ctgrind.rs`, the
//! OpenSSL provider's): this test binary's `child` test run under
//! Valgrind's memcheck for one path, its report, and the release-build
//! guard.

#![allow(clippy::print_stderr, dead_code, unreachable_pub)]

use std::path::Path;
use std::process::Command;

/// The exit status Valgrind gives a run with errors.
pub const ERROR_EXIT: i32 = 99;

/// This binary's `child` test under Valgrind, told its path by
/// `REDC_CTGRIND_PATH` (and `env`): its exit status and report.
pub fn valgrind(path: &str, env: &[(&str, &Path)]) -> (Option<i32>, String) {
    let exe = std::env::current_exe().expect("test binary");
    let out = Command::new("valgrind")
        .args(["--tool=memcheck", "--leak-check=no", "--num-callers=30"])
        .arg(format!("--error-exitcode={ERROR_EXIT}"))
        .arg(&exe)
        .args(["--exact", "child", "--ignored", "--test-threads=1", "--nocapture"])
        .env("REDC_CTGRIND_PATH", path)
        .envs(env.iter().copied())
        .output()
        .expect("valgrind runs (install it: apt-get install valgrind)");
    (out.status.code(), String::from_utf8_lossy(&out.stderr).into_owned())
}

/// The path a child runs (`REDC_CTGRIND_PATH`), which must be under
/// Valgrind; `None` when the test binary runs it otherwise.
pub fn child_path() -> Option<String> {
    let path = std::env::var("REDC_CTGRIND_PATH").ok()?;
    assert!(
        redc::secret::taint::running_on_valgrind(),
        "the child must run under Valgrind"
    );
    Some(path)
}

/// The Valgrind report of a run, for a failure message: its error lines
/// and the stack frames under them.
pub fn report(stderr: &str) -> String {
    let lines: Vec<&str> = stderr.lines().filter(|l| l.starts_with("==")).take(120).collect();
    lines.join("\n")
}

/// The checks need optimised code without debug assertions, whose
/// overflow checks and `subtle`'s debug assertions branch on secrets.
pub fn release_only() {
    #[cfg(debug_assertions)]
    panic!("run with --release: overflow checks and debug assertions branch on secrets");
}
