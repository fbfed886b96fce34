//! What a key file that no reader of redc accepts turns out to be, named
//! so that its owner can act: an OpenSSH key (with the `ssh-keygen` line
//! that converts it), or PEM or DER cut short. The one table of these
//! messages for every key reader: redc-rsa's `read_key` and redc-ffc's
//! DH and DSA reader.

use crate::find;

/// OpenSSH public key lines start with the key type.
const OPENSSH_PUBLIC: [&[u8]; 5] = [b"ssh-rsa ", b"ssh-dss ", b"ssh-ed25519 ", b"ecdsa-sha2-", b"sk-"];

/// A message naming what `bytes` is, when it is recognisably a key of a
/// format redc does not read or a key file cut short; `None` otherwise
/// (the readers then say what they expected).
pub fn diagnose(bytes: &[u8]) -> Option<String> {
    // DER (a SEQUENCE) is only checked for its length: its binary contents
    // may hold any bytes, "-----BEGIN " too.
    if bytes.first() == Some(&0x30) {
        return truncated_der(bytes);
    }
    if find(bytes, b"-----BEGIN OPENSSH PRIVATE KEY-----").is_some() {
        return Some(
            "an OpenSSH private key: redc reads PKCS#8 and PKCS#1; convert it in place with \
             `ssh-keygen -p -m PKCS8 -f FILE`"
                .into(),
        );
    }
    if find(bytes, b"PuTTY-User-Key-File-").is_some() {
        return Some("a PuTTY key: export it from PuTTYgen as an OpenSSH key, then convert that".into());
    }
    let text = bytes.trim_ascii_start();
    if OPENSSH_PUBLIC.iter().any(|kind| text.starts_with(kind)) {
        return Some(
            "an OpenSSH public key: redc reads SubjectPublicKeyInfo and PKCS#1; convert it with \
             `ssh-keygen -e -m PKCS8 -f FILE > FILE.pem`"
                .into(),
        );
    }
    if let Some(begin) = find(bytes, b"-----BEGIN ") {
        let rest = &bytes[begin + 11..];
        let Some(label) = find(rest, b"-----").filter(|&len| len <= 64).map(|len| &rest[..len]) else {
            return Some("PEM cut short: its \"-----BEGIN\" line is not closed (is the file truncated?)".into());
        };
        let end = [b"-----END ".as_slice(), label, b"-----"].concat();
        if find(rest, &end).is_none() {
            let label = String::from_utf8_lossy(label);
            return Some(format!(
                "PEM cut short: \"-----BEGIN {label}-----\" has no \"-----END {label}-----\" line \
                 (is the file truncated?)"
            ));
        }
    }
    None
}

/// For DER (a SEQUENCE) whose declared length runs past the input: how
/// much it declares and how much there is.
fn truncated_der(bytes: &[u8]) -> Option<String> {
    let (&tag, rest) = bytes.split_first()?;
    let (&first, rest) = rest.split_first()?;
    if tag != 0x30 {
        return None;
    }
    let (declared, contents) = if first < 0x80 {
        (usize::from(first), rest)
    } else {
        let count = usize::from(first & 0x7f);
        if count == 0 || count > 4 || rest.len() < count {
            return None;
        }
        let length = rest[..count].iter().fold(0usize, |acc, &b| (acc << 8) | usize::from(b));
        (length, &rest[count..])
    };
    (declared > contents.len()).then(|| {
        format!(
            "DER cut short: its outer SEQUENCE declares {declared} bytes of contents and {} follow \
             (is the file truncated?)",
            contents.len()
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_foreign_or_cut_format_is_named() {
        let pem = "-----BEGIN PRIVATE KEY-----\nMIIB\n-----END PRIVATE KEY-----\n";
        assert_eq!(diagnose(pem.as_bytes()), None, "a whole PEM block");
        let cut = diagnose(&pem.as_bytes()[..40]).unwrap();
        assert!(
            cut.contains("PEM cut short") && cut.contains("-----END PRIVATE KEY-----"),
            "{cut}"
        );
        let ssh = b"-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjE=\n-----END OPENSSH PRIVATE KEY-----\n";
        assert!(diagnose(ssh).unwrap().contains("ssh-keygen -p -m PKCS8"));
        let public = b"ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABAQC7 user@host\n";
        assert!(diagnose(public).unwrap().contains("ssh-keygen -e -m PKCS8"));
        assert!(diagnose(b"PuTTY-User-Key-File-3: ssh-rsa\n").unwrap().contains("PuTTY"));
        assert!(diagnose(b"-----BEGIN PRIV").unwrap().contains("not closed"));
    }

    #[test]
    fn der_cut_short_says_how_much_is_missing() {
        // A SEQUENCE declaring 0x0123 = 291 bytes, with 3 present.
        let cut = diagnose(&[0x30, 0x82, 0x01, 0x23, 1, 2, 3]).unwrap();
        assert!(cut.contains("declares 291 bytes") && cut.contains("3 follow"), "{cut}");
        assert_eq!(diagnose(&[0x30, 0x03, 1, 2, 3]), None, "exactly its length");
        assert_eq!(
            diagnose(&[0x30, 0x01, 1, 2, 3]),
            None,
            "trailing bytes are the parser's to name"
        );
        assert_eq!(diagnose(&[0x02, 0x05, 1]), None, "not a SEQUENCE");
        assert_eq!(diagnose(&[0x30]), None);
        assert_eq!(diagnose(&[0x30, 0x80, 1]), None, "indefinite length: not DER");
        // Whole DER whose contents hold PEM-like bytes (found by fuzz/key_read).
        let mut der = vec![0x30, 0x0d];
        der.extend_from_slice(b"-----BEGIN  ");
        der.push(0);
        assert_eq!(diagnose(&der), None);
    }
}
