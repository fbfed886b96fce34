//! What every circuit model is and offers: the [`Circuit`] trait, the
//! [`Arch`] entry each model declares for the registry (name, paper, build
//! function, CRT support), the run results and the errors.

use std::fmt;

use crate::Big;

/// Errors from building or running a model. Each names what was wrong.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum HwError {
    /// The modulus does not suit the architecture (even, too small, ...).
    #[error("modulus: {0}")]
    Modulus(String),
    /// The digit width is not one the architecture is defined for.
    #[error("radix: {arch} takes digit widths {allowed}, not {radix} bits")]
    Radix {
        /// Architecture name.
        arch: &'static str,
        /// The requested digit width in bits.
        radix: u32,
        /// The widths it takes, in words.
        allowed: &'static str,
    },
    /// An operand is outside the circuit's input range.
    #[error("{name}: operand must be below {bound}")]
    Operand {
        /// Which operand (`a`, `b`, `base`, `c`, ...).
        name: &'static str,
        /// The bound, in words (for example "2n").
        bound: String,
    },
    /// The paper defines no such operation or configuration for this
    /// architecture. `option` names the run option at fault, where one is
    /// (the message then starts with it: `crt: ...`, `parallel: ...`).
    #[error("{}{reason}", .option.map_or(String::new(), |o| format!("{o}: ")))]
    Unsupported {
        /// The run option the paper does not offer, if the request was one.
        option: Option<HwOption>,
        /// Why, in words.
        reason: String,
    },
}

impl HwError {
    /// [`HwError::Unsupported`] for a request that is no run option.
    pub(crate) fn unsupported(reason: impl Into<String>) -> Self {
        Self::Unsupported {
            option: None,
            reason: reason.into(),
        }
    }
}

/// A run option that an architecture's paper may not define.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum HwOption {
    /// CRT decryption (001 §4, 002 §5).
    Crt,
    /// The two CRT halves on two circuits at once (002 §5.2).
    Parallel,
}

impl fmt::Display for HwOption {
    /// The option's name as the CLI spells it, without dashes.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            HwOption::Crt => "crt",
            HwOption::Parallel => "parallel",
        })
    }
}

/// Builds an architecture's model for modulus `n`; `radix` is the digit
/// width in bits where the architecture has a choice, else it must be `None`
/// or the architecture's own width.
pub type Build = fn(n: &Big, radix: Option<u32>) -> Result<Box<dyn Circuit>, HwError>;

/// CRT decryption `c^d mod n` as the architecture's paper runs it, the
/// halves in parallel or not.
pub type CrtDecrypt = fn(key: &CrtKey, c: &Big, radix: Option<u32>, parallel: bool) -> Result<CrtRun, HwError>;

/// What CRT decryption an architecture's paper defines (001 §4, 002 §5).
#[derive(Clone, Copy)]
pub enum CrtSupport {
    /// None: the paper models no CRT decryption.
    Unmodelled,
    /// The halves one after the other only; `no_parallel` says why the
    /// paper runs them no other way.
    Serial {
        /// The decryption.
        decrypt: CrtDecrypt,
        /// Why there are no parallel halves, in words.
        no_parallel: &'static str,
    },
    /// The halves one after the other, or on two circuits at once.
    SerialOrParallel(CrtDecrypt),
}

/// One architecture as the registry ([`Arch::ALL`]) lists it: each model
/// declares its own as a `static` beside its code.
///
/// Two entries are the same architecture when their names are equal (the
/// registry's names are unique).
pub struct Arch {
    /// The CLI name (`redc sim NAME`, `redc vectors NAME`).
    pub(crate) name: &'static str,
    /// The paper it comes from.
    pub(crate) paper: Paper,
    /// Makes its model.
    pub(crate) build: Build,
    /// Its CRT decryption, if the paper defines one.
    pub(crate) crt: CrtSupport,
}

impl Arch {
    /// The CLI name.
    pub fn name(&self) -> &'static str {
        self.name
    }

    /// The paper the architecture comes from.
    pub fn paper(&self) -> Paper {
        self.paper
    }
}

impl PartialEq for Arch {
    fn eq(&self, other: &Self) -> bool {
        self.name == other.name
    }
}

impl Eq for Arch {}

impl std::hash::Hash for Arch {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.name.hash(state);
    }
}

impl fmt::Debug for Arch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("Arch").field(&self.name).finish()
    }
}

/// The papers, by the short names `redc sim --table` takes. Their names,
/// citations ([`Paper::citation`]: title, authors, venue; the file is the
/// key) and tables are listed in the registry.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Paper {
    /// Ito, Nakano, Song: the parallel FDFM processor core (001,
    /// [`citation::FDFM`](crate::citation::FDFM)).
    Fdfm,
    /// High-radix Montgomery exponentiation on a systolic array (002,
    /// [`citation::BLUM_PAAR`](crate::citation::BLUM_PAAR)).
    BlumPaar,
    /// Garg, Vig: carry-save Montgomery multiplication and an RSA processor
    /// (003, [`citation::CARRY_SAVE`](crate::citation::CARRY_SAVE)).
    CarrySave,
    /// Perin, Mesquita, Martins: systolic versus multiplexed (004,
    /// [`citation::PERIN`](crate::citation::PERIN)).
    Perin,
    /// RSA on the Maxeler dataflow platform (000,
    /// [`citation::DATAFLOW`](crate::citation::DATAFLOW)).
    Dataflow,
}

/// One register (or memory word) of the circuit's state after an iteration.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reg {
    /// The register's name as in the paper (`S`, `A1`, `Ca`, ...).
    pub name: &'static str,
    /// Its width in bits: the value is always below 2^bits.
    pub bits: usize,
    /// Its contents.
    pub value: Big,
}

/// The circuit's state at the end of one iteration of its main loop.
///
/// Every step of one model has the same registers in the same order, so a
/// testbench memory per register can hold one word per step.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Step {
    /// Iteration index as the paper numbers it.
    pub iteration: usize,
    /// Register contents after the iteration.
    pub regs: Vec<Reg>,
}

/// One Montgomery product as the circuit computes it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProductRun {
    /// The circuit's output, exactly (not reduced further than the circuit
    /// reduces it): below [`Circuit::operand_bound`] and congruent to
    /// `a·b·2^(-r_log2)` modulo the modulus.
    pub value: Big,
    /// Clock cycles the circuit takes for this product.
    pub cycles: u64,
}

/// One modular exponentiation as the circuit's exponentiator runs it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExpRun {
    /// `base^exp mod n`, fully reduced (the circuit's output after its own
    /// post-processing; a model whose circuit leaves a final subtraction to
    /// the host does that subtraction and says so in its docs).
    pub value: Big,
    /// Clock cycles, pre- and post-computation included.
    pub cycles: u64,
    /// Montgomery products performed (squarings included).
    pub products: u64,
}

/// A CRT private key for the decryption models (001 §4, 002 §5).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CrtKey {
    /// Modulus n = p·q.
    pub n: Big,
    /// First prime.
    pub p: Big,
    /// Second prime.
    pub q: Big,
    /// Private exponent d.
    pub d: Big,
}

/// One CRT decryption as the circuit runs it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CrtRun {
    /// `c^d mod n`.
    pub value: Big,
    /// Total clock cycles.
    pub cycles: u64,
    /// Cycles of each named phase, in order (the pieces of the paper's
    /// equation, e.g. 001 Eq. 10).
    pub phases: Vec<(&'static str, u64)>,
    /// What the host computes from the key for the decryption: what it
    /// loads into the circuit (the half exponents and every constant of the
    /// circuit's runs) and, where the paper leaves a step to the host, that
    /// step's inputs; in the order the paper names them, widths the primes'
    /// or n's (see each paper's `crt_decrypt`).
    pub loaded: Vec<Reg>,
}

/// A model of one multiplier circuit configured for one modulus.
///
/// Preconditions common to every method: operands are below
/// [`operand_bound`](Circuit::operand_bound) (checked: an operand out of
/// range is an [`HwError::Operand`], never a panic).
pub trait Circuit: Send + Sync {
    /// Which architecture this is: its entry in the registry.
    fn arch(&self) -> &'static Arch;

    /// The modulus the circuit is loaded with (the user's n, not a derived
    /// value such as Blum–Paar's M~).
    fn modulus(&self) -> &Big;

    /// Datapath digit width in bits (17 for FDFM, k for Blum–Paar, 1 or 2
    /// for the carry-save forms, 16 or 32 for Perin, w for the dataflow SOS).
    fn digit_bits(&self) -> u32;

    /// The paper's size parameter for this modulus (FDFM's d, Blum–Paar's
    /// m, the carry-save k, Perin's m, the SOS s), for reports.
    fn digits(&self) -> usize;

    /// log2 of the Montgomery constant R of one product:
    /// `multiply(a, b) ≡ a·b·2^(-r_log2) (mod n)`.
    fn r_log2(&self) -> usize;

    /// Exclusive bound on inputs and outputs of one product (n, 2n, 2M~...).
    fn operand_bound(&self) -> Big;

    /// One product, bit-exact. With `trace`, the state after every iteration
    /// of the main loop is appended.
    fn multiply(&self, a: &Big, b: &Big, trace: Option<&mut Vec<Step>>) -> Result<ProductRun, HwError>;

    /// One product's registers clock by clock, where the model has a
    /// clock-level schedule (one [`Step`] per clock, `iteration` the cycle
    /// from 1, the registers after that clock's edge); `None` where its
    /// iteration trace is all it has. Same preconditions as
    /// [`multiply`](Circuit::multiply).
    fn clock_trace(&self, a: &Big, b: &Big) -> Option<Result<Vec<Step>, HwError>> {
        let _ = (a, b);
        None
    }

    /// The per-modulus constants a design of the circuit is loaded with
    /// besides n (001's `−n^(−1) mod 2^17`, 003's n' and 3n, ...), each
    /// with its width; empty where there are none.
    fn constants(&self) -> Vec<Reg> {
        Vec::new()
    }

    /// Clock cycles of one product, from the model's own schedule (the same
    /// figure [`multiply`](Circuit::multiply) reports).
    fn product_cycles(&self) -> u64;

    /// `base^exp mod n` with the paper's exponentiation algorithm and cycle
    /// accounting. `base` is any value below n.
    fn exponentiate(&self, base: &Big, exp: &Big) -> Result<ExpRun, HwError>;

    /// The clock the paper reports for this architecture at this size, MHz.
    fn clock_mhz(&self) -> f64;

    /// `base^exp mod n` with the Montgomery powering ladder, where the paper
    /// proposes one for the circuit (004 §6: both products of a bit on two
    /// multipliers at once); `None` where it does not. Same preconditions
    /// and result as [`exponentiate`](Circuit::exponentiate).
    fn ladder(&self, base: &Big, exp: &Big) -> Option<Result<ExpRun, HwError>> {
        let _ = (base, exp);
        None
    }

    /// The clock of a processor of `cores` copies of the circuit, where the
    /// paper reports one that differs from [`clock_mhz`](Circuit::clock_mhz)
    /// (001 Table 1: 336.7 MHz for one core, 325.098 MHz for its 320-core
    /// system); `None` where it reports no other.
    fn multicore_clock_mhz(&self, cores: u32) -> Option<f64> {
        let _ = cores;
        None
    }

    /// The clock the paper reports for the whole processor of `cores`
    /// copies of the circuit, the one its exponentiation and throughput
    /// figures use: the multicore clock where there is one (001 Table 1),
    /// the RSA processor's where the paper synthesized it apart from the
    /// multiplier (003 Table II against Table I), else
    /// [`clock_mhz`](Circuit::clock_mhz).
    fn processor_clock_mhz(&self, cores: u32) -> f64 {
        self.multicore_clock_mhz(cores).unwrap_or_else(|| self.clock_mhz())
    }

    /// Fraction of cycles in which the multiplier block is busy, where the
    /// paper defines it (001 Eq. 7 / Eq. 8).
    fn utilization(&self) -> Option<f64> {
        None
    }

    /// Cycles for `cores` copies of the circuit to complete one operation of
    /// `op_cycles` each, loading included (001 §5's shift-register chain).
    /// Independent copies by default.
    fn parallel_cycles(&self, op_cycles: u64, cores: u32) -> u64 {
        let _ = cores;
        op_cycles
    }
}
