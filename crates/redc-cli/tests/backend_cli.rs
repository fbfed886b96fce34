//! `--backend` and `REDC_BACKEND` on a machine whose build or hardware
//! lacks what a backend needs: exit status 2 and one line naming what is
//! missing, never a silent fallback. (CI has no GPU; on a machine with one
//! and a `--features cuda` build, the cuda cases are skipped and the device
//! tests of redc-cuda run instead.)

mod common;

use std::process::Command;

/// Is a usable GPU behind `--backend cuda` here? (Only with a CUDA build
/// on a machine with a driver and a device.)
fn gpu_usable() -> bool {
    let out = Command::new(env!("CARGO_BIN_EXE_redc"))
        .args(["modexp", "--batch", "-", "--backend", "cuda"])
        .output()
        .expect("redc runs");
    out.status.success()
}

/// Run `redc` with `env` set; the status and stderr.
fn run_env(args: &[&str], env: (&str, &str), stdin: &str) -> (Option<i32>, String) {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_redc"))
        .args(args)
        .env(env.0, env.1)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("redc starts");
    let mut pipe = child.stdin.take().expect("stdin is piped");
    let _ = pipe.write_all(stdin.as_bytes());
    drop(pipe);
    let out = child.wait_with_output().expect("redc runs");
    (out.status.code(), String::from_utf8_lossy(&out.stderr).into_owned())
}

/// Every message about the missing GPU names what is missing: the CUDA
/// build (default build), or the driver, the device or NVRTC.
fn names_what_is_missing(stderr: &str) -> bool {
    ["without CUDA support", "libcuda", "no CUDA device", "libnvrtc", "NVRTC"]
        .iter()
        .any(|m| stderr.contains(m))
}

#[test]
#[allow(clippy::print_stderr)]
fn cuda_without_a_gpu_is_bad_input_naming_what_is_missing() {
    if gpu_usable() {
        eprintln!("SKIPPED: a GPU is usable here");
        return;
    }
    let key = common::scratch_dir("backend").join("k.pem");
    let key = key.to_str().unwrap();
    common::redc(&["keygen", "--bits", "2048", "-o", key], 0);
    let line = "{\"base\": 2, \"exp\": 10, \"mod\": 1001}\n";
    for args in [
        &["modexp", "--batch", "-", "--backend", "cuda"][..],
        &["rsa", "private-batch", "--key", key, "--op", "raw", "--backend", "cuda"],
        &["rsa", "public-batch", "--key", key, "--op", "raw", "--backend", "cuda"],
        &["bench", "--backend", "cuda", "--quick", "--no-openssl", "--no-gmp"],
        &["bench", "--backend", "cuda", "--gpu-only", "--gpu-batch", "64"],
    ] {
        let out = common::run(args, line);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains("--backend cuda"), "{args:?}: {stderr}");
        assert!(names_what_is_missing(&stderr), "{args:?}: {stderr}");
        assert_eq!(stderr.trim_end().lines().count(), 1, "{args:?}: {stderr}");
        assert!(out.stdout.is_empty(), "{args:?}");
    }
    for args in [
        &["modexp", "--batch", "-"][..],
        &["rsa", "private-batch", "--key", key, "--op", "raw"],
        &["rsa", "decrypt", "--key", key, "-i", "-", "-o", "-"],
    ] {
        let (code, stderr) = run_env(args, ("REDC_BACKEND", "cuda"), line);
        assert_eq!(code, Some(2), "{args:?}: {stderr}");
        assert!(
            stderr.contains("REDC_BACKEND=cuda") && names_what_is_missing(&stderr),
            "{stderr}"
        );
    }
}

#[test]
fn unknown_backends_and_conflicts_are_usage_errors() {
    let line = "{\"base\": 2, \"exp\": 10, \"mod\": 1001}\n";
    let (code, stderr) = run_env(&["modexp", "--batch", "-"], ("REDC_BACKEND", "gpu"), line);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(
        stderr.contains("REDC_BACKEND") && stderr.contains("\"gpu\""),
        "{stderr}"
    );
    for args in [
        &["modexp", "--batch", "-", "--backend", "gpu"][..],
        &["modexp", "--batch", "-", "--backend", "scalar", "--product", "sos"],
        &["modexp", "2", "10", "1001", "--backend", "scalar"],
    ] {
        let out = common::run(args, line);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
    }
    // `auto` runs on this machine, whatever it has.
    let (code, stderr) = run_env(&["modexp", "--batch", "-"], ("REDC_BACKEND", "auto"), line);
    assert_eq!(code, Some(0), "{stderr}");
}
