//! What the tests that drive the `openssl` command (and servers linked to
//! it) share: a scratch directory holding the provider and keys, the
//! command, the options and the `openssl.cnf` that load redc, a free port.
#![allow(dead_code, unreachable_pub)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

/// A directory holding the provider as `redc.so` (the name `-provider redc`
/// loads) and three keys (2048 bits with two and three primes, 4096
/// bits), made once for every test.
pub fn scratch() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("redc-provider-{}", env!("CARGO_CRATE_NAME")));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        // The test binary is in target/<profile>/deps, beside the library.
        let exe = std::env::current_exe().unwrap();
        let library = exe.parent().unwrap().join("libredc_provider.so");
        assert!(library.exists(), "no provider at {}", library.display());
        std::os::unix::fs::symlink(&library, dir.join("redc.so")).unwrap();
        for (name, bits, primes) in [("two", 2048, 2), ("three", 2048, 3), ("four", 4096, 2)] {
            let key = format!("{name}.pem");
            run(&dir, &["genpkey", "-algorithm", "RSA"])
                .args(["-pkeyopt", &format!("rsa_keygen_bits:{bits}")])
                .args(["-pkeyopt", &format!("rsa_keygen_primes:{primes}")])
                .args(["-out", &key])
                .ok();
            run(&dir, &["pkey", "-in", &key, "-pubout", "-out", &format!("{name}.pub")]).ok();
        }
        std::fs::write(dir.join("msg"), b"a message to sign\n").unwrap();
        std::fs::write(dir.join("newline"), b"\n").unwrap();
        dir
    })
}

/// `openssl req -x509` making the self-signed certificate `out` of `key`
/// with subject `subject`, valid a day.
pub fn self_signed(dir: &Path, key: &str, subject: &str, out: &str) -> Command {
    run(
        dir,
        &[
            "req", "-x509", "-new", "-key", key, "-subj", subject, "-days", "1", "-out", out,
        ],
    )
}

/// An `openssl` command in `dir`.
pub fn run(dir: &Path, args: &[&str]) -> Command {
    let mut c = Command::new("openssl");
    c.current_dir(dir).args(args);
    c
}

/// The options that load redc beside the default provider and prefer it.
pub const WITH_REDC: [&str; 8] = [
    "-provider-path",
    ".",
    "-provider",
    "redc",
    "-provider",
    "default",
    "-propquery",
    "?provider=redc",
];

pub trait Checked {
    /// Runs, and panics with the output unless the command succeeded.
    fn ok(&mut self) -> Output;
    /// Runs, and panics unless the command failed; its stderr.
    fn fails(&mut self) -> String;
}

impl Checked for Command {
    fn ok(&mut self) -> Output {
        let out = self.output().expect("openssl runs");
        assert!(
            out.status.success(),
            "{self:?}: {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        out
    }

    fn fails(&mut self) -> String {
        let out = self.output().expect("openssl runs");
        assert!(!out.status.success(), "{self:?} succeeded");
        String::from_utf8_lossy(&out.stderr).into_owned()
    }
}

/// An `openssl.cnf` that loads the provider from its library with the
/// section's extra `lines`, preferring it.
pub fn config(name: &str, lines: &str) -> PathBuf {
    let dir = scratch();
    let library = std::fs::read_link(dir.join("redc.so")).unwrap();
    let text = format!(
        "openssl_conf = openssl_init\n[openssl_init]\nproviders = provider_sect\nalg_section = evp_properties\n\
         [provider_sect]\ndefault = default_sect\nredc = redc_sect\n[default_sect]\nactivate = 1\n\
         [redc_sect]\nmodule = {}\n{lines}\nactivate = 1\n[evp_properties]\ndefault_properties = ?provider=redc\n",
        library.display()
    );
    let file = dir.join(name);
    std::fs::write(&file, text).unwrap();
    file
}

/// A port free on loopback at the time of the call.
pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}
