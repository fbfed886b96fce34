//! 001's Table 2, Table 3, Fig. 6 and the figures of the abstract, §1 and
//! §6, beside the model's counts.

use super::crt::total;
use super::datapath::{Modulus, mm_counts};
use super::processor::Fdfm;
use super::{
    CLOCK_MHZ, CLOCK_MHZ_MULTICORE, CLOCK_MHZ_PREVIOUS, DIGIT_BITS, FILE, PAPER_CORES, crt_worst_case, digits_for,
    exp_worst_case, throughput_kbps, time_ms,
};
use crate::{Big, Circuit, Entry, Table, Unmodelled};

/// 001's cells the model does not derive (`redc sim --table` lists them).
pub const UNMODELLED: &Unmodelled = &[
    (
        "Table 1, every cell (slices 140 and 34,635; block RAMs 1 and 320; DSP48E1s 1 and 320; 336.700 and \
         325.098 MHz)",
        "ISE synthesis results. The two clocks are the model's inputs (one core, and more than one); the one \
         multiplier and one RAM per core are the model's structure, not a count it derives. rtl/'s fdfm_mm, \
         synthesized by Yosys (make -C rtl synth), maps to 1 DSP48E1 but its RAM to LUT-RAM",
    ),
    (
        "Table 3, the other works' execution times, devices and clocks",
        "quoted from the cited papers; only the throughput rule (1024 bits / time) is recomputed",
    ),
    (
        "Fig. 6 (the utilization curve)",
        "plotted, no values printed; the model gives Eq. 7 / Eq. 8 and its count of DSP issues beside §5.1.2's \
         claims",
    ),
];

/// The paper's tables beside the model's figures: Table 2, Table 3, Fig. 6
/// and the figures the abstract, §1 and §6 print.
pub fn tables() -> Vec<Table> {
    vec![table2(), table3(), fig6(), text_figures()]
}

/// One row of Table 2 as printed.
struct Table2Row {
    r: usize,
    d1: usize,
    d2: usize,
    cycles: f64,
    crt_ms: f64,
    plain_ms: f64,
}

/// Table 2 as printed.
const TABLE2: [Table2Row; 6] = [
    Table2Row {
        r: 64,
        d1: 4,
        d2: 2,
        cycles: 4_312.0,
        crt_ms: 0.013,
        plain_ms: 0.020,
    },
    Table2Row {
        r: 128,
        d1: 8,
        d2: 4,
        cycles: 19_768.0,
        crt_ms: 0.059,
        plain_ms: 0.113,
    },
    Table2Row {
        r: 256,
        d1: 16,
        d2: 8,
        cycles: 110_392.0,
        crt_ms: 0.328,
        plain_ms: 0.742,
    },
    Table2Row {
        r: 512,
        d1: 31,
        d2: 16,
        cycles: 713_048.0,
        crt_ms: 2.118,
        plain_ms: 4.995,
    },
    Table2Row {
        r: 1024,
        d1: 61,
        d2: 31,
        cycles: 4_625_348.0,
        crt_ms: 13.737,
        plain_ms: 36.402,
    },
    Table2Row {
        r: 2048,
        d1: 121,
        d2: 61,
        cycles: 33_067_148.0,
        crt_ms: 98.210,
        plain_ms: 277.413,
    },
];

/// Eq. 10 by counting: worst-case CRT cycles for `d1`, `d2` digits.
fn crt_cycles(d1: usize, d2: usize) -> u64 {
    total(&crt_worst_case(d1, d2, DIGIT_BITS as usize * d2))
}

/// Ref. \[4\]'s non-CRT worst case for an R-bit modulus: Alg. 2 over R one bits.
fn plain_cycles(r: usize) -> u64 {
    exp_worst_case(digits_for(r), r)
}

/// Pushes `e`, with a note from `why` if it differs from the paper.
fn push_or_note(t: &mut Table, e: Entry, why: impl FnOnce(&Entry) -> String) {
    if e.matches() {
        t.push(e);
    } else {
        let note = t.note(why(&e));
        t.push_noted(e, note);
    }
}

/// Table 2: worst-case CRT decryption, cycles and times, by Eq. 10 counted.
fn table2() -> Table {
    let mut t = Table::new(
        format!("{FILE} Table 2"),
        "Execution time of the CRT based RSA decryption circuit, worst case (every exponent bit 1)",
    );
    let attainable = t.note(
        "Not printed. Eq. 10 (and so Table 2) runs Alg. 2 over 17·d2 exponent bits, all 1: 527 bits for R = 1024, \
         more than D_p < p − 1 < 2^(R/2) can have. With |D_p| = |D_q| = R/2 bits all 1 and the model's digits \
         (17d >= R + 3) the worst case is this figure.",
    );
    for row in &TABLE2 {
        let label = format!("R={}", row.r);
        let d2 = digits_for(row.r / 2);
        let cycles = crt_cycles(row.d1, row.d2);
        let mut d2_note = None;
        if d2 != row.d2 {
            let with_d2 = crt_cycles(row.d1, d2);
            d2_note = Some(t.note(format!(
                "The paper's d2 = {} for {}-bit primes has 17·{} = {} < {} + 3 bits, against its own condition \
                 17d >= R + 3 (§5.1); the model's rule gives d2 = {d2}. Both are computed: at the paper's d2 the \
                 model reproduces the row ({cycles} cycles), at d2 = {d2} it takes {with_d2} cycles \
                 ({:.3} ms), {} more. The paper's d2 = {} still meets 17d >= R + 2, which is enough for operands \
                 below 2p (build_with_digits), so its products are still correct.",
                row.d2,
                row.r / 2,
                row.d2,
                17 * row.d2,
                row.r / 2,
                time_ms(with_d2, CLOCK_MHZ),
                with_d2 - cycles,
                row.d2,
            )));
        }
        t.push(Entry::new(
            &label,
            "blocks d1",
            "",
            Some(row.d1 as f64),
            0,
            digits_for(row.r) as f64,
        ));
        let e = Entry::new(&label, "blocks d2", "", Some(row.d2 as f64), 0, d2 as f64);
        match d2_note {
            Some(n) => t.push_noted(e, n),
            None => t.push(e),
        }
        t.push(Entry::new(
            &label,
            "clock cycles",
            "cycles",
            Some(row.cycles),
            0,
            cycles as f64,
        ));
        t.push(Entry::new(
            &label,
            "time with CRT",
            "ms",
            Some(row.crt_ms),
            3,
            time_ms(cycles, CLOCK_MHZ),
        ));
        let plain = plain_cycles(row.r);
        let e = Entry::new(
            &label,
            "time without CRT in [4]",
            "ms",
            Some(row.plain_ms),
            3,
            time_ms(plain, CLOCK_MHZ_PREVIOUS),
        );
        push_or_note(&mut t, e, |e| {
            format!(
                "[4]'s core runs Alg. 2 over R = {} one bits: (2·{} + 3) products of {} cycles (Eq. 8, d = {}) = \
                 {plain} cycles, {:.5} ms at 447.027 MHz, which rounds to {:.3}; the paper prints {:.3}, the value \
                 truncated, while its other rows round to nearest (R = 64: {:.5} ms printed 0.020).",
                row.r,
                row.r,
                mm_counts(row.d1, row.d1).clk,
                row.d1,
                e.model,
                e.model_rounded(),
                row.plain_ms,
                time_ms(plain_cycles(64), CLOCK_MHZ_PREVIOUS),
            )
        });
        if let Some(n) = d2_note {
            let with_d2 = crt_cycles(row.d1, d2);
            t.push_noted(
                Entry::new(
                    &label,
                    format!("clock cycles, d2 = {d2}"),
                    "cycles",
                    None,
                    0,
                    with_d2 as f64,
                ),
                n,
            );
            t.push_noted(
                Entry::new(
                    &label,
                    format!("time with CRT, d2 = {d2}"),
                    "ms",
                    None,
                    3,
                    time_ms(with_d2, CLOCK_MHZ),
                ),
                n,
            );
        }
        let reachable = total(&crt_worst_case(digits_for(row.r), d2, row.r / 2));
        t.push_noted(
            Entry::new(
                &label,
                "clock cycles, |Dp| = |Dq| = R/2 bits",
                "cycles",
                None,
                0,
                reachable as f64,
            ),
            attainable,
        );
    }
    t
}

/// Table 3: 1024-bit decryption against other works, one core and 320.
fn table3() -> Table {
    let mut t = Table::new(
        format!("{FILE} Table 3"),
        "Comparison for 1024-bit RSA decryption (execution time, throughput)",
    );
    let others = t.note(
        "Other works: the throughput is Table 3's rule, 1024 bits / execution time, applied to the time the paper \
         prints for them (their times are theirs, not modelled).",
    );
    for (work, time) in [
        ("Blum [3]", 11.95),
        ("Nakano [16]", 2.52),
        ("Suzuki [18]", 1.71),
        ("Mazzeo [12]", 3.86),
        ("Alho [1]", 28.0),
        ("Itoh [11]", 11.7),
    ] {
        let paper = match work {
            "Blum [3]" => 85.690,
            "Nakano [16]" => 406.349,
            "Suzuki [18]" => 598.830,
            "Mazzeo [12]" => 265.285,
            "Alho [1]" => 36.571,
            _ => 87.521,
        };
        t.push_noted(
            Entry::new(
                work,
                "throughput",
                "kbit/s",
                Some(paper),
                3,
                throughput_kbps(1024, 1, time),
            ),
            others,
        );
    }
    let plain = time_ms(plain_cycles(1024), CLOCK_MHZ_PREVIOUS);
    push_or_note(
        &mut t,
        Entry::new("previous work [4]", "execution time", "ms", Some(36.401), 3, plain),
        |e| {
            format!(
                "[4] worst case: {} cycles at 447.027 MHz = {:.4} ms, which Table 2 prints as 36.402; Table 3 prints \
             36.401 but its own throughput 28.130 kbit/s is 1024 / 36.402 (1024 / 36.401 = {:.3}).",
                plain_cycles(1024),
                e.model,
                throughput_kbps(1024, 1, 36.401),
            )
        },
    );
    t.push(Entry::new(
        "previous work [4]",
        "throughput",
        "kbit/s",
        Some(28.130),
        3,
        throughput_kbps(1024, 1, plain),
    ));
    let cycles = crt_cycles(digits_for(1024), digits_for(512));
    let one = time_ms(cycles, CLOCK_MHZ);
    t.push(Entry::new(
        "this work (1 core)",
        "execution time",
        "ms",
        Some(13.737),
        3,
        one,
    ));
    t.push(Entry::new(
        "this work (1 core)",
        "throughput",
        "kbit/s",
        Some(74.542),
        3,
        throughput_kbps(1024, 1, one),
    ));
    let many = time_ms(cycles, CLOCK_MHZ_MULTICORE);
    t.push(Entry::new(
        "this work (320 cores)",
        "execution time",
        "ms",
        Some(14.228),
        3,
        many,
    ));
    let paper_tp = 23_031.370;
    let tp = throughput_kbps(1024, PAPER_CORES, many);
    push_or_note(
        &mut t,
        Entry::new("this work (320 cores)", "throughput", "kbit/s", Some(paper_tp), 3, tp),
        |e| {
            format!(
                "320 · 1024 bits / ({cycles} cycles / 325.098 MHz = {many:.6} ms) = {:.3} kbit/s. The paper's {paper_tp:.3} \
             is the same rule at {:.5} MHz: the synthesis clock before Table 1 rounded it to 325.098, presumably \
             (a {:.3} kbit/s rounding difference).",
                e.model,
                325.098 * paper_tp / tp,
                e.model_rounded() - paper_tp,
            )
        },
    );
    let core = Fdfm {
        m: Modulus::new(&Big::pow2(1023).add(&Big::one()), digits_for(1024)),
    };
    let load = core.parallel_cycles(0, PAPER_CORES);
    let loading = t.note(format!(
        "Not printed: §5.3 loads the inputs through the shift-register chain in 320·d1 = {load} cycles and calls \
         that small beside Eq. 10; Table 3's throughput leaves it out (the next blocks can be shifted in while the \
         cores compute). Counting it once per block (parallel_cycles) gives this figure."
    ));
    t.push_noted(
        Entry::new(
            "this work (320 cores)",
            "loading cycles 320·d1",
            "cycles",
            None,
            0,
            load as f64,
        ),
        loading,
    );
    let with_load = time_ms(core.parallel_cycles(cycles, PAPER_CORES), CLOCK_MHZ_MULTICORE);
    t.push_noted(
        Entry::new(
            "this work (320 cores)",
            "throughput, loading included",
            "kbit/s",
            None,
            3,
            throughput_kbps(1024, PAPER_CORES, with_load),
        ),
        loading,
    );
    t
}

/// Fig. 6: the multiplier's utilization, Eq. 7 / Eq. 8.
fn fig6() -> Table {
    let mut t = Table::new(
        format!("{FILE} Fig. 6"),
        "Embedded multiplier utilization rate MM_mul / MM_clk (Eq. 7 / Eq. 8)",
    );
    let util = |r: usize| {
        let c = mm_counts(digits_for(r), digits_for(r));
        (100.0 * c.mul as f64 / c.clk as f64, 100.0 * c.dsp as f64 / c.clk as f64)
    };
    let first90 = (1..)
        .find(|&d| {
            let c = mm_counts(d, d);
            10 * c.mul > 9 * c.clk
        })
        .unwrap_or(0);
    let [(u501, i501), (u512, i512), (u1024, i1024), (u2048, i2048)] = [501, 512, 1024, 2048].map(util);
    let eq7 = t.note(format!(
        "Fig. 6 prints no values; §5.1.2 claims more than 90 % for R > 500, more than 95 % at 1024 bits and more \
         than 97 % at 2048 bits. Eq. 7 / Eq. 8, (2d^2 + d) / (2d^2 + 8d + 4), gives {u501:.2} % at R = 501 (d = 30), \
         {u512:.2} % at 512 (d = 31), {u1024:.2} % at 1024 (d = 61) and {u2048:.2} % at 2048 (d = 121): the 500- and \
         1024-bit claims fail by the paper's own equations (Eq. 7 / Eq. 8 first exceeds 90 % at d = {first90}, \
         R >= {}).",
        17 * (first90 - 1) - 2,
    ));
    let dsp = t.note(format!(
        "Not printed: counting every product the DSP slice issues, 2(d + 1) per outer iteration (the zero digits X_d, \
         M_d included) plus 2 for q, over Eq. 8 gives {i501:.2} %, {i512:.2} %, {i1024:.2} % and {i2048:.2} %, which \
         meets all three claims: probably what Fig. 6 plotted."
    ));
    for (r, (u, i)) in [
        (501, (u501, i501)),
        (512, (u512, i512)),
        (1024, (u1024, i1024)),
        (2048, (u2048, i2048)),
    ] {
        let label = format!("R={r}");
        t.push_noted(
            Entry::new(&label, "MM_mul / MM_clk (Eq. 7 / Eq. 8)", "%", None, 2, u),
            eq7,
        );
        t.push_noted(Entry::new(&label, "DSP issues / MM_clk", "%", None, 2, i), dsp);
    }
    t
}

/// The 1024-bit figures the abstract, §1 and §6 print.
fn text_figures() -> Table {
    let mut t = Table::new(
        format!("{FILE} abstract, §1, §6"),
        "Figures the text prints for 1024-bit decryption",
    );
    let cycles = crt_cycles(digits_for(1024), digits_for(512));
    let crt = time_ms(cycles, CLOCK_MHZ);
    let plain = time_ms(plain_cycles(1024), CLOCK_MHZ_PREVIOUS);
    t.push(Entry::new(
        "abstract",
        "1024-bit decryption time",
        "ms",
        Some(13.74),
        2,
        crt,
    ));
    t.push(Entry::new(
        "§1",
        "1024-bit decryption cycles",
        "cycles",
        Some(4_625_348.0),
        0,
        cycles as f64,
    ));
    push_or_note(
        &mut t,
        Entry::new("§6", "1024-bit decryption time", "ms", Some(11.263), 3, crt),
        |e| {
            format!(
                "§6 says 11.263 ms; the abstract, §1, Table 2 and Table 3 give {cycles} cycles / 336.7 MHz = {:.3} ms. \
             11.263 ms would take {:.1} MHz or {:.0} cycles: no figure of the paper's.",
                e.model,
                cycles as f64 / 11.263e3,
                11.263e3 * CLOCK_MHZ,
            )
        },
    );
    t.push(Entry::new("§6", "speedup over [4]", "x", Some(2.6), 1, plain / crt));
    t.push(Entry::new(
        "§1",
        "speedup over [4] (approximately)",
        "x",
        Some(3.0),
        0,
        plain / crt,
    ));
    let bound = t.note(format!(
        "§6's \"at most 4 times\" at the same clock is §4's R^3 / (R^3/4) estimate; the counted ratio at 447.027 MHz \
         is {} / {cycles} = {:.3}.",
        plain_cycles(1024),
        plain_cycles(1024) as f64 / cycles as f64,
    ));
    t.push_noted(
        Entry::new(
            "§6",
            "speedup at the same clock (at most)",
            "x",
            Some(4.0),
            0,
            plain_cycles(1024) as f64 / cycles as f64,
        ),
        bound,
    );
    let tp = throughput_kbps(1024, PAPER_CORES, time_ms(cycles, CLOCK_MHZ_MULTICORE)) / 1e3;
    t.push(Entry::new(
        "abstract",
        "320-core throughput",
        "Mbit/s",
        Some(23.03),
        2,
        tp,
    ));
    t.push(Entry::new("§6", "320-core throughput", "Mbit/s", Some(23.031), 3, tp));
    t
}
