//! Perin, Mesquita, Martins: *Montgomery Modular Multiplication on
//! Reconfigurable Hardware: Systolic versus Multiplexed Implementation*
//! (`../shared/papers/004_b65c74827168229f.txt`).
//!
//! Two circuits for the paper's Algorithm 1 (§2), word-serial Montgomery
//! multiplication in radix 2^k (k = 16 or 32) without final subtraction:
//!
//! * [`SYSTOLIC`] (`perin-systolic`, §4.1, Figures 1–5): a one-dimensional array of
//!   m processing elements; PE j+1 holds the words B_j and N_j
//!   (j = 0..m−1), multiplies a_i·B_j and q_i·N_j in its own two multipliers
//!   and adds them to S_j and the carry of PE j (Figure 2). PE1 takes no carry and discards its
//!   word (the division by 2^k); PE_m outputs two words, S^{m−2} and
//!   S^{m−1}, the latter the sum of its carry signals (§4.1.2).
//! * [`MULTIPLEXED`] (`perin-multiplexed`, §4.2, Figures 6–10): arithmetic cores of four
//!   PEs sharing one multiplier block and one 8×k-bit RAM of four B and four
//!   N words. The multiplier block forms the two word products of one PE per
//!   cycle and chains their k-bit carries (`C_SaB` of S_i + a_i·B, `C_qN` of
//!   q_i·N) from core to core; each PE only adds the two low words and its
//!   one-bit carry `C_PE`; PE_m adds the last carries into S^{m−1}.
//!
//! The quotient block (§4.1.3, Figure 5) computes
//! q_i = ((S^0 + a_i·b_0 mod 2^k)·N') mod 2^k in one cycle for both, S^0
//! being the low word of S_i and N' = −N^{−1} mod 2^k.
//!
//! # Parameters
//!
//! * k: `radix` 16 (the default) or 32, the paper's two radices.
//! * m: the fewest k-bit words with 4N < R = 2^{km}, that is
//!   m = ⌈(bits(N) + 2)/k⌉, and at least 2 (PE1 and PE_m are different
//!   PEs). This is Walter's condition (the paper's reference 15) under which
//!   inputs below 2N give an output below 2N, so products chain without a
//!   final subtraction; the paper's own preconditions are too weak (see
//!   below). The multiplexed array is built of whole cores, so its m is
//!   rounded up to a multiple of 4 (⌈m/4⌉ cores). Table 1's m = n/k
//!   therefore fits moduli of at most n − 2 bits.
//! * Operand bound 2N, R = 2^{km}: [`Circuit::multiply`](crate::Circuit::multiply) returns exactly
//!   `reference::mont_product_exact(a, b, N, k·m)`, which is below 2N.
//! * Clock: the Virtex-5 column of Table 1 (130/95 MHz systolic, 120/90 MHz
//!   multiplexed for k = 16/32); the table gives the same clock for n = 512
//!   and 1024, so every size takes it.
//!
//! # Schedule and cycle count
//!
//! Every product runs the same schedule, walked cycle by cycle by a
//! dependency-driven scheduler (each operation starts at the first cycle at
//! which its inputs are latched and its unit is free); the product takes one
//! cycle more than the last cycle used:
//!
//! * Load: the control block addresses one word of the operand (A for a
//!   squaring, B for a multiplication) per cycle in cycles 0..m−1 (§4.1:
//!   "the first m cycles to read the A and B operands"). The block RAM is
//!   synchronous: a word addressed in cycle t is latched at the end of t+1
//!   and usable from t+2. a_0 is addressed in cycle m, when the port is free;
//!   every later a_i is addressed while the previous iteration runs.
//! * Iteration i: the quotient block computes q_i in one cycle once a_i and
//!   S^0 of S_i are latched; the control block hands (a_i, q_i) to word 0 in
//!   the next cycle, and each word activates the next one cycle later (PEs
//!   "activated by the previous PE", §4.1.2). A word's pipeline is
//!   multiply → add in the systolic PE (D = 2 stages), and core-RAM read of
//!   B_j and N_j → multiply → multiplier-block accumulate → PE add in the
//!   multiplexed core (D = 4); carries pass from word to word one cycle
//!   apart, and a core's RAM, multipliers and accumulator serve its four
//!   words one per cycle.
//! * q_{i+1} needs S^0 of S_{i+1}, the output of word 1, so iterations start
//!   D + 2 cycles apart: 4 (systolic) or 6 (multiplexed) cycles.
//!
//! The count comes to m (load) + (D+2)·m (the m iteration slots, each from
//! its quotient to the next) + m (the last iteration's wave through m
//! words): 6m for the systolic array (§4.1: m + m + 4m) and 8m for the
//! multiplexed one (§4.2: n_MM = m + m + 6m = 8m), the same totals grouped
//! differently from the paper's "load, first iteration, the rest".
//!
//! # Exponentiation
//!
//! [`Circuit::exponentiate`](crate::Circuit::exponentiate) runs Algorithm 2 (§4.3, left-to-right square and
//! multiply, [`Method::SquareMultiply`]); [`Perin::ladder`] runs the
//! Montgomery powering ladder the conclusion (§6) proposes
//! ([`Method::Ladder`]), with its two products per bit on two multipliers at
//! once. The host supplies R mod N and R² mod N (the paper's RAMs hold
//! "an auxiliary term A = R mod N"); X̄ = mont(X, R² mod N) and the final
//! mont(A, 1) are products of the circuit. Algorithm 2's loop runs from bit
//! n−1 where n is the operand precision: the model takes n = bits(N) (an
//! exponent with more bits runs all its bits), leading zeros included, so the
//! time depends only on the exponent's weight. The final mont(A, 1) is at
//! most N, and equals N only when A ≡ 0 (mod N); the host then subtracts N
//! (the only final subtraction of the model).
//!
//! # Where the paper is inconsistent
//!
//! * §2 claims S < N with A, B < 2N and 2N < 2^{km}, and Algorithm 1
//!   requires only N < R: the output is only below 2N, and only with
//!   4N < R (with 2N < R ≤ 4N it can exceed 2N).
//! * §2 calls N' "the modular inverse of N regarding the N modulus"; it is
//!   N' = −N^{−1} mod 2^k (Algorithm 1's Require line).
//! * §4.2 says "exactly k/4 arithmetic cores"; four PEs per core and m PEs
//!   need m/4 cores, which is k/4 only for n = 1024, k = 32 (Table 1's DSP48
//!   column doubles from n = 512 to 1024 at fixed k, as m/4 cores do).
//! * §4.2 adds S_i to q_i·N in one paragraph and to a_i·B in the next; the
//!   model adds it to a_i·B (the paragraph on the carry signals).
//! * Table 1's m = n/k words leave no room for 4N < R with an n-bit
//!   modulus: such a modulus needs m + 1 words (one more core).
//! * Table 2 (systolic): 491520 cycles at 130 MHz are 3.78 ms, not 3.23 ms;
//!   and 1.5·1024 products of 6·64 cycles are 589824 cycles, not 491520
//!   (= 1536 · 5·64, as if each product's m-cycle load were left out).
//!   Multiplexed: 393216 cycles at 90 MHz are 4.369 ms, printed 4.36.
//! * §5 calls the multiplexed array faster in cycles per multiplication:
//!   at equal k it takes 8m against 6m; Table 2 compares k = 32 multiplexed
//!   (256 cycles) with k = 16 systolic (384 cycles).
//! * §6: the ladder takes "exactly n × n_MM clock cycles" for its loop
//!   only; X̄ and mont(A, 1) add two product slots.
//!
//! # Files
//!
//! One role each: `multiplier.rs` holds the two arrays on one modulus as a
//! [`Circuit`](crate::Circuit), `schedule.rs` the schedule walked cycle by
//! cycle (the per-word pipelines of §4.1 and §4.2), `datapath.rs` Algorithm
//! 1's registers word by word, `exp.rs` Algorithm 2 and §6's ladder, and
//! `tables.rs` the paper's tables.

mod datapath;
mod exp;
mod multiplier;
mod schedule;
mod tables;

pub use exp::{ExpCycles, Method};
pub use multiplier::{Perin, build};
pub use tables::{UNMODELLED, tables};

use crate::{Arch, Big, CrtSupport, HwError, Paper};

/// The paper's file in `../shared/papers`.
pub const FILE: &str = "004_b65c74827168229f.txt";

/// The systolic array (§4.1) as the registry lists it.
pub static SYSTOLIC: Arch = Arch {
    name: "perin-systolic",
    paper: Paper::Perin,
    build: |n, radix| build(&SYSTOLIC, n, radix),
    crt: CrtSupport::Unmodelled,
};

/// The multiplexed array of arithmetic cores (§4.2) as the registry lists it.
pub static MULTIPLEXED: Arch = Arch {
    name: "perin-multiplexed",
    paper: Paper::Perin,
    build: |n, radix| build(&MULTIPLEXED, n, radix),
    crt: CrtSupport::Unmodelled,
};

/// Words one arithmetic core serves (four PEs, §4.2).
const CORE_WORDS: usize = 4;

/// Which of the paper's two arrays a [`Perin`] models (shared by the files of this paper).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Layout {
    /// §4.1: m processing elements, two multipliers each.
    Systolic,
    /// §4.2: arithmetic cores of four PEs sharing one multiplier block.
    Multiplexed,
}

impl Layout {
    /// The layout of `arch`, if it is one of this paper's.
    pub(super) fn of(arch: &Arch) -> Option<Self> {
        if *arch == SYSTOLIC {
            Some(Self::Systolic)
        } else if *arch == MULTIPLEXED {
            Some(Self::Multiplexed)
        } else {
            None
        }
    }

    /// The registry entry.
    pub(super) fn arch(self) -> &'static Arch {
        match self {
            Self::Systolic => &SYSTOLIC,
            Self::Multiplexed => &MULTIPLEXED,
        }
    }
}

/// `Ok` if `x < bound`, else the operand error for `name`.
pub(super) fn check(x: &Big, bound: &Big, name: &'static str, bound_name: &str) -> Result<(), HwError> {
    if x < bound {
        Ok(())
    } else {
        Err(HwError::Operand {
            name,
            bound: bound_name.into(),
        })
    }
}
