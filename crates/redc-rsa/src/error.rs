//! Errors of the RSA layer. Messages say what is wrong without echoing
//! secret values.

/// Everything that can go wrong in `redc-rsa`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Error {
    /// A key whose numbers do not fit together (the message says which).
    #[error("inconsistent key: {0}")]
    InvalidKey(String),
    /// A scheme the key's algorithm does not allow (an RSASSA-PSS key for
    /// anything but PSS, or PSS outside its restriction): the message
    /// says which.
    #[error("key usage: {0}")]
    KeyUsage(String),
    /// Key generation parameters out of range.
    #[error("invalid key parameters: {0}")]
    InvalidParameters(String),
    /// A key refused by its security level ([`crate::policy`]): the
    /// message names the level and the one that would accept the key.
    #[error("key refused: {0}")]
    Policy(String),
    /// An input integer is not below the modulus (RFC 8017 "out of range").
    #[error("message representative out of range (must be less than the modulus)")]
    OutOfRange,
    /// A message too long for the scheme and the key size.
    #[error("message too long: {len} bytes, at most {max} with this key and scheme")]
    MessageTooLong {
        /// The message length.
        len: usize,
        /// The largest length the key and scheme allow.
        max: usize,
    },
    /// The key is too small for the scheme and hash (RFC 8017 "encoding error").
    #[error("key too small for this scheme, hash and salt length")]
    KeyTooSmall,
    /// Decryption failed (OAEP, or the envelope). Deliberately says nothing
    /// about why, so it cannot serve as a padding oracle.
    #[error("decryption error")]
    Decryption,
    /// A signature does not verify.
    #[error("invalid signature")]
    Verification,
    /// The CRT result did not survive the check with the public exponent:
    /// a fault (the Bellcore attack) or a corrupted key. Nothing is released.
    #[error("private-key operation failed its consistency check (fault or corrupted key)")]
    FaultDetected,
    /// A hash that the scheme does not support (e.g. SHAKE outside PSS).
    #[error("hash {0} is not supported by {1}")]
    UnsupportedHash(&'static str, &'static str),
    /// The operating system's random generator failed.
    #[error("random number generator failed")]
    Rng,
    /// Key encoding or decoding (PEM, DER, PKCS#1, PKCS#8, SPKI).
    #[error("key encoding: {0}")]
    Encoding(String),
    /// An envelope file that is malformed, truncated or tampered with.
    #[error("envelope: {0}")]
    Envelope(String),
    /// A version 2 envelope with no entry for this key (key ids shown by
    /// their first 8 bytes, in hexadecimal).
    #[error("envelope: not encrypted to this key (key id {key}…); its recipients are {recipients}")]
    NotARecipient {
        /// The key's id.
        key: String,
        /// The envelope's recipients' ids.
        recipients: String,
    },
    /// An I/O error while streaming (the message of the underlying error).
    #[error("i/o: {0}")]
    Io(String),
    /// The key is encrypted (PKCS#8 `ENCRYPTED PRIVATE KEY`) and no password
    /// was given.
    #[error("the private key is encrypted: a password is needed")]
    PasswordRequired,
    /// An encrypted key that the password does not open (or whose encrypted
    /// data is corrupted: the two cannot be told apart).
    #[error("cannot decrypt the private key: wrong password (or corrupted key file)")]
    WrongPassword,
    /// The batch engine cannot run (e.g. `REDC_BACKEND` names a backend this
    /// CPU lacks) or refused a job.
    #[error("engine: {0}")]
    Engine(#[from] redc::EngineError),
}

/// `Result` with [`Error`].
pub type Result<T> = core::result::Result<T, Error>;

/// The shared layer's errors ([`redc_pki::Error`]) as the variants of the
/// same names, which read the same.
impl From<redc_pki::Error> for Error {
    fn from(e: redc_pki::Error) -> Self {
        match e {
            redc_pki::Error::InvalidParameters(why) => Self::InvalidParameters(why),
            redc_pki::Error::Policy(why) => Self::Policy(why),
            redc_pki::Error::UnsupportedHash(hash, by) => Self::UnsupportedHash(hash, by),
            redc_pki::Error::Encoding(why) => Self::Encoding(why),
        }
    }
}
