//! redc — Montgomery multiplication the way the papers describe it.
//!
//! Layers, bottom up (data flows one way):
//!
//! - [`word`]: the digit type of width `w` in {8, 16, 32, 64}
//!   (000_be478b6750af4540.txt §2, the "stem type").
//! - [`nat`]: public natural numbers as little-endian digit vectors — text,
//!   bytes, add, sub, schoolbook multiply, Knuth division; [`secret`]:
//!   [`SecretNat`], a secret of a fixed, public number of digits.
//! - [`kernel`]: the one kernel layer — modulus constants, the final
//!   subtraction, the constant-time select, the 64-bit product and squaring,
//!   and the fixed- and sliding-window drivers over any [`kernel::Kernel`].
//! - [`mont`]: the metered teaching layer — a Montgomery [`Modulus`] and the
//!   six product schedules (SOS, CIOS, FIOS, FIPS, CIHS after Koç, Acar and
//!   Kaliski; the radix-2^r form of 001 Alg. 1) over the same primitives;
//!   [`exp`]: the exponentiation schedules and per-step traces.
//! - [`residue`]: [`Domain`] and [`Residue`], residues branded by their
//!   modulus on the 64-bit kernels (the RSA glue); [`prime`]: Miller–Rabin.
//! - [`modpow()`]: `pow(b, e, n)` for every modulus `n >= 1`.
//! - [`engine`]: batches of exponentiations over backends plugged in as
//!   [`engine::Backend`]s — scalar, AVX-512 IFMA lanes, a GPU device — and
//!   all cores.
//!
//! No I/O, no printing, no environment: errors are typed values.

pub mod engine;
pub mod exp;
pub mod kernel;
pub mod modpow;
pub mod mont;
pub mod nat;
pub mod prime;
pub mod residue;
pub mod secret;
pub mod word;

pub use engine::{Backend, Engine, EngineError, Job, JobBase, PowJob, Prepared, PublicExpJob};
pub use exp::{Schedule, Trace, default_window};
pub use modpow::{ModpowError, PowOptions, modpow};
pub use mont::{Modulus, ModulusError, MontElem, Multiplier, OpCounts, Product};
pub use nat::Nat;
pub use nat::text::ParseNatError;
pub use residue::{Domain, Residue};
pub use secret::SecretNat;
pub use word::Word;
