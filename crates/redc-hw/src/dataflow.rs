//! 000_be478b6750af4540.txt: RSA on the Maxeler dataflow platform — the SOS
//! Montgomery product of the host code with its word multiplications sent to
//! a pipelined multiplier on the dataflow engine (DFE).
//!
//! What the paper gives and where the model follows it:
//!
//! - §2 Eq. 2: `s = ⌈k/w⌉` digits of `w` bits for a `k`-bit modulus; Eq. 5:
//!   `r = 2^(sw)`; Eq. 6: `r·r⁻¹ − n·n' = 1`, of which only the low digit
//!   `n'[0]` is needed (§3.1).
//! - §2.1 Fig. 1: the left-to-right exponentiation `ModExp` and Fig. 2: the
//!   Montgomery product `MonPro` with its final subtraction (Step 4).
//! - §3.1 Fig. 3 (Koç's SOS): a) Step 1 `t := a·b` row by row, b) Steps 2
//!   and 3 interleaved, row by row; Fig. 4: the inner `(C, S) := t + a·b + C`.
//! - §3.2: the code was debugged with `w = 8` and 32-bit keys, checking the
//!   intermediate result after every exponent bit
//!   ([`Dataflow::exponentiate_traced`]).
//! - §4.1 Table 1: the profile (word multiplication about 40% of the time).
//! - §4.2 Fig. 5: the DFE's `w × w` multiplier graph (four partial products
//!   of `w/2`-bit halves, `hi` and `low` outputs, one pair per cycle after
//!   the pipeline fills); Fig. 6: one run per row `i` with `b[i]` constant
//!   and `a` streamed, carries resolved on the host; Fig. 7: the same for
//!   each of B blocks (B·s runs); Fig. 8: the repeated digit sent in the
//!   stream, so B blocks need only `s` runs; Eq. 7–9 and the 41 ms
//!   measurement; Tables 2 and 3 (1 to 4 lanes) and the Amdahl estimate.
//!
//! Only Step 1 (Fig. 3 a) goes to the DFE, as in the paper ("Step 2 needs a
//! separate analysis due to calculation of m"); Steps 2–3 and the final
//! subtraction run on the host.
//!
//! **Time unit.** [`ProductRun::cycles`](crate::ProductRun::cycles) and [`ExpRun::cycles`](crate::ExpRun::cycles) are engine
//! clock cycles: the DFE's own cycles (run start-ups, pipeline fill, one
//! cycle per issued group of pairs) plus the host's work converted at
//! [`Params::host_ratio`] host cycles per engine cycle, rounded up once per
//! product (or exponentiation). The host and the engine never overlap (the
//! paper leaves that overlap to future work). The cost parameters are the
//! model's assumptions, set from the paper's measurements as [`Params`]
//! documents; [`tables`] puts the resulting figures beside the paper's.
//!
//! **Sizes.** Any odd `n >= 3`: `k = bits(n)`, `s = ⌈k/w⌉` (Eq. 2),
//! `R = 2^(sw)` (Eq. 5), with `w` in {8, 16, 32, 64} (default 32, the
//! paper's width for 1024-bit keys). Operands and outputs are below `n`
//! (Koç's SOS with the final subtraction of Fig. 2 Step 4).
//!
//! **Extraction errors in Fig. 3** (the text lost its layout): a) stores
//! `t[i + S] := C` and b) `ADD(t[i + S], C)` where Koç has `t[i + s]`; b)
//! reads `m := t[i]·n'[0] mod w` and `m·n[i]` where the schedule needs
//! `mod 2^w` and `n[j]` (the tests show the literal readings fail).
//!
//! **Files**, one role each: `params.rs` holds the cost parameters and the
//! offload choice, `cycles.rs` the counting rules (Eq. 7–9 generalised),
//! `engine.rs` the DFE (Fig. 5's multiplier graph, one run through the
//! pipeline), `sos.rs` the SOS product of Fig. 2 as Fig. 3 with Step 1 on
//! the DFE, `exp.rs` Fig. 1's exponentiation, `model.rs` the model on one
//! modulus as a [`Circuit`](crate::Circuit), and `tables.rs` the paper's
//! tables with the Amdahl estimate.

mod cycles;
mod engine;
mod exp;
mod model;
mod params;
mod sos;
mod tables;

pub use cycles::{Cycles, exponentiation_cycles, monpro_cycles, run_cycles, step1_cycles};
pub use model::{BatchRun, Dataflow, build};
pub use params::{Offload, Params};
pub use tables::{UNMODELLED, amdahl_gain, tables};

use crate::{Arch, CrtSupport, Paper};

/// The paper's file in `../shared/papers`.
pub const FILE: &str = "000_be478b6750af4540.txt";

/// The SOS product with Step 1 on the dataflow engine, as the registry
/// lists it (the paper models no CRT decryption).
pub static ARCH: Arch = Arch {
    name: "dataflow",
    paper: Paper::Dataflow,
    build,
    crt: CrtSupport::Unmodelled,
};

/// The digit widths the model takes (§2's "stem" types).
pub const RADICES: [u32; 4] = [8, 16, 32, 64];

/// The paper's digit width for 1024-bit keys (§3.2, §4.1).
pub const DEFAULT_RADIX: u32 = 32;
