//! The kernel layer: what every Montgomery path of redc is built from, so
//! that a faster product or a constant-time fix is made once.
//!
//! | file | holds |
//! |---|---|
//! | `kernel/consts.rs` | `n0'` for any digit width, `R mod n` and `R^2 mod n` without division ([`Consts`]) |
//! | `kernel/limb.rs` | [`Limb`]: one digit in every lane (a word, or a SIMD vector) |
//! | `kernel/meter.rs` | [`meter::Meter`]: word operations counted (or not) as the code runs |
//! | `kernel/subtract.rs` | the final subtraction of every product |
//! | `kernel/addsub.rs` | modular addition and subtraction of residues |
//! | `kernel/select.rs` | the constant-time table read |
//! | `kernel/size.rs` | compile-time and run-time digit counts of the 64-bit kernels |
//! | `kernel/fios.rs` | the 64-bit product (FIOS, several rows per pass) and reduction |
//! | `kernel/sqr.rs` | the 64-bit dedicated squaring |
//! | `kernel/scalar.rs` | the one-lane 64-bit [`Kernel`] |
//! | `kernel/window.rs` | the fixed-window exponentiation driver (constant time) |
//! | `kernel/sliding.rs` | the sliding-window exponentiation driver (public exponents) |
//!
//! A [`Kernel`] is a product, a squaring, a table select and a number of
//! lanes; the two exponentiation drivers run on any kernel: the teaching
//! [`Multiplier`](crate::Multiplier) (any schedule, any digit width,
//! metered), the scalar 64-bit kernel and the IFMA lanes of the engine. The
//! GPU kernels of `redc-cuda` follow the same semantics in CUDA.

pub mod addsub;
#[cfg(target_arch = "x86_64")]
pub(crate) mod adx;
pub mod consts;
pub(crate) mod fios;
pub mod limb;
pub mod meter;
pub(crate) mod scalar;
pub mod select;
pub(crate) mod size;
pub mod sliding;
pub(crate) mod sqr;
pub mod subtract;
pub mod window;

pub use consts::{Consts, ModulusError, neg_inv, pow2_mod};
pub use limb::Limb;

use zeroize::Zeroize;

/// Montgomery arithmetic modulo one modulus per lane, for the drivers.
///
/// Every kernel keeps its values in a range of its own (below `n` for the
/// scalar and teaching kernels, below `2n` for the IFMA lanes, which skip
/// the final subtraction) and every method maps that range into itself.
pub trait Kernel {
    /// Exponentiations run side by side (one per lane).
    const LANES: usize;
    /// A residue in Montgomery form in every lane.
    type Elem: Clone + Zeroize;
    /// A table index in every lane (a window digit of each lane's exponent).
    type Index: Copy;

    /// 1 in Montgomery form (`R mod n`) in every lane.
    fn one(&self) -> Self::Elem;
    /// `x := x·y·R^-1 mod n` (000_be478b6750af4540.txt Fig. 2, MonPro).
    fn mul(&mut self, x: &mut Self::Elem, y: &Self::Elem);
    /// `x := x^2·R^-1 mod n`.
    fn sqr(&mut self, x: &mut Self::Elem);
    /// `out := table[idx]` per lane, in constant time ([`select::select`]).
    fn select(&self, out: &mut Self::Elem, table: &[Self::Elem], idx: Self::Index);
}

/// What an exponentiation driver has just done, for a trace.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    /// The set-up: the register holds 1.
    Init,
    /// One squaring for exponent bit `bit`, a zero (sliding window).
    Square {
        /// The bit.
        bit: usize,
    },
    /// The window of `len` bits whose lowest bit is `lo`: squarings and a
    /// product (or, for the first window, the table entry itself).
    Window {
        /// The window's lowest bit.
        lo: usize,
        /// Its width in bits.
        len: u32,
    },
}

/// Watches a driver step by step (the teaching traces); `()` watches nothing.
pub trait Observer<K: Kernel> {
    /// Called after each [`Step`] with the register's value.
    fn step(&mut self, kernel: &K, step: Step, x: &K::Elem);
}

impl<K: Kernel> Observer<K> for () {
    #[inline(always)]
    fn step(&mut self, _: &K, _: Step, _: &K::Elem) {}
}
