//! 004 §4.3 Algorithm 2 (left-to-right square and multiply) and §6's
//! Montgomery powering ladder, each a program of product slots run on the
//! circuit or counted.

use super::Perin;
use super::check;
use crate::{Big, Circuit, ExpRun, HwError, ProductRun};

/// The exponentiation algorithm of [`Perin::exponent_cycles`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Method {
    /// Algorithm 2: left-to-right square and multiply (§4.3).
    SquareMultiply,
    /// The Montgomery powering ladder of §6, both products of a bit on two
    /// multipliers at once.
    Ladder,
}

/// Cycles of one exponentiation, split as the paper counts them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ExpCycles {
    /// X̄ = mont(X, R² mod N) and the final mont(A, 1).
    pub pre_post: u64,
    /// The loop over the exponent bits (what Table 2 and §6 count).
    pub main_loop: u64,
}

impl ExpCycles {
    /// All cycles.
    pub fn total(&self) -> u64 {
        self.pre_post + self.main_loop
    }
}

/// One exponentiation step, each one product slot of n_MM cycles.
#[derive(Clone, Copy)]
pub(super) enum Op {
    /// X̄ = mont(X, R² mod N) (and A = R mod N loaded).
    Enter,
    /// A = mont(A, A).
    Square,
    /// A = mont(A, X̄).
    Multiply,
    /// One ladder bit: two products on two multipliers at once.
    Ladder(bool),
    /// A = mont(A, 1).
    Leave,
}

impl Perin {
    /// `base^exp mod n` with the Montgomery powering ladder (§6, Joye–Yen):
    /// R0 = R mod N, R1 = X̄ = mont(X, R² mod N); for each bit from the top,
    /// bit 0: R1 = mont(R0, R1), R0 = mont(R0, R0); bit 1: R0 = mont(R0, R1),
    /// R1 = mont(R1, R1); then mont(R0, 1). The two products of a bit run on
    /// two multipliers at once, so a bit costs one product's cycles.
    ///
    /// Preconditions: `base < n` ([`HwError::Operand`] otherwise). The
    /// result is fully reduced; `products` counts both products of each bit.
    pub fn ladder(&self, base: &Big, exp: &Big) -> Result<ExpRun, HwError> {
        self.run_exponentiation(base, exp, Method::Ladder)
    }

    /// Cycles of `base^exp` with `method`, by the same walk over the
    /// exponent's bits as the exponentiation itself, one product slot of
    /// [`Circuit::product_cycles`] per step (no product is run).
    pub fn exponent_cycles(&self, exp: &Big, method: Method) -> ExpCycles {
        let mut c = ExpCycles {
            pre_post: 0,
            main_loop: 0,
        };
        for op in self.program(exp, method) {
            match op {
                Op::Enter | Op::Leave => c.pre_post += self.cycles,
                Op::Square | Op::Multiply | Op::Ladder(_) => c.main_loop += self.cycles,
            }
        }
        c
    }

    /// The steps of `method` for `exp`: Enter, the loop from bit
    /// max(bits(N), bits(exp)) − 1 down to 0, Leave (Algorithm 2 / §6).
    fn program(&self, exp: &Big, method: Method) -> Vec<Op> {
        let bits = self.n.bits().max(exp.bits());
        let mut ops = vec![Op::Enter];
        for i in (0..bits).rev() {
            let e = exp.bit(i);
            match method {
                Method::SquareMultiply => {
                    ops.push(Op::Square);
                    if e {
                        ops.push(Op::Multiply);
                    }
                }
                Method::Ladder => ops.push(Op::Ladder(e)),
            }
        }
        ops.push(Op::Leave);
        ops
    }

    /// Runs `method`'s program with the circuit's products (Algorithm 2 or
    /// the §6 ladder); cycles are the products' own counts, the larger of
    /// the two for a ladder bit.
    pub(super) fn run_exponentiation(&self, base: &Big, exp: &Big, method: Method) -> Result<ExpRun, HwError> {
        check(base, &self.n, "base", "n")?;
        let mut run = ExpRun {
            value: Big::zero(),
            cycles: 0,
            products: 0,
        };
        let mont = |x: &Big, y: &Big, run: &mut ExpRun| -> Result<ProductRun, HwError> {
            let p = self.multiply(x, y, None)?;
            run.products += 1;
            Ok(p)
        };
        // A (R0 of the ladder) and X̄ (R1).
        let (mut a, mut x_bar) = (self.r_mod_n.clone(), Big::zero());
        for op in self.program(exp, method) {
            match op {
                Op::Enter => {
                    let p = mont(base, &self.r2_mod_n, &mut run)?;
                    run.cycles += p.cycles;
                    x_bar = p.value;
                }
                Op::Square | Op::Multiply | Op::Leave => {
                    let y = match op {
                        Op::Square => a.clone(),
                        Op::Multiply => x_bar.clone(),
                        _ => Big::one(),
                    };
                    let p = mont(&a, &y, &mut run)?;
                    run.cycles += p.cycles;
                    a = p.value;
                }
                Op::Ladder(e) => {
                    let mixed = mont(&a, &x_bar, &mut run)?;
                    let square = if e {
                        mont(&x_bar, &x_bar, &mut run)?
                    } else {
                        mont(&a, &a, &mut run)?
                    };
                    run.cycles += mixed.cycles.max(square.cycles);
                    (a, x_bar) = if e {
                        (mixed.value, square.value)
                    } else {
                        (square.value, mixed.value)
                    };
                }
            }
        }
        // mont(A, 1) <= N, = N only for A ≡ 0: the host's subtraction.
        run.value = a.checked_sub(&self.n).unwrap_or(a);
        Ok(run)
    }
}
