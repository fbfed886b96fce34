//! Security levels: which keys a private or public operation accepts, in
//! the manner of OpenSSL's security levels (`SSL_CTX_set_security_level`,
//! levels 0 to 5, each a security strength of SP 800-57 Part 1 Table 2:
//! none, 80, 112, 128, 192 and 256 bits).
//!
//! | level | RSA private | RSA public | DSA/DH, new signatures and secrets |
//! |---|---|---|---|
//! | 0 | any | any | any |
//! | 1 | 1024 | 1024 | 1024 |
//! | 2 (default) | 2048 | 1024 | 2048 |
//! | 3 | 3072 | 2048 | 3072 |
//! | 4 | 7680 | 3072 | 7680 |
//! | 5 | 15360 | 7680 | 15360 |
//!
//! Public operations (verification, encryption) keep working one level
//! down, so that old signatures can still be checked. From level 1 on, a
//! private key has no more primes than OpenSSL allows for its size
//! (`ossl_rsa_multip_cap`: 2 below 1024 bits, 3 below 4096, 4 below 8192,
//! 5 above). Every refusal names the level and the one that would accept
//! the key. A key carries its level (`security_level()` of redc-rsa's and
//! redc-ffc's keys), [`SecurityLevel::DEFAULT`] unless set; the CLI's `--security-level`
//! and the Python package's `security_level=` set it.

use crate::error::{Error, Result};

/// A security level, 0 to 5.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct SecurityLevel(u8);

/// Minimum RSA modulus (and DSA/DH prime) bits for private operations at
/// each level.
const PRIVATE_BITS: [usize; 6] = [0, 1024, 2048, 3072, 7680, 15360];
/// Minimum RSA modulus bits for public operations at each level.
const PUBLIC_BITS: [usize; 6] = [0, 1024, 1024, 2048, 3072, 7680];

impl Default for SecurityLevel {
    fn default() -> Self {
        Self::DEFAULT
    }
}

impl core::fmt::Display for SecurityLevel {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "security level {}", self.0)
    }
}

impl SecurityLevel {
    /// Level 2 (112-bit security), the default everywhere.
    pub const DEFAULT: SecurityLevel = SecurityLevel(2);
    /// Level 0: no key is refused for its size (tests, old data).
    pub const NONE: SecurityLevel = SecurityLevel(0);
    /// The highest level.
    pub const MAX: u8 = 5;

    /// Level `level`, 0 to [`SecurityLevel::MAX`].
    pub fn new(level: u8) -> Result<Self> {
        if level > Self::MAX {
            return Err(Error::InvalidParameters(format!(
                "security level {level} does not exist (0 to {})",
                Self::MAX
            )));
        }
        Ok(Self(level))
    }

    /// The level's number.
    pub fn get(self) -> u8 {
        self.0
    }

    /// Minimum modulus bits for private operations.
    pub fn private_min_bits(self) -> usize {
        PRIVATE_BITS[usize::from(self.0)]
    }

    /// Minimum modulus bits for public operations.
    pub fn public_min_bits(self) -> usize {
        PUBLIC_BITS[usize::from(self.0)]
    }

    /// Minimum DSA or DH prime bits for new signatures and shared secrets.
    pub fn ffc_min_bits(self) -> usize {
        PRIVATE_BITS[usize::from(self.0)]
    }

    /// Most primes of a private key of `bits` bits (OpenSSL's cap from
    /// level 1 on; 16, the key reader's limit, at level 0).
    pub fn max_primes(self, bits: usize) -> usize {
        match self.0 {
            0 => 16,
            _ => openssl_max_primes(bits),
        }
    }

    /// The highest level whose `min(level)` accepts `bits` (for the hint).
    fn accepting(table: &[usize; 6], bits: usize) -> u8 {
        table.iter().rposition(|&min| bits >= min).unwrap_or(0) as u8
    }

    /// Whether a private key of `bits` bits and `primes` primes may be used.
    pub fn check_rsa_private(self, bits: usize, primes: usize) -> Result<()> {
        let min = self.private_min_bits();
        if bits < min {
            return Err(Error::Policy(format!(
                "a {bits}-bit RSA key is refused for private operations at {self} (at least {min} bits); \
                 security level {} accepts it",
                Self::accepting(&PRIVATE_BITS, bits)
            )));
        }
        let max = self.max_primes(bits);
        if primes > max {
            return Err(Error::Policy(format!(
                "a {bits}-bit RSA key of {primes} primes is refused at {self} (at most {max} primes at this size); \
                 security level 0 accepts it"
            )));
        }
        Ok(())
    }

    /// Whether a public key of `bits` bits may be used.
    pub fn check_rsa_public(self, bits: usize) -> Result<()> {
        let min = self.public_min_bits();
        if bits < min {
            return Err(Error::Policy(format!(
                "a {bits}-bit RSA key is refused for public operations at {self} (at least {min} bits); \
                 security level {} accepts it",
                Self::accepting(&PUBLIC_BITS, bits)
            )));
        }
        Ok(())
    }

    /// Whether `what` (e.g. "DSA signing", "Diffie-Hellman") may use a
    /// prime of `bits` bits for a new signature or shared secret.
    pub fn check_ffc(self, what: &str, bits: usize) -> Result<()> {
        let min = self.ffc_min_bits();
        if bits < min {
            return Err(Error::Policy(format!(
                "{what} with a {bits}-bit prime is refused at {self} (at least {min} bits); \
                 security level {} accepts it",
                Self::accepting(&PRIVATE_BITS, bits)
            )));
        }
        Ok(())
    }
}

/// The most primes a key of `bits` bits may have: OpenSSL's limits (2 below
/// 1024 bits, 3 below 4096, 4 below 8192, then 5), so that every prime
/// keeps its factoring cost well above the modulus's.
pub fn openssl_max_primes(bits: usize) -> usize {
    match bits {
        0..1024 => 2,
        1024..4096 => 3,
        4096..8192 => 4,
        _ => 5,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_level_and_its_boundaries() {
        assert_eq!(SecurityLevel::default(), SecurityLevel::new(2).unwrap());
        assert!(SecurityLevel::new(6).is_err());
        for (level, private, public) in [
            (0, 512, 512),
            (1, 1024, 1024),
            (2, 2048, 1024),
            (3, 3072, 2048),
            (4, 7680, 3072),
            (5, 15360, 7680),
        ] {
            let l = SecurityLevel::new(level).unwrap();
            assert!(l.check_rsa_private(private, 2).is_ok(), "{level}");
            assert!(l.check_rsa_public(public).is_ok(), "{level}");
            if level > 0 {
                let err = l.check_rsa_private(private - 1, 2).unwrap_err().to_string();
                assert!(err.contains(&format!("security level {level} ")), "{err}");
                assert!(l.check_rsa_public(public - 1).is_err(), "{level}");
                assert!(l.check_ffc("DSA signing", private - 1).is_err());
            }
        }
    }

    #[test]
    fn refusals_name_the_level_that_accepts() {
        let err = SecurityLevel::DEFAULT
            .check_rsa_private(1024, 2)
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("1024-bit RSA key is refused for private operations at security level 2")
                && err.contains("security level 1 accepts it"),
            "{err}"
        );
        let err = SecurityLevel::DEFAULT
            .check_rsa_private(512, 2)
            .unwrap_err()
            .to_string();
        assert!(err.contains("security level 0 accepts it"), "{err}");
    }

    #[test]
    fn primes_are_capped_as_openssl_caps_them() {
        let l = SecurityLevel::DEFAULT;
        assert_eq!(
            [1023, 2048, 3072, 4095, 4096, 8191, 8192].map(|b| l.max_primes(b)),
            [2, 3, 3, 3, 4, 4, 5]
        );
        assert!(l.check_rsa_private(2048, 3).is_ok());
        let err = l.check_rsa_private(2048, 16).unwrap_err().to_string();
        assert!(err.contains("16 primes") && err.contains("at most 3"), "{err}");
        assert!(SecurityLevel::NONE.check_rsa_private(2045, 16).is_ok());
    }
}
