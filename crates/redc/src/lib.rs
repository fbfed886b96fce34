//! redc — Montgomery multiplication the way the papers describe it.
//!
//! Layers, bottom up (data flows one way):
//!
//! - [`word`]: the digit type of width `w` in {8, 16, 32, 64}
//!   (000_be478b6750af4540.txt §2, the "stem type").
//! - [`nat`]: natural numbers as little-endian digit vectors — text, bytes,
//!   add, sub, schoolbook multiply, Knuth division.
//! - [`mont`]: a Montgomery [`Modulus`](mont::Modulus) and the six product
//!   schedules (SOS, CIOS, FIOS, FIPS, CIHS after Koç, Acar and Kaliski; the
//!   radix-2^r form of 001 Alg. 1), with operation counting.
//! - [`exp`]: exponentiation schedules (left-to-right, right-to-left,
//!   ladder, fixed and sliding window) and per-step traces.
//! - [`modpow`]: `pow(b, e, n)` for every modulus `n >= 1`.
//! - [`engine`]: batches of exponentiations over SIMD lanes (AVX-512 IFMA)
//!   and all cores.
//!
//! No I/O and no printing: errors are typed values.

pub mod engine;
pub mod exp;
pub mod kernel;
pub mod modpow;
pub mod mont;
pub mod nat;
pub mod prime;
pub mod word;

pub use engine::{Backend, Engine, EngineError, Job, PowJob, Prepared, Secrecy};
pub use exp::{Schedule, Trace, default_window};
pub use modpow::{ModpowError, PowOptions, modpow};
pub use mont::{Modulus, ModulusError, MontElem, Multiplier, OpCounts, Product};
pub use nat::Nat;
pub use nat::text::ParseNatError;
pub use word::Word;
