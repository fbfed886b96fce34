//! Golden models of the Montgomery multiplier circuits in `../shared/papers`.
//!
//! Each model computes exactly what its circuit computes — digit by digit,
//! carry by carry, register by register — and counts the clock cycles the
//! circuit takes, so that RTL can be checked against it and architectures
//! compared on equal terms. One module per paper:
//!
//! | module | paper | architectures |
//! |---|---|---|
//! | [`fdfm`] | 001_24b3bbce8c558126.txt (Ito, Nakano, Song) | `fdfm` |
//! | [`blum_paar`] | 002_aa2657bb2bc73547.txt (Blum, Paar) | `blum-paar` |
//! | [`carry_save`] | 003_4c508dab9c4d2fd2.txt (Garg, Vig) | `csa-radix2`, `csa-radix4` |
//! | [`perin`] | 004_b65c74827168229f.txt (Perin, Mesquita, Martins) | `perin-systolic`, `perin-multiplexed` |
//! | [`dataflow`] | 000_be478b6750af4540.txt (Maxeler dataflow RSA) | `dataflow` |
//!
//! Every model implements [`Circuit`] and declares its [`Arch`] entry; the
//! registry, [`Arch::ALL`], lists them, and [`build`] makes a model from an
//! entry, so the CLI and the tests treat them alike (a new architecture is
//! one model file, its `pub mod` line here and one line in [`Arch::ALL`]).
//! [`reference`](mod@reference) holds the
//! independent arithmetic the models are checked against, [`table`] the
//! paper-versus-model tables, and [`vectors`] the testbench files.

pub mod blum_paar;
pub mod carry_save;
mod circuit;
pub mod dataflow;
pub mod fdfm;
pub mod perin;
pub mod random;
pub mod reference;
mod registry;
pub mod table;
pub mod vectors;

pub use circuit::{
    Arch, Build, Circuit, CrtDecrypt, CrtKey, CrtRun, CrtSupport, ExpRun, HwError, HwOption, Paper, ProductRun, Reg,
    Step,
};
pub use registry::{build, crt_decrypt, crt_support};
pub use table::{Entry, Table};

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
