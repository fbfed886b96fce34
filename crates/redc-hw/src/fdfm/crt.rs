//! 001 §4 and §5.2: CRT decryption, Steps 1–3 on the core in §5.2.1's
//! serial order with Eq. 10's phases, Step 4 on the host.

use super::datapath::Modulus;
use super::exp::{Counter, Engine, Runner, Tally, alg2, all_ones};
use super::processor::{check_modulus, check_radix, digits_for};
use super::{DIGIT_BITS, NAME};
use crate::{Big, CrtKey, CrtRun, HwError, HwOption, Reg};

/// Eq. 10's phases of one CRT decryption by counting, with `d1` digits for
/// M and the cipher text, `d2` for p and q, and both exponents taken as
/// `exp_bits` one bits. Eq. 10 (Table 2's worst case) is
/// `exp_bits = 17·d2`: every bit of the d2 exponent digits set.
pub fn crt_worst_case(d1: usize, d2: usize, exp_bits: usize) -> Vec<(&'static str, u64)> {
    let ones = all_ones(exp_bits);
    let halves = [
        Half {
            k: (),
            r2: (),
            z: (),
            exp: ones.clone(),
        },
        Half {
            k: (),
            r2: (),
            z: (),
            exp: ones,
        },
    ];
    crt_schedule(
        &mut Counter::default(),
        &d1,
        &(),
        [(&d2, &halves[0]), (&d2, &halves[1])],
    )
    .1
}

/// Why the core has no parallel CRT halves (the reason of
/// [`HwError::Unsupported`] for [`HwOption::Parallel`]).
pub const NO_PARALLEL_CRT: &str = "the FDFM core runs the CRT halves one after the other to save hardware \
     (001 §5.2.1); its parallelism is whole decryptions on separate cores (§5.3)";

/// CRT decryption `c^d mod n` as §5.2 runs it (Steps 1–4, Eq. 10), serially
/// on one core: C_p, C_q, P_p, P_q, S_p, S_q, then Step 4 on the host.
///
/// The core's digits are d1 = [`digits_for`]`(bits(n))` and
/// d2 = [`digits_for`]`(max(bits(p), bits(q)))`. The host precomputes, as
/// the paper does "beforehand": `R_p^2 mod p` with `R_p = 2^(17·d1)`, the
/// Montgomery constant `2^(34·d2) mod p`, `Z_p = q^(p−1) mod n`,
/// `D_p = d mod (p−1)` (taken as p−1 when that is 0 and d > 0, so that
/// `c ≡ 0 (mod p)` still gives 0), and the same for q. Per half the core runs
///
/// 1. Step 1, `C_p`: `T = MM(R_p^2 mod p, C)` then `MM(1, T)`, both with the
///    outer loop over the d1 digits of the cipher-text slot and the inner
///    loop over p's d2 digits: Eq. 10's `(2d2d1 + 8d1 + 4)` and
///    `(2d1d2 + 8d1 + 4)`; the result is `C mod p`, at most p;
/// 2. Step 2, `P_p = C_p^(D_p) mod p` by Alg. 2 on d2 digits
///    (`2·|D_p| + 3` products in the worst case);
/// 3. Step 3, `P_p` back into Montgomery form, `MM(2^(34·d2) mod p, P_p)`
///    (d2 × d2: the fourth product of Eq. 10's `(2d2·17 + 4)`), then
///    `S_p = MM(Z_p, ·)` modulo M, inner loop over M's d1 digits, outer over
///    d2: Eq. 10's `(2d1d2 + 8d2 + 4)`. Since q divides Z_p, the Montgomery
///    form modulo p is enough: `S_p ≡ P_p·Z_p (mod M)`, `S_p < 1.25·M`.
///
/// This is the one reading of Eq. 10 whose products are all valid Alg. 3
/// products (the inner loop covers the modulus' digits) and compute
/// `c^d mod n`: matching Eq. 10's polynomial term by term, each half needs
/// 17·2·d2 + 4 products of d2 × d2 digits, two with the inner loop over d2
/// and the outer over d1 (only Step 1's products modulo p with the d1-digit
/// cipher text fit), and one with the inner loop over d1 and the outer over
/// d2 (the product with Z_p modulo M). The text's Step 3 "P_p with R^2 mod M,
/// then Z_p, then 1" is three products modulo M; Eq. 10 has room for one,
/// and the "× 1" would leave a factor 2^(−17·d2) in S_p.
///
/// `loaded`: the core's constant for M, `minv` = −M^(−1) mod 2^17 (Alg. 2's
/// "−M^(−1) given beforehand"), then per half (p first): `dp = d mod (p−1)`
/// (p−1 if that is 0), `minvp` = −p^(−1) mod 2^17, `kp = R_p^2 mod p`,
/// `r2p = 2^(34·d2) mod p` and `zp = Z_p`.
///
/// Step 4 (`P = S_p + S_q`) is not on the core ("in our implementation, the
/// first 3 steps are processed") and takes no core cycles: the host adds and
/// subtracts M until the sum is below M (at most twice, as `S_p, S_q` may
/// exceed M; the paper's single subtraction assumes them reduced).
///
/// Preconditions: `key` is an RSA key (p, q distinct odd primes). Errors:
/// `HwError::Radix` unless `radix` is `None` or `Some(17)`;
/// `HwError::Unsupported` for `parallel` (the core runs the halves serially
/// to save hardware, §5.2.1; the multicore system parallelises whole
/// decryptions, see [`Circuit::parallel_cycles`](crate::Circuit::parallel_cycles)); `HwError::Modulus` when
/// n, p, q are not odd, at least 3, distinct, with `p·q = n` and
/// `Z_p ≡ 1 (mod p)`, `Z_q ≡ 1 (mod q)`; `HwError::Operand` for `c >= n`.
pub fn crt_decrypt(key: &CrtKey, c: &Big, radix: Option<u32>, parallel: bool) -> Result<CrtRun, HwError> {
    check_radix(radix)?;
    if parallel {
        return Err(HwError::Unsupported {
            option: Some(HwOption::Parallel),
            reason: NO_PARALLEL_CRT.into(),
        });
    }
    let (n, p, q) = (&key.n, &key.p, &key.q);
    check_modulus(n, "n")?;
    check_modulus(p, "p")?;
    check_modulus(q, "q")?;
    if p == q || p.mul(q) != *n {
        return Err(HwError::Modulus(format!(
            "{NAME}: p and q must be distinct with p·q = n"
        )));
    }
    if c >= n {
        return Err(HwError::Operand {
            name: "c",
            bound: "n".into(),
        });
    }
    let d1 = digits_for(n.bits());
    let d2 = digits_for(p.bits().max(q.bits()));
    let (mn, mp, mq) = (Modulus::new(n, d1), Modulus::new(p, d2), Modulus::new(q, d2));
    let hp = host_half(key, p, q, &mp, d1)?;
    let hq = host_half(key, q, p, &mq, d1)?;
    let mut runner = Runner::default();
    let (sums, mut phases) = crt_schedule(&mut runner, &mn, c, [(&mp, &hp), (&mq, &hq)]);
    // Step 4 on the host.
    let mut value = sums[0].add(&sums[1]);
    while let Some(smaller) = value.checked_sub(n) {
        value = smaller;
    }
    phases.push(("step 4: P = Sp + Sq mod M (host, no core cycles)", 0));
    let minv = |m: &Modulus| Big::from_u64(u64::from(m.minv));
    let mut loaded = vec![Reg {
        name: "minv",
        bits: DIGIT_BITS as usize,
        value: minv(&mn),
    }];
    let halves = [
        (p, &hp, minv(&mp), ["dp", "minvp", "kp", "r2p", "zp"]),
        (q, &hq, minv(&mq), ["dq", "minvq", "kq", "r2q", "zq"]),
    ];
    for (prime, h, minv, names) in halves {
        let (pb, digit) = (prime.bits(), DIGIT_BITS as usize);
        let values = [(pb, &h.exp), (digit, &minv), (pb, &h.k), (pb, &h.r2), (n.bits(), &h.z)];
        for (name, (bits, value)) in names.into_iter().zip(values) {
            loaded.push(Reg {
                name,
                bits,
                value: value.clone(),
            });
        }
    }
    Ok(CrtRun {
        value,
        cycles: runner.tally.cycles,
        phases,
        loaded,
    })
}

/// The cycles of all `phases` together.
pub(super) fn total(phases: &[(&'static str, u64)]) -> u64 {
    phases.iter().map(|(_, c)| c).sum()
}

/// One half of the CRT schedule's host-loaded constants (for p; q alike).
struct Half<V> {
    /// `R_p^2 mod p` with `R_p = 2^(17·d1)`.
    k: V,
    /// `2^(34·d2) mod p`.
    r2: V,
    /// `Z_p = q^(p−1) mod M`.
    z: V,
    /// `D_p`.
    exp: Big,
}

/// The host's precomputation for the half of prime `p` (other prime `o`).
fn host_half(key: &CrtKey, p: &Big, o: &Big, mp: &Modulus, d1: usize) -> Result<Half<Big>, HwError> {
    let one = Big::one();
    let p1 = p.checked_sub(&one).unwrap_or_default();
    let z = crate::reference::modpow(o, &p1, &key.n);
    if crate::reference::reduce(&z, p) != one {
        return Err(HwError::Modulus(format!(
            "{NAME}: the CRT coefficient (other prime)^(p−1) mod n is not 1 mod p for p = 0x{}: \
             p and q must be distinct primes",
            p.to_hex()
        )));
    }
    let exp = crate::reference::reduce(&key.d, &p1);
    let exp = if exp.is_zero() && !key.d.is_zero() { p1 } else { exp };
    let k = crate::pow2_mod(2 * DIGIT_BITS as usize * d1, p);
    Ok(Half {
        k,
        r2: mp.r2.clone(),
        z,
        exp,
    })
}

/// Phase names, per half, in Eq. 10's terms.
const PHASES: [[&str; 5]; 2] = [
    [
        "step 1: T = Rp^2*C mod p [2d2d1+8d1+4]",
        "step 1: Cp = 1*T mod p [2d1d2+8d1+4]",
        "step 2: Pp = Cp^Dp mod p, Alg. 2 [(2d2^2+8d2+4)(2|Dp|+3)]",
        "step 3: Pp to Montgomery form mod p [(2d2^2+8d2+4), the 4th of +4]",
        "step 3: Sp = Zp*Pp mod M [2d1d2+8d2+4]",
    ],
    [
        "step 1: T = Rq^2*C mod q [2d2d1+8d1+4]",
        "step 1: Cq = 1*T mod q [2d1d2+8d1+4]",
        "step 2: Pq = Cq^Dq mod q, Alg. 2 [(2d2^2+8d2+4)(2|Dq|+3)]",
        "step 3: Pq to Montgomery form mod q [(2d2^2+8d2+4), the 4th of +4]",
        "step 3: Sq = Zq*Pq mod M [2d1d2+8d2+4]",
    ],
];

/// Phase cycles, each the cycles since the previous mark.
#[derive(Default)]
struct Phases {
    list: Vec<(&'static str, u64)>,
    seen: u64,
}

impl Phases {
    fn mark(&mut self, name: &'static str, tally: &Tally) {
        self.list.push((name, tally.cycles - self.seen));
        self.seen = tally.cycles;
    }
}

/// Steps 1–3 of §4 in §5.2.1's serial order (C_p, C_q, P_p, P_q, S_p, S_q)
/// with modulus M (`n`) and cipher text `c` below M: returns `[S_p, S_q]`
/// and the cycles of each phase, named by [`PHASES`] (see [`crt_decrypt`]).
///
/// Pre: p and q have at most `17·d2 − 3` bits, M at most `17·d1 − 3`, the
/// constants are those of [`host_half`]. Post: `S_p ≡ P_p·Z_p (mod M)`,
/// `S_p < 1.25·M`, and alike for q.
fn crt_schedule<E: Engine>(
    e: &mut E,
    n: &E::Mod,
    c: &E::Val,
    halves: [(&E::Mod, &Half<E::Val>); 2],
) -> (Vec<E::Val>, Vec<(&'static str, u64)>) {
    let d1 = E::digits(n);
    let one = e.one();
    let mut ph = Phases::default();
    let mut cs = Vec::with_capacity(2);
    for (names, (m, h)) in PHASES.iter().zip(halves) {
        let t = e.mm(&h.k, c, m, d1);
        ph.mark(names[0], e.tally());
        cs.push(e.mm(&one, &t, m, d1));
        ph.mark(names[1], e.tally());
    }
    let mut ps = Vec::with_capacity(2);
    for ((names, (m, h)), cp) in PHASES.iter().zip(halves).zip(&cs) {
        ps.push(alg2(e, m, &h.r2, cp, &h.exp));
        ph.mark(names[2], e.tally());
    }
    let mut ss = Vec::with_capacity(2);
    for ((names, (m, h)), pp) in PHASES.iter().zip(halves).zip(&ps) {
        let d2 = E::digits(m);
        let mont = e.mm(&h.r2, pp, m, d2);
        ph.mark(names[3], e.tally());
        ss.push(e.mm(&h.z, &mont, n, d2));
        ph.mark(names[4], e.tally());
    }
    (ss, ph.list)
}
