//! `openssl speed` in the same run: RSA sign (the private operation, CRT)
//! and verify (the public one, e = 65537), DSA sign and verify, and FFDH
//! derivations (`ffdh2048` ...: the named groups' keys, the peer set once)
//! per second, on one process (`-multi 1`) and on one process per thread
//! (`-multi N`), wall-clock time (`-elapsed`, as redc and GMP are timed),
//! machine-readable output (`-mr`).

use anyhow::{Context, bail};
use std::process::Command;

/// The RSA sizes `openssl speed` knows (OpenSSL 3).
const SIZES: [usize; 7] = [512, 1024, 2048, 3072, 4096, 7680, 15360];

/// The DSA sizes it knows.
const DSA_SIZES: [usize; 3] = [512, 1024, 2048];

/// The FFDH group sizes it knows (`ffdh2048` is RFC 7919's ffdhe2048).
const FFDH_SIZES: [usize; 5] = [2048, 3072, 4096, 6144, 8192];

/// An algorithm of `openssl speed`'s summary lines.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Alg {
    /// `+F2`: RSA sign and verify.
    Rsa,
    /// `+F3`: DSA sign and verify.
    Dsa,
    /// `+F8`: FFDH derivations (and the time of one, ignored).
    Ffdh,
}

/// One summary line: operations per second at `bits` (`sign` is the
/// derivation rate for FFDH, `verify` then 0).
#[derive(Debug, Clone, Copy, PartialEq)]
struct Rates {
    alg: Alg,
    bits: usize,
    sign: f64,
    verify: f64,
}

/// What one run asks `openssl speed` for: RSA, DSA and FFDH sizes.
#[derive(Debug, Clone, Default)]
pub(super) struct Wanted {
    pub(super) rsa: Vec<usize>,
    pub(super) dsa: Vec<usize>,
    pub(super) ffdh: Vec<usize>,
}

impl Wanted {
    /// The `openssl speed` arguments for the sizes it knows.
    fn args(&self) -> Vec<String> {
        let known = |sizes: &[usize], all: &[usize], name: &str| -> Vec<String> {
            sizes
                .iter()
                .filter(|b| all.contains(b))
                .map(|b| format!("{name}{b}"))
                .collect()
        };
        [
            known(&self.rsa, &SIZES, "rsa"),
            known(&self.dsa, &DSA_SIZES, "dsa"),
            known(&self.ffdh, &FFDH_SIZES, "ffdh"),
        ]
        .concat()
    }
}

/// OpenSSL's figures for one run of the bench.
#[derive(Debug)]
pub(super) struct OpenSsl {
    version: String,
    /// `-multi 1`.
    single: Vec<Rates>,
    /// `-multi threads` (empty for one thread).
    multi: Vec<Rates>,
}

impl OpenSsl {
    /// Run `openssl speed` for the `sizes` it knows, `seconds` (rounded up
    /// to whole seconds, at least 1) per operation, once with one process
    /// and, for `threads > 1`, once with `threads`; `status` is told what runs.
    pub(super) fn measure(
        wanted: &Wanted,
        seconds: f64,
        threads: usize,
        status: &dyn Fn(String),
    ) -> anyhow::Result<OpenSsl> {
        let out = Command::new("openssl")
            .arg("version")
            .output()
            .context("cannot run openssl")?;
        if !out.status.success() {
            bail!("openssl version failed");
        }
        let version = String::from_utf8_lossy(&out.stdout).trim().to_owned();
        let args = wanted.args();
        let secs = (seconds.ceil() as u64).max(1);
        let run = |multi: usize| -> anyhow::Result<Vec<Rates>> {
            if args.is_empty() {
                return Ok(Vec::new());
            }
            let total = 2 * secs * args.len() as u64;
            status(format!("openssl speed -multi {multi} (about {total} s)"));
            speed(&args, secs, multi)
        };
        let single = run(1)?;
        let multi = if threads > 1 { run(threads)? } else { Vec::new() };
        Ok(OpenSsl { version, single, multi })
    }

    /// `openssl version`.
    pub(super) fn version(&self) -> &str {
        &self.version
    }

    /// Private (sign, derive) or public (verify) operations of `alg` per
    /// second at `bits` on `threads` processes (1, or the bench's thread
    /// count).
    pub(super) fn rate(&self, alg: Alg, bits: usize, threads: usize, private: bool) -> Option<f64> {
        let table = if threads == 1 { &self.single } else { &self.multi };
        table
            .iter()
            .find(|r| r.alg == alg && r.bits == bits)
            .map(|r| if private { r.sign } else { r.verify })
            .filter(|&r| r > 0.0)
    }
}

/// `openssl speed -mr -elapsed -seconds S -multi M rsaB ... dsaB ... ffdhB ...`.
fn speed(args: &[String], seconds: u64, multi: usize) -> anyhow::Result<Vec<Rates>> {
    let mut cmd = Command::new("openssl");
    cmd.args(["speed", "-mr", "-elapsed", "-seconds"])
        .arg(seconds.to_string())
        .arg("-multi")
        .arg(multi.to_string());
    cmd.args(args);
    let out = cmd.output().context("cannot run openssl speed")?;
    if !out.status.success() {
        let err = String::from_utf8_lossy(&out.stderr);
        bail!(
            "openssl speed -multi {multi} failed: {}",
            err.lines().last().unwrap_or("no message")
        );
    }
    let rates = parse(&String::from_utf8_lossy(&out.stdout));
    if rates.is_empty() {
        bail!("openssl speed -multi {multi} printed no figures");
    }
    Ok(rates)
}

/// The summary lines of `openssl speed -mr`: RSA's
/// `+F2:<index>:<bits>:<sign/s>:<verify/s>[:...]` (OpenSSL 3.2 and later
/// append encrypt/decrypt rates, ignored), DSA's `+F3:` of the same shape,
/// FFDH's `+F8:<index>:<bits>:<derive/s>:<seconds each>`. With `-multi`,
/// each child's line is echoed after `Got: ` and the parent's line holds
/// the sum; only lines that start with `+F` count.
fn parse(text: &str) -> Vec<Rates> {
    text.lines()
        .filter_map(|line| {
            let (alg, rest) = [("+F2:", Alg::Rsa), ("+F3:", Alg::Dsa), ("+F8:", Alg::Ffdh)]
                .into_iter()
                .find_map(|(tag, alg)| Some((alg, line.strip_prefix(tag)?)))?;
            let mut f = rest.split(':').skip(1);
            let bits = f.next()?.parse().ok()?;
            let sign: f64 = f.next()?.parse().ok()?;
            let verify: f64 = if alg == Alg::Ffdh { 0.0 } else { f.next()?.parse().ok()? };
            (sign > 0.0 && (verify > 0.0 || alg == Alg::Ffdh)).then_some(Rates {
                alg,
                bits,
                sign,
                verify,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_single_and_multi_output() {
        // OpenSSL 3.0.19, `-mr -multi 2 rsa1024 rsa2048` (children echoed after "Got:").
        let text = "Forked child 0\nForked child 1\n\
            Got: +F2:1:1024:6506.930693:147985.000000 from 0\n\
            Got: +F2:1:1024:6000.5:140000.25 from 1\n\
            Got: +F2:2:2048:900:30000 from 0\n\
            Got: +F2:2:2048:910:30500 from 1\n\
            +F2:1:1024:12507.430693:287985.250000\n\
            +F2:2:2048:1810.000000:60500.000000\n";
        assert_eq!(
            parse(text),
            vec![
                Rates {
                    alg: Alg::Rsa,
                    bits: 1024,
                    sign: 12507.430693,
                    verify: 287985.25
                },
                Rates {
                    alg: Alg::Rsa,
                    bits: 2048,
                    sign: 1810.0,
                    verify: 60500.0
                },
            ]
        );
        // OpenSSL 3.2+: encrypt and decrypt rates appended.
        let later = "+F2:3:3072:400.5:9000.0:8800.0:390.0\n+DTP:3072:private:rsa:1\n";
        assert_eq!(
            parse(later),
            vec![Rates {
                alg: Alg::Rsa,
                bits: 3072,
                sign: 400.5,
                verify: 9000.0
            }]
        );
        // OpenSSL 3.0.19, `-mr -multi 2 ffdh2048 dsa2048`.
        let ffc = "Got: +F3:2:2048:3572.000000:4261.000000 from 0\n\
            Got: +F8:0:2048:3297.000000:0.000303 from 0\n\
            +F3:2:2048:7052.000000:8618.000000\n\
            +F8:0:2048:6471.000000:0.000155\n";
        assert_eq!(
            parse(ffc),
            vec![
                Rates {
                    alg: Alg::Dsa,
                    bits: 2048,
                    sign: 7052.0,
                    verify: 8618.0
                },
                Rates {
                    alg: Alg::Ffdh,
                    bits: 2048,
                    sign: 6471.0,
                    verify: 0.0
                },
            ]
        );
        let wanted = Wanted {
            rsa: vec![1024, 2000],
            dsa: vec![2048, 3072],
            ffdh: vec![2048, 1536],
        };
        assert_eq!(wanted.args(), ["rsa1024", "dsa2048", "ffdh2048"]);
        assert!(parse("+F2:1:1024:nan\n+F2:x:y\nrsa 1024 bits 0.000073s 0.000005s 13676.0 220240.0").is_empty());
    }
}
