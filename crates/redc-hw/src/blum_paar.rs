//! Blum and Paar's high-radix Montgomery exponentiator: a systolic array of
//! radix-2^k processing elements (paper `002_aa2657bb2bc73547.txt`, §3.1
//! Alg. 3.1, §3.2 Alg. 3.2, §4.2–4.4 the unit, the array and the
//! exponentiator, §5 Tables 1–4, §6–7 the comparison figures).
//!
//! # The multiplication (Alg. 3.2, after Orup)
//!
//! With `M' = -M^(-1) mod 2^k` and `M~ = (M' mod 2^k)·M`, `M~ ≡ -1 (mod 2^k)`,
//! so the quotient digit is simply `q_i = S_i mod 2^k` and the loop is
//!
//! ```text
//! S_0 = 0;  for i = 0 ..= m+2:  q_i = S_i mod 2^k;  S_(i+1) = (S_i + q_i·M~)/2^k + a_i·B
//! ```
//!
//! `S_(m+3) = (A·B + Q·M~) / 2^(k(m+2))` for the one `Q < 2^(k(m+2))` that
//! makes the division exact — [`crate::reference::mont_product_exact`] with
//! modulus `M~` and `r = k(m+2)` — hence `S_(m+3) ≡ A·B·2^(-k(m+2))` modulo
//! `M~` and modulo `M`: the paper's `R = 2^(k(m+2))` is [`Circuit::r_log2`](crate::Circuit::r_log2).
//!
//! **Size parameter.** `m = ceil(bits(M)/k)`, the number of k-bit digits of
//! `M` (Alg. 3.2 writes `M = Σ_(i<m) 2^(ki) m_i`); `m = 128` for a 512-bit
//! modulus at k = 4 is what Tables 2–4 are computed with. Then `M~ < 2^(k(m+1))`
//! (m+1 digits), `B` has m+2 digits and `A` m+3 digits with `a_(m+2) = 0`, as
//! Alg. 3.2 states. Alg. 3.2 prints the precondition as `4M~ < 2^(km)`, which
//! fails for this m (M~ ≥ M ≥ 2^(k(m-1)), usually much more); the bound the
//! algorithm needs for `A, B < 2M~ ⇒ S_(m+3) < 2M~` is `4M~ < 2^(k(m+2))`,
//! and that holds for every odd M and every k, since
//! `4M~ < 4(2^k-1)·2^(km) ≤ 2^(k(m+2))`. The model uses that reading (a test
//! shows the printed one failing).
//!
//! # The array (§4.2, §4.3)
//!
//! m+3 units, numbered 0 ..= m+2 from the right. Unit `j` holds digit `j` of
//! `S` (k bits; unit m+2 holds the top digit, the "temporarily occurring
//! overflow") and computes column `j` of `S_i + q_i·M~ + 2^k·a_i·B`:
//!
//! ```text
//! t_j = s_j + M~RAM_j[q_i] + BRAM_j[a_i] + c_j,   c_(j+1) = t_j >> k,   s_(j-1) ← t_j mod 2^k
//! ```
//!
//! `M~RAM_j[t]` is digit j of `t·M~` (units 0 ..= m+1; unit m+2 has no M~-RAM,
//! as the paper says), `BRAM_j[t]` is digit j−1 of `t·B` (units 1 ..= m+2; unit
//! 0 has no B-RAM, as the paper says; unit m+2's word is `t·B >> k(m+1)`, k+1
//! bits, because `B < 2M~` has one bit in digit m+1 — "the most significant
//! bit of B"). Three k-bit operands and a carry never exceed k+2 bits (the
//! paper's "internal bit length"), so carries are at most 2. Unit 0's column
//! is always 0 mod 2^k ("the four result bits S3...0 are always equal to
//! zero"); `S_out` → `S_in` of the unit to the right is the division by 2^k,
//! and unit m+2 keeps its own overflow `t_(m+2) >> k` as the new top digit.
//! `S_i < 2^k·B + M~ < 2^(k(m+3))` for every i, so m+3 digits always suffice.
//! The model evaluates each iteration as one sweep from unit 0 to unit m+2,
//! the order in which the skewed systolic schedule evaluates the columns, so
//! every unit produces the values the array produces. The RAM rows are
//! filled as the circuit fills them: `t·X = (t−1)·X + X`, one B/M~-adder pass
//! per multiple, the carries propagating to the units on the left.
//!
//! # Cycles (§4.2–4.4, §5)
//!
//! A *slot* is one B operand with up to two A operands: the squaring and the
//! multiplication of Alg. 3.1 share `B = Z_i`, so one set of B multiples
//! serves both. The slot takes
//!
//! * `2^k − 2` cycles to fill the B-RAM: rows 0 (zero) and 1 (`B` as loaded)
//!   need no addition, rows 2 ..= 2^k−1 one each;
//! * `2(m+3)` cycles for the m+3 iterations, each unit alternating between
//!   the two interleaved products (the paper's "2(m+3) cycles for the whole
//!   algorithm"; a lone product leaves every other cycle idle).
//!
//! At k = 4 that is `14 + 2(m+3) = 2m + 20`, the paper's figure for "a
//! squaring or multiplication" (§4.3). The paper's text says "2^k clock cycles
//! for calculating the 2^k multiples" and later "2^k − 1"; only 2^k − 2
//! agrees with 2m + 20 (a test shows it). The M~-RAM is filled once when the
//! modulus is loaded and is not counted, like the paper's parameter loading;
//! nor is the drain latency of m + 2 cycles after the last slot (§4.4: it
//! overlaps the next exponentiation).
//!
//! # Exponentiation (Alg. 3.1, §3.2 pre- and post-computation)
//!
//! Right-to-left square-and-multiply for an n-bit exponent (n =
//! `exp.bits()`) in n + 2 slots, `(n+2)(2m+20)` cycles at k = 4 (§4.4; §5.1's
//! `2(n+2)(m+10)`; §5.2's `2·19(m+10)` for F4 = 2^16+1, n = 17):
//!
//! 1. pre-computation: `Z_0 = MONT(X, C)` and `P_0 = MONT(1, C)` in one slot,
//!    `C = 2^(2k(m+2)) mod M` (the paper's pre-computation factor, stored
//!    with the modulus);
//! 2. for i = 0 ..= n−1: `Z_(i+1) = MONT(Z_i, Z_i)` and, where `e_i = 1`,
//!    `P_(i+1) = MONT(P_i, Z_i)` in one slot;
//! 3. post-computation: `MONT(P_n, 1)`.
//!
//! The post-computation's output is at most `M~` (not below `M`: §3.2 is
//! silent on this); the host reduces it modulo M (at most `M' mod 2^k`
//! subtractions of M), which [`Circuit::exponentiate`](crate::Circuit::exponentiate) does.
//!
//! # RSA (§5.2)
//!
//! [`crt_decrypt`] runs `c^(d mod (p−1)) mod p` and `c^(d mod (q−1)) mod q`
//! on two half-size arrays, one after the other (`parallel = false`: one
//! array, cycles add up) or at once (`parallel = true`: two arrays, the
//! longer one counts). `c mod p`, `d mod (p−1)` and the recombination
//! (Garner) are host work the paper does not count.
//!
//! # The radix-2 design of reference \[8\] (`blum-paar-radix2`)
//!
//! Tables 1–4 list, beside each radix-16 figure, the "fastest results"
//! of the authors' earlier radix-2 design, their reference \[8\] (§5). 002
//! gives \[8\]'s cost in one formula only: `2·19(m+4)` cycles for the 17-bit
//! exponent F4 (§5.2), i.e. `n + 2` slots of `2(m+4)` cycles, m the bits of
//! M. [`Design::Radix2`] models it as this array at k = 1 (Alg. 3.2 with
//! `M~ = M`, as M' = 1 at k = 1, m + 3 iterations, `R = 2^(m+2)`) whose
//! slot takes `2(m+4)` cycles: the 2(m+3) of the interleaved iterations
//! and, as our reading (002 does not describe \[8\]'s array, and \[8\] is not
//! among the papers here), two cycles to load B for the two products,
//! where the radix-16 design fills its B-RAM. So the values are the
//! radix-2 Alg. 3.2's, not checked against \[8\] itself; the cycles are
//! §5.2's formula; the clock is Table 1's radix-2 row. The table rows it
//! reproduces are in [`tables`].
//!
//! # Clock (Table 1)
//!
//! [`Circuit::clock_mhz`](crate::Circuit::clock_mhz) is `1000 / T` for Table 1's period `T` of
//! the smallest design (160, 256, 512, 768, 1024 bits) that holds the
//! modulus, the 1024-bit one beyond: the radix-16 row for 002's design, the
//! radix-2 row for \[8\]'s. Table 1 measures k = 4 only; other k report the
//! same clock. Table 4's parallel CRT designs run at the clock of
//! the full-size design (two half-size arrays take the full-size device:
//! 0.79 ms and 3.10 ms need 20.7 ns and 21.9 ns), its serial ones at the
//! half-size design's.
//!
//! # Files
//!
//! One role each: `ram.rs` holds the units' RAMs of multiples (§4.2),
//! `array.rs` the array on one modulus (Alg. 3.2, §4.2–4.3) as a
//! [`Circuit`](crate::Circuit), `exp.rs` the exponentiator (Alg. 3.1, §3.2,
//! §4.4), `crt.rs` the CRT decryption (§5.2) and `tables.rs` the paper's
//! tables.

mod array;
mod crt;
mod exp;
mod ram;
mod tables;

pub use array::{BlumPaar, Design, build, build_radix2};
pub use crt::{crt_decrypt, crt_decrypt_radix2};
pub use tables::{UNMODELLED, tables};

use crate::{Arch, CrtSupport, Paper};

/// The systolic array as the registry lists it: the halves of a CRT
/// decryption run on one array after the other or on two at once (§5.2).
pub static ARCH: Arch = Arch {
    name: "blum-paar",
    paper: Paper::BlumPaar,
    build,
    crt: CrtSupport::SerialOrParallel(crt_decrypt),
};

/// The radix-2 design of the paper's reference \[8\] (see the module docs),
/// with its CRT decryption on half-size arrays as in Table 4.
pub static RADIX2: Arch = Arch {
    name: "blum-paar-radix2",
    paper: Paper::BlumPaar,
    build: build_radix2,
    crt: CrtSupport::SerialOrParallel(crt_decrypt_radix2),
};

/// The paper's digit width: k = 4, radix 16 (§4.1).
pub const DEFAULT_RADIX: u32 = 4;

/// The widest digit the model takes: k = 16 (RAMs of 2^16 words per unit;
/// the paper rules k > 4 out for area and pre-computation time, §4.1).
pub const MAX_RADIX: u32 = 16;

/// The paper's file in `../shared/papers`.
pub const FILE: &str = "002_aa2657bb2bc73547.txt";

/// Table 1, radix 16: design size in bits, CLBs, clock period in ns.
pub(super) const TABLE1: [(usize, u32, f64); 5] = [
    (160, 1219, 20.8),
    (256, 1818, 21.3),
    (512, 3413, 20.7),
    (768, 5071, 20.1),
    (1024, 6633, 21.9),
];

/// Table 1, radix 2 (reference \[8\]): size, CLBs, clock period in ns.
const TABLE1_RADIX2: [(usize, u32, f64); 5] = [
    (160, 951, 17.3),
    (256, 1307, 17.5),
    (512, 2555, 17.7),
    (768, 3745, 19.1),
    (1024, 4865, 19.2),
];

/// The Table 1 row of `design` for the smallest size that holds a
/// `bits`-bit modulus (the 1024-bit row beyond 1024 bits).
pub(super) fn table1_row(design: Design, bits: usize) -> (usize, u32, f64) {
    let rows = match design {
        Design::HighRadix => TABLE1,
        Design::Radix2 => TABLE1_RADIX2,
    };
    rows.into_iter().find(|&(size, _, _)| size >= bits).unwrap_or(rows[4])
}
