//! A record of an exponentiation, step by step, in and out of Montgomery
//! form — the way 000_be478b6750af4540.txt §3.2 debugged its code: checking
//! the intermediate results of the Montgomery exponentiation per exponent
//! bit, first at `w = 8` with a 32-bit modulus, then at `w = 32` with 1024
//! bits.

use crate::mont::{Meter, MontElem, Multiplier, Product};
use crate::nat::Nat;
use crate::word::Word;

/// One register's value after a step.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TraceReg<W: Word> {
    /// The register's name in the schedule (`x`, `Z`, `P`, `R0`, ...).
    pub name: &'static str,
    /// Its digits in Montgomery form, `v·R mod n`.
    pub mont: Nat<W>,
    /// Its plain value `v`.
    pub value: Nat<W>,
}

/// The state after one step of the schedule.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TraceRow<W: Word> {
    /// Index of the (lowest) exponent bit this step consumed; `None` for
    /// set-up rows (table entries, the initial values).
    pub bit: Option<usize>,
    /// The exponent bit, or the window's value for window schedules.
    pub digit: u64,
    /// What the step did, e.g. `"square"`, `"square, multiply"`, `"init"`.
    pub op: &'static str,
    /// The registers after the step.
    pub regs: Vec<TraceReg<W>>,
}

/// The rows of one exponentiation, in order.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Trace<W: Word> {
    /// The rows.
    pub rows: Vec<TraceRow<W>>,
}

impl<W: Word> Trace<W> {
    /// An empty trace.
    pub fn new() -> Self {
        Self { rows: Vec::new() }
    }

    /// Append a row; the plain values are computed with a separate,
    /// uncounted multiplier so that tracing does not change operation counts.
    pub(crate) fn record<M: Meter>(
        &mut self,
        mm: &Multiplier<'_, W, M>,
        bit: Option<usize>,
        digit: u64,
        op: &'static str,
        regs: &[(&'static str, &MontElem<W>)],
    ) {
        let modulus = mm.modulus();
        let product: Product = mm.product();
        let regs = regs
            .iter()
            .map(|&(name, x)| TraceReg {
                name,
                mont: Nat::from_digits(x.digits().to_vec()),
                value: modulus.from_mont(x, product),
            })
            .collect();
        self.rows.push(TraceRow { bit, digit, op, regs });
    }
}

/// Record a row if tracing is on.
pub(crate) fn note<W: Word, M: Meter>(
    trace: &mut Option<&mut Trace<W>>,
    mm: &Multiplier<'_, W, M>,
    bit: Option<usize>,
    digit: u64,
    op: &'static str,
    regs: &[(&'static str, &MontElem<W>)],
) {
    if let Some(t) = trace.as_deref_mut() {
        t.record(mm, bit, digit, op, regs);
    }
}
