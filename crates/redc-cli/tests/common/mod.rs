//! Running the `redc` binary from the integration tests.

#![allow(dead_code)]

use std::io::Write;
use std::process::{Command, Output, Stdio};

/// Run `redc` with `args`, feeding `stdin` from another thread (so neither
/// side blocks on a full pipe), and collect its output.
pub(crate) fn run(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_redc"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("redc starts");
    let mut pipe = child.stdin.take().expect("stdin is piped");
    let input = stdin.to_owned();
    let writer = std::thread::spawn(move || pipe.write_all(input.as_bytes()));
    let out = child.wait_with_output().expect("redc runs");
    // redc may exit before reading all of its input (a usage error): a broken
    // pipe is not the test's concern.
    let _ = writer.join();
    out
}

/// Every `--product` value.
pub(crate) const PRODUCTS: [&str; 6] = ["sos", "cios", "fios", "fips", "cihs", "radix"];
/// Every `--schedule` value.
pub(crate) const SCHEDULES: [&str; 5] = ["ltr", "rtl", "ladder", "window", "sliding"];
/// Every `--word` value.
pub(crate) const WORDS: [&str; 4] = ["8", "16", "32", "64"];

/// Run redc with no input; panic with its stderr unless the status is
/// `want`; its stdout.
pub(crate) fn redc(args: &[&str], want: i32) -> String {
    let out = run(args, "");
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(want), "redc {args:?}: {stderr}");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// A fresh scratch directory named for `tag` and this test process.
pub(crate) fn scratch_dir(tag: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("redc-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&d).expect("scratch directory");
    d
}

/// Run redc with `args`: it must fail as bad input, with status 2, one
/// line on stderr (returned) and nothing on stdout.
pub(crate) fn refused(args: &[&str]) -> String {
    let out = run(args, "");
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(
        (out.status.code(), err.lines().count()),
        (Some(2), 1),
        "{args:?}: {err}"
    );
    assert!(out.stdout.is_empty(), "{args:?}");
    err
}

/// A 2048-bit RSA private key made by `openssl genpkey` at `path` (PKCS#8 PEM).
pub(crate) fn openssl_rsa_key(path: &str) {
    openssl(&[
        "genpkey",
        "-algorithm",
        "RSA",
        "-pkeyopt",
        "rsa_keygen_bits:2048",
        "-out",
        path,
    ]);
}

/// Run openssl; panic unless it succeeds.
pub(crate) fn openssl(args: &[&str]) -> Vec<u8> {
    let out = Command::new("openssl")
        .args(args)
        .output()
        .expect("openssl is installed (.ci/run installs it)");
    assert!(
        out.status.success(),
        "openssl {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

/// The JSON objects of a batch's output, one per line.
pub(crate) fn json_lines(out: &[u8]) -> Vec<serde_json::Value> {
    String::from_utf8_lossy(out)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}
