//! The `openssl` command's spellings of options redc has under other
//! names (`-in`, `-out`, `-inkey`, `-sigfile`, `-sha256`...), rewritten to
//! redc's before clap reads the command line: clap would read `-in` as
//! `-i n`. A spelling whose redc option the command lacks is refused by
//! clap as any unknown option is.

use std::ffi::OsString;

/// `openssl` spelling → redc's arguments.
const SPELLINGS: [(&str, &[&str]); 7] = [
    ("-in", &["-i"]),
    ("-out", &["-o"]),
    ("-inkey", &["--key"]),
    ("-key", &["--key"]),
    ("-signature", &["--sig"]),
    ("-sigfile", &["--sig"]),
    // redc reads the public half of any key: nothing to say.
    ("-pubin", &[]),
];

/// `openssl dgst`'s digest options (`-sha256`...), as `--hash NAME`.
const DIGESTS: [&str; 9] = [
    "sha1",
    "sha224",
    "sha256",
    "sha384",
    "sha512",
    "sha3-256",
    "sha3-384",
    "sha3-512",
    "sha512-256",
];

/// `argv` with every whole argument that is an `openssl` spelling replaced
/// by redc's (`argv[0]` and whatever follows `--` are left alone).
pub(crate) fn rewrite(argv: Vec<OsString>) -> Vec<OsString> {
    let mut out = Vec::with_capacity(argv.len());
    let mut args = argv.into_iter();
    out.extend(args.next());
    while let Some(arg) = args.next() {
        if arg == "--" {
            out.push(arg);
            out.extend(args.by_ref());
            break;
        }
        let text = arg.to_str().unwrap_or_default();
        if let Some((_, redc)) = SPELLINGS.iter().find(|(spelling, _)| *spelling == text) {
            out.extend(redc.iter().map(OsString::from));
        } else if let Some(digest) = text.strip_prefix('-').filter(|d| DIGESTS.contains(d)) {
            out.extend([OsString::from("--hash"), OsString::from(digest)]);
        } else {
            out.push(arg);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rewritten(args: &[&str]) -> Vec<String> {
        rewrite(args.iter().map(OsString::from).collect())
            .into_iter()
            .map(|a| a.into_string().unwrap())
            .collect()
    }

    #[test]
    fn openssl_spellings_become_redcs() {
        assert_eq!(
            rewritten(&["redc", "sign", "-sha256", "-inkey", "k.pem", "-in", "m", "-out", "s"]),
            [
                "redc", "sign", "--hash", "sha256", "--key", "k.pem", "-i", "m", "-o", "s"
            ]
        );
        assert_eq!(
            rewritten(&[
                "redc",
                "verify",
                "-pubin",
                "-key",
                "p.pem",
                "-signature",
                "s",
                "-in",
                "m"
            ]),
            ["redc", "verify", "--key", "p.pem", "--sig", "s", "-i", "m"]
        );
        // Short options, redc's own long ones and values stay; after -- nothing changes.
        assert_eq!(
            rewritten(&["redc", "sign", "-i", "m", "--in", "-x", "--", "-in"]),
            ["redc", "sign", "-i", "m", "--in", "-x", "--", "-in"]
        );
        assert_eq!(rewritten(&["-in"]), ["-in"], "argv[0] is the program");
    }
}
