//! One Montgomery product on every registered model ([`Arch::ALL`]), each
//! of the same seeded modulus and checked against [`mod@reference`]: the
//! papers' circuits side by side in cycles and time, as `redc demo` shows
//! them ([`tour`]), with 001 Table 2's figure looked up by
//! [`Paper::entry`](crate::Paper::entry); and 001 §3.1's worked example
//! ([`worked_example`]).

use crate::random::Seeded;
use crate::{Arch, Citation, HwError, Paper, build, reference};
use redc::{Modulus, Nat, Product};
use std::fmt::{self, Write as _};

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

/// The section of `redc demo` on the papers' circuits: one product of a
/// random `bits`-bit modulus on every model ([`products`], seed 1), 001
/// Table 2's 1024-bit CRT decryption beside the model's count, and the
/// papers' citations.
pub fn tour(bits: usize) -> Result<String, HwError> {
    let mut out = format!("\n== The papers' circuits (redc sim): one product of a random {bits}-bit modulus ==\n");
    for run in products(bits, 1)? {
        let _ = writeln!(out, "{run}");
    }
    if let Some(e) = Paper::Fdfm.entry("R=1024", "clock cycles") {
        let _ = writeln!(
            out,
            "001 Table 2, 1024-bit CRT decryption: paper {} cycles, model {} (redc sim --table all)",
            e.paper.unwrap_or_default(),
            e.model
        );
    }
    out.push_str("The papers (000-004, cited by number above):\n");
    for c in Citation::ALL {
        let _ = writeln!(out, "  {c}");
    }
    Ok(out)
}

/// 001 §3.1's worked example, X = 147, Y = 92, M = 251, R = 2^8, with
/// every product schedule of [`Product::ALL`] at 8-bit digits, as `redc
/// demo` opens with it.
pub fn worked_example() -> String {
    let mut out = format!(
        "== Montgomery product, the worked example of {} §3.1 (w = 8) ==\n",
        crate::citation::FDFM.short()
    );
    let m = Modulus::<u8>::new(&Nat::from_u64(251)).expect("251 is odd");
    // The residue whose Montgomery digits are x is to_mont(x·R^-1 mod M);
    // R^-1 = 256^-1 mod 251 = 5^-1 mod 251 = 201.
    let raw = |x: u64| m.to_mont(&Nat::from_u64(x * 201 % 251), Product::Cios);
    let (x, y) = (raw(147), raw(92));
    let _ = writeln!(out, "M = 251, -M^-1 mod 2^8 = {}", m.n0_inv());
    for product in Product::ALL {
        let z = m.multiplier(product).mul(&x, &y);
        let _ = writeln!(
            out,
            "  {:<6} MonPro(147, 92) = 147·92·2^-8 mod 251 = {}",
            product.name(),
            z.digits()[0]
        );
    }
    out
}
