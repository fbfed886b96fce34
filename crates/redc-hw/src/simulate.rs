//! One run of a golden model, as `redc sim` asks for it: a random modulus
//! (or CRT key) of the requested size, one product checked against redc's
//! reference (with its trace as VCD on request), then an exponentiation or
//! a CRT decryption checked against redc's `modpow`, timed at the paper's
//! clock, with the throughput of a processor of several circuits. The
//! answer is one value, [`SimReport`], which renders as text (`Display`)
//! and JSON ([`SimReport::json`]).

mod report;

pub use report::{Body, CircuitInfo, ProductRun, SimReport, Throughput, VcdTrace};

use crate::random::Seeded;
use crate::{Arch, Big, Circuit, CrtRun, HwError, build, crt_decrypt, crt_request, fdfm, reference, vcd};

/// What to simulate (the options of `redc sim`).
#[derive(Debug, Clone, PartialEq)]
pub struct SimSpec {
    /// The modulus's size in bits.
    pub bits: usize,
    /// The seed of the random modulus, key and operands.
    pub seed: u64,
    /// The digit width (radix `2^k`) where the architecture takes one.
    pub radix: Option<u32>,
    /// `worst`, `random`, `f4` or a hexadecimal exponent; with `crt`,
    /// `key` or (FDFM) `worst`. `None`: `worst` (`key` with `crt`).
    pub exp: Option<String>,
    /// Circuits of the processor the throughput is for.
    pub cores: u32,
    /// The clock in MHz; `None`: the paper's.
    pub mhz: Option<f64>,
    /// Exponentiate by the Montgomery powering ladder (004 §6).
    pub ladder: bool,
    /// A CRT decryption instead of one exponentiation.
    pub crt: bool,
    /// With `crt`: the halves in parallel.
    pub parallel: bool,
    /// Trace the product as VCD; the name the report gives the file.
    pub vcd: Option<String>,
}

/// Why a run failed.
#[derive(Debug, thiserror::Error)]
pub enum SimError {
    /// An option the run cannot take; the message starts with its name.
    #[error("{0}")]
    Input(String),
    /// The model refused its parameters.
    #[error(transparent)]
    Hw(#[from] HwError),
    /// The model's answer is not redc's reference: a bug of the model.
    #[error("{0}")]
    Disagrees(String),
}

/// The slowest clock `mhz` takes (1 kHz).
const MIN_MHZ: f64 = 1e-3;

/// The fastest clock `mhz` takes (1 THz).
const MAX_MHZ: f64 = 1e6;

/// The longest exponent `exp` takes, in bits.
const MAX_EXP_BITS: usize = 8192;

/// Runs `arch` as `spec` asks, every answer checked against redc's
/// reference.
pub fn simulate(arch: &'static Arch, spec: &SimSpec) -> Result<SimReport, SimError> {
    let mut rng = Seeded::new(spec.seed);
    if spec.crt {
        crt(arch, spec, &mut rng)
    } else {
        plain(arch, spec, &mut rng)
    }
}

/// The clock: `spec.mhz` if given (in range), else the paper's for a
/// processor of `spec.cores` circuits (001 Table 1's multicore system,
/// 003 Table II's RSA processor, else the circuit's).
fn clock(spec: &SimSpec, circuit: &dyn Circuit) -> Result<f64, SimError> {
    match spec.mhz {
        Some(f) if (MIN_MHZ..=MAX_MHZ).contains(&f) => Ok(f),
        Some(f) => Err(SimError::Input(format!(
            "--mhz: {f:?} is not a clock frequency in [{MIN_MHZ}, {MAX_MHZ}] MHz"
        ))),
        None => Ok(circuit.processor_clock_mhz(spec.cores)),
    }
}

/// The exponent `spec` names for a `bits`-bit modulus, and its description.
fn exponent(spec: &str, bits: usize, rng: &mut Seeded) -> Result<(Big, String), SimError> {
    Ok(match spec {
        "worst" => (
            Big::pow2(bits).checked_sub(&Big::one()).unwrap_or_default(),
            format!("worst: {bits} bits, all ones"),
        ),
        "random" => {
            let e = rng.bits(bits);
            let text = format!("random: {} bits", e.bits());
            (e, text)
        }
        "f4" => (Big::from_u64(65537), "F4 = 2^16 + 1".to_owned()),
        hex => {
            let digits = hex.strip_prefix("0x").or_else(|| hex.strip_prefix("0X")).unwrap_or(hex);
            let e = Big::from_hex(digits).map_err(|e| {
                SimError::Input(format!(
                    "--exp: '{hex}' is not worst, random, f4 or a hexadecimal number: {e}"
                ))
            })?;
            if e.bits() > MAX_EXP_BITS {
                return Err(SimError::Input(format!(
                    "--exp: {} bits; at most {MAX_EXP_BITS}",
                    e.bits()
                )));
            }
            let text = format!("0x{} ({} bits)", e.to_hex(), e.bits());
            (e, text)
        }
    })
}

/// The operand bound relative to n (`n`, `2n`, ...) where it is a small
/// multiple, else its bit length.
fn bound_words(circuit: &dyn Circuit) -> String {
    let bound = circuit.operand_bound();
    let n = circuit.modulus();
    match bound.divrem(n) {
        Some((k, r)) if r.is_zero() && k.bits() <= 16 => {
            if k.is_one() {
                "n".to_owned()
            } else {
                format!("{}n", k.to_dec())
            }
        }
        _ => format!("2^{}", bound.bits()),
    }
}

/// One product with random operands, checked against the reference; with
/// `spec.vcd`, its trace (one row per clock where the model has a
/// clock-level schedule, at the clock `mhz`, else one per iteration).
fn product_check(circuit: &dyn Circuit, rng: &mut Seeded, mhz: f64, spec: &SimSpec) -> Result<ProductRun, SimError> {
    let bound = circuit.operand_bound();
    let (x, y) = (rng.below(&bound), rng.below(&bound));
    let run = circuit.multiply(&x, &y, None)?;
    let n = circuit.modulus();
    let congruent = reference::reduce(&run.value.shl(circuit.r_log2()), n) == reference::reduce(&x.mul(&y), n);
    if !(congruent && run.value < bound) {
        return Err(SimError::Disagrees(format!(
            "model {} disagrees with redc's reference: a=0x{} b=0x{} gave 0x{}",
            circuit.arch().name(),
            x.to_hex(),
            y.to_hex(),
            run.value.to_hex()
        )));
    }
    let vcd = match &spec.vcd {
        Some(file) => Some(trace(circuit, &x, &y, mhz, file)?),
        None => None,
    };
    Ok(ProductRun {
        cycles: run.cycles,
        utilization: circuit.utilization(),
        vcd,
    })
}

/// The product's trace as VCD text (see [`product_check`]).
fn trace(circuit: &dyn Circuit, x: &Big, y: &Big, mhz: f64, file: &str) -> Result<VcdTrace, SimError> {
    let (steps, rows, per) = match circuit.clock_trace(x, y) {
        Some(steps) => {
            let period_ps = (1e6 / mhz).round().max(2.0) as u64;
            (steps?, vcd::Rows::Clock { period_ps }, "clock")
        }
        None => {
            let mut steps = Vec::new();
            circuit.multiply(x, y, Some(&mut steps))?;
            (steps, vcd::Rows::Iteration, "iteration")
        }
    };
    let comment = format!(
        "redc sim {}: one product a*b*2^-{} mod n, a = 0x{}, b = 0x{}, n = 0x{}",
        circuit.arch().name(),
        circuit.r_log2(),
        x.to_hex(),
        y.to_hex(),
        circuit.modulus().to_hex()
    );
    let text = vcd::render(circuit.arch().name(), &comment, &steps, rows);
    Ok(VcdTrace {
        file: file.to_owned(),
        rows: steps.len(),
        per,
        text,
    })
}

/// Throughput of `spec.cores` circuits, each completing an operation on
/// `spec.bits` bits in `cycles`.
fn throughput(circuit: &dyn Circuit, cycles: u64, spec: &SimSpec, mhz: f64) -> Throughput {
    let total = circuit.parallel_cycles(cycles, spec.cores);
    Throughput {
        cores: spec.cores,
        cycles: total,
        kbit_per_s: spec.bits as f64 * f64::from(spec.cores) * mhz * 1e3 / total as f64,
        loading: total > cycles,
    }
}

impl CircuitInfo {
    /// What a report says of `circuit`.
    fn of(circuit: &dyn Circuit) -> CircuitInfo {
        CircuitInfo {
            modulus: circuit.modulus().clone(),
            digit_bits: circuit.digit_bits(),
            size_parameter: circuit.digits(),
            r_log2: circuit.r_log2(),
            bound: bound_words(circuit),
            clock_mhz: circuit.clock_mhz(),
        }
    }
}

fn plain(arch: &'static Arch, spec: &SimSpec, rng: &mut Seeded) -> Result<SimReport, SimError> {
    let bits = spec.bits;
    let n = rng.odd_modulus(bits);
    let circuit = build(arch, &n, spec.radix)?;
    let mhz = clock(spec, circuit.as_ref())?;
    let (exp, exp_text) = exponent(spec.exp.as_deref().unwrap_or("worst"), bits, rng)?;
    let product = product_check(circuit.as_ref(), rng, mhz, spec)?;
    let base = rng.below(&n);
    let run = if spec.ladder {
        circuit.ladder(&base, &exp).ok_or_else(|| {
            SimError::Input(format!(
                "--ladder: {}'s paper proposes no Montgomery powering ladder (004's Perin arrays do, §6)",
                arch.name()
            ))
        })?
    } else {
        circuit.exponentiate(&base, &exp)
    }?;
    if run.value != reference::modpow(&base, &exp, &n) {
        return Err(SimError::Disagrees(format!(
            "model {} disagrees with redc's modpow for base 0x{}",
            arch.name(),
            base.to_hex()
        )));
    }
    Ok(SimReport {
        arch,
        bits,
        seed: spec.seed,
        what: format!("random {bits}-bit modulus"),
        circuit: CircuitInfo::of(circuit.as_ref()),
        mhz,
        mhz_given: spec.mhz.is_some(),
        product,
        body: Body::Exponentiation {
            exponent: exp,
            what: exp_text,
            ladder: spec.ladder,
            products: run.products,
            cycles: run.cycles,
        },
        throughput: throughput(circuit.as_ref(), run.cycles, spec, mhz),
    })
}

fn crt(arch: &'static Arch, spec: &SimSpec, rng: &mut Seeded) -> Result<SimReport, SimError> {
    let bits = spec.bits;
    // Check the architecture, mode, size, exponent and radix before spending time on primes.
    crt_request(arch, bits, spec.parallel)?;
    let worst = match spec.exp.as_deref() {
        None | Some("key") => false,
        Some("worst") if *arch == fdfm::ARCH => true,
        Some("worst") => {
            return Err(SimError::Input(format!(
                "--exp: worst with --crt is 001's Eq. 10 (fdfm); {} decrypts with the key's d only (--exp key)",
                arch.name()
            )));
        }
        Some(other) => {
            return Err(SimError::Input(format!(
                "--exp: with --crt the exponent is the key's d (key) or, for fdfm, Eq. 10's worst case (worst); not {other}"
            )));
        }
    };
    build(arch, &rng.odd_modulus(bits / 2), spec.radix)?;
    let key = rng.crt_key(bits);
    let half = build(arch, &key.p, spec.radix)?;
    // The full-size circuit: its loading for `cores` (001 §5.3: 320·d1), and
    // its clock when the halves run in parallel on it (002 Table 4).
    let full = build(arch, &key.n, spec.radix)?;
    let mhz = clock(spec, if spec.parallel { full.as_ref() } else { half.as_ref() })?;
    let c = rng.below(&key.n);
    let run: CrtRun = crt_decrypt(arch, &key, &c, spec.radix, spec.parallel)?;
    if run.value != reference::modpow(&c, &key.d, &key.n) {
        return Err(SimError::Disagrees(format!(
            "model {} CRT decryption disagrees with redc's modpow",
            arch.name()
        )));
    }
    let what = format!(
        "random {bits}-bit key n = p·q, e = 65537, CRT halves of {} bits",
        key.p.bits()
    );
    let product = product_check(half.as_ref(), rng, mhz, spec)?;
    // 001 Eq. 10 (Table 2's worst case): both halves' exponents 17·d2 one
    // bits, counted on the same schedule; it sets the time and throughput.
    let worst = worst.then(|| {
        let (d1, d2) = (
            fdfm::digits_for(key.n.bits()),
            fdfm::digits_for(key.p.bits().max(key.q.bits())),
        );
        let cycles: u64 = fdfm::crt_worst_case(d1, d2, 17 * d2).iter().map(|(_, c)| c).sum();
        (17 * d2, cycles)
    });
    let timed = worst.map_or(run.cycles, |(_, c)| c);
    Ok(SimReport {
        arch,
        bits,
        seed: spec.seed,
        what,
        circuit: CircuitInfo::of(half.as_ref()),
        mhz,
        mhz_given: spec.mhz.is_some(),
        product,
        body: Body::Crt {
            parallel: spec.parallel,
            cycles: run.cycles,
            phases: run.phases,
            worst,
        },
        throughput: throughput(full.as_ref(), timed, spec, mhz),
    })
}
