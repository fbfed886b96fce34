//! Errors of the shared layer. Each reads as the variant of the same name
//! in `redc-rsa`'s error, which takes it over unchanged; `redc-ffc` takes
//! over those it can meet (a refusal by policy, unreadable PEM).

/// Everything that can go wrong in `redc-pki`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Error {
    /// A parameter out of range (a security level that does not exist).
    #[error("invalid key parameters: {0}")]
    InvalidParameters(String),
    /// A key refused by its security level ([`crate::policy`]): the
    /// message names the level and the one that would accept the key.
    #[error("key refused: {0}")]
    Policy(String),
    /// A hash that the operation does not support (e.g. a fixed-length
    /// hash as an XOF): the hash's name, then the operation.
    #[error("hash {0} is not supported by {1}")]
    UnsupportedHash(&'static str, &'static str),
    /// Unreadable PEM (the message says why).
    #[error("key encoding: {0}")]
    Encoding(String),
}

/// `Result` with [`Error`].
pub type Result<T> = core::result::Result<T, Error>;
