//! Outputs under signals. A command that writes with `-o` never leaves a
//! byte of its output readable by others, nor anything under the final
//! name, before the output is complete:
//!
//! - SIGINT, SIGTERM and SIGHUP mid-write (`encrypt`, `decrypt`): the
//!   command says so, dies by the signal, and leaves nothing but the files
//!   that were there (a replaced file unchanged). A signal this test
//!   process ignores (so redc inherits it ignored, as under `nohup`) stays
//!   ignored.
//! - SIGKILL at points spread over a `decrypt` over an existing 0644 file
//!   (most of them after the plaintext has started): nothing readable by
//!   others is left, and the final name is untouched unless the run
//!   finished; a tampered envelope that fails late leaves the same.
//! - SIGINT sent as standard input closes (`sign`, `rsa encrypt`, `rsa
//!   private-batch`): the command never exits 0 and never publishes its
//!   output, however the two interleave.

#![allow(
    clippy::print_stderr,
    reason = "names a signal this environment ignores, whose other branch ran"
)]

mod common;

use common::{redc, scratch_dir};
use std::io::Write;
use std::os::unix::fs::PermissionsExt;
use std::os::unix::process::ExitStatusExt;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// The files of `dir`, with their modes and contents.
fn listing(dir: &Path) -> Vec<(String, u32, Vec<u8>)> {
    let mut out: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .filter_map(Result::ok)
        .map(|e| {
            let mode = e.metadata().map_or(0, |m| m.permissions().mode() & 0o777);
            let data = std::fs::read(e.path()).unwrap_or_default();
            (e.file_name().to_string_lossy().into_owned(), mode, data)
        })
        .collect();
    out.sort();
    out
}

/// Bytes of output `pid` holds open in `dir`: its files there, named or
/// unnamed (an `O_TMPFILE` file shows as `dir/#inode (deleted)`).
fn partial_output(pid: u32, dir: &Path) -> u64 {
    // The links name the real directory (a temporary directory may be
    // reached through a link).
    let dir = std::fs::canonicalize(dir).unwrap_or_else(|_| dir.to_path_buf());
    let dir = dir.as_path();
    let Ok(fds) = std::fs::read_dir(format!("/proc/{pid}/fd")) else {
        return 0;
    };
    fds.filter_map(Result::ok)
        .filter(|fd| {
            std::fs::read_link(fd.path())
                .is_ok_and(|target| target.starts_with(dir) && target.file_name().is_some_and(|n| n != "in"))
        })
        .filter_map(|fd| std::fs::metadata(fd.path()).ok())
        .filter(|m| m.is_file())
        .map(|m| m.len())
        .sum()
}

/// Whether this process ignores `signal` (Linux's `SigIgn` mask).
fn ignored(signal: i32) -> bool {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find_map(|l| l.strip_prefix("SigIgn:"))
                .and_then(|m| u64::from_str_radix(m.trim(), 16).ok())
        })
        .is_some_and(|mask| mask >> (signal - 1) & 1 == 1)
}

/// A child killed if the test fails before it is waited for.
struct Running(Option<Child>);

impl Drop for Running {
    fn drop(&mut self) {
        if let Some(child) = self.0.as_mut() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

fn spawn(args: &[&str]) -> Running {
    Running(Some(
        Command::new(env!("CARGO_BIN_EXE_redc"))
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap(),
    ))
}

fn kill(pid: u32, signal: &str) {
    let status = Command::new("kill")
        .args(["-s", signal, &pid.to_string()])
        .status()
        .unwrap();
    assert!(status.success(), "kill -s {signal}");
}

/// 4 MiB of data, and a key pair, in `dir`; the data's envelope as `sealed`.
fn workspace(tag: &str) -> (std::path::PathBuf, Vec<u8>, Vec<u8>) {
    let dir = scratch_dir(tag);
    let p = |name: &str| dir.join(name).to_string_lossy().into_owned();
    redc(
        &["keygen", "--bits", "2048", "-o", &p("key.pem"), "--pub", &p("key.pub")],
        0,
    );
    let plain: Vec<u8> = (0..4u32 << 20)
        .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
        .collect();
    std::fs::write(dir.join("plain"), &plain).unwrap();
    redc(
        &["encrypt", "--key", &p("key.pub"), "-i", &p("plain"), "-o", &p("sealed")],
        0,
    );
    let sealed = std::fs::read(dir.join("sealed")).unwrap();
    (dir, plain, sealed)
}

#[test]
fn a_signal_mid_write_discards_the_output() {
    let (dir, plain, sealed) = workspace("interrupt");
    let p = |name: &str| dir.join(name).to_string_lossy().into_owned();
    for (signal, number) in [("INT", 2), ("TERM", 15), ("HUP", 1)] {
        for (command, key, input) in [("encrypt", "key.pub", &plain), ("decrypt", "key.pem", &sealed)] {
            let name = format!("out-{command}-{signal}");
            // decrypt replaces an existing file: it must stay as it was.
            if command == "decrypt" {
                std::fs::write(dir.join(&name), b"old").unwrap();
            }
            let before = listing(&dir);
            let mut running = spawn(&[command, "--key", &p(key), "-i", "-", "-o", &p(&name)]);
            let child = running.0.as_mut().unwrap();
            let pid = child.id();
            let mut stdin = child.stdin.take().unwrap();
            let (first, rest) = input.split_at(input.len() / 2);
            let (first, rest) = (first.to_vec(), rest.to_vec());
            let (go_on, wait_go) = std::sync::mpsc::channel::<bool>();
            let feeder = std::thread::spawn(move || {
                let _ = stdin.write_all(&first).and_then(|()| stdin.flush());
                // The rest only if the command is to finish; else stdin stays
                // open until the command is gone, so that it dies of the
                // signal rather than of a truncated input.
                if wait_go.recv() == Ok(true) {
                    let _ = stdin.write_all(&rest);
                } else {
                    let _ = wait_go.recv();
                }
            });
            // Wait until the output holds part of the result.
            let start = Instant::now();
            while partial_output(pid, &dir) == 0 {
                assert!(
                    start.elapsed() < Duration::from_secs(60),
                    "{command}: no partial output appeared"
                );
                std::thread::sleep(Duration::from_millis(10));
            }
            kill(pid, signal);
            let ignoring = ignored(number);
            if ignoring {
                std::thread::sleep(Duration::from_millis(300));
                assert!(
                    child.try_wait().unwrap().is_none(),
                    "{command}: an ignored SIG{signal} stopped it"
                );
            }
            go_on.send(ignoring).unwrap();
            let out = running.0.take().unwrap().wait_with_output().unwrap();
            drop(go_on);
            feeder.join().unwrap();
            let stderr = String::from_utf8_lossy(&out.stderr);
            if ignoring {
                eprintln!("SIG{signal} is ignored here: checked that {command} ignores it too");
                assert!(out.status.success(), "{command}: {stderr}");
                std::fs::remove_file(dir.join(&name)).unwrap();
                continue;
            }
            assert_eq!(
                out.status.signal(),
                Some(number),
                "{command} SIG{signal}: {:?} {stderr}",
                out.status
            );
            assert!(
                stderr.contains(&format!("stopped by SIG{signal}; the partial output was discarded")),
                "{command}: {stderr}"
            );
            assert!(listing(&dir) == before, "{command} SIG{signal}: files changed");
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// `decrypt -i in -o out` of `envelope` over an existing 0644 `out`,
/// killed by SIGKILL after `chunks` of its 64 KiB chunks were fed (never,
/// if that is past the end): whether it finished, and whether plaintext
/// had been written when it was killed.
fn decrypt_killed_after(dir: &Path, envelope: &[u8], chunks: usize) -> (bool, bool) {
    let p = |name: &str| dir.join(name).to_string_lossy().into_owned();
    let mut running = spawn(&["decrypt", "--key", &p("key.pem"), "-i", "-", "-o", &p("out")]);
    let child = running.0.as_mut().unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut started = false;
    for (fed, piece) in envelope.chunks(64 << 10).enumerate() {
        if fed == chunks {
            started = partial_output(child.id(), dir) > 0;
            child.kill().unwrap();
            break;
        }
        if stdin.write_all(piece).is_err() {
            break;
        }
        // Let the command consume it: the kill points fall between chunks.
        std::thread::sleep(Duration::from_micros(300));
    }
    drop(stdin);
    let status = running.0.take().unwrap().wait().unwrap();
    (status.success(), started)
}

#[test]
fn sigkill_anywhere_leaves_nothing_readable_and_the_old_file() {
    let (dir, plain, sealed) = workspace("sigkill");
    let mut tampered = sealed.clone();
    let late = tampered.len() - 1000;
    tampered[late] ^= 1;
    let chunks = sealed.len().div_ceil(64 << 10);
    let (mut killed, mut finished, mut mid_output) = (0, 0, 0);
    // Kill points spread over the run, most after the first chunk (where
    // plaintext starts), a few at the very start; then complete runs.
    for (run, point) in (0..40).map(|i| (i, [0, 1, 2].get(i).copied().unwrap_or(3 + i * chunks / 40))) {
        let envelope = if run % 4 == 3 { &tampered } else { &sealed };
        std::fs::write(dir.join("out"), b"old").unwrap();
        std::fs::set_permissions(dir.join("out"), std::fs::Permissions::from_mode(0o644)).unwrap();
        let before = listing(&dir);
        let (ok, started) = decrypt_killed_after(&dir, envelope, point);
        mid_output += usize::from(started);
        let after = listing(&dir);
        if ok {
            // Completed before the kill: the whole plaintext, old mode.
            finished += 1;
            assert!(std::ptr::eq(envelope, &sealed), "a tampered envelope decrypted");
            let out = after.iter().find(|f| f.0 == "out").unwrap();
            assert_eq!((out.1, &out.2), (0o644, &plain), "run {run}");
        } else {
            killed += 1;
            // The files that were there, unchanged; anything else (a
            // hidden file where the system has no unnamed files) must be
            // readable by its owner only.
            for file in &before {
                assert!(
                    after.contains(file),
                    "run {run} (killed after {point} chunks): {} changed",
                    file.0
                );
            }
            for (name, mode, _) in after.iter().filter(|f| !before.contains(f)) {
                assert!(
                    name.starts_with('.') && mode & 0o077 == 0,
                    "run {run}: {name} (mode {mode:o}) left behind"
                );
            }
        }
        for (name, mode, _) in &after {
            assert!(
                mode & 0o077 == 0 || ["out", "plain", "sealed", "key.pub"].contains(&name.as_str()),
                "run {run}: {name} is readable by others (mode {mode:o})"
            );
        }
    }
    assert!(
        killed >= 30,
        "only {killed} of 40 runs were killed ({finished} finished)"
    );
    assert!(
        mid_output >= 25,
        "only {mid_output} kills came after plaintext was written"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_signal_as_input_ends_never_exits_zero_nor_publishes() {
    let dir = scratch_dir("sigint-eof");
    let p = |name: &str| dir.join(name).to_string_lossy().into_owned();
    redc(
        &["keygen", "--bits", "2048", "-o", &p("key.pem"), "--pub", &p("key.pub")],
        0,
    );
    let cases: [(&[&str], &[u8]); 3] = [
        (&["sign", "--key", &p("key.pem"), "-i", "-", "-o"], b"a message to sign"),
        (&["rsa", "encrypt", "--key", &p("key.pub"), "-i", "-", "-o"], b"short"),
        (
            &["rsa", "private-batch", "--key", &p("key.pem"), "--op", "raw", "-o"],
            b"{\"in\": \"02\"}\n{\"in\": \"03\"}\n",
        ),
    ];
    if ignored(2) {
        eprintln!("SIGINT is ignored here (inherited): the race of a signal with the end of input cannot be tested");
        return;
    }
    for (args, input) in cases {
        let mut by_signal = 0;
        for run in 0..25 {
            let out = dir.join("out");
            let _ = std::fs::remove_file(&out);
            let mut argv = args.to_vec();
            let target = p("out");
            argv.push(&target);
            let mut running = spawn(&argv);
            let child = running.0.as_mut().unwrap();
            let mut stdin = child.stdin.take().unwrap();
            let _ = stdin.write_all(input);
            // The signal, then at once the end of input (so the signal is
            // always first); the delay moves both across the command's
            // start-up on later runs.
            std::thread::sleep(Duration::from_micros(200 * (run % 5)));
            kill(child.id(), "INT");
            drop(stdin);
            let status = running.0.take().unwrap().wait().unwrap();
            assert!(!status.success(), "{args:?} run {run}: exit 0 after SIGINT");
            by_signal += usize::from(status.signal() == Some(2));
            assert!(!out.exists(), "{args:?} run {run}: output published after SIGINT");
        }
        assert_eq!(by_signal, 25, "{args:?}: every run ends by the signal");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
