//! The JSON Lines of the redc CLI's batch commands, through the CLI's own
//! code compiled in-process (`redc_fuzz::cli`, from crates/redc-cli/src):
//! argument parsing, the line reader (length cap, byte-order mark, CR LF,
//! keys given twice), the field parsers (numbers, hexadecimal) and the
//! answers, written to /dev/null.
//!
//! Input: `[command] [lines...]`. `command` picks (low 4 bits):
//! 0–3 `redc modexp --batch` on the reference modpow with `--word 64|32|16|8`;
//! 4 `redc modexp --batch --backend auto`, 5 `--backend scalar`;
//! 6–10 `redc rsa private-batch --op raw|sign-pss|sign-pkcs1v15|decrypt-oaep|decrypt-pkcs1v15`;
//! 11–15 `redc rsa public-batch --op raw|verify-pss|verify-pkcs1v15|encrypt-oaep|encrypt-pkcs1v15`,
//! under the fixed 1024-bit key; bit 4 adds `--hex` (modexp) and bits
//! 5–6 pick `--hash sha256|sha1|sha512|shake256` (RSA). Modexp inputs are cut
//! to 1024 bytes (256 for 8- and 16-bit words) to keep each run short.
//!
//! Checks: no panic (bad lines are answered with error lines); the
//! arguments always parse.
#![no_main]

use libfuzzer_sys::fuzz_target;
use redc_fuzz::cli::{key_path, run_batch};

const PRIVATE_OPS: [&str; 5] = ["raw", "sign-pss", "sign-pkcs1v15", "decrypt-oaep", "decrypt-pkcs1v15"];
const PUBLIC_OPS: [&str; 5] = [
    "raw",
    "verify-pss",
    "verify-pkcs1v15",
    "encrypt-oaep",
    "encrypt-pkcs1v15",
];
const HASHES: [&str; 4] = ["sha256", "sha1", "sha512", "shake256"];

fuzz_target!(|data: &[u8]| {
    let Some((&command, lines)) = data.split_first() else {
        return;
    };
    let key = key_path();
    let key = key.to_str().expect("UTF-8 temporary path");
    let hash = HASHES[usize::from(command >> 5 & 3)];
    let mut argv: Vec<&str> = Vec::new();
    let which = command & 15;
    match which {
        0..=5 => {
            let cap = if matches!(which, 2 | 3) { 256 } else { 1024 };
            if lines.len() > cap {
                return;
            }
            argv.extend(["modexp", "--batch", "{input}", "-o", "/dev/null"]);
            match which {
                4 => argv.extend(["--backend", "auto"]),
                5 => argv.extend(["--backend", "scalar"]),
                w => argv.extend(["--word", ["64", "32", "16", "8"][usize::from(w)]]),
            }
            if command & 16 != 0 {
                argv.push("--hex");
            }
        }
        6..=10 => argv.extend([
            "rsa",
            "private-batch",
            "--key",
            key,
            "--op",
            PRIVATE_OPS[usize::from(which - 6)],
            "--hash",
            hash,
            "--in",
            "{input}",
            "-o",
            "/dev/null",
            "--backend",
            "auto",
        ]),
        _ => argv.extend([
            "rsa",
            "public-batch",
            "--key",
            key,
            "--op",
            PUBLIC_OPS[usize::from(which - 11)],
            "--hash",
            hash,
            "--in",
            "{input}",
            "-o",
            "/dev/null",
            "--backend",
            "auto",
        ]),
    }
    assert!(run_batch(&argv, lines).is_some(), "arguments did not parse: {argv:?}");
});
