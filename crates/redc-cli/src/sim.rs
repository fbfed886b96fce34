//! `redc sim`: run a golden model of one of the papers' circuits (redc-hw),
//! check its result against redc's reference, and report cycles, time,
//! utilization and throughput; `--table PAPER` prints the paper's tables
//! beside the models' figures.

use crate::args::SimArgs;
use crate::failure::bad_input;
use crate::output::Sink;
use redc_hw::random::Seeded;
use redc_hw::{
    Arch, Big, Circuit, CrtRun, HwError, Paper, Table, build, crt_decrypt, crt_support, fdfm, reference, vcd,
};
use serde_json::{Value, json};
use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

/// Run `redc sim`.
pub(crate) fn run(a: &SimArgs) -> anyhow::Result<ExitCode> {
    if let Some(paper) = &a.table {
        return tables(paper, a.json);
    }
    let name = a.arch.as_deref().unwrap_or_default();
    let arch = parse_arch(name)?;
    let bits = a.bits as usize;
    let mut rng = Seeded::new(a.seed);
    let what = if a.crt { "CRT decryption" } else { "exponentiation" };
    let bar = crate::progress::spinner(format!("simulating a {bits}-bit {what} on {}", arch.name()));
    let report = if a.crt {
        crt(arch, a, &mut rng, bits)
    } else {
        plain(arch, a, &mut rng, bits)
    };
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    let report = report?;
    let text = if a.json {
        format!("{}\n", serde_json::to_string_pretty(&report.json)?)
    } else {
        report.text
    };
    let mut out = std::io::stdout().lock();
    out.write_all(text.as_bytes())?;
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}

/// The architecture named `name`, or a bad-input error listing them.
pub(crate) fn parse_arch(name: &str) -> anyhow::Result<&'static Arch> {
    Arch::from_name(name).ok_or_else(|| {
        let all: Vec<&str> = Arch::ALL.iter().map(|a| a.name()).collect();
        bad_input!("ARCH: unknown architecture '{name}'; one of {}", all.join(", "))
    })
}

/// A model error as bad input naming the option it came from.
pub(crate) fn hw_error(e: HwError) -> anyhow::Error {
    match e {
        HwError::Radix { .. } => bad_input!("--{e}"),
        HwError::Modulus(_) => bad_input!("--bits: {e}"),
        // The message starts with the option's name: `--crt: ...`, `--parallel: ...`.
        HwError::Unsupported { option: Some(_), .. } => bad_input!("--{e}"),
        other => bad_input!("{other}"),
    }
}

/// A report in both forms.
struct Report {
    text: String,
    json: Value,
}

/// The clock: `--mhz` if given (positive and finite), else the paper's for
/// a processor of `--cores` circuits.
fn clock(a: &SimArgs, circuit: &dyn Circuit) -> anyhow::Result<f64> {
    match a.mhz {
        Some(f) if (MIN_MHZ..=MAX_MHZ).contains(&f) => Ok(f),
        Some(f) => Err(bad_input!(
            "--mhz: {f:?} is not a clock frequency in [{MIN_MHZ}, {MAX_MHZ}] MHz"
        )),
        // The paper's clock for the whole processor: its multicore system's
        // where it reports one (001 Table 1, 320 cores), its RSA
        // processor's (003 Table II), else the circuit's.
        None => Ok(circuit.processor_clock_mhz(a.cores)),
    }
}

/// The slowest clock `--mhz` takes (1 kHz).
const MIN_MHZ: f64 = 1e-3;

/// The fastest clock `--mhz` takes (1 THz).
const MAX_MHZ: f64 = 1e6;

/// The longest exponent `--exp` takes, in bits.
const MAX_EXP_BITS: usize = 8192;

/// The exponent of `--exp` for an `bits`-bit modulus, and its description.
fn exponent(spec: &str, bits: usize, rng: &mut Seeded) -> anyhow::Result<(Big, String)> {
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
            let e = Big::from_hex(digits)
                .map_err(|e| bad_input!("--exp: '{hex}' is not worst, random, f4 or a hexadecimal number: {e}"))?;
            if e.bits() > MAX_EXP_BITS {
                return Err(bad_input!("--exp: {} bits; at most {MAX_EXP_BITS}", e.bits()));
            }
            let text = format!("0x{} ({} bits)", e.to_hex(), e.bits());
            (e, text)
        }
    })
}

/// Thousands separated by commas.
fn grouped(x: u64) -> String {
    let s = x.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// `cycles` at `mhz` as a readable duration.
fn duration(cycles: u64, mhz: f64) -> String {
    let us = cycles as f64 / mhz;
    if us >= 1e6 {
        format!("{:.3} s", us / 1e6)
    } else if us >= 1e3 {
        format!("{:.3} ms", us / 1e3)
    } else {
        format!("{us:.3} µs")
    }
}

/// The header lines and JSON fields every report starts with.
fn header(arch: &Arch, circuit: &dyn Circuit, a: &SimArgs, mhz: f64, what: &str) -> (String, Value) {
    let text = format!(
        "redc sim {}: {what} (seed {})\n  paper           {}\n  datapath        {}-bit digits, size parameter {}, R = 2^{}, inputs below {}\n  clock           {} MHz{}\n",
        arch.name(),
        a.seed,
        arch.paper().citation(),
        circuit.digit_bits(),
        circuit.digits(),
        circuit.r_log2(),
        bound_words(circuit),
        (mhz * 1e4).round() / 1e4,
        if a.mhz.is_some() || mhz == circuit.clock_mhz() {
            String::new()
        } else {
            format!(
                " (the whole processor's; the circuit alone: {} MHz)",
                (circuit.clock_mhz() * 1e4).round() / 1e4
            )
        },
    );
    let json = json!({
        "arch": arch.name(),
        "paper": arch.paper().file(),
        "citation": arch.paper().citation().json(),
        "bits": a.bits,
        "seed": a.seed,
        "modulus": format!("0x{}", circuit.modulus().to_hex()),
        "digit_bits": circuit.digit_bits(),
        "size_parameter": circuit.digits(),
        "r_log2": circuit.r_log2(),
        "mhz": mhz,
        "circuit_mhz": circuit.clock_mhz(),
    });
    (text, json)
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
/// `vcd`, its trace written there (see [`write_vcd`]).
fn product_check(
    circuit: &dyn Circuit,
    rng: &mut Seeded,
    mhz: f64,
    vcd: Option<&Path>,
) -> anyhow::Result<(String, Value)> {
    let bound = circuit.operand_bound();
    let (x, y) = (rng.below(&bound), rng.below(&bound));
    let run = circuit.multiply(&x, &y, None).map_err(hw_error)?;
    let n = circuit.modulus();
    let congruent = reference::reduce(&run.value.shl(circuit.r_log2()), n) == reference::reduce(&x.mul(&y), n);
    if !(congruent && run.value < bound) {
        anyhow::bail!(
            "model {} disagrees with redc's reference: a=0x{} b=0x{} gave 0x{}",
            circuit.arch().name(),
            x.to_hex(),
            y.to_hex(),
            run.value.to_hex()
        );
    }
    let util = circuit.utilization();
    let mut text = format!(
        "  product         ok: a·b·2^-{} mod n equals redc's reference\n                  {} cycles, {}",
        circuit.r_log2(),
        grouped(run.cycles),
        duration(run.cycles, mhz)
    );
    if let Some(u) = util {
        text += &format!("; multiplier utilization {:.1}%", 100.0 * u);
    }
    text.push('\n');
    let mut json = json!({ "ok": true, "cycles": run.cycles, "time_us": run.cycles as f64 / mhz, "utilization": util });
    if let Some(path) = vcd {
        let (rows, per) = write_vcd(circuit, &x, &y, mhz, path)?;
        text += &format!("  vcd             {}: {rows} rows, one per {per}\n", path.display());
        json["vcd"] = json!({ "file": path.display().to_string(), "rows": rows, "per": per });
    }
    Ok((text, json))
}

/// The product's trace as a VCD at `path`: one row per clock where the
/// model has a clock-level schedule (at the clock `mhz`), else one per
/// iteration. Returns the rows and what each stands for.
fn write_vcd(circuit: &dyn Circuit, x: &Big, y: &Big, mhz: f64, path: &Path) -> anyhow::Result<(usize, &'static str)> {
    let (steps, rows, per) = match circuit.clock_trace(x, y) {
        Some(steps) => {
            let period_ps = (1e6 / mhz).round().max(2.0) as u64;
            (steps.map_err(hw_error)?, vcd::Rows::Clock { period_ps }, "clock")
        }
        None => {
            let mut steps = Vec::new();
            circuit.multiply(x, y, Some(&mut steps)).map_err(hw_error)?;
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
    let mut sink = Sink::open_public(Some(path), "--vcd")?;
    sink.writer().write_all(text.as_bytes())?;
    sink.finish()?;
    Ok((steps.len(), per))
}

/// Throughput of `cores` circuits, each completing an operation on `bits`
/// bits in `cycles`.
fn throughput(circuit: &dyn Circuit, cycles: u64, cores: u32, bits: usize, mhz: f64) -> (String, Value) {
    let total = circuit.parallel_cycles(cycles, cores);
    let kbps = bits as f64 * f64::from(cores) * mhz * 1e3 / total as f64;
    let (core, op) = if cores == 1 {
        ("core", "operation")
    } else {
        ("cores", "operations")
    };
    let loading = if total > cycles {
        ", operand loading included"
    } else {
        ""
    };
    let text = format!(
        "  throughput      {cores} {core}: {kbps:.3} kbit/s ({} cycles for {cores} {op}{loading})\n",
        grouped(total)
    );
    (text, json!({ "cores": cores, "cycles": total, "kbit_per_s": kbps }))
}

fn plain(arch: &Arch, a: &SimArgs, rng: &mut Seeded, bits: usize) -> anyhow::Result<Report> {
    let n = rng.odd_modulus(bits);
    let circuit = build(arch, &n, a.radix).map_err(hw_error)?;
    let mhz = clock(a, circuit.as_ref())?;
    let (exp, exp_text) = exponent(a.exp.as_deref().unwrap_or("worst"), bits, rng)?;
    let (mut text, mut json) = header(arch, circuit.as_ref(), a, mhz, &format!("random {bits}-bit modulus"));
    let (ptext, pjson) = product_check(circuit.as_ref(), rng, mhz, a.vcd.as_deref())?;
    text += &ptext;
    let base = rng.below(&n);
    let run = if a.ladder {
        circuit.ladder(&base, &exp).ok_or_else(|| {
            bad_input!(
                "--ladder: {}'s paper proposes no Montgomery powering ladder (004's Perin arrays do, §6)",
                arch.name()
            )
        })?
    } else {
        circuit.exponentiate(&base, &exp)
    }
    .map_err(hw_error)?;
    if run.value != reference::modpow(&base, &exp, &n) {
        anyhow::bail!(
            "model {} disagrees with redc's modpow for base 0x{}",
            arch.name(),
            base.to_hex()
        );
    }
    let how = if a.ladder {
        " (Montgomery powering ladder, 004 §6)"
    } else {
        ""
    };
    text += &format!(
        "  exponent        {exp_text}\n  exponentiation  ok{how}: equals redc's modpow\n                  {} products, {} cycles, {}\n",
        grouped(run.products),
        grouped(run.cycles),
        duration(run.cycles, mhz)
    );
    let (ttext, tjson) = throughput(circuit.as_ref(), run.cycles, a.cores, bits, mhz);
    text += &ttext;
    json["product"] = pjson;
    json["exponent"] = json!({ "value": format!("0x{}", exp.to_hex()), "bits": exp.bits(), "what": exp_text });
    json["exponentiation"] = json!({
        "ok": true, "ladder": a.ladder, "products": run.products, "cycles": run.cycles, "time_us": run.cycles as f64 / mhz,
    });
    json["throughput"] = tjson;
    Ok(Report { text, json })
}

fn crt(arch: &Arch, a: &SimArgs, rng: &mut Seeded, bits: usize) -> anyhow::Result<Report> {
    if bits < 32 {
        return Err(bad_input!(
            "--bits: --crt needs a modulus of at least 32 bits, not {bits}"
        ));
    }
    // Check the architecture, mode, exponent and radix before spending time on primes.
    crt_support(arch, a.parallel).map_err(hw_error)?;
    let worst = match a.exp.as_deref() {
        None | Some("key") => false,
        Some("worst") if *arch == fdfm::ARCH => true,
        Some("worst") => {
            return Err(bad_input!(
                "--exp: worst with --crt is 001's Eq. 10 (fdfm); {} decrypts with the key's d only (--exp key)",
                arch.name()
            ));
        }
        Some(other) => {
            return Err(bad_input!(
                "--exp: with --crt the exponent is the key's d (key) or, for fdfm, Eq. 10's worst case (worst); not {other}"
            ));
        }
    };
    build(arch, &rng.odd_modulus(bits / 2), a.radix).map_err(hw_error)?;
    let key = rng.crt_key(bits);
    let half = build(arch, &key.p, a.radix).map_err(hw_error)?;
    // The full-size circuit: its loading for --cores (001 §5.3: 320·d1), and
    // its clock when the halves run in parallel on it (002 Table 4).
    let full = build(arch, &key.n, a.radix).map_err(hw_error)?;
    let mhz = clock(a, if a.parallel { full.as_ref() } else { half.as_ref() })?;
    let c = rng.below(&key.n);
    let run: CrtRun = crt_decrypt(arch, &key, &c, a.radix, a.parallel).map_err(hw_error)?;
    if run.value != reference::modpow(&c, &key.d, &key.n) {
        anyhow::bail!("model {} CRT decryption disagrees with redc's modpow", arch.name());
    }
    let what = format!(
        "random {bits}-bit key n = p·q, e = 65537, CRT halves of {} bits",
        key.p.bits()
    );
    let (mut text, mut json) = header(arch, half.as_ref(), a, mhz, &what);
    let (ptext, pjson) = product_check(half.as_ref(), rng, mhz, a.vcd.as_deref())?;
    text += &ptext;
    let mode = if a.parallel {
        "two halves in parallel"
    } else {
        "halves one after the other"
    };
    text += &format!(
        "  CRT decryption  ok: c^d mod n equals redc's modpow ({mode})\n                  {} cycles, {}\n",
        grouped(run.cycles),
        duration(run.cycles, mhz)
    );
    let width = run
        .phases
        .iter()
        .map(|(name, _)| name.chars().count())
        .max()
        .unwrap_or(0);
    for (name, cycles) in &run.phases {
        text += &format!("                    {name:<width$}  {:>12} cycles\n", grouped(*cycles));
    }
    // 001 Eq. 10 (Table 2's worst case): both halves' exponents 17·d2 one
    // bits, counted on the same schedule; it sets the time and throughput.
    let mut timed = run.cycles;
    if worst {
        let (d1, d2) = (
            fdfm::digits_for(key.n.bits()),
            fdfm::digits_for(key.p.bits().max(key.q.bits())),
        );
        let phases = fdfm::crt_worst_case(d1, d2, 17 * d2);
        timed = phases.iter().map(|(_, c)| c).sum();
        text += &format!(
            "  worst case      Eq. 10, both half exponents {} one bits (Table 2): {} cycles, {}\n",
            17 * d2,
            grouped(timed),
            duration(timed, mhz)
        );
        json["worst_case"] = json!({ "exp_bits": 17 * d2, "cycles": timed, "time_us": timed as f64 / mhz });
    }
    let (ttext, tjson) = throughput(full.as_ref(), timed, a.cores, bits, mhz);
    text += &ttext;
    json["product"] = pjson;
    json["crt"] = json!({
        "ok": true,
        "parallel": a.parallel,
        "cycles": run.cycles,
        "time_us": run.cycles as f64 / mhz,
        "phases": run.phases.iter().map(|(n, c)| json!({ "phase": n, "cycles": c })).collect::<Vec<_>>(),
    });
    json["throughput"] = tjson;
    Ok(Report { text, json })
}

/// `redc sim --table PAPER`.
fn tables(paper: &str, as_json: bool) -> anyhow::Result<ExitCode> {
    let papers: Vec<Paper> = if paper == "all" {
        Paper::all()
    } else {
        vec![Paper::from_name(paper).ok_or_else(|| {
            let all: Vec<&str> = Paper::all().into_iter().map(Paper::name).collect();
            bad_input!("--table: unknown paper '{paper}'; one of {}, all", all.join(", "))
        })?]
    };
    let tables: Vec<(Paper, Table)> = papers
        .into_iter()
        .flat_map(|p| p.tables().into_iter().map(move |t| (p, t)))
        .collect();
    let unexplained: usize = tables.iter().map(|(_, t)| t.unexplained().len()).sum();
    let text = if as_json {
        let all: Vec<Value> = tables.iter().map(|(p, t)| table_json(*p, t)).collect();
        format!("{}\n", serde_json::to_string_pretty(&all)?)
    } else {
        // Each paper's tables under its citation.
        let mut out = String::new();
        let mut last = None;
        for (p, t) in &tables {
            if !out.is_empty() {
                out.push('\n');
            }
            if last != Some(*p) {
                out += &format!("# {}\n\n", p.citation());
                last = Some(*p);
            }
            out += &render(t);
        }
        out
    };
    let mut out = std::io::stdout().lock();
    out.write_all(text.as_bytes())?;
    out.flush()?;
    if unexplained > 0 {
        anyhow::bail!("{unexplained} figures differ from the paper without a note");
    }
    Ok(ExitCode::SUCCESS)
}

/// A figure at `decimals` places.
fn fixed(x: f64, decimals: u32) -> String {
    format!("{x:.*}", decimals as usize)
}

/// Text for a Markdown table cell: a `|` (as in `|Dp| = |Dq|`) escaped so
/// that it does not end the cell.
fn cell(text: &str) -> String {
    text.replace('|', "\\|")
}

/// One table as Markdown, notes below; a list with no entries
/// ([`Table::is_list`]) as its notes, one item a line.
pub(crate) fn render(t: &Table) -> String {
    let mut out = format!("{}: {}\n\n", t.source, t.title);
    if t.is_list() {
        for n in &t.notes {
            out += &format!("- {n}\n");
        }
        return out;
    }
    out += "| row | quantity | unit | paper | model | difference | note |\n|---|---|---|---:|---:|---:|---|\n";
    for e in &t.entries {
        let paper = e.paper.map_or("—".to_owned(), |p| fixed(p, e.decimals));
        let diff = e.difference().map_or("—".to_owned(), |d| fixed(d, e.decimals));
        let note = e.note.map_or(String::new(), |n| format!("[{n}]"));
        out += &format!(
            "| {} | {} | {} | {paper} | {} | {diff} | {note} |\n",
            cell(&e.row),
            cell(&e.column),
            cell(e.unit),
            fixed(e.model_rounded(), e.decimals)
        );
    }
    if !t.notes.is_empty() {
        out.push('\n');
        for (i, n) in t.notes.iter().enumerate() {
            out += &format!("[{}] {n}\n", i + 1);
        }
    }
    out
}

/// One table as JSON, with the citation of its paper (`source` keeps the
/// file name it always had).
fn table_json(paper: Paper, t: &Table) -> Value {
    json!({
        "source": t.source,
        "citation": paper.citation().json(),
        "title": t.title,
        "entries": t.entries.iter().map(|e| json!({
            "row": e.row,
            "quantity": e.column,
            "unit": e.unit,
            "paper": e.paper,
            "model": e.model,
            "decimals": e.decimals,
            "difference": e.difference(),
            "note": e.note,
        })).collect::<Vec<_>>(),
        "notes": t.notes,
    })
}
