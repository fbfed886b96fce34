//! The FDFM core of Ito, Nakano and Song, "The Parallel FDFM Processor Core
//! Approach for CRT-based RSA Decryption" (`../shared/papers/001_24b3bbce8c558126.txt`):
//! one DSP48E1 slice, one block RAM, radix 2^17.
//!
//! What is modelled, by section of the paper:
//!
//! * §5.1, Alg. 3: the digit-serial Montgomery product with the carries
//!   `Ca` (C_α), `Cb` (C_β) of the 17-bit MACC and `Cg` (C_γ), `Cs` (C_S) of
//!   the 17-bit adder, one quotient digit `q` per outer iteration and no
//!   final subtraction ([`Circuit::multiply`](crate::Circuit::multiply)).
//! * §5.1.2, Eq. 7–9: the cycle counts. Each outer iteration takes 6 cycles
//!   for `q` and 2 cycles per inner step `j = 0..=d` (the single multiplier
//!   alternates `X_j·Y_i` and `q·M_j`); a product ends with 4 pipeline
//!   cycles. The model adds these up while it runs, so a product of a
//!   `dx`-digit X (and modulus) by a `dy`-digit Y takes
//!   `((dx + 1)·2 + 6)·dy + 4` cycles (Eq. 9; Eq. 8 when `dx = dy = d`).
//!   [`mm_counts`] walks the same schedule without data.
//! * §3, Alg. 2: left-to-right exponentiation on top of Alg. 3
//!   ([`Circuit::exponentiate`](crate::Circuit::exponentiate)).
//! * §4 and §5.2, Eq. 10: CRT decryption, Steps 1–3 on the core in the
//!   paper's serial order and Step 4 on the host ([`crt_decrypt`]).
//! * §5.3: the multicore system fed through a shift-register chain
//!   ([`Circuit::parallel_cycles`](crate::Circuit::parallel_cycles), [`throughput_kbps`]).
//! * Table 2, Table 3, Fig. 6 and the figures of the abstract, §1 and §6
//!   ([`tables`]).
//!
//! # Size parameter
//!
//! For an R-bit modulus the core uses `d = ceil((R + 3) / 17)` digits
//! ([`digits_for`]): the smallest d with the paper's condition
//! `17d >= R + 3` (§5.1), which is `ceil(R / 17)` when that already leaves
//! three spare bits and one redundant digit more otherwise ("we can append
//! one redundant digit at the highest digit"). The condition is sufficient
//! but not tight: for operands below 2M, `17d >= R + 2` already keeps every
//! output below 2M (see [`build_with_digits`]); Table 2's 64-bit row uses
//! d2 = 2 for 32-bit primes, which violates `R + 3` but meets `R + 2`.
//!
//! # Output range
//!
//! A product of X, Y < 2M is `(X·Y + Q·M) / 2^(17d)` exactly, with `Q` the
//! quotient digits, below 2M ([`Circuit::operand_bound`](crate::Circuit::operand_bound) is 2n); it equals
//! [`mont_product_exact`](crate::reference::mont_product_exact)`(X, Y, M, 17·d_Y)`.
//! The exponentiator's last product (by 1) lands in `[0, n]`; the host maps
//! n to 0 to return the fully reduced value.
//!
//! # Where the paper contradicts itself
//!
//! Each point has a test in `tests/fdfm.rs` and, where it touches a table, a
//! note in [`tables`]:
//!
//! * Table 2's 64-bit row uses d2 = 2 for 32-bit primes: 34 < 32 + 3, against
//!   §5.1's `17d >= R + 3` (harmless: `R + 2` suffices).
//! * Table 2's 128-bit "without CRT" time 0.113 ms is 0.11356 truncated; the
//!   other rows round. Table 3 prints ref. \[4\]'s time as 36.401 ms, Table 2 as
//!   36.402 ms (Table 3's own 28.130 kbit/s is 1024 / 36.402).
//! * §6's 11.263 ms for 1024 bits contradicts the 13.737 ms of the abstract,
//!   §1 and Tables 2 and 3.
//! * §5.1.2 claims more than 90 % utilization above 500 bits and 95 % at
//!   1024 bits; Eq. 7 / Eq. 8 give 89.8 % at 512 and 94.6 % at 1024 bits.
//! * Table 3's 23,031.370 kbit/s is 23,031.372 at the printed 325.098 MHz.
//! * §5.2.1's Step 1 takes `R_p = 2^bitlength(p)`, which no Alg. 3 product
//!   (each divides by a power 2^(17k)) can cancel; the model uses
//!   `R_p = 2^(17·d1)`.
//! * §5.2.2 lists 2 + (2|E| + 3) + 3 products per half; Eq. 10 counts
//!   2|E| + 7, with the shapes [`crt_decrypt`] describes. Eq. 10's
//!   `(2d2d1 + 8d1 + 4)` terms have the inner loop over d2 digits, so they
//!   cannot be the Step 3 products modulo the d1-digit M the text puts there.
//! * Eq. 10 (Table 2's worst case) scans 17·d2 exponent bits, more than
//!   `D_p < 2^(R/2)` can have.
//!
//! # Files
//!
//! One role each: `datapath.rs` holds Alg. 3 (the product, digit by digit,
//! and its schedule, §5.1), `exp.rs` Alg. 2 (§3), `crt.rs` the CRT
//! decryption (§4, §5.2, Eq. 10), `processor.rs` the core on one modulus as
//! a [`Circuit`](crate::Circuit), `throughput.rs` the multicore figures (§5.3, Table 3's
//! rule) and `tables.rs` the paper's tables.

mod crt;
mod datapath;
mod exp;
mod processor;
mod tables;
mod throughput;

pub use crt::{NO_PARALLEL_CRT, crt_decrypt, crt_worst_case};
pub use datapath::{MmCounts, mm_counts};
pub use exp::exp_worst_case;
pub use processor::{build, build_with_digits, digits_for};
pub use tables::{UNMODELLED, tables};
pub use throughput::{decryption_throughput_kbps, throughput_kbps, time_ms};

use crate::{Arch, CrtSupport, Paper};

/// The paper's file in `../shared/papers`.
pub const FILE: &str = "001_24b3bbce8c558126.txt";

/// The digit width of the core: the DSP48E1's unsigned 17-bit multiplier
/// input (§5.1).
pub const DIGIT_BITS: u32 = 17;

/// The single-core clock, MHz: Table 1 "1 core", Maximum Frequency.
pub const CLOCK_MHZ: f64 = 336.7;

/// The clock of the 320-core system, MHz: Table 1 "320 cores".
pub const CLOCK_MHZ_MULTICORE: f64 = 325.098;

/// The clock of the earlier non-CRT core (ref. \[4\]), MHz (§6, Table 3).
pub const CLOCK_MHZ_PREVIOUS: f64 = 447.027;

/// The number of cores of the paper's multicore system (§5.3, Table 1).
pub const PAPER_CORES: u32 = 320;

/// The CLI name.
const NAME: &str = "fdfm";

/// The FDFM core as the registry lists it: the halves of a CRT decryption
/// run one after the other (§5.2.1).
pub static ARCH: Arch = Arch {
    name: NAME,
    paper: Paper::Fdfm,
    build,
    crt: CrtSupport::Serial {
        decrypt: crt_decrypt,
        no_parallel: NO_PARALLEL_CRT,
    },
};
