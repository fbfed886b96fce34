//! What every circuit model offers: [`Circuit`], the architecture and paper
//! names, run results and errors.

use crate::Big;
use crate::{blum_paar, carry_save, dataflow, fdfm, perin};

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

impl std::fmt::Display for HwOption {
    /// The option's name as the CLI spells it, without dashes.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            HwOption::Crt => "crt",
            HwOption::Parallel => "parallel",
        })
    }
}

/// The architectures modelled; `name()` is the CLI spelling.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Arch {
    /// 001: the FDFM radix-2^17 digit-serial core (Alg. 3).
    Fdfm,
    /// 002: Blum–Paar high-radix systolic array (Alg. 3.2).
    BlumPaar,
    /// 003: radix-2 carry-save multiplier (Alg. I).
    CsaRadix2,
    /// 003: radix-4 multi-bit-shifting carry-save multiplier (Alg. II).
    CsaRadix4,
    /// 004: systolic array of m processing elements.
    PerinSystolic,
    /// 004: multiplexed array of arithmetic cores.
    PerinMultiplexed,
    /// 000: SOS with word multiplications offloaded to a dataflow engine.
    Dataflow,
}

impl Arch {
    /// Every architecture, in paper order.
    pub const ALL: [Arch; 7] = [
        Arch::Fdfm,
        Arch::BlumPaar,
        Arch::CsaRadix2,
        Arch::CsaRadix4,
        Arch::PerinSystolic,
        Arch::PerinMultiplexed,
        Arch::Dataflow,
    ];

    /// The CLI name.
    pub fn name(self) -> &'static str {
        match self {
            Arch::Fdfm => "fdfm",
            Arch::BlumPaar => "blum-paar",
            Arch::CsaRadix2 => "csa-radix2",
            Arch::CsaRadix4 => "csa-radix4",
            Arch::PerinSystolic => "perin-systolic",
            Arch::PerinMultiplexed => "perin-multiplexed",
            Arch::Dataflow => "dataflow",
        }
    }

    /// Parses a CLI name.
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|a| a.name() == name)
    }

    /// The paper the architecture comes from.
    pub fn paper(self) -> Paper {
        match self {
            Arch::Fdfm => Paper::Fdfm,
            Arch::BlumPaar => Paper::BlumPaar,
            Arch::CsaRadix2 | Arch::CsaRadix4 => Paper::CarrySave,
            Arch::PerinSystolic | Arch::PerinMultiplexed => Paper::Perin,
            Arch::Dataflow => Paper::Dataflow,
        }
    }
}

/// The papers, by the short names `redc sim --table` takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Paper {
    /// 001_24b3bbce8c558126.txt.
    Fdfm,
    /// 002_aa2657bb2bc73547.txt.
    BlumPaar,
    /// 003_4c508dab9c4d2fd2.txt.
    CarrySave,
    /// 004_b65c74827168229f.txt.
    Perin,
    /// 000_be478b6750af4540.txt.
    Dataflow,
}

impl Paper {
    /// Every paper, in the order of the issue.
    pub const ALL: [Paper; 5] = [
        Paper::Fdfm,
        Paper::BlumPaar,
        Paper::CarrySave,
        Paper::Perin,
        Paper::Dataflow,
    ];

    /// The CLI name.
    pub fn name(self) -> &'static str {
        match self {
            Paper::Fdfm => "fdfm",
            Paper::BlumPaar => "blum-paar",
            Paper::CarrySave => "carry-save",
            Paper::Perin => "perin",
            Paper::Dataflow => "dataflow",
        }
    }

    /// Parses a CLI name.
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|p| p.name() == name)
    }

    /// The paper's file in `../shared/papers`.
    pub fn file(self) -> &'static str {
        match self {
            Paper::Fdfm => "001_24b3bbce8c558126.txt",
            Paper::BlumPaar => "002_aa2657bb2bc73547.txt",
            Paper::CarrySave => "003_4c508dab9c4d2fd2.txt",
            Paper::Perin => "004_b65c74827168229f.txt",
            Paper::Dataflow => "000_be478b6750af4540.txt",
        }
    }

    /// The paper's tables beside the models' figures.
    pub fn tables(self) -> Vec<crate::Table> {
        match self {
            Paper::Fdfm => fdfm::tables(),
            Paper::BlumPaar => blum_paar::tables(),
            Paper::CarrySave => carry_save::tables(),
            Paper::Perin => perin::tables(),
            Paper::Dataflow => dataflow::tables(),
        }
    }
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
}

/// A model of one multiplier circuit configured for one modulus.
///
/// Preconditions common to every method: operands are below
/// [`operand_bound`](Circuit::operand_bound) (checked: an operand out of
/// range is an [`HwError::Operand`], never a panic).
pub trait Circuit: Send + Sync {
    /// Which architecture this is.
    fn arch(&self) -> Arch;

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

    /// Clock cycles of one product, from the model's own schedule (the same
    /// figure [`multiply`](Circuit::multiply) reports).
    fn product_cycles(&self) -> u64;

    /// `base^exp mod n` with the paper's exponentiation algorithm and cycle
    /// accounting. `base` is any value below n.
    fn exponentiate(&self, base: &Big, exp: &Big) -> Result<ExpRun, HwError>;

    /// The clock the paper reports for this architecture at this size, MHz.
    fn clock_mhz(&self) -> f64;

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

/// A model of `arch` loaded with modulus `n`; `radix` is the digit width in
/// bits where the architecture has a choice (Blum–Paar k, Perin 16/32,
/// dataflow w), else it must be `None` or the architecture's own width.
pub fn build(arch: Arch, n: &Big, radix: Option<u32>) -> Result<Box<dyn Circuit>, HwError> {
    match arch {
        Arch::Fdfm => fdfm::build(n, radix),
        Arch::BlumPaar => blum_paar::build(n, radix),
        Arch::CsaRadix2 | Arch::CsaRadix4 => carry_save::build(arch, n, radix),
        Arch::PerinSystolic | Arch::PerinMultiplexed => perin::build(arch, n, radix),
        Arch::Dataflow => dataflow::build(n, radix),
    }
}

/// Whether [`crt_decrypt`] runs for `arch` (with the halves in parallel or
/// not): `Ok`, or `HwError::Unsupported` naming the option at fault,
/// [`HwOption::Crt`] or [`HwOption::Parallel`]. Cheap: callers check it
/// before generating a key.
pub fn crt_support(arch: Arch, parallel: bool) -> Result<(), HwError> {
    match (arch, parallel) {
        (Arch::Fdfm, false) | (Arch::BlumPaar, _) => Ok(()),
        (Arch::Fdfm, true) => Err(HwError::Unsupported {
            option: Some(HwOption::Parallel),
            reason: fdfm::NO_PARALLEL_CRT.into(),
        }),
        (other, _) => Err(HwError::Unsupported {
            option: Some(HwOption::Crt),
            reason: format!(
                "the {} paper models no CRT decryption (fdfm and blum-paar do)",
                other.name()
            ),
        }),
    }
}

/// CRT decryption `c^d mod n` as the architecture's paper runs it (001 §4
/// Steps 1–4 with Eq. 10; 002 §5 with two half-size arrays). `parallel`
/// runs the two halves on two circuits at once where the paper allows it
/// (see [`crt_support`]).
pub fn crt_decrypt(arch: Arch, key: &CrtKey, c: &Big, radix: Option<u32>, parallel: bool) -> Result<CrtRun, HwError> {
    crt_support(arch, parallel)?;
    match arch {
        Arch::Fdfm => fdfm::crt_decrypt(key, c, radix, parallel),
        _ => blum_paar::crt_decrypt(key, c, radix, parallel),
    }
}
