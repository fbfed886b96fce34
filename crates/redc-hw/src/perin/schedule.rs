//! 004's product schedule walked cycle by cycle (§4.1, §4.2): each
//! operation starts at the first cycle its inputs are latched and its unit
//! is free, giving n_MM = 6m (systolic) and 8m (multiplexed).

use super::Layout;
use super::{CORE_WORDS, Perin};

/// Cycles from addressing a block-RAM word to the first cycle it can be
/// used (address in t, latched at the end of t + 1).
const BRAM_LATENCY: u64 = 2;

/// The deepest per-word pipeline (the multiplexed core's).
const MAX_STAGES: usize = 4;

/// The per-word pipeline of one architecture.
pub(super) struct Pipeline {
    /// Words sharing the unit of each stage (1: a unit per PE).
    share: &'static [usize],
    /// The stage that reads S_i^j.
    s_stage: usize,
    /// The first stage whose carries pass to the next word.
    carry_from: usize,
}

/// Systolic PE: multiply (a_i·B_j, q_i·N_j), add (Figure 2).
const SYSTOLIC_PE: Pipeline = Pipeline {
    share: &[1, 1],
    s_stage: 1,
    carry_from: 1,
};

/// Multiplexed core: RAM read of B_j and N_j, multiply, accumulate S_i^j and
/// the carries in the multiplier block (Figure 9), PE add (Figure 10).
const MULTIPLEXED_CORE: Pipeline = Pipeline {
    share: &[CORE_WORDS, CORE_WORDS, CORE_WORDS, 1],
    s_stage: 2,
    carry_from: 2,
};

/// What the schedule walk tells the datapath, in program order.
pub(super) enum Event {
    /// The quotient block computes q_i.
    Quotient(usize),
    /// Word j (PE j+1) finishes its part of the current iteration.
    Word(usize),
    /// Iteration i is complete.
    Done(usize),
}

impl Layout {
    /// The per-word pipeline.
    fn pipeline(self) -> &'static Pipeline {
        match self {
            Self::Systolic => &SYSTOLIC_PE,
            Self::Multiplexed => &MULTIPLEXED_CORE,
        }
    }
}

impl Perin {
    /// Walks one product's schedule (module docs) in program order, telling
    /// `visit` each step, and returns the cycles it takes.
    pub(super) fn walk(&self, mut visit: impl FnMut(Event)) -> u64 {
        let p = self.layout.pipeline();
        let m = self.m;
        // Load: word t addressed in cycle t; the last is latched in cycle m.
        let mut last = m as u64;
        let mut a_addr = m as u64;
        let mut s_ready = vec![0u64; m];
        let mut unit_free: Vec<Vec<u64>> = p.share.iter().map(|&s| vec![0; m.div_ceil(s)]).collect();
        let mut quotient_free = 0;
        for i in 0..m {
            let q = (a_addr + BRAM_LATENCY).max(s_ready[0]).max(quotient_free);
            quotient_free = q + 1;
            last = last.max(q);
            a_addr = (a_addr + 1).max(q);
            visit(Event::Quotient(i));
            let mut prev = [0u64; MAX_STAGES];
            for j in 0..m {
                let mut cur = prev;
                for (s, &share) in p.share.iter().enumerate() {
                    let mut t = match (s, j) {
                        (0, 0) => q + 1,
                        (0, _) => prev[0] + 1,
                        _ => cur[s - 1] + 1,
                    };
                    if j > 0 && s >= p.carry_from {
                        t = t.max(prev[s] + 1);
                    }
                    if s == p.s_stage {
                        t = t.max(s_ready[j]);
                    }
                    let unit = &mut unit_free[s][j / share];
                    t = t.max(*unit);
                    *unit = t + 1;
                    cur[s] = t;
                }
                let done = cur[p.share.len() - 1];
                if j > 0 {
                    s_ready[j - 1] = done + 1;
                }
                if j == m - 1 {
                    s_ready[j] = done + 1;
                }
                last = last.max(done);
                visit(Event::Word(j));
                prev = cur;
            }
            visit(Event::Done(i));
        }
        last + 1
    }
}
