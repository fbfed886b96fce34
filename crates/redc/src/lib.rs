//! redc — Montgomery multiplication the way the papers describe it.
//!
//! The papers, cited by number (the number starts the paper's file name in
//! `../shared/papers`; crate `redc-hw` holds these records as
//! `redc_hw::citation`):
//!
//! - 000: a dataflow-based implementation of RSA on the Maxeler platform
//!   (title, authors and venue not given in the text);
//! - 001: Ito, Nakano, Song, "The Parallel FDFM Processor Core Approach for
//!   CRT-based RSA Decryption", International Journal of Networking and
//!   Computing;
//! - 002: Blum, Paar, "High-radix Montgomery modular exponentiation on
//!   reconfigurable hardware", IEEE Trans. on Computers, 50(7), 2001
//!   (as 001 cites it; 002's text starts at the abstract);
//! - 003: Garg, Vig, "An Efficient Montgomery Multiplication Algorithm and
//!   RSA Cryptographic Processor" (venue not given in the text);
//! - 004: Perin, Mesquita, Martins, "Montgomery Modular Multiplication on
//!   Reconfigurable Hardware: Systolic versus Multiplexed Implementation",
//!   International Journal of Reconfigurable Computing, 2011.
//!
//! Layers, bottom up (data flows one way):
//!
//! - [`word`]: the digit type of width `w` in {8, 16, 32, 64}
//!   (000 §2, the "stem type").
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
//!
//! # Example
//!
//! `pow(b, e, n)` for any modulus, then one Montgomery product by hand
//! with its word-operation counts; `examples/pow.rs` runs every schedule
//! and prints a trace.
//!
//! ```
//! use redc::{Modulus, Nat, OpCounts, PowOptions, Product, modpow};
//!
//! let n: Nat<u32> = "0xfffefff1".parse()?;
//! let r = modpow(&"0x12345678".parse()?, &Nat::from_u64(11), &n, PowOptions::default(), None)?;
//! assert_eq!(r.to_hex(), "9316d6ee"); // Python: hex(pow(0x12345678, 11, 0xfffefff1))
//!
//! // One CIOS product a·b·R^-1 mod n with 32-bit digits, metered.
//! let modulus = Modulus::new(&n)?;
//! let (a, b) = (modulus.to_mont(&Nat::from_u64(3), Product::Cios), modulus.to_mont(&Nat::from_u64(5), Product::Cios));
//! let mut meter = modulus.metered(Product::Cios, OpCounts::default());
//! let mut out = a.clone();
//! meter.mul_into(&mut out, &a, &b);
//! assert_eq!(modulus.from_mont(&out, Product::Cios), Nat::from_u64(15));
//! assert_eq!(meter.meter().muls(), 2 * 1 * 1 + 1); // Koç: 2s² + s for s = 1 digit
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod engine;
pub mod exp;
pub mod kernel;
pub mod modpow;
pub mod mont;
pub mod nat;
pub mod prime;
pub mod residue;
pub mod secret;
#[cfg(test)]
mod testing;
pub mod word;

pub use engine::{Backend, Engine, EngineError, Job, JobBase, PowJob, Prepared, PublicExpJob};
pub use exp::{Schedule, Trace, default_window};
pub use modpow::{ModpowError, PowOptions, SignedPow, SignedPowError, modpow};
pub use mont::{Modulus, ModulusError, MontElem, Multiplier, OpCounts, Product};
pub use nat::text::ParseNatError;
pub use nat::{Nat, Num};
pub use residue::{Domain, Residue};
pub use secret::SecretNat;
pub use word::Word;
