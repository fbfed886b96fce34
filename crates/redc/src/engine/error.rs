//! Why the engine cannot do what was asked: [`EngineError`], one variant
//! per cause, with the backend registry's names and needs in its messages.

use super::{backend_names, needs};

/// Why the engine cannot do what was asked.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EngineError {
    /// A backend name that is not in the registry.
    #[error("unknown backend \"{0}\" (expected one of: {list})", list = backend_names().join(", "))]
    UnknownBackend(String),
    /// The CPU lacks the backend's instructions.
    #[error("backend \"{0}\" is not available on this CPU (it needs {needs})", needs = needs(.0))]
    Unavailable(&'static str),
    /// A backend failed to run a group (a device's message says what failed).
    #[error("device: {0}")]
    Device(String),
    /// `n = 0`.
    #[error("modulus is zero")]
    ZeroModulus,
    /// A prepared modulus must be odd and at least 3.
    #[error("modulus must be odd and at least 3")]
    NotOddModulus,
    /// A job's modulus holds no context of any backend of this engine with
    /// a class for it (it was prepared by an engine with other backends).
    #[error("the modulus was prepared by an engine without the \"{0}\" backend (prepare it with this engine)")]
    NotPrepared(&'static str),
    /// A base given to a prepared job must be below its modulus.
    #[error("base is not below the modulus")]
    BaseTooLarge,
    /// The exponent has more bits than the job's public bound.
    #[error("exponent has {bits} bits, more than the bound of {bound}")]
    ExponentTooLong {
        /// Bits of the exponent.
        bits: usize,
        /// The bound the job declared.
        bound: usize,
    },
    /// A [`stream::Submitter`](super::stream::Submitter) job whose answer was lost: its lane group
    /// stopped abnormally (a panic), so the answer will never come.
    #[error("the streaming submitter stopped before answering this job")]
    Stopped,
}
