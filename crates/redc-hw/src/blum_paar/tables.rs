//! 002's Tables 2–4 (the radix-16 rows on 002's design, the radix-2 rows
//! on its reference \[8\]'s) and the figures of §6–7, beside the model's
//! counts at Table 1's clock periods.

use super::crt::crt_total;
use super::{BlumPaar, DEFAULT_RADIX, Design, FILE, TABLE1, table1_row};
use crate::{Big, Circuit, Entry, Table, Unmodelled};

/// The array of `design` (k = 4 for 002's) for a `bits`-bit modulus (cycle
/// counts and clock depend on the size only; `2^bits − 1` stands for any
/// such modulus).
fn array_of(design: Design, bits: usize) -> BlumPaar {
    let n = Big::pow2(bits).checked_sub(&Big::one()).unwrap_or_else(Big::zero);
    match design {
        Design::HighRadix => BlumPaar::new(&n, DEFAULT_RADIX),
        Design::Radix2 => BlumPaar::radix2(&n),
    }
    .unwrap_or_else(|e| unreachable!("2^{bits} - 1 is an odd modulus: {e}"))
}

/// 002's k = 4 array for a `bits`-bit modulus.
fn array(bits: usize) -> BlumPaar {
    array_of(Design::HighRadix, bits)
}

/// Milliseconds for `cycles` at `clock_mhz`.
fn ms(cycles: u64, clock_mhz: f64) -> f64 {
    cycles as f64 / clock_mhz / 1000.0
}

/// Adds a time entry (ms, 2 decimals) and, where the model's figure at
/// Table 1's printed period differs from the paper's, the note that gives
/// the period the paper's figure implies.
fn push_time(table: &mut Table, row: &str, cycles: u64, clock_mhz: f64, paper: f64) {
    let entry = Entry::new(row, "T", "ms", Some(paper), 2, ms(cycles, clock_mhz));
    if entry.matches() {
        table.push(entry);
        return;
    }
    let period = 1000.0 / clock_mhz;
    let (lo, hi) = (
        (paper - 0.005) * 1e6 / cycles as f64,
        (paper + 0.005) * 1e6 / cycles as f64,
    );
    if hi <= period - 0.05 || lo >= period + 0.05 {
        let printed = format!("{:.2}", entry.model_rounded());
        let digits = |s: &str| {
            let mut d: Vec<char> = s.chars().filter(char::is_ascii_digit).collect();
            d.sort_unstable();
            d
        };
        let swapped = if digits(&printed) == digits(&format!("{paper:.2}")) {
            format!(", the model's {printed} with its digits in another order")
        } else {
            String::new()
        };
        let note = table.note(format!(
            "inconsistent in the paper: {cycles} cycles × {period:.1} ns (Table 1) = {:.4} ms; the printed \
             {paper:.2} needs a period in [{lo:.3}, {hi:.3}) ns, outside the [{:.2}, {:.2}) ns that Table 1's \
             {period:.1} stands for, so it does not follow from Table 1 and the count 2(n+2)(m+4) that §5.2's F4 \
             formula implies (and the row's other sizes match){swapped}",
            entry.model,
            period - 0.05,
            period + 0.05,
        ));
        table.push_noted(entry, note);
        return;
    }
    let note = table.note(format!(
        "{cycles} cycles × {period:.1} ns (Table 1) = {:.4} ms, which rounds to {:.2}; the printed {paper:.2} \
         needs a period in [{lo:.3}, {hi:.3}) ns, which overlaps the [{:.2}, {:.2}) ns that Table 1's \
         {period:.1} stands for: the paper computed with the unrounded period",
        entry.model,
        entry.model_rounded(),
        period - 0.05,
        period + 0.05,
    ));
    table.push_noted(entry, note);
}

/// Adds the CLB entry for `arrays` arrays of the `bits`-bit Table 1 design.
fn push_clbs(table: &mut Table, row: &str, a: &BlumPaar, arrays: u32, paper: f64, note: usize) {
    let clbs = f64::from(arrays * table1_row(a.design(), a.n.bits()).1);
    table.push_noted(Entry::new(row, "C", "CLBs", Some(paper), 0, clbs), note);
}

/// Adds the cycle count the paper prints only as a formula.
fn push_cycles(table: &mut Table, row: &str, cycles: u64, note: usize) {
    table.push_noted(Entry::new(row, "cycles", "cycles", None, 0, cycles as f64), note);
}

/// Note for the CLB columns.
const CLB_NOTE: &str = "CLBs are not modelled: the figure is Table 1's for the design used (one array of that size; \
     Table 4: one half-size array serially, two in parallel, 2×1818 = 3636 and 2×3413 = 6826, radix 2: 2×1307 = 2614 and \
     2×2555 = 5110), a consistency check \
     of the paper, not a model output";

/// The row name of a size on `a`'s design ("512 bit", "512 bit, radix 2 \[8\]").
fn row_name(a: &BlumPaar, what: &str) -> String {
    match a.design() {
        Design::HighRadix => format!("{} bit{what}", a.n.bits()),
        Design::Radix2 => format!("{} bit{what}, radix 2 [8]", a.n.bits()),
    }
}

/// 002's cells the model does not derive (`redc sim --table` lists them).
pub const UNMODELLED: &Unmodelled = &[
    (
        "Table 1, every cell (C and T, radix 16 and radix 2, 160 to 1024 bits)",
        "Xilinx place-and-route results: T is the models' clock (input), C appears in Tables 2–4 only as a \
         consistency check of the paper",
    ),
    (
        "Tables 2–4, the C columns",
        "Table 1's CLBs for the design each row uses (two arrays for parallel CRT), not a model output",
    ),
    (
        "Tables 1–4, the radix-2 rows' design itself",
        "002 gives [8]'s cost only as §5.2's 2·19(m+4); blum-paar-radix2 counts that formula on 002's array at \
         k = 1, so its values are Alg. 3.2's, not checked against [8]'s array, which is not among the papers",
    ),
    (
        "§6–7, the other works' times (9.1 ms [3], 43.3 ms [15], 1.7 and 5.2 ms [2])",
        "quoted; only the speed-up ratios are recomputed",
    ),
];

/// The paper's tables beside the model's figures: Tables 2, 3 and 4 (the
/// radix-16 rows on 002's design, the radix-2 rows on its reference \[8\]'s,
/// [`Design::Radix2`]) and the figures of §6–7. Times are the model's
/// cycle counts at Table 1's clock periods.
pub fn tables() -> Vec<Table> {
    let (a256, a485, a512, a768, a970, a1024) =
        (array(256), array(485), array(512), array(768), array(970), array(1024));
    let r2 = |bits| array_of(Design::Radix2, bits);
    let (r256, r512, r768, r1024) = (r2(256), r2(512), r2(768), r2(1024));
    let exp_full = |a: &BlumPaar| a.exponentiation_cycles(a.n.bits());
    let f4_bits = 17;

    let mut t2 = Table::new(
        format!("{FILE} Table 2"),
        "Full modular exponentiation, radix 16 and radix 2 [8] (n-bit exponent)",
    );
    let clb = t2.note(CLB_NOTE);
    let cyc = t2.note(
        "the paper prints the formula 2(n+2)(m+10) (§5.1), no figure: the model counts n + 2 slots of \
         2^k − 2 + 2(m+3) = 2m + 20 cycles, m = n/4",
    );
    let cyc2 = t2.note(
        "the paper gives [8]'s cost only as 2·19(m+4) for F4 (§5.2): the model counts n + 2 slots of 2(m+4) \
         cycles, m = n, i.e. 2(n+2)(m+4)",
    );
    let rows2 = [
        (&a512, 3413.0, 2.93, cyc),
        (&a768, 5071.0, 6.25, cyc),
        (&a1024, 6633.0, 11.95, cyc),
        (&r512, 2555.0, 9.38, cyc2),
        (&r768, 3745.0, 22.71, cyc2),
        (&r1024, 4865.0, 40.05, cyc2),
    ];
    for (a, clbs, time, cyc) in rows2 {
        let row = row_name(a, "");
        push_clbs(&mut t2, &row, a, 1, clbs, clb);
        push_time(&mut t2, &row, exp_full(a), a.clock_mhz(), time);
        push_cycles(&mut t2, &row, exp_full(a), cyc);
    }

    let mut t3 = Table::new(
        format!("{FILE} Table 3"),
        "RSA encryption with F4 = 2^16 + 1, radix 16 and radix 2 [8]",
    );
    let clb = t3.note(CLB_NOTE);
    let cyc = t3.note(
        "the paper prints the formula 2·19(m+10) (§5.2), no figure: the model counts 17 + 2 slots of 2m + 20 \
         cycles for the 17-bit exponent F4",
    );
    let cyc2 = t3.note("[8]: the paper prints the formula 2·19(m+4) (§5.2): 17 + 2 slots of 2(m+4) cycles, m = n");
    let rows3 = [
        (&a512, 3413.0, 0.11, cyc),
        (&a1024, 6633.0, 0.22, cyc),
        (&r512, 2555.0, 0.35, cyc2),
        (&r1024, 4865.0, 0.75, cyc2),
    ];
    for (a, clbs, time, cyc) in rows3 {
        let row = row_name(a, "");
        push_clbs(&mut t3, &row, a, 1, clbs, clb);
        push_time(&mut t3, &row, a.exponentiation_cycles(f4_bits), a.clock_mhz(), time);
        push_cycles(&mut t3, &row, a.exponentiation_cycles(f4_bits), cyc);
    }

    let mut t4 = Table::new(
        format!("{FILE} Table 4"),
        "RSA decryption with the CRT, radix 16 and radix 2 [8]",
    );
    let clb = t4.note(CLB_NOTE);
    let cyc = t4.note(
        "the paper prints no cycle figure: the model's two half-size exponentiations with full-length \
         (n/2-bit) exponents, added (serial) or overlapped (parallel)",
    );
    let clock = t4.note(format!(
        "clock: serial runs at the half-size design's Table 1 period, parallel at the full-size design's (two \
         half-size arrays take the full-size device): 2×256 parallel at the 256-bit 21.3 ns would take {:.4} ms, \
         not 0.79; at 1024 bits §5.2's 'slower delay specifications of the larger devices' is 21.9 ns against 20.7",
        ms(exp_full(&a256), a256.clock_mhz())
    ));
    let clock2 = t4.note(format!(
        "clock, radix 2 [8]: the same rule at Table 1's radix-2 periods: 2×256 parallel at the 256-bit 17.5 ns \
         would take {:.4} ms, not 2.37; at 17.7 ns (the 512-bit design) {:.4}",
        ms(exp_full(&r256), r256.clock_mhz()),
        ms(exp_full(&r256), r512.clock_mhz())
    ));
    let crt_rows = [
        (&a256, &a512, 1818.0, 1.62, 3636.0, 0.79),
        (&a512, &a1024, 3413.0, 5.87, 6826.0, 3.10),
        (&r256, &r512, 1307.0, 4.69, 2614.0, 2.37),
        (&r512, &r1024, 2555.0, 18.78, 5110.0, 10.18),
    ];
    for (half, full, c_serial, t_serial, c_parallel, t_parallel) in crt_rows {
        let h = exp_full(half);
        for (parallel, clbs, time) in [(false, c_serial, t_serial), (true, c_parallel, t_parallel)] {
            let mode = format!(", 2×{} {}", half.n.bits(), if parallel { "parallel" } else { "serial" });
            let row = row_name(full, &mode);
            let clock_mhz = if parallel { full.clock_mhz() } else { half.clock_mhz() };
            push_clbs(&mut t4, &row, half, 1 + u32::from(parallel), clbs, clb);
            push_time(&mut t4, &row, crt_total(parallel, h, h), clock_mhz, time);
            let last = t4.entries.len() - 1;
            t4.entries[last].note.get_or_insert(match half.design() {
                Design::HighRadix => clock,
                Design::Radix2 => clock2,
            });
            push_cycles(&mut t4, &row, crt_total(parallel, h, h), cyc);
        }
    }

    vec![
        t2,
        t3,
        t4,
        sections_6_7(&a256, &a485, &a512, &a970, &a1024),
        section_5_1_text(),
    ]
}

/// §5.1's claims about Table 1 (radix 16): "6 CLBs per bit of the
/// modulus" in the units and "between 300 CLBs for the 160-bit design and
/// 500 CLBs for the 1024-bit design" of overhead; the optimal-routing
/// delays "14.7 ns" (160–512 bits) and "15.7 ns" (larger designs) and "the
/// additional routing delay is about 30% above the optimal propagation
/// delay". Recomputed from Table 1's own figures (the model takes them as
/// given, see the unmodelled list).
fn section_5_1_text() -> Table {
    let mut t = Table::new(
        format!("{FILE} §5.1"),
        "The text's claims about Table 1 (radix 16), recomputed from Table 1's figures",
    );
    let overhead = |bits: usize, clbs: u32| f64::from(clbs) - 6.0 * bits as f64;
    let all: Vec<String> = TABLE1
        .iter()
        .map(|&(bits, clbs, _)| format!("{} at {bits} bits", overhead(bits, clbs)))
        .collect();
    let note = t.note(format!(
        "Table 1's C minus §5.1's 6 CLBs per bit: {}; the 160-bit design's overhead is 259 CLBs, not about 300, \
         and the 1024-bit design's 489 is about 500",
        all.join(", ")
    ));
    for &(bits, clbs, _) in [TABLE1[0], TABLE1[4]].iter() {
        let paper = if bits == 160 { 300.0 } else { 500.0 };
        let entry = Entry::new(
            format!("{bits}-bit design"),
            "overhead (C − 6 CLBs per bit)",
            "CLBs",
            Some(paper),
            0,
            overhead(bits, clbs),
        );
        t.push_noted(entry, note);
    }
    let optimal = |bits: usize| if bits <= 512 { 14.7 } else { 15.7 };
    let above = |bits: usize, period: f64| (period / optimal(bits) - 1.0) * 100.0;
    let all: Vec<String> = TABLE1
        .iter()
        .map(|&(bits, _, ns)| format!("{:.1} % at {bits} bits", above(bits, ns)))
        .collect();
    let mean = TABLE1.iter().map(|&(bits, _, ns)| above(bits, ns)).sum::<f64>() / TABLE1.len() as f64;
    let note = t.note(format!(
        "Table 1's T over §5.1's optimal-routing delay (14.7 ns up to 512 bits, 15.7 ns above): {}, mean {mean:.1} \
         %; 'about 30%' holds at 768 bits only",
        all.join(", ")
    ));
    for &(bits, _, ns) in &TABLE1 {
        let entry = Entry::new(
            format!("{bits}-bit design"),
            "routing delay above optimal",
            "%",
            Some(30.0),
            0,
            above(bits, ns),
        );
        if entry.matches() {
            t.push(entry);
        } else {
            t.push_noted(entry, note);
        }
    }
    t
}

/// §6–7's figures: the fastest decryption times, the 1024-bit clock and the
/// speed-ups over earlier work (whose times the paper quotes).
fn sections_6_7(a256: &BlumPaar, a485: &BlumPaar, a512: &BlumPaar, a970: &BlumPaar, a1024: &BlumPaar) -> Table {
    let mut t = Table::new(
        format!("{FILE} §6–7"),
        "Fastest RSA decryption (CRT, parallel halves) and comparisons",
    );
    let parallel_ms = |half: &BlumPaar, full: &BlumPaar| {
        let h = half.exponentiation_cycles(half.n.bits());
        ms(crt_total(true, h, h), full.clock_mhz())
    };
    let (t512, t970, t1024) = (
        parallel_ms(a256, a512),
        parallel_ms(a485, a970),
        parallel_ms(a512, a1024),
    );
    t.push(Entry::new("512 bit, 2×256 parallel", "T", "ms", Some(0.8), 1, t512));
    t.push(Entry::new(
        "1024 bit, 2×512 parallel (also abstract, §7)",
        "T",
        "ms",
        Some(3.1),
        1,
        t1024,
    ));
    let n970 = t.note(format!(
        "the paper does not say how the 970-bit figure was computed; the model takes two 485-bit halves \
         (m = {}) in parallel at the 1024-bit design's {:.1} ns, {:.4} ms",
        a485.m,
        1000.0 / a970.clock_mhz(),
        t970
    ));
    t.push_noted(
        Entry::new("970 bit, 2×485 parallel", "T", "ms", Some(2.8), 1, t970),
        n970,
    );
    let clock = a1024.clock_mhz();
    let n_clock = t.note(format!(
        "1000 / {:.1} ns = {clock:.3} MHz rounds to {:.1}; the paper truncates to 45.6",
        1000.0 / clock,
        (clock * 10.0).round() / 10.0
    ));
    t.push_noted(
        Entry::new("1024-bit design (§7)", "clock", "MHz", Some(45.6), 1, clock),
        n_clock,
    );
    let speedups = [
        (
            "over 512-bit software, 9.1 ms [3] ('about 11')",
            9.1,
            t512,
            11.0,
            0,
            0.8,
        ),
        ("over 1024-bit software, 43.3 ms [15]", 43.3, t1024, 14.0, 0, 3.1),
        ("of [2]'s 512-bit FPGA, 1.7 ms", 1.7, t512, 2.1, 1, 0.8),
        ("of [2]'s 970-bit FPGA, 5.2 ms", 5.2, t970, 1.8, 1, 2.8),
    ];
    for (row, theirs, ours, paper, decimals, printed) in speedups {
        let entry = Entry::new(
            format!("speed-up {row}"),
            "factor",
            "×",
            Some(paper),
            decimals,
            theirs / ours,
        );
        if entry.matches() {
            t.push(entry);
        } else {
            let note = t.note(format!(
                "{theirs} / {ours:.4} = {:.3}; the paper divided by its rounded {printed} ms: {theirs} / {printed} = {:.3}",
                entry.model,
                theirs / printed
            ));
            t.push_noted(entry, note);
        }
    }
    t
}
