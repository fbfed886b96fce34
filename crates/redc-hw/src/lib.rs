//! Golden models of the Montgomery multiplier circuits in `../shared/papers`.
//!
//! Each model computes exactly what its circuit computes — digit by digit,
//! carry by carry, register by register — and counts the clock cycles the
//! circuit takes, so that RTL can be checked against it and architectures
//! compared on equal terms. One module per paper (the number is the paper's
//! file in `../shared/papers`; [`citation`] has each paper's record: 000
//! prints no title, authors or venue, and 002 is named as 001 cites it):
//!
//! | module | paper | architectures |
//! |---|---|---|
//! | [`fdfm`] | Ito, Nakano, Song, "The Parallel FDFM Processor Core Approach for CRT-based RSA Decryption", International Journal of Networking and Computing (001) | `fdfm` |
//! | [`blum_paar`] | Blum, Paar, "High-radix Montgomery modular exponentiation on reconfigurable hardware", IEEE Trans. on Computers, 50(7), 2001 (002) | `blum-paar`, `blum-paar-radix2` (its reference \[8\]) |
//! | [`carry_save`] | Garg, Vig, "An Efficient Montgomery Multiplication Algorithm and RSA Cryptographic Processor" (003) | `csa-radix2`, `csa-radix4` |
//! | [`perin`] | Perin, Mesquita, Martins, "Montgomery Modular Multiplication on Reconfigurable Hardware: Systolic versus Multiplexed Implementation", International Journal of Reconfigurable Computing, 2011 (004) | `perin-systolic`, `perin-multiplexed` |
//! | [`dataflow`] | a dataflow-based implementation of RSA on the Maxeler platform (000) | `dataflow` |
//!
//! Every model implements [`Circuit`] and declares its [`Arch`] entry; the
//! registry, [`Arch::ALL`], lists them, and [`build`] makes a model from an
//! entry, so the CLI and the tests treat them alike (a new architecture is
//! one model file, its `pub mod` line here and one line in [`Arch::ALL`]).
//! [`reference`](mod@reference) holds the
//! independent arithmetic the models are checked against, [`table`] the
//! paper-versus-model tables, [`vectors`] the testbench files, and
//! [`sample`] one product on every model.

pub mod blum_paar;
pub mod carry_save;
mod circuit;
pub mod citation;
pub mod dataflow;
pub mod fdfm;
pub mod perin;
pub mod random;
pub mod reference;
mod registry;
pub mod sample;
pub mod simulate;
pub mod table;
pub mod vcd;
pub mod vectors;

pub use circuit::{
    Arch, Build, Circuit, CrtDecrypt, CrtKey, CrtRun, CrtSupport, ExpRun, HwError, HwOption, Paper, ProductRun, Reg,
    Step,
};
pub use citation::Citation;
pub use registry::{build, crt_decrypt, crt_request, crt_support};
pub use table::{Entry, Table, Unmodelled};

/// The integers every model exchanges: redc's natural numbers in 64-bit
/// digits. Models work internally in their own digit width.
pub type Big = redc::Nat<u64>;

/// `2^k mod n` for an odd `n >= 3`, from the kernel layer
/// ([`redc::kernel::pow2_mod`]): the `R mod n`, `R^2 mod n` and pre-factors
/// the models load into their circuits come from the same place as every
/// other path's constants. (The reference keeps its own, by division.)
/// Pre: every model checks its modulus odd and at least 3 before it asks.
pub(crate) fn pow2_mod(k: usize, n: &Big) -> Big {
    Big::from_digits(redc::kernel::pow2_mod(k, n.digits()).to_vec())
}
