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
//! * Operand bound 2N, R = 2^{km}: [`Circuit::multiply`] returns exactly
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
//! [`Circuit::exponentiate`] runs Algorithm 2 (§4.3, left-to-right square and
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

use redc::kernel::consts::neg_inv;

use crate::{Arch, Big, Circuit, CrtSupport, Entry, ExpRun, HwError, Paper, ProductRun, Reg, Step, Table};

const PAPER: &str = "004_b65c74827168229f.txt";

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

/// Which of the paper's two arrays a [`Perin`] models.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Layout {
    /// §4.1: m processing elements, two multipliers each.
    Systolic,
    /// §4.2: arithmetic cores of four PEs sharing one multiplier block.
    Multiplexed,
}

impl Layout {
    /// The layout of `arch`, if it is one of this paper's.
    fn of(arch: &Arch) -> Option<Self> {
        if *arch == SYSTOLIC {
            Some(Self::Systolic)
        } else if *arch == MULTIPLEXED {
            Some(Self::Multiplexed)
        } else {
            None
        }
    }

    /// The registry entry.
    fn arch(self) -> &'static Arch {
        match self {
            Self::Systolic => &SYSTOLIC,
            Self::Multiplexed => &MULTIPLEXED,
        }
    }

    /// The per-word pipeline.
    fn pipeline(self) -> &'static Pipeline {
        match self {
            Self::Systolic => &SYSTOLIC_PE,
            Self::Multiplexed => &MULTIPLEXED_CORE,
        }
    }
}

/// Cycles from addressing a block-RAM word to the first cycle it can be
/// used (address in t, latched at the end of t + 1).
const BRAM_LATENCY: u64 = 2;

/// The deepest per-word pipeline (the multiplexed core's).
const MAX_STAGES: usize = 4;

/// Words one arithmetic core serves (four PEs, §4.2).
const CORE_WORDS: usize = 4;

/// The exponentiation algorithm of [`Perin::exponent_cycles`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Method {
    /// Algorithm 2: left-to-right square and multiply (§4.3).
    SquareMultiply,
    /// The Montgomery powering ladder of §6, both products of a bit on two
    /// multipliers at once.
    Ladder,
}

/// Cycles of one exponentiation, split as the paper counts them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ExpCycles {
    /// X̄ = mont(X, R² mod N) and the final mont(A, 1).
    pub pre_post: u64,
    /// The loop over the exponent bits (what Table 2 and §6 count).
    pub main_loop: u64,
}

impl ExpCycles {
    /// All cycles.
    pub fn total(&self) -> u64 {
        self.pre_post + self.main_loop
    }
}

/// One of the paper's two multipliers loaded with a modulus.
#[derive(Debug, Clone)]
pub struct Perin {
    layout: Layout,
    n: Big,
    /// Radix 2^k.
    k: u32,
    /// Words (and PEs, and iterations).
    m: usize,
    /// N in k-bit words (the PE registers or the cores' RAMs).
    n_words: Vec<u64>,
    /// N' = −N^{−1} mod 2^k.
    n_prime: u64,
    /// R mod N and R² mod N, from the host.
    r_mod_n: Big,
    r2_mod_n: Big,
    /// n_MM, from one walk of the schedule at construction.
    cycles: u64,
}

/// The per-word pipeline of one architecture.
struct Pipeline {
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
enum Event {
    /// The quotient block computes q_i.
    Quotient(usize),
    /// Word j (PE j+1) finishes its part of the current iteration.
    Word(usize),
    /// Iteration i is complete.
    Done(usize),
}

/// One exponentiation step, each one product slot of n_MM cycles.
#[derive(Clone, Copy)]
enum Op {
    /// X̄ = mont(X, R² mod N) (and A = R mod N loaded).
    Enter,
    /// A = mont(A, A).
    Square,
    /// A = mont(A, X̄).
    Multiply,
    /// One ladder bit: two products on two multipliers at once.
    Ladder(bool),
    /// A = mont(A, 1).
    Leave,
}

/// Builds a model of `arch` ([`SYSTOLIC`] or [`MULTIPLEXED`]) for the
/// odd modulus `n >= 3`; `radix` is k (`None` → 16).
pub fn build(arch: &Arch, n: &Big, radix: Option<u32>) -> Result<Box<dyn Circuit>, HwError> {
    Ok(Box::new(Perin::new(arch, n, radix)?))
}

impl Perin {
    /// The model of `arch` for the odd modulus `n >= 3` in radix 2^k,
    /// k = `radix` (16 or 32; `None` → 16). Sizes as in the module docs.
    pub fn new(arch: &Arch, n: &Big, radix: Option<u32>) -> Result<Self, HwError> {
        let Some(layout) = Layout::of(arch) else {
            return Err(HwError::unsupported(format!(
                "{} is not an architecture of the perin paper",
                arch.name()
            )));
        };
        let k = radix.unwrap_or(16);
        if k != 16 && k != 32 {
            return Err(HwError::Radix {
                arch: arch.name(),
                radix: k,
                allowed: "16 or 32",
            });
        }
        if !n.is_odd() || n.is_one() {
            return Err(HwError::Modulus(format!("{} needs an odd modulus n >= 3", arch.name())));
        }
        let words = (n.bits() + 2).div_ceil(k as usize).max(2);
        let m = match layout {
            Layout::Multiplexed => words.div_ceil(CORE_WORDS) * CORE_WORDS,
            Layout::Systolic => words,
        };
        let r = k as usize * m;
        let modulus_error = || HwError::Modulus("zero modulus".into());
        let mut model = Self {
            layout,
            n: n.clone(),
            k,
            m,
            n_words: to_words(n, k, m),
            n_prime: neg_inv(n.digits()[0], k),
            r_mod_n: Big::pow2(r).rem(n).ok_or_else(modulus_error)?,
            r2_mod_n: Big::pow2(2 * r).rem(n).ok_or_else(modulus_error)?,
            cycles: 0,
        };
        model.cycles = model.walk(|_| {});
        Ok(model)
    }

    /// Number of arithmetic cores of the multiplexed array (m/4), `None` for
    /// the systolic one.
    pub fn arithmetic_cores(&self) -> Option<usize> {
        (self.layout == Layout::Multiplexed).then_some(self.m / CORE_WORDS)
    }

    /// `base^exp mod n` with the Montgomery powering ladder (§6, Joye–Yen):
    /// R0 = R mod N, R1 = X̄ = mont(X, R² mod N); for each bit from the top,
    /// bit 0: R1 = mont(R0, R1), R0 = mont(R0, R0); bit 1: R0 = mont(R0, R1),
    /// R1 = mont(R1, R1); then mont(R0, 1). The two products of a bit run on
    /// two multipliers at once, so a bit costs one product's cycles.
    ///
    /// Preconditions: `base < n` ([`HwError::Operand`] otherwise). The
    /// result is fully reduced; `products` counts both products of each bit.
    pub fn ladder(&self, base: &Big, exp: &Big) -> Result<ExpRun, HwError> {
        self.run_exponentiation(base, exp, Method::Ladder)
    }

    /// Cycles of `base^exp` with `method`, by the same walk over the
    /// exponent's bits as the exponentiation itself, one product slot of
    /// [`Circuit::product_cycles`] per step (no product is run).
    pub fn exponent_cycles(&self, exp: &Big, method: Method) -> ExpCycles {
        let mut c = ExpCycles {
            pre_post: 0,
            main_loop: 0,
        };
        for op in self.program(exp, method) {
            match op {
                Op::Enter | Op::Leave => c.pre_post += self.cycles,
                Op::Square | Op::Multiply | Op::Ladder(_) => c.main_loop += self.cycles,
            }
        }
        c
    }

    /// Bits of the operand block RAMs: A and B (m words each) for both, plus
    /// the cores' 8×k-bit RAMs of B and N words in the multiplexed array.
    fn ram_bits(&self) -> usize {
        let operands = 2 * self.m * self.k as usize;
        operands
            + self
                .arithmetic_cores()
                .map_or(0, |c| c * 2 * CORE_WORDS * self.k as usize)
    }

    /// Walks one product's schedule (module docs) in program order, telling
    /// `visit` each step, and returns the cycles it takes.
    fn walk(&self, mut visit: impl FnMut(Event)) -> u64 {
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

    /// The steps of `method` for `exp`: Enter, the loop from bit
    /// max(bits(N), bits(exp)) − 1 down to 0, Leave (Algorithm 2 / §6).
    fn program(&self, exp: &Big, method: Method) -> Vec<Op> {
        let bits = self.n.bits().max(exp.bits());
        let mut ops = vec![Op::Enter];
        for i in (0..bits).rev() {
            let e = exp.bit(i);
            match method {
                Method::SquareMultiply => {
                    ops.push(Op::Square);
                    if e {
                        ops.push(Op::Multiply);
                    }
                }
                Method::Ladder => ops.push(Op::Ladder(e)),
            }
        }
        ops.push(Op::Leave);
        ops
    }

    /// Runs `method`'s program with the circuit's products (Algorithm 2 or
    /// the §6 ladder); cycles are the products' own counts, the larger of
    /// the two for a ladder bit.
    fn run_exponentiation(&self, base: &Big, exp: &Big, method: Method) -> Result<ExpRun, HwError> {
        check(base, &self.n, "base", "n")?;
        let mut run = ExpRun {
            value: Big::zero(),
            cycles: 0,
            products: 0,
        };
        let mont = |x: &Big, y: &Big, run: &mut ExpRun| -> Result<ProductRun, HwError> {
            let p = self.multiply(x, y, None)?;
            run.products += 1;
            Ok(p)
        };
        // A (R0 of the ladder) and X̄ (R1).
        let (mut a, mut x_bar) = (self.r_mod_n.clone(), Big::zero());
        for op in self.program(exp, method) {
            match op {
                Op::Enter => {
                    let p = mont(base, &self.r2_mod_n, &mut run)?;
                    run.cycles += p.cycles;
                    x_bar = p.value;
                }
                Op::Square | Op::Multiply | Op::Leave => {
                    let y = match op {
                        Op::Square => a.clone(),
                        Op::Multiply => x_bar.clone(),
                        _ => Big::one(),
                    };
                    let p = mont(&a, &y, &mut run)?;
                    run.cycles += p.cycles;
                    a = p.value;
                }
                Op::Ladder(e) => {
                    let mixed = mont(&a, &x_bar, &mut run)?;
                    let square = if e {
                        mont(&x_bar, &x_bar, &mut run)?
                    } else {
                        mont(&a, &a, &mut run)?
                    };
                    run.cycles += mixed.cycles.max(square.cycles);
                    (a, x_bar) = if e {
                        (mixed.value, square.value)
                    } else {
                        (square.value, mixed.value)
                    };
                }
            }
        }
        // mont(A, 1) <= N, = N only for A ≡ 0: the host's subtraction.
        run.value = a.checked_sub(&self.n).unwrap_or(a);
        Ok(run)
    }
}

/// The state of the datapath during one product (registers of §4).
struct Datapath<'a> {
    model: &'a Perin,
    mask: u64,
    /// The words of A (read one per iteration) and B (in the PEs / cores).
    a: Vec<u64>,
    b: Vec<u64>,
    /// S_i, one word per PE.
    s: Vec<u64>,
    a_i: u64,
    q_i: u64,
    /// Carry registers of each word: systolic C; multiplexed C_SaB, C_qN,
    /// C_PE.
    carries: Vec<Vec<u64>>,
}

impl Datapath<'_> {
    /// Quotient block (§4.1.3, Figure 5; Algorithm 1 line 3):
    /// q_i = ((S^0 + a_i·b_0 mod 2^k)·N') mod 2^k.
    fn quotient(&mut self, i: usize) {
        self.a_i = self.a[i];
        let low = (self.a_i * self.b[0]) & self.mask;
        self.q_i = (((self.s[0] + low) & self.mask) * self.model.n_prime) & self.mask;
    }

    /// Word j of S_{i+1} = (S_i + q_i·N + a_i·B)/2^k (Algorithm 1 line 4):
    /// PE j+1 writes word j−1 of S_{i+1} (PE1 discards its zero word); PE_m
    /// also writes word m−1 from its carries.
    fn word(&mut self, j: usize) {
        let (k, mask, m) = (self.model.k, self.mask, self.model.m);
        let (a_i, q_i, b_j, n_j, s_j) = (self.a_i, self.q_i, self.b[j], self.model.n_words[j], self.s[j]);
        let carry_in = |c: &[u64]| if j == 0 { 0 } else { c[j - 1] };
        let (word, top) = match self.model.layout {
            Layout::Multiplexed => {
                // Multiplier block (Figure 9): S_i + a_i·B and q_i·N, k-bit carries.
                let sab = s_j + a_i * b_j + carry_in(&self.carries[0]);
                let qn = q_i * n_j + carry_in(&self.carries[1]);
                // PE (Figure 10): the two low words and a one-bit carry.
                let pe = (sab & mask) + (qn & mask) + carry_in(&self.carries[2]);
                let c = [sab >> k, qn >> k, pe >> k];
                for (reg, value) in self.carries.iter_mut().zip(c) {
                    reg[j] = value;
                }
                (pe & mask, c[0] + c[1] + c[2])
            }
            Layout::Systolic => {
                // Systolic PE (Figure 2): low product words added, then S_j and the carry.
                let (ab, qn) = (a_i * b_j, q_i * n_j);
                let x = (ab & mask) + (qn & mask);
                let y = (x & mask) + s_j + carry_in(&self.carries[0]);
                let c = (ab >> k) + (qn >> k) + (x >> k) + (y >> k);
                self.carries[0][j] = c;
                (y & mask, c)
            }
        };
        if j > 0 {
            self.s[j - 1] = word;
        }
        if j == m - 1 {
            self.s[j] = top;
        }
    }

    /// The registers after an iteration, in a fixed order.
    fn regs(&self) -> Vec<Reg> {
        let (k, m) = (self.model.k as usize, self.model.m);
        let word = |name, value| Reg {
            name,
            bits: k,
            value: Big::from_u64(value),
        };
        let mut regs = vec![word("a_i", self.a_i), word("q_i", self.q_i)];
        let carry_regs: &[(&'static str, usize)] = match self.model.layout {
            Layout::Multiplexed => &[("C_SaB", k), ("C_qN", k), ("C_PE", 1)],
            Layout::Systolic => &[("C", k + 1)],
        };
        for (&(name, w), c) in carry_regs.iter().zip(&self.carries) {
            regs.push(Reg {
                name,
                bits: w * m,
                value: pack(c, w),
            });
        }
        regs.push(Reg {
            name: "S",
            bits: k * m,
            value: pack(&self.s, k),
        });
        regs
    }
}

impl Circuit for Perin {
    fn arch(&self) -> &'static Arch {
        self.layout.arch()
    }

    fn modulus(&self) -> &Big {
        &self.n
    }

    fn digit_bits(&self) -> u32 {
        self.k
    }

    fn digits(&self) -> usize {
        self.m
    }

    fn r_log2(&self) -> usize {
        self.k as usize * self.m
    }

    /// 2N (Algorithm 1: A, B < 2N; the output is below 2N as 4N < R).
    fn operand_bound(&self) -> Big {
        self.n.shl(1)
    }

    /// Algorithm 1 on the circuit: m iterations, each the quotient block then
    /// the m words in order. Preconditions: a, b < 2N. Postcondition: the
    /// value is `mont_product_exact(a, b, N, k·m)` < 2N. One trace step per
    /// iteration: a_i, q_i (k bits), the carry registers of all words
    /// (word j at bit j·w) and S_{i+1} (k·m bits).
    fn multiply(&self, a: &Big, b: &Big, mut trace: Option<&mut Vec<Step>>) -> Result<ProductRun, HwError> {
        let bound = self.operand_bound();
        check(a, &bound, "a", "2n")?;
        check(b, &bound, "b", "2n")?;
        let carry_regs = if self.layout == Layout::Multiplexed { 3 } else { 1 };
        let mut dp = Datapath {
            model: self,
            mask: (1u64 << self.k) - 1,
            a: to_words(a, self.k, self.m),
            b: to_words(b, self.k, self.m),
            s: vec![0; self.m],
            a_i: 0,
            q_i: 0,
            carries: vec![vec![0; self.m]; carry_regs],
        };
        let cycles = self.walk(|event| match event {
            Event::Quotient(i) => dp.quotient(i),
            Event::Word(j) => dp.word(j),
            Event::Done(i) => {
                if let Some(t) = trace.as_deref_mut() {
                    t.push(Step {
                        iteration: i,
                        regs: dp.regs(),
                    });
                }
            }
        });
        Ok(ProductRun {
            value: pack(&dp.s, self.k as usize),
            cycles,
        })
    }

    /// n_MM: 6m (systolic, §4.1) or 8m (multiplexed, §4.2), as counted by the
    /// schedule walk.
    fn product_cycles(&self) -> u64 {
        self.cycles
    }

    /// Algorithm 2 (left-to-right square and multiply) with X̄ = mont(X,
    /// R² mod N) before and mont(A, 1) after; see the module docs.
    fn exponentiate(&self, base: &Big, exp: &Big) -> Result<ExpRun, HwError> {
        self.run_exponentiation(base, exp, Method::SquareMultiply)
    }

    /// Table 1, Virtex-5.
    fn clock_mhz(&self) -> f64 {
        match (self.layout, self.k) {
            (Layout::Systolic, 16) => 130.0,
            (Layout::Systolic, _) => 95.0,
            (_, 16) => 120.0,
            _ => 90.0,
        }
    }
}

/// `Ok` if `x < bound`, else the operand error for `name`.
fn check(x: &Big, bound: &Big, name: &'static str, bound_name: &str) -> Result<(), HwError> {
    if x < bound {
        Ok(())
    } else {
        Err(HwError::Operand {
            name,
            bound: bound_name.into(),
        })
    }
}

/// `x` as `m` words of `k` bits (high words beyond m dropped; callers keep
/// x below 2^{km}).
fn to_words(x: &Big, k: u32, m: usize) -> Vec<u64> {
    let digits = x.to_digits_padded((m * k as usize).div_ceil(64));
    let per = 64 / k as usize;
    (0..m)
        .map(|j| (digits[j / per] >> ((j % per) * k as usize)) & ((1u64 << k) - 1))
        .collect()
}

/// The number whose `w`-bit fields are `values` (field j at bit j·w).
fn pack(values: &[u64], w: usize) -> Big {
    let mut digits = vec![0u64; (values.len() * w).div_ceil(64) + 1];
    for (j, &v) in values.iter().enumerate() {
        let (d, off) = (j * w / 64, j * w % 64);
        digits[d] |= v << off;
        if off + w > 64 {
            digits[d + 1] |= v >> (64 - off);
        }
    }
    Big::from_digits(digits)
}

/// The paper's tables beside the model: Table 1 (cycles and block RAM per
/// multiplier) and Table 2 (RSA decryption, with §6's ladder).
pub fn tables() -> Vec<Table> {
    vec![table1(), table2()]
}

/// A model with m = n/k words: the largest modulus that fits, of n − 2 bits.
fn paper_size(arch: &Arch, n: usize, k: u32) -> Perin {
    let modulus = Big::pow2(n - 2).checked_sub(&Big::one()).unwrap_or_default();
    Perin::new(arch, &modulus, Some(k)).expect("a valid configuration")
}

fn table1() -> Table {
    let mut t = Table::new(
        format!("{PAPER} Table 1"),
        "Proposed architectures synthesis: clock cycles per product",
    );
    let size = t.note(
        "The model is built for a modulus of n − 2 bits, the largest for which Table 1's m = n/k words satisfy \
         4N < R = 2^n (Walter's condition for outputs below 2N without final subtraction); cycles 6m (systolic) \
         and 8m (multiplexed) counted by the schedule walk, block RAM = the A and B operand RAMs (2·k·m bits) plus, \
         multiplexed, the cores' 8×k-bit RAMs (m/4 · 8k bits).",
    );
    let full = t.note(
        "Not in the paper: a full n-bit modulus needs m = ⌈(n+2)/k⌉ words (rounded up to whole cores of four \
         words in the multiplexed array) so that 4N < R: n=512, k=16: m=33 → 6·33 = 198 (systolic), m=36 → 8·36 = \
         288 (multiplexed); k=32: m=17 → 102, m=20 → 160; n=1024, k=16: m=65 → 390, m=68 → 544; k=32: m=36 → 288.",
    );
    let cores = t.note(
        "Not in the paper: §4.2 says the array has \"exactly k/4 arithmetic cores\", but four PEs per core and m \
         PEs make m/4 cores: k/4 = 4 (k=16) or 8 (k=32) against m/4 = 8, 4, 16, 8 for the rows n=512 k=16, n=512 \
         k=32, n=1024 k=16, n=1024 k=32. The paper's DSP48 column agrees with m/4: 32 → 64 DSP48 from n=512 to \
         1024 at fixed k (4 per core for k=16, 8 for k=32).",
    );
    t.note("Slices, DSP48 and the clock frequency are synthesis results the model does not derive.");
    type Row = (&'static str, &'static Arch, usize, u32, f64, f64);
    let sys = &SYSTOLIC;
    let mux = &MULTIPLEXED;
    let rows: [Row; 14] = [
        ("Virtex-4", sys, 512, 16, 192.0, 128.0),
        ("Virtex-4", sys, 512, 32, 96.0, 128.0),
        ("Virtex-4", sys, 1024, 16, 384.0, 256.0),
        ("Virtex-4", mux, 512, 16, 256.0, 256.0),
        ("Virtex-4", mux, 512, 32, 128.0, 256.0),
        ("Virtex-4", mux, 1024, 16, 512.0, 512.0),
        ("Virtex-4", mux, 1024, 32, 256.0, 512.0),
        ("Virtex-5", sys, 512, 16, 192.0, 128.0),
        ("Virtex-5", sys, 512, 32, 96.0, 128.0),
        ("Virtex-5", sys, 1024, 16, 384.0, 256.0),
        ("Virtex-5", mux, 512, 16, 256.0, 256.0),
        ("Virtex-5", mux, 512, 32, 128.0, 256.0),
        ("Virtex-5", mux, 1024, 16, 512.0, 512.0),
        ("Virtex-5", mux, 1024, 32, 256.0, 512.0),
    ];
    for (device, arch, n, k, cycles, bram) in rows {
        let row = format!("{device} {} n={n} k={k}", arch.name());
        let model = paper_size(arch, n, k);
        t.push_noted(
            Entry::new(
                &row,
                "clock cycles",
                "cycles",
                Some(cycles),
                0,
                model.product_cycles() as f64,
            ),
            size,
        );
        t.push_noted(
            Entry::new(&row, "BRAM", "bytes", Some(bram), 0, (model.ram_bits() / 8) as f64),
            size,
        );
        if device == "Virtex-5" {
            let modulus = Big::pow2(n).checked_sub(&Big::one()).unwrap_or_default();
            let whole = Perin::new(arch, &modulus, Some(k)).expect("a valid configuration");
            let e = Entry::new(
                &row,
                "clock cycles, full n-bit modulus",
                "cycles",
                None,
                0,
                whole.product_cycles() as f64,
            );
            t.push_noted(e, full);
            if let Some(c) = model.arithmetic_cores() {
                t.push_noted(Entry::new(&row, "arithmetic cores", "", None, 0, c as f64), cores);
            }
        }
    }
    t
}

fn table2() -> Table {
    let mut t = Table::new(
        format!("{PAPER} Table 2"),
        "RSA application (Virtex-5), n = 1024, with §6's ladder",
    );
    let which = t.note(
        "Table 2 gives no radix: 130 MHz is Table 1's Virtex-5 clock of the systolic array with k=16 (k=32 runs at \
         95 MHz) and 90 MHz that of the multiplexed array with k=32; the model uses those, with m = 1024/k words \
         (a modulus of at most 1022 bits, Table 1's note) and a 1024-bit exponent of weight 512 (0xAAAA…), the \
         paper's average of 1.5·n = 1536 products.",
    );
    let sys_cycles = t.note(
        "Paper inconsistent: 1.5·n products of n_MM = 6m = 384 cycles are 1536·384 = 589824 cycles, not 491520; \
         491520 = 1536·320 = 1.5n·5m, as if each product's m-cycle operand load were left out (or 1280·384, \
         1.25n products).",
    );
    let sys_time = t.note(
        "Paper inconsistent: 3.23 ms matches neither cycle count: 491520 cycles / 130 MHz = 3.781 ms, and the \
         model's 589824 / 130 MHz = 4.537 ms; 3.23 ms at 130 MHz would be 419900 cycles. The abstract, §6 and \
         Table 3 repeat 3.23 ms.",
    );
    let mux_time = t.note(
        "Rounding: 393216 cycles / 90 MHz = 4.3691 ms, which rounds to 4.37; the paper prints 4.36 (truncated), \
         as do the abstract, §6 and Table 3.",
    );
    let pre_post = t.note(
        "Not in the paper: Table 2 and §6 count the loop only; X̄ = mont(X, R² mod N) and the final mont(A, 1) \
         add two products, 2·n_MM cycles (systolic 2·384 = 768, multiplexed 2·256 = 512).",
    );
    let ladder = t.note(
        "Not in the paper's table: §6's Montgomery powering ladder takes n·n_MM cycles for its loop (two products \
         per bit on two multipliers at once): 1024·384 = 393216 (systolic) and 1024·256 = 262144 (multiplexed), \
         1/3 fewer than square and multiply's 1.5·n·n_MM (the paper's \"33% faster\"; the speed ratio is 1.5).",
    );
    let full = t.note(
        "Not in the paper: a full 1024-bit modulus needs m = 65 words (systolic, k=16: 6·65 = 390 cycles) or 36 \
         (multiplexed, k=32, whole cores: 8·36 = 288 cycles); 1536 products then take 599040 or 442368 cycles.",
    );
    // 1024 bits, weight 512.
    let avg = pack(&[0b10; 512], 2);
    let rows = [
        (
            "systolic n=1024 k=16",
            &SYSTOLIC,
            16,
            130.0,
            3.23,
            491520.0,
            sys_cycles,
            sys_time,
        ),
        (
            "multiplexed n=1024 k=32",
            &MULTIPLEXED,
            32,
            90.0,
            4.36,
            393216.0,
            which,
            mux_time,
        ),
    ];
    for (row, arch, k, mhz, ms, cycles, cycles_note, ms_note) in rows {
        let model = paper_size(arch, 1024, k);
        let l2r = model.exponent_cycles(&avg, Method::SquareMultiply);
        let lad = model.exponent_cycles(&avg, Method::Ladder);
        let ms_of = |c: u64| c as f64 / (model.clock_mhz() * 1000.0);
        t.push_noted(Entry::new(row, "Freq.", "MHz", Some(mhz), 0, model.clock_mhz()), which);
        t.push_noted(
            Entry::new(row, "RSA decryption", "ms", Some(ms), 2, ms_of(l2r.main_loop)),
            ms_note,
        );
        t.push_noted(
            Entry::new(row, "clock cycles", "cycles", Some(cycles), 0, l2r.main_loop as f64),
            cycles_note,
        );
        let e = Entry::new(
            row,
            "clock cycles with pre/post products",
            "cycles",
            None,
            0,
            l2r.total() as f64,
        );
        t.push_noted(e, pre_post);
        t.push_noted(
            Entry::new(row, "ladder clock cycles (§6)", "cycles", None, 0, lad.main_loop as f64),
            ladder,
        );
        t.push_noted(
            Entry::new(row, "ladder RSA decryption (§6)", "ms", None, 2, ms_of(lad.main_loop)),
            ladder,
        );
        let saving = 100.0 * (1.0 - lad.main_loop as f64 / l2r.main_loop as f64);
        t.push_noted(
            Entry::new(row, "ladder saving (§6)", "%", Some(33.0), 0, saving),
            ladder,
        );
        let modulus = Big::pow2(1024).checked_sub(&Big::one()).unwrap_or_default();
        let whole = Perin::new(arch, &modulus, Some(k)).expect("a valid configuration");
        let c = whole.exponent_cycles(&avg, Method::SquareMultiply).main_loop;
        t.push_noted(
            Entry::new(row, "clock cycles, full 1024-bit modulus", "cycles", None, 0, c as f64),
            full,
        );
    }
    t
}
