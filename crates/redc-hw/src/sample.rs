//! One Montgomery product on every registered model ([`Arch::ALL`]), each
//! of the same seeded modulus and checked against [`mod@reference`]: the
//! papers' circuits side by side in cycles and time, as `redc demo` shows
//! them, with 001 Table 2's figure looked up by [`Paper::entry`](crate::Paper::entry).

use crate::random::Seeded;
use crate::{Arch, HwError, build, reference};
use std::fmt;

/// One model's product of [`products`]: its cycles, its clock and whether
/// its result agrees with the reference.
#[derive(Debug, Clone)]
pub struct SampleProduct {
    /// The architecture.
    pub arch: &'static Arch,
    /// Clock cycles of the product.
    pub cycles: u64,
    /// The model's clock frequency, in MHz ([`Circuit::clock_mhz`](crate::Circuit::clock_mhz)).
    pub clock_mhz: f64,
    /// Whether `value · R ≡ a · b (mod n)`, checked by [`reference::reduce`].
    pub matches: bool,
}

impl SampleProduct {
    /// The product's time at the model's clock, in µs.
    pub fn micros(&self) -> f64 {
        self.cycles as f64 / self.clock_mhz
    }
}

/// One line: name, cycles, time, clock and the verdict.
impl fmt::Display for SampleProduct {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{:<18} {:>9} cycles  {:>10.3} µs at {:>7.3} MHz  {}",
            self.arch.name(),
            self.cycles,
            self.micros(),
            self.clock_mhz,
            if self.matches {
                "matches the reference"
            } else {
                "MISMATCH"
            }
        )
    }
}

/// One product on each model of [`Arch::ALL`], in its order: a random odd
/// `bits`-bit modulus n and, per model, two random operands below its
/// [`operand_bound`](crate::Circuit::operand_bound), all drawn from
/// [`Seeded::new(seed)`](Seeded::new).
pub fn products(bits: usize, seed: u64) -> Result<Vec<SampleProduct>, HwError> {
    let mut rng = Seeded::new(seed);
    let n = rng.odd_modulus(bits);
    Arch::ALL
        .iter()
        .map(|&arch| {
            let c = build(arch, &n, None)?;
            let bound = c.operand_bound();
            let (a, b) = (rng.below(&bound), rng.below(&bound));
            let run = c.multiply(&a, &b, None)?;
            Ok(SampleProduct {
                arch,
                cycles: run.cycles,
                clock_mhz: c.clock_mhz(),
                matches: reference::reduce(&run.value.shl(c.r_log2()), &n) == reference::reduce(&a.mul(&b), &n),
            })
        })
        .collect()
}
