//! 000 §4.2's counting rules, Eq. 7–9 generalised: engine cycles of a DFE
//! run, and the counted time of Step 1, of whole products and of Fig. 1's
//! exponentiation, split by where it is spent.

use std::ops::{Add, AddAssign};

use super::{Offload, Params};

/// Counted time of a schedule, by where it is spent.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Cycles {
    /// Engine cycles: start-ups, issue cycles and pipeline fill of the runs.
    pub engine: u64,
    /// Host cycles in word products (the profile's `mult32x32`).
    pub host_mul: u64,
    /// Host cycles in the rest of `MonPro`: accumulation, carry transfer,
    /// `ADD` ripple, final subtraction (the profile's `monPro`).
    pub host_mon: u64,
    /// Host cycles outside `MonPro`: `n'` and the remainders `M·r mod n`,
    /// `r mod n` of Fig. 1 Steps 1–3 (the profile's `calcRem`).
    pub host_rem: u64,
}

impl Cycles {
    /// All host cycles.
    pub fn host(&self) -> u64 {
        self.host_mul
            .saturating_add(self.host_mon)
            .saturating_add(self.host_rem)
    }

    /// Engine cycles plus the host's converted at `params.host_ratio`,
    /// rounded up: the figure [`ProductRun::cycles`](crate::ProductRun::cycles) reports.
    pub fn total(&self, params: &Params) -> u64 {
        self.engine
            .saturating_add(self.host().div_ceil(params.host_ratio.max(1)))
    }

    /// `k` times these counts.
    pub fn times(self, k: u64) -> Self {
        Self {
            engine: self.engine.saturating_mul(k),
            host_mul: self.host_mul.saturating_mul(k),
            host_mon: self.host_mon.saturating_mul(k),
            host_rem: self.host_rem.saturating_mul(k),
        }
    }
}

impl Add for Cycles {
    type Output = Self;
    fn add(self, o: Self) -> Self {
        Self {
            engine: self.engine.saturating_add(o.engine),
            host_mul: self.host_mul.saturating_add(o.host_mul),
            host_mon: self.host_mon.saturating_add(o.host_mon),
            host_rem: self.host_rem.saturating_add(o.host_rem),
        }
    }
}

impl AddAssign for Cycles {
    fn add_assign(&mut self, o: Self) {
        *self = *self + o;
    }
}

/// Engine cycles of one run streaming `pairs` operand pairs (§4.2): the
/// start-up, the pipeline depth, and one cycle per issued group, a group
/// being at most `lanes` pairs and at most what the link has delivered
/// (`link_bits` a cycle, `2w` bits a pair):
/// `startup + depth + max(⌈pairs/lanes⌉, ⌈pairs·2w/link_bits⌉)`.
/// This is the counting rule of the cycle-by-cycle run inside
/// [`Circuit::multiply`](crate::Circuit::multiply); zero lanes or link bits count as one.
pub fn run_cycles(params: &Params, w: u32, pairs: u64) -> u64 {
    let by_lanes = pairs.div_ceil(u64::from(params.lanes.max(1)));
    let by_link = pairs.saturating_mul(2 * u64::from(w)).div_ceil(params.link_bits.max(1));
    params
        .startup
        .saturating_add(params.depth)
        .saturating_add(by_lanes.max(by_link))
}

/// Counted time of Step 1 (Fig. 3 a, `t := a·b`) for `blocks` products of
/// `s` digits of `w` bits:
///
/// - [`Offload::Host`]: `B·s` rows of `s` inner iterations
///   (`host_mul + host_acc` each) and one store of `C`;
/// - [`Offload::PerBlock`] (Fig. 6/7): `B·s` runs of `s` pairs;
/// - [`Offload::Streamed`] (Fig. 8): `s` runs of `B·s` pairs;
///
/// the two DFE forms plus `B·s` host carry transfers of `s + 1` digit steps.
pub fn step1_cycles(params: &Params, w: u32, s: u64, blocks: u64, offload: Offload) -> Cycles {
    if blocks == 0 {
        return Cycles::default();
    }
    let rows = blocks.saturating_mul(s);
    let carry_transfer = rows.saturating_mul(s.saturating_add(1)).saturating_mul(params.host_add);
    match offload {
        Offload::Host => Cycles {
            host_mul: rows.saturating_mul(s).saturating_mul(params.host_mul),
            host_mon: rows.saturating_mul(s.saturating_mul(params.host_acc).saturating_add(params.host_add)),
            ..Cycles::default()
        },
        Offload::PerBlock => Cycles {
            engine: rows.saturating_mul(run_cycles(params, w, s)),
            host_mon: carry_transfer,
            ..Cycles::default()
        },
        Offload::Streamed => Cycles {
            engine: s.saturating_mul(run_cycles(params, w, rows)),
            host_mon: carry_transfer,
            ..Cycles::default()
        },
    }
}

/// Counted time of `blocks` whole products (Fig. 2 as Fig. 3): Step 1 as
/// [`step1_cycles`], then on the host Fig. 3 b (`s` rows of one product
/// for `m`, `s` inner iterations and an `ADD` ripple over
/// `t[i+s..=2s]`, `s + 1 − i` digit steps) and the final subtraction
/// (`s + 1` digit steps). The figure [`Circuit::product_cycles`](crate::Circuit::product_cycles) reports for
/// one block.
pub fn monpro_cycles(params: &Params, w: u32, s: u64, blocks: u64, offload: Offload) -> Cycles {
    let ripple = s.saturating_mul(s.saturating_add(3)) / 2;
    let reduction = Cycles {
        host_mul: s.saturating_mul(s.saturating_add(1)).saturating_mul(params.host_mul),
        host_mon: s.saturating_mul(s).saturating_mul(params.host_acc).saturating_add(
            ripple
                .saturating_add(s)
                .saturating_add(1)
                .saturating_mul(params.host_add),
        ),
        ..Cycles::default()
    };
    step1_cycles(params, w, s, blocks, offload) + reduction.times(blocks)
}

/// Counted time of Fig. 1 with `squarings` exponent bits of which
/// `multiplies` are ones: Step 1 (`n'[0]` by `log2 w` Newton steps of two
/// products and a digit step, then a negation), Steps 2–3 (`s·w` modular
/// doublings of `2s + 1` digit steps each, twice), and
/// `squarings + multiplies + 1` products (Step 7 included).
pub fn exponentiation_cycles(
    params: &Params,
    w: u32,
    s: u64,
    squarings: u64,
    multiplies: u64,
    offload: Offload,
) -> Cycles {
    let step = params.host_mul.saturating_mul(2).saturating_add(params.host_add);
    let newton = u64::from(w.max(1).ilog2())
        .saturating_mul(step)
        .saturating_add(params.host_add);
    let doublings = s.saturating_mul(u64::from(w)).saturating_mul(2);
    let doubling = s.saturating_mul(2).saturating_add(1).saturating_mul(params.host_add);
    let pre = Cycles {
        host_rem: newton.saturating_add(doublings.saturating_mul(doubling)),
        ..Cycles::default()
    };
    let products = squarings.saturating_add(multiplies).saturating_add(1);
    pre + monpro_cycles(params, w, s, 1, offload).times(products)
}

/// Adds `k` to a cycle counter (saturating: absurd parameters must not panic).
pub(super) fn charge(counter: &mut u64, k: u64) {
    *counter = counter.saturating_add(k);
}
