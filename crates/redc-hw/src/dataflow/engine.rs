//! 000 §4.2: the dataflow engine, Fig. 5's `w × w` multiplier graph and one
//! run of pairs through its pipeline, cycle by cycle (Fig. 6).

use std::collections::VecDeque;

use super::Params;
use super::cycles::charge;

/// Fig. 5: the `w × w` product from four partial products of `w/2`-bit
/// halves (`pp1 = d1L·d2L`, `pp2 = d1L·d2H`, `pp3 = d1H·d2L`,
/// `pp4 = d1H·d2H`) and the carry transfer between them. Pre: `d1, d2 <
/// 2^w`. Post: `(low, hi)` with `hi·2^w + low = d1·d2`.
pub(super) fn word_product(w: u32, d1: u64, d2: u64) -> (u64, u64) {
    let h = w / 2;
    let half = (1u128 << h) - 1;
    let (a, b) = (u128::from(d1), u128::from(d2));
    let (pp1, pp2, pp3, pp4) = (
        (a & half) * (b & half),
        (a & half) * (b >> h),
        (a >> h) * (b & half),
        (a >> h) * (b >> h),
    );
    let mid = pp2 + pp3 + (pp1 >> h);
    let low = (pp1 & half) | ((mid & half) << h);
    let hi = pp4 + (mid >> h);
    (low as u64, hi as u64)
}

/// One DFE run (§4.2), cycle by cycle: each engine cycle the link delivers
/// `link_bits`, up to `lanes` pairs whose `2w` bits have arrived enter the
/// Fig. 5 pipeline, and each pair leaves `depth` cycles after it entered;
/// the run ends when the last pair has left. Adds `startup` plus the
/// cycles stepped to `engine` (so the total is [`run_cycles`]). Pre:
/// `d1.len() == d2.len()`, parameters validated. Post: the `low` and `hi`
/// halves in stream order.
pub(super) fn stream(params: &Params, w: u32, d1: &[u64], d2: &[u64], engine: &mut u64) -> (Vec<u64>, Vec<u64>) {
    let pair_bits = 2 * u64::from(w);
    let (mut x, mut y) = (Vec::with_capacity(d1.len()), Vec::with_capacity(d1.len()));
    let mut pipeline: VecDeque<(u64, u64, u64)> = VecDeque::new();
    let (mut credit, mut issued, mut cycle) = (0u64, 0usize, 0u64);
    while x.len() < d1.len() {
        credit = credit.saturating_add(params.link_bits);
        let room = usize::try_from(credit / pair_bits).unwrap_or(usize::MAX);
        let group = (params.lanes as usize).min(d1.len() - issued).min(room);
        credit -= group as u64 * pair_bits;
        for j in issued..issued + group {
            let (lo, hi) = word_product(w, d1[j], d2[j]);
            pipeline.push_back((cycle + params.depth, lo, hi));
        }
        issued += group;
        while pipeline.front().is_some_and(|&(leaves, _, _)| leaves <= cycle) {
            if let Some((_, lo, hi)) = pipeline.pop_front() {
                x.push(lo);
                y.push(hi);
            }
        }
        cycle += 1;
    }
    if !d1.is_empty() {
        charge(engine, params.startup.saturating_add(cycle));
    }
    (x, y)
}
