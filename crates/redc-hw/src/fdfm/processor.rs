//! The FDFM core loaded with one modulus, as a [`Circuit`]: its size
//! parameter d (§5.1), Alg. 3 products, Alg. 2 exponentiations, Eq. 7 / Eq. 8
//! utilization and §5.3's loading of many cores.

use super::datapath::{Modulus, Traces, alg3, mm_counts};
use super::exp::{Runner, alg2};
use super::{ARCH, CLOCK_MHZ, CLOCK_MHZ_MULTICORE, DIGIT_BITS, NAME};
use crate::{Arch, Big, Circuit, ExpRun, HwError, ProductRun, Reg, Step};

/// Digits the core uses for an R-bit modulus: the smallest d with
/// `17d >= R + 3` (§5.1's condition for omitting Alg. 1's final subtraction).
pub fn digits_for(bits: usize) -> usize {
    (bits + 3).div_ceil(DIGIT_BITS as usize)
}

/// The FDFM core loaded with modulus `n`, with `d = digits_for(bits(n))`.
///
/// Errors: `HwError::Radix` unless `radix` is `None` or `Some(17)`;
/// `HwError::Modulus` for an even n or n < 3.
pub fn build(n: &Big, radix: Option<u32>) -> Result<Box<dyn Circuit>, HwError> {
    check_radix(radix)?;
    check_modulus(n, "n")?;
    build_with_digits(n, digits_for(n.bits()))
}

/// The core loaded with modulus `n` on `d` digits instead of
/// [`digits_for`]'s choice, for configurations such as Table 2's
/// 64-bit row (d2 = 2 for 32-bit primes).
///
/// `d` runs from the tight `ceil((bits(n) + 2) / 17)` to the paper's
/// [`digits_for`]`(bits(n))` (the two differ for at most one d). With
/// `17d >= bits(n) + 2`, operands below 2n give outputs below 2n
/// (`X·Y/2^(17d) + n < 4n^2/(4n) + n`) and the intermediate sums fit d digits
/// (every `S_(i+1) = (S_i + X·Y_i + q·M) / 2^17` stays below X + M < 3n).
/// With `17d = bits(n) + 1` a product of two operands below 2n can reach 2n
/// and the chain breaks. Errors: `HwError::Modulus` for an even n, n < 3
/// or d out of that range.
pub fn build_with_digits(n: &Big, d: usize) -> Result<Box<dyn Circuit>, HwError> {
    check_modulus(n, "n")?;
    let tight = (n.bits() + 2).div_ceil(DIGIT_BITS as usize);
    if !(tight..=digits_for(n.bits())).contains(&d) {
        return Err(HwError::Modulus(format!(
            "{NAME}: a {}-bit n takes {tight} to {} digits of 17 bits (17d >= bits(n) + 2 up to the paper's \
             17d >= bits(n) + 3), not {d}",
            n.bits(),
            digits_for(n.bits())
        )));
    }
    Ok(Box::new(Fdfm { m: Modulus::new(n, d) }))
}

/// `Ok` for `None` or 17 bits, the only digit width of the core (§5.1).
pub(super) fn check_radix(radix: Option<u32>) -> Result<(), HwError> {
    match radix {
        None | Some(DIGIT_BITS) => Ok(()),
        Some(r) => Err(HwError::Radix {
            arch: NAME,
            radix: r,
            allowed: "17 (the DSP48E1 multiplier)",
        }),
    }
}

/// `Ok` for an odd modulus of at least 3; `name` names it in the error.
pub(super) fn check_modulus(n: &Big, name: &str) -> Result<(), HwError> {
    if n.is_odd() && *n >= Big::from_u64(3) {
        Ok(())
    } else {
        Err(HwError::Modulus(format!(
            "{NAME}: {name} must be odd and at least 3, got 0x{}",
            n.to_hex()
        )))
    }
}

/// The core on one modulus.
pub(super) struct Fdfm {
    pub(super) m: Modulus,
}

impl Fdfm {
    fn check(&self, x: &Big, name: &'static str) -> Result<(), HwError> {
        if *x < self.operand_bound() {
            Ok(())
        } else {
            Err(HwError::Operand {
                name,
                bound: "2n".into(),
            })
        }
    }
}

impl Circuit for Fdfm {
    fn arch(&self) -> &'static Arch {
        &ARCH
    }

    fn modulus(&self) -> &Big {
        &self.m.value
    }

    fn digit_bits(&self) -> u32 {
        DIGIT_BITS
    }

    fn digits(&self) -> usize {
        self.m.d
    }

    fn r_log2(&self) -> usize {
        DIGIT_BITS as usize * self.m.d
    }

    /// 2n: Alg. 3 maps X, Y < 2n to an output below 2n (module docs).
    fn operand_bound(&self) -> Big {
        self.m.value.shl(1)
    }

    /// Alg. 3 with X = `a`, Y = `b`, one [`Step`] per outer iteration i with
    /// the registers `Yi`, `q`, `Ca`, `Cb`, `Cg`, `Cs` after the inner loop
    /// and the block-RAM word `S` = S_(i+1) (17d bits).
    ///
    /// Pre: a, b < 2n (checked). Post: the value is
    /// `(a·b + Q·n) / 2^(17d)` with Q the quotient digits, below 2n; cycles
    /// `2d^2 + 8d + 4` (Eq. 8), counted.
    fn multiply(&self, a: &Big, b: &Big, trace: Option<&mut Vec<Step>>) -> Result<ProductRun, HwError> {
        self.check(a, "a")?;
        self.check(b, "b")?;
        let traces = Traces {
            iterations: trace,
            clocks: None,
        };
        let (value, counts) = alg3(a, b, &self.m, self.m.d, traces);
        Ok(ProductRun {
            value,
            cycles: counts.clk,
        })
    }

    /// The clocked registers after every clock of Alg. 3's schedule
    /// (`t`, `q`, `Ca`, `alpha`, `Cb`, `Cg`, `Cs`, `Sw`; see the
    /// schedule's six clocks per q, two per inner step and four at the end).
    fn clock_trace(&self, a: &Big, b: &Big) -> Option<Result<Vec<Step>, HwError>> {
        let run = || {
            self.check(a, "a")?;
            self.check(b, "b")?;
            let mut clocks = Vec::new();
            let traces = Traces {
                iterations: None,
                clocks: Some(&mut clocks),
            };
            alg3(a, b, &self.m, self.m.d, traces);
            Ok(clocks)
        };
        Some(run())
    }

    /// `minv`, the 17-bit `−n^(−1) mod 2^17` that forms q (Alg. 3 line 3).
    fn constants(&self) -> Vec<Reg> {
        vec![Reg {
            name: "minv",
            bits: DIGIT_BITS as usize,
            value: Big::from_u64(u64::from(self.m.minv)),
        }]
    }

    fn product_cycles(&self) -> u64 {
        mm_counts(self.m.d, self.m.d).clk
    }

    /// Alg. 2 over the `|E| = bits(exp)` bits of `exp` (the count of ref. \[4\]'s
    /// non-CRT core: 2|E| + 3 products in the worst case); cycles are the
    /// products' cycles. The host maps the output n (possible when the value
    /// is 0) to 0.
    fn exponentiate(&self, base: &Big, exp: &Big) -> Result<ExpRun, HwError> {
        if *base >= self.m.value {
            return Err(HwError::Operand {
                name: "base",
                bound: "n".into(),
            });
        }
        let mut runner = Runner::default();
        let c = alg2(&mut runner, &self.m, &self.m.r2, base, exp);
        let value = if c == self.m.value { Big::zero() } else { c };
        Ok(ExpRun {
            value,
            cycles: runner.tally.cycles,
            products: runner.tally.products,
        })
    }

    /// Table 1's single-core clock, 336.7 MHz: the same circuit serves every
    /// size up to 2176 bits (§5.2.1).
    fn clock_mhz(&self) -> f64 {
        CLOCK_MHZ
    }

    /// Table 1's 320-core clock, 325.098 MHz, for any system of more than
    /// one core (the paper reports no other multicore size).
    fn multicore_clock_mhz(&self, cores: u32) -> Option<f64> {
        (cores > 1).then_some(CLOCK_MHZ_MULTICORE)
    }

    /// `MM_mul / MM_clk` (Eq. 7 over Eq. 8, Fig. 6), both counted.
    fn utilization(&self) -> Option<f64> {
        let c = mm_counts(self.m.d, self.m.d);
        Some(c.mul as f64 / c.clk as f64)
    }

    /// §5.3: the inputs reach the cores through a chain of shift registers,
    /// one 18-bit word per cycle, d words per core (`320·d1` cycles for the
    /// paper's 320 cores); the last core starts when its last word is in and
    /// then runs `op_cycles`. The p-cycle hop of the last word to core p and
    /// the read-back are not counted, as in the paper.
    fn parallel_cycles(&self, op_cycles: u64, cores: u32) -> u64 {
        let load = u64::from(cores).saturating_mul(self.m.d as u64);
        load.saturating_add(op_cycles)
    }
}
