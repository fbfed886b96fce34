//! The registry: the one list of the modelled architectures, [`Arch::ALL`].
//! The CLI names, the paper list, [`build`], [`crt_support`] and
//! [`crt_decrypt`] all come from it, and the tests that cover every
//! architecture iterate it, so an architecture is tested as soon as it is
//! listed.
//!
//! Adding an architecture takes a model file that implements [`Circuit`]
//! and declares its [`Arch`] entry as a `pub static` (CLI name, paper, build
//! function, [`CrtSupport`]), its `pub mod` line in `lib.rs`, and one line in
//! [`Arch::ALL`].

use crate::{
    Arch, Big, Circuit, Citation, CrtDecrypt, CrtKey, CrtRun, CrtSupport, Entry, HwError, HwOption, Paper, Table,
    Unmodelled,
};

impl Arch {
    /// Every architecture, in paper order: one line each.
    pub const ALL: &'static [&'static Arch] = &[
        &crate::fdfm::ARCH,
        &crate::blum_paar::ARCH,
        &crate::blum_paar::RADIX2,
        &crate::carry_save::RADIX2,
        &crate::carry_save::RADIX4,
        &crate::perin::SYSTOLIC,
        &crate::perin::MULTIPLEXED,
        &crate::dataflow::ARCH,
    ];

    /// The architecture whose CLI name is `name`.
    pub fn from_name(name: &str) -> Option<&'static Arch> {
        Self::ALL.iter().copied().find(|a| a.name == name)
    }
}

impl Paper {
    /// The papers of the registered architectures, each once, in the
    /// registry's order.
    pub fn all() -> Vec<Paper> {
        let mut papers = Vec::new();
        for arch in Arch::ALL {
            if !papers.contains(&arch.paper) {
                papers.push(arch.paper);
            }
        }
        papers
    }

    /// The paper whose CLI name is `name`, among [`Paper::all`].
    pub fn from_name(name: &str) -> Option<Self> {
        Self::all().into_iter().find(|p| p.name() == name)
    }

    /// The papers `name` selects (`redc sim --table NAME`): every one
    /// ([`Paper::all`]) for `all`, else the one [`Paper::from_name`] finds.
    pub fn select(name: &str) -> Option<Vec<Paper>> {
        match name {
            "all" => Some(Self::all()),
            _ => Self::from_name(name).map(|p| vec![p]),
        }
    }

    /// The CLI name.
    pub fn name(self) -> &'static str {
        self.describe().0
    }

    /// The paper's file in `../shared/papers`: its citation key.
    pub fn file(self) -> &'static str {
        self.describe().1.file
    }

    /// Title, authors and venue, as the paper's text gives them: how users
    /// see the paper named.
    pub fn citation(self) -> &'static Citation {
        self.describe().1
    }

    /// The paper's tables beside the models' figures, then the list of the
    /// cells the model does not derive ([`Table::unmodelled`]).
    pub fn tables(self) -> Vec<Table> {
        let (_, citation, tables, unmodelled) = self.describe();
        let mut all = tables();
        all.push(Table::unmodelled(citation.file, unmodelled));
        all
    }

    /// The figure of the paper's tables ([`Paper::tables`]) in row `row`
    /// and column `column`, beside the model's.
    pub fn entry(self, row: &str, column: &str) -> Option<Entry> {
        self.tables()
            .into_iter()
            .flat_map(|t| t.entries)
            .find(|e| e.row == row && e.column == column)
    }

    /// CLI name, citation (with the file), tables and unmodelled cells of
    /// each paper.
    fn describe(self) -> (&'static str, &'static Citation, fn() -> Vec<Table>, &'static Unmodelled) {
        use crate::citation;
        match self {
            Paper::Fdfm => ("fdfm", &citation::FDFM, crate::fdfm::tables, crate::fdfm::UNMODELLED),
            Paper::BlumPaar => (
                "blum-paar",
                &citation::BLUM_PAAR,
                crate::blum_paar::tables,
                crate::blum_paar::UNMODELLED,
            ),
            Paper::CarrySave => (
                "carry-save",
                &citation::CARRY_SAVE,
                crate::carry_save::tables,
                crate::carry_save::UNMODELLED,
            ),
            Paper::Perin => (
                "perin",
                &citation::PERIN,
                crate::perin::tables,
                crate::perin::UNMODELLED,
            ),
            Paper::Dataflow => (
                "dataflow",
                &citation::DATAFLOW,
                crate::dataflow::tables,
                crate::dataflow::UNMODELLED,
            ),
        }
    }
}

/// A model of `arch` loaded with modulus `n`; `radix` is the digit width in
/// bits where the architecture has a choice (Blum–Paar k, Perin 16/32,
/// dataflow w), else it must be `None` or the architecture's own width.
pub fn build(arch: &Arch, n: &Big, radix: Option<u32>) -> Result<Box<dyn Circuit>, HwError> {
    (arch.build)(n, radix)
}

/// Whether [`crt_decrypt`] runs for `arch` (with the halves in parallel or
/// not): `Ok`, or [`HwError::Unsupported`] naming the option at fault,
/// [`HwOption::Crt`] or [`HwOption::Parallel`]. Cheap: callers check it
/// before generating a key.
pub fn crt_support(arch: &Arch, parallel: bool) -> Result<(), HwError> {
    decryption(arch, parallel).map(|_| ())
}

/// [`crt_support`] for a `bits`-bit key, which must have at least 32 bits
/// (two primes of 16): what `redc sim --crt` and `redc vectors --crt`
/// check before drawing a key.
pub fn crt_request(arch: &Arch, bits: usize, parallel: bool) -> Result<(), HwError> {
    crt_support(arch, parallel)?;
    if bits < 32 {
        return Err(HwError::Modulus(format!("{bits} bits: a CRT key needs at least 32")));
    }
    Ok(())
}

/// CRT decryption `c^d mod n` as the architecture's paper runs it (001 §4
/// Steps 1–4 with Eq. 10; 002 §5 with two half-size arrays). `parallel`
/// runs the two halves on two circuits at once where the paper allows it
/// (see [`crt_support`]).
pub fn crt_decrypt(arch: &Arch, key: &CrtKey, c: &Big, radix: Option<u32>, parallel: bool) -> Result<CrtRun, HwError> {
    decryption(arch, parallel)?(key, c, radix, parallel)
}

/// The CRT decryption of `arch` in the mode asked for, or why there is none.
fn decryption(arch: &Arch, parallel: bool) -> Result<CrtDecrypt, HwError> {
    match arch.crt {
        CrtSupport::SerialOrParallel(decrypt) => Ok(decrypt),
        CrtSupport::Serial { decrypt, .. } if !parallel => Ok(decrypt),
        CrtSupport::Serial { no_parallel, .. } => Err(HwError::Unsupported {
            option: Some(HwOption::Parallel),
            reason: no_parallel.into(),
        }),
        CrtSupport::Unmodelled => Err(HwError::Unsupported {
            option: Some(HwOption::Crt),
            reason: format!("the {} paper models no CRT decryption ({} do)", arch.name, with_crt()),
        }),
    }
}

/// The names of the architectures with a CRT decryption, as words
/// ("fdfm and blum-paar").
fn with_crt() -> String {
    let names: Vec<&str> = Arch::ALL
        .iter()
        .filter(|a| !matches!(a.crt, CrtSupport::Unmodelled))
        .map(|a| a.name)
        .collect();
    match names.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        _ => names.concat(),
    }
}
