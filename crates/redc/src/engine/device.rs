//! Accelerators behind the engine: a GPU (crate `redc-cuda`) or its kernels
//! simulated on the host, reached through one flat batch interface.
//!
//! The papers offload the products to a dataflow engine
//! (000_be478b6750af4540.txt §4) or fill an FPGA with small cores
//! (001_24b3bbce8c558126.txt); a [`Device`] is today's equivalent. A device
//! reports the size classes its kernels are compiled for; the
//! [`DeviceBackend`] plug-in packs every job of one class into a
//! [`DeviceBatch`] of 32-bit digits, the layout the kernels read, and the
//! device returns the results in the same layout. Its kernels follow the
//! semantics of the kernel layer's [`Kernel`](crate::kernel::Kernel) and
//! drivers (fixed windows with masked table reads for secrets).
//!
//! `redc` itself has no GPU code: a device crate implements [`Device`] and
//! an application hands it to [`Engine::with_device`](super::Engine::with_device).

use super::backend::{Backend, BackendError, Task};
use crate::kernel::{Consts, neg_inv};
use crate::secret::SecretNat;
use rayon::prelude::*;
use std::sync::Arc;
use zeroize::{Zeroize, Zeroizing};

/// Jobs of one size class in the kernels' layout: little-endian 32-bit
/// digits, job after job (job `j`'s modulus is
/// `modulus[j * digits..(j + 1) * digits]`).
///
/// Preconditions (the engine guarantees them; a device may rely on them):
/// `digits` is one of the device's [`Device::classes`]; every modulus is
/// odd, `3 <= n < 2^(32 * digits)`; `base < n`; `n0inv = -n^-1 mod 2^32`;
/// `r2 = R^2 mod n` with `R = 2^(32 * digits)`; every exponent is
/// `< 2^exp_bits` and `exp_bits <= 32 * exp_words`.
#[derive(Clone, Copy)]
pub struct DeviceBatch<'a> {
    /// Digits per number, one of the device's classes.
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
    /// A public bound on every exponent's length: [`Device::pow`] runs
    /// exactly `ceil(exp_bits / w)` windows of `w` bits for every job.
    pub exp_bits: usize,
}

impl core::fmt::Debug for DeviceBatch<'_> {
    /// The shape only: bases and exponents may be secrets.
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("DeviceBatch")
            .field("digits", &self.digits)
            .field("count", &self.count)
            .field("exp_bits", &self.exp_bits)
            .finish_non_exhaustive()
    }
}

/// Why a device could not run a batch (a launch, copy or allocation failed).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct DeviceError(pub String);

/// An accelerator that runs batches of modular exponentiations.
pub trait Device: Send + Sync + core::fmt::Debug {
    /// The backend name the engine reports (`cuda`).
    fn name(&self) -> &'static str;

    /// One line naming the device, e.g. `NVIDIA H200 (sm_90, 132 SMs)`.
    fn describe(&self) -> String;

    /// The size classes of the device's kernels, in 32-bit digits,
    /// ascending. A modulus runs in the smallest class that holds it;
    /// larger moduli stay on the CPU.
    fn classes(&self) -> &[usize];

    /// `base^exp mod n` for every job of `batch` with secret bases and
    /// exponents (constant-time kernels: fixed windows over `exp_bits`,
    /// masked table reads): `count * digits` words, each result below its
    /// modulus, wiped on drop.
    fn pow(&self, batch: &DeviceBatch<'_>) -> Result<Zeroizing<Vec<u32>>, DeviceError>;

    /// As [`Device::pow`] for public exponents (kernels that may start at
    /// each exponent's top bit and skip zero bits).
    fn pow_vartime(&self, batch: &DeviceBatch<'_>) -> Result<Zeroizing<Vec<u32>>, DeviceError>;

    /// Jobs per batch that keep the device busy: what a streaming
    /// submitter collects before it launches ([`super::Engine::lanes`]).
    fn batch_size(&self) -> usize {
        4096
    }
}

/// A [`Device`] as an engine [`Backend`]: one launch per size class.
#[derive(Debug)]
pub struct DeviceBackend(pub Arc<dyn Device>);

/// A prepared modulus in the kernels' form: 32-bit digits padded to its
/// class, `-n^-1 mod 2^32` and `R^2 mod n` with `R = 2^(32 * digits)`.
pub struct DeviceCtx {
    digits: usize,
    n: Zeroizing<Vec<u32>>,
    n0inv: u32,
    r2: Zeroizing<Vec<u32>>,
}

impl Drop for DeviceCtx {
    /// `n0inv` gives away `n mod 2^32` (the rest wipes itself).
    fn drop(&mut self) {
        self.n0inv.zeroize();
    }
}

impl Backend for DeviceBackend {
    type Ctx = DeviceCtx;

    fn name(&self) -> &'static str {
        self.0.name()
    }

    fn describe(&self) -> String {
        self.0.describe()
    }

    fn lanes(&self) -> usize {
        self.0.batch_size()
    }

    /// A whole class is one launch (the device splits it into waves).
    fn group_size(&self) -> usize {
        usize::MAX
    }

    fn on_cpu(&self) -> bool {
        false
    }

    fn class(&self, size_bits: usize) -> Option<usize> {
        self.0.classes().iter().copied().find(|&d| 32 * d >= size_bits)
    }

    fn prepare(&self, c: &Arc<Consts>, digits: usize) -> DeviceCtx {
        DeviceCtx {
            digits,
            n: Zeroizing::new(to_u32(c.n(), digits)),
            n0inv: neg_inv(c.n()[0], 32) as u32,
            r2: Zeroizing::new(to_u32(&c.pow2(64 * digits), digits)),
        }
    }

    fn pow(&self, tasks: &[Task<'_, DeviceCtx>]) -> Result<Vec<SecretNat>, BackendError> {
        let exp_bits = tasks.iter().map(|t| t.exp_bits).max().unwrap_or(0);
        self.launch(tasks, exp_bits, &|b| self.0.pow(b))
    }

    fn pow_vartime(&self, tasks: &[Task<'_, DeviceCtx>]) -> Result<Vec<SecretNat>, BackendError> {
        let exp_bits = tasks.iter().map(|t| crate::nat::limbs::bits(t.exp)).max().unwrap_or(0);
        self.launch(tasks, exp_bits, &|b| self.0.pow_vartime(b))
    }
}

/// A device's launch: [`Device::pow`] or [`Device::pow_vartime`].
type Launch<'d> = dyn Fn(&DeviceBatch<'_>) -> Result<Zeroizing<Vec<u32>>, DeviceError> + 'd;

impl DeviceBackend {
    /// Pack `tasks` (one class) with exponents below `2^exp_bits`, launch,
    /// and unpack each result into its modulus's 64-bit digit count.
    fn launch(
        &self,
        tasks: &[Task<'_, DeviceCtx>],
        exp_bits: usize,
        launch: &Launch<'_>,
    ) -> Result<Vec<SecretNat>, BackendError> {
        let Some(first) = tasks.first() else {
            return Ok(Vec::new());
        };
        let digits = first.ctx.digits;
        let exp_words = exp_bits.div_ceil(32).max(1);
        let packed = Packed::new(tasks, digits, exp_words);
        let batch = DeviceBatch {
            digits,
            count: tasks.len(),
            modulus: &packed.modulus,
            n0inv: &packed.n0inv,
            r2: &packed.r2,
            base: &packed.base,
            exp: &packed.exp,
            exp_words,
            exp_bits,
        };
        let words = launch(&batch).map_err(|e| BackendError(e.0))?;
        if words.len() != tasks.len() * digits {
            return Err(BackendError(format!(
                "returned {} words for {} jobs of {digits} digits",
                words.len(),
                tasks.len()
            )));
        }
        Ok(tasks
            .par_iter()
            .zip(words.par_chunks(digits))
            .map(|(t, w)| from_u32(w, t.modulus.len()))
            .collect())
    }
}

/// The jobs of one device class in the kernels' layout. Bases and
/// exponents may be secrets: every buffer is wiped on drop.
struct Packed {
    modulus: Zeroizing<Vec<u32>>,
    n0inv: Zeroizing<Vec<u32>>,
    r2: Zeroizing<Vec<u32>>,
    base: Zeroizing<Vec<u32>>,
    exp: Zeroizing<Vec<u32>>,
}

impl Packed {
    /// Pack `tasks` (each prepared for `digits` digits; exponents below
    /// `2^(32 * exp_words)`), every job on its own slice of the buffers and
    /// the jobs spread over all cores: a device batch holds hundreds of
    /// thousands of jobs, and packing them one after another took most of
    /// a batch's time beside an H200.
    fn new(tasks: &[Task<'_, DeviceCtx>], digits: usize, exp_words: usize) -> Packed {
        let zeros = |words: usize| Zeroizing::new(vec![0u32; tasks.len() * words]);
        let mut p = Packed {
            modulus: zeros(digits),
            n0inv: zeros(1),
            r2: zeros(digits),
            base: zeros(digits),
            exp: zeros(exp_words),
        };
        tasks
            .par_iter()
            .zip(p.modulus.par_chunks_mut(digits))
            .zip(p.n0inv.par_iter_mut())
            .zip(p.r2.par_chunks_mut(digits))
            .zip(p.base.par_chunks_mut(digits))
            .zip(p.exp.par_chunks_mut(exp_words))
            .for_each(|(((((t, modulus), n0inv), r2), base), exp)| {
                modulus.copy_from_slice(&t.ctx.n);
                *n0inv = t.ctx.n0inv;
                r2.copy_from_slice(&t.ctx.r2);
                split_u32(t.base, base);
                split_u32(t.exp, exp);
            });
        p
    }
}

/// The 64-bit digits `x` as the little-endian 32-bit digits `out` (zero
/// above `x`; `x` must fit). Digit by digit into `out` with no temporary
/// copy: `x` may be a secret.
fn split_u32(x: &[u64], out: &mut [u32]) {
    for (i, &d) in x.iter().enumerate() {
        for (k, half) in [d as u32, (d >> 32) as u32].into_iter().enumerate() {
            if let Some(slot) = out.get_mut(2 * i + k) {
                *slot = half;
            }
        }
    }
}

/// The 64-bit digits `x` as exactly `len` little-endian 32-bit digits (it
/// must fit).
fn to_u32(x: &[u64], len: usize) -> Vec<u32> {
    let mut out = vec![0u32; len];
    split_u32(x, &mut out);
    out
}

/// Little-endian 32-bit digits as `len` 64-bit digits (the value fits).
fn from_u32(x: &[u32], len: usize) -> SecretNat {
    let mut digits = vec![0u64; len];
    for (i, &w) in x.iter().enumerate() {
        if let Some(d) = digits.get_mut(i / 2) {
            *d |= u64::from(w) << (32 * (i % 2));
        }
    }
    SecretNat::from_limbs(digits)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn u32_digits_round_trip() {
        let x = [0x1111_2222_3333_4444, 0x5555_6666_7777_8888];
        let w = to_u32(&x, 5);
        assert_eq!(w, [0x3333_4444, 0x1111_2222, 0x7777_8888, 0x5555_6666, 0]);
        assert_eq!(from_u32(&w, 2).limbs(), &x);
    }
}
