//! What redc's public-key crates, `redc-rsa` and `redc-ffc`, share, so
//! that neither depends on the other for it:
//!
//! | module | holds |
//! |---|---|
//! | [`error`] | [`Error`] (each crate turns it into its own) |
//! | [`hash`] | [`HashAlg`]: SHA-1, SHA-2, SHA-3 and SHAKE, their OIDs |
//! | [`batch`] | [`Batch`]: the messages or digests of a batch of signatures or verifications |
//! | [`pem`] | [`pem::decode_pem`]: the first PEM block of a key file (RFC 7468) |
//! | [`unreadable`] | [`unreadable::diagnose`]: what a key file no reader accepts is |
//! | [`policy`] | [`SecurityLevel`]: which key sizes each operation accepts |
//! | [`fault`] | the fault-injection stages and switches of the tests (feature `fault-injection`) |
//!
//! `redc-rsa` re-exports each of these under its old path
//! (`redc_rsa::HashAlg`, `redc_rsa::policy::SecurityLevel`, ...).

pub mod batch;
pub mod error;
pub mod fault;
pub mod hash;
pub mod pem;
pub mod policy;
pub mod unreadable;

pub use batch::Batch;
pub use error::{Error, Result};
pub use hash::HashAlg;
pub use policy::SecurityLevel;

/// The first position of `needle` in `haystack` (`None` for an empty
/// `needle`).
fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}
