//! Garg and Vig, "An Efficient Montgomery Multiplication Algorithm and RSA
//! Cryptographic Processor": `../shared/papers/003_4c508dab9c4d2fd2.txt`.
//!
//! Two carry-save Montgomery multipliers and the RSA processor built on them:
//!
//! * [`RADIX2`] (`csa-radix2`): §II Algorithm I (McIvor et al., ref. 3), radix 2, one
//!   four-to-two carry-save adder (CSA) per iteration, the multiplexer
//!   choosing 0, n, B or D = B + n;
//! * [`RADIX4`] (`csa-radix4`): §III Algorithm II (Kamala and Shrinivas, ref. 9),
//!   "multi-bit shifting": two bits of A per iteration, a four-to-two CSA
//!   adding 0, B, 2B or 3B, then a three-to-two CSA adding 0, n, 2n or 3n;
//! * [`Circuit::exponentiate`](crate::Circuit::exponentiate): §IV Algorithm III, right-to-left
//!   square-and-multiply with every operand kept in carry-save form.
//!
//! # Size parameter and operand range
//!
//! `k` is the bit length of n (§II: "'n' is a 'k'-bit modulus"; Tables I and
//! II index their rows by it). Operands and results are carry-save pairs
//! (X1, X2) standing for X1 + X2, and the circuits never subtract n: inputs
//! below 2n give outputs below 2n when R = 2^r > 4n (Walter's bound). For a
//! k-bit n that needs r = k + 2, so:
//!
//! * Alg. I runs k + 2 iterations (i = 0..k+1; the paper prints
//!   `for i in 0 to k-1` but claims k + 2 clock cycles), r = k + 2;
//! * Alg. II runs ⌈k/2⌉ + 1 iterations (the paper prints ⌈k/2⌉), r = 2⌈k/2⌉ + 2
//!   (k + 2 for even k, k + 3 for odd k).
//!
//! [`operand_bound`](crate::Circuit::operand_bound) is 2n for both; the output
//! equals [`mont_product_exact`](crate::reference::mont_product_exact)`(a, b, n, r)`.
//!
//! # What differs from the printed algorithms
//!
//! The text was extracted from a PDF; every reading below was checked
//! against the reference arithmetic (tests/carry_save.rs shows each one):
//!
//! * Alg. I's four `if` lines are printed identically (`Ai = 0 and qi = 0`,
//!   adding 0 + 0); the four cases are (Ai, qi) = 00, 01, 10, 11 adding
//!   0, n, (B1, B2) and (D1, D2).
//! * Alg. II step 2a maps `{a2i+1, a2i} == 10` to B and `01` to {B, 0} = 2B:
//!   swapped (step 2d maps `01` to n and `10` to {n, 0}); the model adds
//!   digit · B.
//! * Alg. II step 2c takes `{q2i+1, q2i}` = S mod 4, the quotient digit only
//!   when n ≡ 3 (mod 4) (then −n⁻¹ ≡ 1). The model keeps 2c and wires the 2d
//!   multiplexer for the modulus: its input j is (j · n′ mod 4) · n with
//!   n′ = −n⁻¹ mod 4, which is the paper's 0, n, 2n, 3n for n ≡ 3 (mod 4) and
//!   0, 3n, 2n, n for n ≡ 1 (mod 4), at no extra delay.
//! * Alg. II step 2f selects `S[i+1]k-1:2`, k-bit registers, but the partial
//!   sums reach 3n (k + 2 bits); the model's S registers are k + 2 bits wide.
//!
//! # Carry-save conventions
//!
//! `CSR(w + x + y + z)` is two rows of full adders, FA(w, x, y) and then FA of
//! their sum, carry and z; `CSR(x + y + z)` is one row. The first output of a
//! CSR is the carry vector (least significant bit 0), the second the sum
//! vector: Alg. II step 2c needs that (q2i = S2[i+1]0 is the total's low bit
//! only if S1's is 0), and the model uses it throughout. The bits of A come
//! from a serial adder on the low bits of (A1, A2) with a carry flip-flop,
//! A1 and A2 shifted right each iteration (§II, §III Figure 2); it runs in
//! parallel with the CSAs and takes no cycle.
//!
//! # Alg. III
//!
//! The printed loop `for i in 0 to dk` ends in `R1[k], R2[k]`, so it runs
//! i = 0..t−1 over the t bits of the exponent: 002_aa2657bb2bc73547.txt
//! Alg. 3.1 (P squared every iteration, R multiplied by the old P when the
//! bit is 1, both at once on two multipliers). `P[0]` and `R[0]` take one
//! product time each, as listed, and `MontMult(1, R)` one more: t + 3 product
//! times, which is what Table II's throughputs imply for e = 2^16 + 1 (20).
//! K is R² mod n = 2^(2r) mod n (the paper's 2^(2k) fits only its printed
//! k-iteration product). `M = M1 + M2` is at most n; the host maps n to 0.
//!
//! # Cycles
//!
//! One iteration is one clock: §II and §III give each iteration's whole
//! critical path (6X + M + A and 9X + 2M + A) as one cycle, and count the
//! pre-computation of D = B + n or 3B as 4 XOR delays, not a cycle. Alg. I
//! thus takes k + 2 cycles, as the paper says; Alg. II takes ⌈k/2⌉ + 1, not
//! the k + 1 the paper claims (see [`tables`]).
//!
//! # Files
//!
//! One role each: `adders.rs` holds the bit-level carry-save adders and the
//! serial adder feeding A's digits (§II Figure 1, §III Figure 2),
//! `multiplier.rs` Alg. I and Alg. II on one modulus as a
//! [`Circuit`](crate::Circuit), `exp.rs` the RSA processor (Alg. III, §IV),
//! `delay.rs` the critical paths (§III), `synthesis.rs` Tables I and II as
//! printed (the clocks the models take) and `tables.rs` the tables beside
//! the model's counts.

mod adders;
mod delay;
mod exp;
mod multiplier;
mod synthesis;
mod tables;

pub use delay::GateDelay;
pub use multiplier::{CarrySave, Pair, PairRun, build};
pub use tables::{UNMODELLED, tables};

use crate::{Arch, CrtSupport, Paper};

/// The paper's file in `../shared/papers`.
pub const FILE: &str = "003_4c508dab9c4d2fd2.txt";

/// Alg. I, the radix-2 carry-save multiplier, as the registry lists it.
pub static RADIX2: Arch = Arch {
    name: "csa-radix2",
    paper: Paper::CarrySave,
    build: |n, radix| build(&RADIX2, n, radix),
    crt: CrtSupport::Unmodelled,
};

/// Alg. II, the radix-4 carry-save multiplier, as the registry lists it.
pub static RADIX4: Arch = Arch {
    name: "csa-radix4",
    paper: Paper::CarrySave,
    build: |n, radix| build(&RADIX4, n, radix),
    crt: CrtSupport::Unmodelled,
};
