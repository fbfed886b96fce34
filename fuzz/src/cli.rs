//! The redc CLI's batch commands, run in-process on a JSON Lines file
//! through the `redc_cli` library: the same argument parsing, line reader
//! and parsers as the `redc` binary.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// A directory of this process for the key file and the input files.
fn work_dir() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = std::env::temp_dir().join(format!("redc-fuzz-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temporary directory");
        std::fs::write(dir.join("key.pem"), crate::KEY_1024_PEM).expect("key file");
        dir
    })
}

/// The key file of the RSA batch commands (the 1024-bit key, PKCS#8 PEM).
pub fn key_path() -> PathBuf {
    work_dir().join("key.pem")
}

/// Runs `redc <argv...> ` with `{input}` in `argv` replaced by a file holding
/// `input`; output goes to /dev/null. Returns `None` when the arguments do
/// not parse (a bug of the target), else whether the command succeeded
/// (exit status 0) or failed with an error (bad lines, bad input).
pub fn run_batch(argv: &[&str], input: &[u8]) -> Option<bool> {
    let path = work_dir().join("input.jsonl");
    std::fs::write(&path, input).expect("input file");
    let path_text = path.to_string_lossy().into_owned();
    // The 1024-bit key file is small on purpose: level 1, as the binary's
    // `--security-level 1` (the targets give no level of their own).
    let argv: Vec<OsString> = ["redc", "--security-level", "1"]
        .into_iter()
        .chain(argv.iter().copied())
        .map(|a| if a == "{input}" { path_text.as_str() } else { a })
        .map(OsString::from)
        .collect();
    let cli = redc_cli::parse(argv).ok()?;
    if !cli.is_batch() {
        return None;
    }
    let result = redc_cli::execute(cli);
    Some(matches!(result, Ok(code) if code == std::process::ExitCode::SUCCESS))
}

/// The CLI's number parser (`redc_cli::number::Number`): decimal or 0x-hex,
/// at most `MAX_BITS` bits and `MAX_CHARS` characters. `Ok` holds the value.
pub fn parse_number(text: &str) -> Result<redc::Nat<u64>, String> {
    text.parse::<redc_cli::number::Number>()
        .map(|n| n.to_nat::<u64>())
        .map_err(|e| e.to_string())
}

/// The CLI's bounds on numbers: (bits, characters).
pub const NUMBER_LIMITS: (usize, usize) = (redc_cli::number::MAX_BITS, redc_cli::number::MAX_CHARS);
