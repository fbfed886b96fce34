//! A signal in the middle of a command that writes with `-o` leaves no file
//! behind: `redc encrypt` and `redc decrypt` are stopped by SIGINT, SIGTERM
//! and SIGHUP while their temporary output is being written (half their
//! input given on stdin, the rest held back), and must exit with status
//! 128 + the signal, say so, and leave neither the output nor its
//! temporary file (for `decrypt`, partial plaintext).

mod common;

use common::{redc, scratch_dir};
use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The files of `dir` whose names contain `part`.
fn files_named(dir: &Path, part: &str) -> Vec<(String, u64)> {
    std::fs::read_dir(dir)
        .unwrap()
        .filter_map(Result::ok)
        .filter(|e| e.file_name().to_string_lossy().contains(part))
        .map(|e| {
            (
                e.file_name().to_string_lossy().into_owned(),
                e.metadata().map_or(0, |m| m.len()),
            )
        })
        .collect()
}

#[test]
fn a_signal_mid_write_leaves_no_partial_output() {
    let dir = scratch_dir("interrupt");
    let p = |name: &str| dir.join(name).to_string_lossy().into_owned();
    redc(
        &["keygen", "--bits", "1024", "-o", &p("key.pem"), "--pub", &p("key.pub")],
        0,
    );
    // 4 MiB of data and its envelope.
    let plain: Vec<u8> = (0..4u32 << 20)
        .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
        .collect();
    std::fs::write(dir.join("plain"), &plain).unwrap();
    redc(
        &["encrypt", "--key", &p("key.pub"), "-i", &p("plain"), "-o", &p("sealed")],
        0,
    );
    let sealed = std::fs::read(dir.join("sealed")).unwrap();

    for (signal, status) in [("INT", 130), ("TERM", 143), ("HUP", 129)] {
        for (command, key, input) in [("encrypt", "key.pub", &plain), ("decrypt", "key.pem", &sealed)] {
            let name = format!("out-{command}-{signal}");
            let mut child = Command::new(env!("CARGO_BIN_EXE_redc"))
                .args([command, "--key", &p(key), "-i", "-", "-o", &p(&name)])
                .stdin(Stdio::piped())
                .stdout(Stdio::null())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap();
            let mut stdin = child.stdin.take().unwrap();
            stdin.write_all(&input[..input.len() / 2]).unwrap();
            stdin.flush().unwrap();
            // Wait until the temporary file holds part of the output.
            let start = Instant::now();
            while !files_named(&dir, &name).iter().any(|(_, len)| *len > 0) {
                assert!(
                    start.elapsed() < Duration::from_secs(60),
                    "{command}: no partial output appeared"
                );
                std::thread::sleep(Duration::from_millis(20));
            }
            let pid = child.id().to_string();
            let kill = Command::new("kill").args(["-s", signal, &pid]).status().unwrap();
            assert!(kill.success());
            let out = child.wait_with_output().unwrap();
            drop(stdin);
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(status), "{command} SIG{signal}: {stderr}");
            assert!(
                stderr.contains(&format!("stopped by SIG{signal}; the partial output was removed")),
                "{command}: {stderr}"
            );
            assert_eq!(files_named(&dir, &name), vec![], "{command} SIG{signal} left files");
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}
