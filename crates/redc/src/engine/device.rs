//! Accelerators behind the engine: a GPU (crate `redc-cuda`) or its kernels
//! simulated on the host, reached through one flat batch interface.
//!
//! The papers offload the products to a dataflow engine
//! (000_be478b6750af4540.txt §4) or fill an FPGA with small cores
//! (001_24b3bbce8c558126.txt); a [`Device`] is today's equivalent. The
//! engine packs every job of one size class into a [`DeviceBatch`] of
//! 32-bit digits, the layout the kernels read, and the device returns the
//! results in the same layout.
//!
//! `redc` itself has no GPU code: a device crate implements [`Device`] and
//! either hands it to [`Engine::with_device`](super::Engine::with_device)
//! or registers it process-wide with [`register_device`], after which
//! [`Backend::Cuda`](super::Backend::Cuda) and `REDC_BACKEND=cuda` use it.

use super::{Num, Secrecy};
use std::sync::{Arc, OnceLock};
use zeroize::Zeroizing;

/// The size classes of the device kernels, in 32-bit digits (512 to 4096
/// bits). A modulus runs in the smallest class that holds it; larger moduli
/// stay on the CPU.
pub const DIGIT_CLASSES: [usize; 6] = [16, 32, 48, 64, 96, 128];

/// The smallest class of [`DIGIT_CLASSES`] holding a `bits`-bit modulus.
pub fn digit_class(bits: usize) -> Option<usize> {
    DIGIT_CLASSES.into_iter().find(|&d| 32 * d >= bits)
}

/// Jobs of one size class in the kernels' layout: little-endian 32-bit
/// digits, job after job (job `j`'s modulus is
/// `modulus[j * digits..(j + 1) * digits]`).
///
/// Preconditions (the engine guarantees them; a device may rely on them):
/// every modulus is odd, `3 <= n < 2^(32 * digits)`; `base < n`;
/// `n0inv = -n^-1 mod 2^32`; `r2 = R^2 mod n` with `R = 2^(32 * digits)`;
/// every exponent is `< 2^exp_bits` and `exp_bits <= 32 * exp_words`.
#[derive(Debug, Clone, Copy)]
pub struct DeviceBatch<'a> {
    /// Digits per number, one of [`DIGIT_CLASSES`].
    pub digits: usize,
    /// Jobs in the batch (at least one).
    pub count: usize,
    /// `count * digits` words: the moduli.
    pub modulus: &'a [u32],
    /// `count` words: `-n^-1 mod 2^32` for each modulus.
    pub n0inv: &'a [u32],
    /// `count * digits` words: `R^2 mod n`.
    pub r2: &'a [u32],
    /// `count * digits` words: the bases, each below its modulus.
    pub base: &'a [u32],
    /// `count * exp_words` words: the exponents.
    pub exp: &'a [u32],
    /// Words per exponent.
    pub exp_words: usize,
    /// A public bound on every exponent's length. With [`Secrecy::Secret`]
    /// the kernels run exactly `ceil(exp_bits / w)` windows of `w` bits for
    /// every job, whatever the exponents; with [`Secrecy::Public`] they may
    /// start at each exponent's top bit.
    pub exp_bits: usize,
    /// Whether the exponents (and bases) are secrets.
    pub secrecy: Secrecy,
}

/// Why a device could not run a batch (a launch, copy or allocation failed).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct DeviceError(pub String);

/// An accelerator that runs batches of modular exponentiations.
pub trait Device: Send + Sync + core::fmt::Debug {
    /// One line naming the device, e.g. `NVIDIA H200 (sm_90, 132 SMs)`.
    fn describe(&self) -> String;

    /// `base^exp mod n` for every job of `batch`: `count * digits` words,
    /// each result below its modulus. The results may be secrets (CRT
    /// halves), hence wiped on drop.
    fn pow(&self, batch: &DeviceBatch<'_>) -> Result<Zeroizing<Vec<u32>>, DeviceError>;

    /// Jobs per batch that keep the device busy: what a streaming
    /// submitter collects before it launches ([`super::Engine::lanes`]).
    fn batch_size(&self) -> usize {
        4096
    }
}

static REGISTERED: OnceLock<Arc<dyn Device>> = OnceLock::new();

/// Make `device` the process-wide device of [`Backend::Cuda`](super::Backend::Cuda).
/// The first registration wins; a later one returns `false` and changes
/// nothing.
pub fn register_device(device: Arc<dyn Device>) -> bool {
    REGISTERED.set(device).is_ok()
}

/// The registered device, if any.
pub fn registered_device() -> Option<Arc<dyn Device>> {
    REGISTERED.get().cloned()
}

/// A prepared modulus in the kernels' form: 32-bit digits padded to its
/// class, `-n^-1 mod 2^32` and `R^2 mod n` with `R = 2^(32 * digits)`.
pub(crate) struct DeviceCtx {
    pub(crate) digits: usize,
    pub(crate) n: Zeroizing<Vec<u32>>,
    pub(crate) n0inv: u32,
    pub(crate) r2: Zeroizing<Vec<u32>>,
}

impl DeviceCtx {
    /// The context of an odd `n >= 3`, or `None` when `n` is larger than
    /// every class. Takes a division whose time depends on `n` (prepare a
    /// secret modulus once).
    pub(crate) fn new(n: &Num) -> Option<DeviceCtx> {
        let digits = digit_class(n.bits())?;
        // R^2 mod a secret prime is a secret too: wiped once converted.
        let r2 = Zeroizing::new(Num::one().shl(64 * digits).rem(n).expect("n is odd, hence not zero"));
        Some(DeviceCtx {
            digits,
            n: Zeroizing::new(to_u32(n, digits)),
            n0inv: neg_inverse_u32(n.digits()[0] as u32),
            r2: Zeroizing::new(to_u32(&r2, digits)),
        })
    }
}

/// `x` as exactly `len` little-endian 32-bit digits (it must fit). Digit
/// by digit, with no temporary copy left unwiped: `x` may be a secret.
pub(crate) fn to_u32(x: &Num, len: usize) -> Vec<u32> {
    let mut out = vec![0u32; len];
    for (i, &d) in x.digits().iter().enumerate() {
        for (k, half) in [d as u32, (d >> 32) as u32].into_iter().enumerate() {
            if let Some(slot) = out.get_mut(2 * i + k) {
                *slot = half;
            }
        }
    }
    out
}

/// Little-endian 32-bit digits as a number, digit by digit.
pub(crate) fn from_u32(x: &[u32]) -> Num {
    let digits: Vec<u64> = x
        .chunks(2)
        .map(|c| u64::from(c[0]) | (u64::from(c.get(1).copied().unwrap_or(0)) << 32))
        .collect();
    Num::from_digits(digits)
}

/// `-a^-1 mod 2^32` for odd `a` (Newton's iteration, five steps from 1 bit).
fn neg_inverse_u32(a: u32) -> u32 {
    let mut x: u32 = 1;
    for _ in 0..5 {
        x = x.wrapping_mul(2u32.wrapping_sub(a.wrapping_mul(x)));
    }
    x.wrapping_neg()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn neg_inverse_is_right_for_odd_words() {
        for a in [1u32, 3, 5, 0xFFFF_FFFF, 0x8000_0001, 0x1234_5677] {
            assert_eq!(a.wrapping_mul(neg_inverse_u32(a)), u32::MAX, "{a:#x}");
        }
    }

    #[test]
    fn classes_hold_their_moduli() {
        assert_eq!(digit_class(2), Some(16));
        assert_eq!(digit_class(512), Some(16));
        assert_eq!(digit_class(513), Some(32));
        assert_eq!(digit_class(4096), Some(128));
        assert_eq!(digit_class(4097), None);
    }

    #[test]
    fn u32_digits_round_trip() {
        let x = Num::from_digits(vec![0x1111_2222_3333_4444, 0x5555_6666_7777_8888]);
        let w = to_u32(&x, 5);
        assert_eq!(w, [0x3333_4444, 0x1111_2222, 0x7777_8888, 0x5555_6666, 0]);
        assert_eq!(from_u32(&w), x);
    }
}
