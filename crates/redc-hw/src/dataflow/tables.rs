//! 000's Table 1 (the profile), Tables 2 and 3 (Step 1 on 1, 2 and 4
//! lanes), §4.2's single-block measurement and the Amdahl estimate, from
//! the model's counting rules with the default [`Params`].

use super::{FILE, Offload, Params, exponentiation_cycles, monpro_cycles, step1_cycles};
use crate::{Entry, Table, Unmodelled};

/// The paper's configuration for Tables 1–3: 1024-bit keys, `w = 32`.
const PAPER_BITS: u64 = 1024;
/// Digits of such a key at `w = 32`.
const PAPER_S: u64 = 32;

/// Table 2 (§4.2): input size in MB, blocks, CPU s, DFE s, speedup %.
const TABLE2: [(u64, f64, f64, f64, f64); 4] = [
    (1, 8192.0, 0.13, 0.13, 0.0),
    (4, 32768.0, 0.51, 0.43, 16.0),
    (40, 327_680.0, 5.11, 3.86, 25.0),
    (400, 3_276_800.0, 53.73, 37.68, 30.0),
];

/// Table 3 (§4.2): input size in MB, speedup % relative to CPU time, lanes.
const TABLE3: [(u64, f64, u32); 8] = [
    (1, 31.0, 2),
    (4, 55.0, 2),
    (40, 56.0, 2),
    (400, 61.0, 2),
    (1, 31.0, 4),
    (4, 57.0, 4),
    (40, 64.0, 4),
    (400, 69.0, 4),
];

/// Table 1 (§4.1): function, time %, cumulative seconds.
const TABLE1: [(&str, f64, f64); 6] = [
    ("monPro", 56.25, 12.47),
    ("mult32x32", 43.08, 22.02),
    ("calcRem", 0.32, 22.09),
    ("product", 0.14, 22.12),
    ("RDTSC", 0.05, 22.16),
    ("setVectors", 0.05, 22.17),
];

/// Blocks of a 1024-bit key in `mb` megabytes (2^20 bytes).
fn blocks_in(mb: u64) -> u64 {
    mb * (1 << 20) / (PAPER_BITS / 8)
}

/// Counted Step 1 time of `mb` megabytes of blocks, seconds.
fn step1_seconds(params: &Params, mb: u64, offload: Offload) -> f64 {
    params.seconds(step1_cycles(params, 32, PAPER_S, blocks_in(mb), offload).total(params))
}

/// Amdahl's law as §4.2 and the abstract apply it: the whole program's
/// gain, in % of its CPU time, when the part that takes `share` % of that
/// time is sped up by `part_speedup` % (each relative to the CPU time, as
/// [`tables`]' speedups are): `share · part_speedup / 100`. The paper's
/// 0.40 × 0.69 = 28% is `amdahl_gain(40.0, 69.0)`.
pub fn amdahl_gain(share: f64, part_speedup: f64) -> f64 {
    share * part_speedup / 100.0
}

/// Speedup relative to the CPU time, %, as Tables 2 and 3 define it:
/// `100·(CPU − DFE)/CPU` (e.g. Table 2: (0.51 − 0.43)/0.51 = 16%).
fn speedup(cpu: f64, dfe: f64) -> f64 {
    100.0 * (cpu - dfe) / cpu
}

/// 000's cells the model is fitted to rather than derives (`redc sim
/// --table` lists them).
pub const UNMODELLED: &Unmodelled = &[
    (
        "Table 1, the time shares of monPro, mult32x32 and calcRem",
        "measurements on the authors' host: the model's host cycle costs per word product, accumulation and \
         digit step are set so that its counts give these shares; the harness rows (product, RDTSC, setVectors) \
         are not modelled",
    ),
    (
        "Table 2, the CPU time column",
        "measured; the model's host cost per block is set from it (15.74 µs), so only its constancy is a \
         prediction",
    ),
    (
        "§4.2, 41 ms for the 32 runs of one block",
        "the model's engine start-up (128000 cycles) is set from it",
    ),
    (
        "the engine and host clocks (100 MHz, host 30× faster) and the link's 176 bits a cycle",
        "assumed: the paper does not print them",
    ),
];

/// The paper's tables beside the model's figures: Table 1 (profile),
/// Table 2 (Step 1 speedup, one lane), Table 3 (2 and 4 lanes), §4.2's
/// single-block measurement and the Amdahl estimate, all computed from the
/// model's counting rules (`step1_cycles`, `monpro_cycles`,
/// `exponentiation_cycles`) with the default [`Params`].
pub fn tables() -> Vec<Table> {
    let p = Params::default();
    vec![
        table1(&p),
        table2(&p),
        table3(&p),
        single_block_table(&p),
        amdahl_table(&p),
    ]
}

/// The model's split of a CPU-only 1024-bit exponentiation (`w = 32`, a
/// 1024-bit exponent with 512 ones: 1024 squarings, 512 multiplications):
/// `(mult32x32, monPro, calcRem)` shares in %.
fn profile_shares(p: &Params) -> (f64, f64, f64) {
    let c = exponentiation_cycles(p, 32, PAPER_S, 1024, 512, Offload::Host);
    let host = c.host() as f64;
    (
        100.0 * c.host_mul as f64 / host,
        100.0 * c.host_mon as f64 / host,
        100.0 * c.host_rem as f64 / host,
    )
}

/// Table 1: the profile of the CPU-only exponentiation.
fn table1(p: &Params) -> Table {
    let mut t = Table::new(
        format!("{FILE} Table 1"),
        "Profile of the host RSA code, w = 32: share of time per function and cumulative seconds",
    );
    let (mul, mon, rem) = profile_shares(p);
    let shares = note_shares(&mut t, p, mul, mon, rem);
    let outside = t.note(
        "product, RDTSC and setVectors are the test harness (timer reads, test-vector set-up, a helper outside \
         MonPro's path); the model's exponentiation has no such work, so its share is 0.",
    );
    let cumulative = t.note(format!(
        "The paper timed an unstated number of runs (22.17 s in all); the model scales its cumulative shares \
         to that total. The paper's RDTSC row is inconsistent: its cumulative seconds grow by 22.16 − 22.12 = \
         0.04 s = 0.18% of 22.17 s, while its time column prints 0.05% (every other row agrees with its \
         cumulative step to rounding). Model cumulative: {:.2}, {:.2}, {:.2} s.",
        mon * 22.17 / 100.0,
        (mon + mul) * 22.17 / 100.0,
        (mon + mul + rem) * 22.17 / 100.0
    ));
    let model_pct = [mon, mul, rem, 0.0, 0.0, 0.0];
    let mut cum = 0.0;
    for ((name, pct, secs), model) in TABLE1.into_iter().zip(model_pct) {
        cum += model;
        let note = if model > 0.0 { shares } else { outside };
        t.push_noted(Entry::new(name, "time", "%", Some(pct), 2, model), note);
        t.push_noted(
            Entry::new(name, "cumulative seconds", "s", Some(secs), 2, cum * 22.17 / 100.0),
            cumulative,
        );
    }
    t
}

/// Adds the note that explains the model's profile shares; returns its index.
fn note_shares(t: &mut Table, p: &Params, mul: f64, mon: f64, rem: f64) -> usize {
    let s = PAPER_S;
    t.note(format!(
        "Model: host cycles of a CPU-only 1024-bit exponentiation (w = 32, s = 32; a 1024-bit exponent with 512 \
         ones: 1537 products of Fig. 1, plus Steps 1–3). Each product has 2s² + s = {} word products of {} host \
         cycles (mult32x32: {mul:.2}%), 2s² accumulations of {} cycles and {} digit steps of {} (monPro: \
         {mon:.2}%); Steps 2–3 take 2·s·w doublings of 2s + 1 digit steps (calcRem: {rem:.2}%). The 20 : 26 split \
         of an inner iteration is the model's assumption chosen near the profile's 43 : 57; gprof's sampled \
         shares of the paper's C code are not reproduced to 0.01%. calcRem's 0.32% fits a full-length \
         exponent: with e = 65537 (20 products) the remainders would take {:.0}% in the model.",
        2 * s * s + s,
        p.host_mul,
        p.host_acc,
        s + s * (s + 3) / 2 + s + 1,
        p.host_add,
        {
            let c = exponentiation_cycles(p, 32, s, 17, 2, Offload::Host);
            100.0 * c.host_rem as f64 / c.host() as f64
        }
    ))
}

/// Table 2: Step 1 on the CPU against one DFE lane (Fig. 8), and Fig. 7.
fn table2(p: &Params) -> Table {
    let mut t = Table::new(
        format!("{FILE} Table 2"),
        "Step 1 of MonPro (t := a·b) for B 1024-bit blocks, w = 32: CPU versus DFE with one lane (Fig. 8)",
    );
    let cpu_block_us = 1e6 * step1_seconds(p, 1, Offload::Host) / blocks_in(1) as f64;
    let dfe400 = step1_seconds(p, 400, Offload::Streamed);
    let times = t.note(format!(
        "Absolute times are measurements on the paper's machine; the model's are its counted cycles at the \
         assumed clocks ({} MHz engine, host {}× faster). Host costs were set from the CPU column: the paper's \
         CPU time per block is 0.13/8192 = 15.9 µs, 0.51/32768 = 15.6 µs, 5.11/327680 = 15.6 µs, \
         53.73/3276800 = 16.4 µs; the model's is {cpu_block_us:.2} µs at every size. The DFE time is s = 32 runs \
         of (start-up {} + depth {} + B·s pairs) engine cycles plus B·s·(s + 1) host carry steps of {} host \
         cycles: {dfe400:.2} s at 400 MB against the paper's 37.68 s.",
        p.clock_mhz, p.host_ratio, p.startup, p.depth, p.host_add
    ));
    let fig7 = t.note(
        "Not in the paper: Fig. 7 (one run per block and row, B·s runs) counted by the model. Every run pays \
         the start-up again, which is why the paper moved the repeated digit into the stream (Fig. 8).",
    );
    for (mb, blocks, cpu_p, dfe_p, sp_p) in TABLE2 {
        let row = format!("{mb} MB");
        let cpu = step1_seconds(p, mb, Offload::Host);
        let dfe = step1_seconds(p, mb, Offload::Streamed);
        let sp = speedup(cpu, dfe);
        t.push(Entry::new(&row, "blocks", "", Some(blocks), 0, blocks_in(mb) as f64));
        t.push_noted(Entry::new(&row, "time CPU", "s", Some(cpu_p), 2, cpu), times);
        t.push_noted(Entry::new(&row, "time DFE", "s", Some(dfe_p), 2, dfe), times);
        let why = table2_speedup_note(p, mb, cpu, dfe);
        let why = t.note(why);
        t.push_noted(Entry::new(&row, "speedup", "%", Some(sp_p), 0, sp), why);
        t.push_noted(
            Entry::new(
                &row,
                "time DFE, Fig. 7",
                "s",
                None,
                2,
                step1_seconds(p, mb, Offload::PerBlock),
            ),
            fig7,
        );
    }
    t
}

/// Why Table 2's speedup at `mb` megabytes differs from the model's.
fn table2_speedup_note(p: &Params, mb: u64, cpu: f64, dfe: f64) -> String {
    let sp = speedup(cpu, dfe);
    match mb {
        1 => format!(
            "At 1 MB the model's DFE time {dfe:.4} s holds 32 start-ups ({:.4} s); the CPU takes {cpu:.4} s: \
             {sp:.1}%, no gain, as in the paper, whose two times both print 0.13 s (so its 0% is itself only \
             good to about ±4 points).",
            p.seconds(32 * p.startup)
        ),
        4 => format!(
            "Model ({cpu:.3} − {dfe:.3})/{cpu:.3} = {sp:.1}%. The paper's figures carry its measurement noise: its \
             CPU time per block moves between 15.6 and 16.4 µs from row to row, the model's is constant."
        ),
        40 => format!(
            "Model {sp:.1}%. The paper prints 25 though its own times give (5.11 − 3.86)/5.11 = 24.46%, which \
             rounds to 24; only times at the edges of their rounding intervals, (5.115 − 3.855)/5.115 = 24.63%, \
             reach 25."
        ),
        _ => format!(
            "Model {sp:.1}%. The paper's CPU time per block rises 5% at 400 MB (16.4 µs against 15.6 µs at 4 and \
             40 MB: the data no longer fit in the caches); the model's host cost is constant. At the paper's \
             40-MB CPU rate 400 MB would take 51.1 s and the paper's speedup would be (51.1 − 37.68)/51.1 = 26%."
        ),
    }
}

/// Table 3: Step 1's speedup with 2 and 4 lanes.
fn table3(p: &Params) -> Table {
    let mut t = Table::new(
        format!("{FILE} Table 3"),
        "Step 1 speedup relative to CPU time with 2 and 4 lanes (Fig. 8), 1024-bit blocks, w = 32",
    );
    let model = |mb: u64, lanes: u32| {
        let q = p.with_lanes(lanes);
        speedup(
            step1_seconds(&q, mb, Offload::Host),
            step1_seconds(&q, mb, Offload::Streamed),
        )
    };
    let unlimited = Params {
        link_bits: 4 * 64,
        ..p.with_lanes(4)
    };
    let small = t.note(format!(
        "At 1 MB the 32 start-ups ({:.4} s) and the host's carry transfer ({:.4} s) do not shrink with lanes, \
         only the streaming does: model {:.1}% with 2 lanes, {:.1}% with 4. The paper's 2- and 4-lane figures \
         are equal (31%), and its CPU time has two digits (0.13 s), so each is good to a few points.",
        p.seconds(32 * p.startup),
        p.seconds(blocks_in(1) * PAPER_S * (PAPER_S + 1) * p.host_add / p.host_ratio),
        model(1, 2),
        model(1, 4)
    ));
    let two = t.note(format!(
        "Two lanes take 2 pairs a cycle (128 bits, within the link's {} bits): the streaming halves, start-ups \
         and carry transfer stay. Model {:.1}, {:.1}, {:.1}% at 4, 40, 400 MB; the paper's 400-MB figure is \
         higher for the reason of Table 2's 400-MB row (its CPU time per block rises 5% there).",
        p.link_bits,
        model(4, 2),
        model(40, 2),
        model(400, 2)
    ));
    let four = t.note(format!(
        "Four lanes would take 4·2w = 256 bits a cycle from the host; the model's link carries {} ({:.1} GB/s \
         at {} MHz), {:.2} pairs a cycle, so 4 lanes gain less over 2 than 2 over 1, the paper's shape. Model \
         {:.1}, {:.1}, {:.1}% at 4, 40, 400 MB; with an unlimited link it would give {:.1}% at 400 MB.",
        p.link_bits,
        p.link_bits as f64 * p.clock_mhz / 8e3,
        p.clock_mhz,
        p.link_bits as f64 / 64.0,
        model(4, 4),
        model(40, 4),
        model(400, 4),
        speedup(
            step1_seconds(&unlimited, 400, Offload::Host),
            step1_seconds(&unlimited, 400, Offload::Streamed)
        )
    ));
    for (mb, sp_p, lanes) in TABLE3 {
        let note = match (mb, lanes) {
            (1, _) => small,
            (_, 2) => two,
            _ => four,
        };
        t.push_noted(
            Entry::new(
                format!("{mb} MB, {lanes} lanes"),
                "speedup",
                "%",
                Some(sp_p),
                0,
                model(mb, lanes),
            ),
            note,
        );
    }
    t
}

/// §4.2's one-block measurement (Eq. 7–9): 41 ms on the DFE, 24 ns on the host.
fn single_block_table(p: &Params) -> Table {
    let mut t = Table::new(
        format!("{FILE} §4.2 (Eq. 7–9)"),
        "One 1024-bit block, w = 32: the 32 runs of Step 1 (b = Xm0, a = Xm) on the DFE and on the host",
    );
    let dfe_ms = 1e3 * step1_seconds_blocks(p, 1, Offload::PerBlock, false);
    let host_ns = 1e9 * step1_seconds_blocks(p, 1, Offload::Host, true);
    let startup = t.note(format!(
        "The model's start-up ({} cycles) is set from this measurement: 41 ms / 32 runs = 1.281 ms a run; the \
         model's 32 runs of (start-up + depth {} + 32 pairs) take {dfe_ms:.3} ms (engine only).",
        p.startup, p.depth
    ));
    let host = t.note(format!(
        "Inconsistent with Table 2: there the CPU does Step 1 of a block (32 × 32 = 1024 word products) in \
         0.13 s/8192 = 15.9 µs, 15.5 ns a product; 24 ns is 1/660 of that, and even 32 products at that rate \
         take 0.5 µs. The model's host time for the block's Step 1 is {host_ns:.0} ns (24 µs would fit Table 2)."
    ));
    t.push_noted(Entry::new("DFE, 32 runs", "time", "ms", Some(41.0), 0, dfe_ms), startup);
    t.push_noted(
        Entry::new("host, same products", "time", "ns", Some(24.0), 0, host_ns),
        host,
    );
    t
}

/// Seconds of one block's Step 1: engine cycles only, or host cycles only
/// (converted at `host_ratio`).
fn step1_seconds_blocks(p: &Params, blocks: u64, offload: Offload, host: bool) -> f64 {
    let c = step1_cycles(p, 32, PAPER_S, blocks, offload);
    if host {
        p.seconds(c.host().div_ceil(p.host_ratio))
    } else {
        p.seconds(c.engine)
    }
}

/// §4.2's and the abstract's Amdahl estimate beside the model's counted gain.
fn amdahl_table(p: &Params) -> Table {
    let mut t = Table::new(
        format!("{FILE} §4.2 (Amdahl's law) and Abstract"),
        "Whole-program gain from offloading Step 1: share × speedup of the offloaded part",
    );
    let (mul, _, _) = profile_shares(p);
    let q = p.with_lanes(4);
    let part = speedup(
        step1_seconds(&q, 400, Offload::Host),
        step1_seconds(&q, 400, Offload::Streamed),
    );
    let b = blocks_in(400);
    let cpu = monpro_cycles(&q, 32, PAPER_S, b, Offload::Host);
    let dfe = monpro_cycles(&q, 32, PAPER_S, b, Offload::Streamed);
    let step1 = step1_cycles(&q, 32, PAPER_S, b, Offload::Host);
    let step1_share = 100.0 * step1.total(&q) as f64 / cpu.total(&q) as f64;
    let direct = speedup(cpu.total(&q) as f64, dfe.total(&q) as f64);
    let step1_products = (PAPER_S * PAPER_S) as f64 / (2 * PAPER_S * PAPER_S + PAPER_S) as f64;
    let share = t.note(format!(
        "The paper rounds its own Table 1 (mult32x32 43.08%) to \"about 40%\"; the model's share is {mul:.2}% \
         (Table 1's note)."
    ));
    let part_note = t.note(format!(
        "The 4-lane 400-MB speedup of Table 3 (paper 69%, abstract \"approximately 70%\"); model {part:.2}% (see \
         Table 3's notes)."
    ));
    let total = t.note(format!(
        "Paper: 0.40 × 0.69 = 27.6% ≈ 28%; model: {mul:.2}% × {part:.2}% = {:.2}%. The paper's product is \
         inconsistent with what it offloads: Table 2/3's speedup is of all of Step 1 (its products and their \
         accumulation, which the host's carry transfer replaces), while 40% is mult32x32 over both Step 1 and \
         Steps 2–3. Step 1 is {step1_share:.1}% of a CPU-only product in the model, so the consistent estimate is \
         {step1_share:.1}% × {part:.2}% = {:.1}%, the figure the model counts directly below; if only Step 1's \
         word products counted (s² of the 2s² + s: 43.08% × {s1}/{all} = {:.1}%), the estimate would be \
         0.69 × that = {:.1}%.",
        amdahl_gain(mul, part),
        amdahl_gain(step1_share, part),
        43.08 * step1_products,
        0.69 * 43.08 * step1_products,
        s1 = PAPER_S * PAPER_S,
        all = 2 * PAPER_S * PAPER_S + PAPER_S,
    ));
    let step1_note = t.note(
        "Not in the paper: Step 1 (Fig. 3 a: s rows of s inner iterations and a store) against the whole CPU \
         product (Fig. 3 a and b, Step 4), counted by the model for the same blocks.",
    );
    let derived = t.note(format!(
        "Not in the paper: counted by the model for 400 MB of blocks: whole MonPro on the CPU against MonPro \
         with Step 1 on 4 lanes (Fig. 8) and Steps 2–4 on the host: {:.2} s against {:.2} s.",
        q.seconds(cpu.total(&q)),
        q.seconds(dfe.total(&q))
    ));
    t.push_noted(
        Entry::new("multiplication", "share of CPU time", "%", Some(40.0), 0, mul),
        share,
    );
    t.push_noted(
        Entry::new("offloaded part, 4 lanes, 400 MB", "speedup", "%", Some(69.0), 0, part),
        part_note,
    );
    t.push_noted(
        Entry::new("abstract: multiplication part", "speedup", "%", Some(70.0), 0, part),
        part_note,
    );
    t.push_noted(
        Entry::new("total (Amdahl)", "speedup", "%", Some(28.0), 0, amdahl_gain(mul, part)),
        total,
    );
    t.push_noted(
        Entry::new("Step 1", "share of CPU MonPro time", "%", None, 1, step1_share),
        step1_note,
    );
    t.push_noted(Entry::new("total, counted", "speedup", "%", None, 1, direct), derived);
    t
}
