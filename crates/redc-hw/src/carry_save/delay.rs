//! 003 §II and §III: the critical path of one clock cycle and the latency
//! of one product, in XOR, multiplexer and AND delays.

use super::CarrySave;
use super::multiplier::Form;
use crate::Circuit;

/// A delay in §III's units: X (XOR), M (4:1 multiplexer), A (AND gate).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct GateDelay {
    /// XOR delays.
    pub xor: u64,
    /// 4:1 multiplexer delays.
    pub mux: u64,
    /// AND gate delays.
    pub and: u64,
}

impl GateDelay {
    const XOR: Self = Self { xor: 1, mux: 0, and: 0 };
    const MUX: Self = Self { xor: 0, mux: 1, and: 0 };
    const AND: Self = Self { xor: 0, mux: 0, and: 1 };

    fn times(self, n: u64) -> Self {
        Self {
            xor: self.xor * n,
            mux: self.mux * n,
            and: self.and * n,
        }
    }

    fn plus(self, o: Self) -> Self {
        Self {
            xor: self.xor + o.xor,
            mux: self.mux + o.mux,
            and: self.and + o.and,
        }
    }
}

impl CarrySave {
    /// The critical path of one clock cycle, from the paper's itemised
    /// analysis: Alg. I (§II) 4:2 CSA 4X + 4:1 MUX + qi 2X + A = 6X + M + A;
    /// Alg. II (§III) steps 2a M, 2b 4X, 2c X, 2d M, 2e 2X, 2f A + 2X =
    /// 9X + 2M + A.
    pub fn cycle_delay(&self) -> GateDelay {
        let x = GateDelay::XOR;
        let steps: &[GateDelay] = match self.form {
            Form::Radix2 => &[x.times(4), GateDelay::MUX, x.times(2).plus(GateDelay::AND)],
            Form::Radix4 { .. } => &[
                GateDelay::MUX,
                x.times(4),
                x,
                GateDelay::MUX,
                x.times(2),
                GateDelay::AND.plus(x.times(2)),
            ],
        };
        steps.iter().fold(GateDelay::default(), |acc, &s| acc.plus(s))
    }

    /// Latency of one product in gate delays (§III): the model's cycle count
    /// times [`cycle_delay`](Self::cycle_delay), plus the 4 XOR of the
    /// pre-computation's four-to-two CSA.
    pub fn latency(&self) -> GateDelay {
        self.cycle_delay()
            .times(self.product_cycles())
            .plus(GateDelay::XOR.times(4))
    }
}
