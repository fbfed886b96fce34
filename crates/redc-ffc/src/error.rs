//! Errors of the finite-field layer. Each names the value that is wrong
//! (`peer public value`, `p`, `g`, `signature`), never a secret's digits.

/// Everything that can go wrong in `redc-ffc`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Error {
    /// Domain parameters that fail validation; the message names the value
    /// (`p`, `q`, `g`, `L`, `N`, `seed`) and the check.
    #[error("invalid domain parameters: {0}")]
    InvalidParameters(String),
    /// A key whose numbers do not fit its parameters (the message says which).
    #[error("invalid key: {0}")]
    InvalidKey(String),
    /// A peer's Diffie-Hellman public value out of range or outside the
    /// prime-order subgroup (SP 800-56A §5.6.2.3.1).
    #[error("invalid peer public value: {0}")]
    InvalidPeer(&'static str),
    /// A signature that does not verify (or is malformed: one error for both).
    #[error("invalid signature")]
    Verification,
    /// A hash this algorithm does not take.
    #[error("hash {0} is not supported for DSA (SHA-1 and SHA-2 are)")]
    UnsupportedHash(&'static str),
    /// A key refused by its security level ([`redc_pki::policy`]): the
    /// message names the level and the one that would accept the key.
    #[error("key refused: {0}")]
    Policy(String),
    /// A group name or (L, N) pair that is not offered.
    #[error("unsupported: {0}")]
    Unsupported(String),
    /// A check before release found a wrong result (a fault in the
    /// computation, as redc-rsa's `FaultDetected`): nothing was released.
    #[error("fault detected: the result failed its check and was not released")]
    FaultDetected,
    /// The operating system's random generator failed.
    #[error("random number generator failed")]
    Rng,
    /// Key encoding or decoding (PEM, DER, PKCS#8, SPKI).
    #[error("key encoding: {0}")]
    Encoding(String),
    /// The batch engine refused a job or cannot run.
    #[error("engine: {0}")]
    Engine(#[from] redc::EngineError),
}

/// `Result` with [`Error`].
pub type Result<T> = core::result::Result<T, Error>;

/// The shared layer's errors ([`redc_pki::Error`]) as this crate's: a
/// refusal by policy and unreadable PEM keep their messages; a hash that
/// is not supported names the hash.
impl From<redc_pki::Error> for Error {
    fn from(e: redc_pki::Error) -> Self {
        match e {
            redc_pki::Error::Policy(why) => Self::Policy(why),
            redc_pki::Error::Encoding(why) => Self::Encoding(why),
            redc_pki::Error::InvalidParameters(why) => Self::InvalidParameters(why),
            redc_pki::Error::UnsupportedHash(hash, _) => Self::UnsupportedHash(hash),
        }
    }
}
