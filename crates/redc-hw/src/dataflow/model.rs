//! 000's model on one modulus: SOS on the host with Step 1 on the DFE,
//! its construction (Eq. 2, Eq. 5, Eq. 6), batches of products (Fig. 7 and
//! Fig. 8), and the model as a [`Circuit`].

use super::cycles::monpro_cycles;
use super::{ARCH, Cycles, DEFAULT_RADIX, Offload, Params, RADICES};
use crate::{Arch, Big, Circuit, ExpRun, HwError, ProductRun, Reg, Step};

/// The products of a batch run and its counted time.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BatchRun {
    /// `MonPro(a, b)` of every pair, each below `n`.
    pub values: Vec<Big>,
    /// The time counted while the schedule ran.
    pub clock: Cycles,
}

/// The model: SOS (Fig. 3) on the host with Step 1 on the DFE (Fig. 5–8),
/// for one modulus.
#[derive(Debug, Clone)]
pub struct Dataflow {
    pub(super) n: Big,
    pub(super) w: u32,
    pub(super) s: usize,
    pub(super) mask: u64,
    pub(super) n_digits: Vec<u64>,
    pub(super) n0: u64,
    pub(super) params: Params,
    pub(super) offload: Offload,
}

/// The model with the default [`Params`] and [`Offload::PerBlock`] (Fig. 6:
/// one block). `radix` is `w` in {8, 16, 32, 64}, default 32.
pub fn build(n: &Big, radix: Option<u32>) -> Result<Box<dyn Circuit>, HwError> {
    Ok(Box::new(Dataflow::new(n, radix, Params::default(), Offload::PerBlock)?))
}

impl Dataflow {
    /// The model for modulus `n` (odd, `>= 3`) with digit width `radix`
    /// (default 32), cost parameters `params` and Step 1 run as `offload`.
    pub fn new(n: &Big, radix: Option<u32>, params: Params, offload: Offload) -> Result<Self, HwError> {
        let w = radix.unwrap_or(DEFAULT_RADIX);
        if !RADICES.contains(&w) {
            return Err(HwError::Radix {
                arch: ARCH.name,
                radix: w,
                allowed: "8, 16, 32 or 64",
            });
        }
        if !n.is_odd() || n.bits() < 2 {
            return Err(HwError::Modulus(format!(
                "dataflow needs an odd modulus n >= 3, not 0x{}",
                n.to_hex()
            )));
        }
        params.validate()?;
        let s = n.bits().div_ceil(w as usize);
        let mask = u64::MAX >> (64 - w);
        let n_digits = to_digits(n, w, s);
        let mut model = Self {
            n: n.clone(),
            w,
            s,
            mask,
            n_digits,
            n0: 0,
            params,
            offload,
        };
        model.n0 = model.n_prime(&mut Cycles::default());
        Ok(model)
    }

    /// The cost parameters.
    pub fn params(&self) -> &Params {
        &self.params
    }

    /// How Step 1 runs.
    pub fn offload(&self) -> Offload {
        self.offload
    }

    /// `n'[0] = −n⁻¹ mod 2^w` (Eq. 6, low digit only, §3.1).
    pub fn n_prime_digit(&self) -> u64 {
        self.n0
    }

    /// `MonPro(a, b)` for every pair `(a, b)`, all `B` blocks together with
    /// Step 1 run as `offload` (Fig. 7: `B·s` runs; Fig. 8: `s` runs).
    ///
    /// Pre: every operand below `n` (else [`HwError::Operand`]). Post:
    /// values exactly as [`Circuit::multiply`] gives them one by one; the
    /// clock equals [`monpro_cycles`] for `B` blocks.
    pub fn multiply_batch(&self, pairs: &[(Big, Big)], offload: Offload) -> Result<BatchRun, HwError> {
        let blocks = pairs
            .iter()
            .map(|(a, b)| Ok((self.operand(a, "a")?, self.operand(b, "b")?)))
            .collect::<Result<Vec<_>, HwError>>()?;
        let (outs, clock) = self.monpro(&blocks, offload, None);
        Ok(BatchRun {
            values: outs.iter().map(|u| from_digits(u, self.w)).collect(),
            clock,
        })
    }

    /// `x` as `s` digits, or [`HwError::Operand`] when `x >= n`.
    pub(super) fn operand(&self, x: &Big, name: &'static str) -> Result<Vec<u64>, HwError> {
        if x >= &self.n {
            return Err(HwError::Operand {
                name,
                bound: "n".into(),
            });
        }
        Ok(to_digits(x, self.w, self.s))
    }
}

impl Circuit for Dataflow {
    fn arch(&self) -> &'static Arch {
        &ARCH
    }

    fn modulus(&self) -> &Big {
        &self.n
    }

    fn digit_bits(&self) -> u32 {
        self.w
    }

    fn digits(&self) -> usize {
        self.s
    }

    fn r_log2(&self) -> usize {
        self.s * self.w as usize
    }

    fn operand_bound(&self) -> Big {
        self.n.clone()
    }

    fn multiply(&self, a: &Big, b: &Big, trace: Option<&mut Vec<Step>>) -> Result<ProductRun, HwError> {
        let block = (self.operand(a, "a")?, self.operand(b, "b")?);
        let (outs, clock) = self.monpro(&[block], self.offload, trace);
        let value = outs.first().map(|u| from_digits(u, self.w)).unwrap_or_default();
        Ok(ProductRun {
            value,
            cycles: clock.total(&self.params),
        })
    }

    fn product_cycles(&self) -> u64 {
        monpro_cycles(&self.params, self.w, self.s as u64, 1, self.offload).total(&self.params)
    }

    fn exponentiate(&self, base: &Big, exp: &Big) -> Result<ExpRun, HwError> {
        self.exponentiate_traced(base, exp, None)
    }

    /// [`Params::clock_mhz`]: 100 MHz by default at every size — the paper
    /// prints no clock (none of its tables has one).
    /// `n0` = n'\[0\] = −n⁻¹ mod 2^w (w bits), the one digit of n' the SOS
    /// product uses (Eq. 6, §3.1).
    fn constants(&self) -> Vec<Reg> {
        vec![Reg {
            name: "n0",
            bits: self.w as usize,
            value: Big::from_u64(self.n0),
        }]
    }

    fn clock_mhz(&self) -> f64 {
        self.params.clock_mhz
    }
}

/// `x` (below `2^(sw)`) as `s` little-endian digits of `w` bits.
pub(super) fn to_digits(x: &Big, w: u32, s: usize) -> Vec<u64> {
    let per = (w / 8) as usize;
    let mut d = vec![0u64; s];
    for (k, &byte) in x.to_be_bytes().iter().rev().enumerate() {
        if let Some(digit) = d.get_mut(k / per) {
            *digit |= u64::from(byte) << (8 * (k % per));
        }
    }
    d
}

/// The number whose little-endian `w`-bit digits are `d`.
pub(super) fn from_digits(d: &[u64], w: u32) -> Big {
    let per = (w / 8) as usize;
    let mut bytes: Vec<u8> = d
        .iter()
        .flat_map(|&x| (0..per).map(move |k| (x >> (8 * k)) as u8))
        .collect();
    bytes.reverse();
    Big::from_be_bytes(&bytes)
}
