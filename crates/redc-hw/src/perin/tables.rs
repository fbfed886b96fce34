//! 004's Table 1 (cycles and block RAM per multiplier) and Table 2 (RSA
//! decryption, with §6's ladder) beside the model, and the claims of the
//! abstract and §5 that compare the two arrays.

use super::datapath::pack;
use super::{FILE, MULTIPLEXED, Method, Perin, SYSTOLIC};
use crate::{Arch, Big, Circuit, Entry, Table, Unmodelled};

/// 004's cells the model does not derive (`redc sim --table` lists them).
pub const UNMODELLED: &Unmodelled = &[
    (
        "Table 1, the Slices, DSP48 and Freq. columns (all 14 rows)",
        "synthesis results: Freq. is the models' clock (input); slices appear only in the abstract's saving, \
         recomputed from the printed figures. rtl/'s arrays, synthesized by Yosys (make -C rtl synth), map to \
         2M + 2 DSP48E1s (systolic, Table 1's count at 1024 bits) and 2·M/4 + 2 (multiplexed, against Table 1's \
         4 per core)",
    ),
    ("Table 2, the Freq. column", "the models' clock (input)"),
    (
        "Table 3, every cell",
        "the other works' devices, clocks, areas and times are quoted from them; its two own rows repeat \
         Tables 1 and 2",
    ),
];

/// The paper's tables beside the model: Table 1 (cycles and block RAM per
/// multiplier) and Table 2 (RSA decryption, with §6's ladder), then the
/// claims comparing the arrays.
pub fn tables() -> Vec<Table> {
    vec![table1(), table2(), claims()]
}

/// Table 1's slices of the systolic and the multiplexed array at the same
/// device, n and k (every pair the table has).
const SLICE_PAIRS: [(&str, usize, u32, f64, f64); 6] = [
    ("Virtex-4", 512, 16, 3322.0, 2199.0),
    ("Virtex-4", 512, 32, 4199.0, 2499.0),
    ("Virtex-4", 1024, 16, 7012.0, 4876.0),
    ("Virtex-5", 512, 16, 3205.0, 2078.0),
    ("Virtex-5", 512, 32, 3876.0, 2370.0),
    ("Virtex-5", 1024, 16, 6642.0, 4876.0),
];

/// The abstract's "saves up to 28% of logical resources" against Table 1's
/// slices, and §5's "considering the amount of clock cycles for a modular
/// multiplication execution, the multiplexed architecture is faster" against
/// the model's cycles at the same k.
fn claims() -> Table {
    let mut t = Table::new(
        format!("{FILE} abstract, §5"),
        "The claims comparing the multiplexed array with the systolic one",
    );
    let savings: Vec<String> = SLICE_PAIRS
        .iter()
        .map(|(device, n, k, sys, mux)| format!("{device} n={n} k={k}: {:.1} %", (1.0 - mux / sys) * 100.0))
        .collect();
    let most = SLICE_PAIRS
        .iter()
        .map(|(_, _, _, sys, mux)| (1.0 - mux / sys) * 100.0)
        .fold(0.0, f64::max);
    let slices = t.note(format!(
        "does not hold as printed: slices are not modelled, and Table 1's own pairs (same device, n and k) save \
         {}; the saving is never 28 % and reaches {most:.1} %. Across radices the closest is Virtex-4 n=1024, \
         multiplexed at k = 32 against systolic at k = 16, {:.1} %; Table 3's two RSA designs (6642 slices \
         systolic at k = 16, 5005 multiplexed at k = 32) differ by {:.1} %",
        savings.join(", "),
        (1.0 - 5118.0 / 7012.0) * 100.0,
        (1.0 - 5005.0 / 6642.0) * 100.0
    ));
    t.push_noted(
        Entry::new("abstract", "logic saved, multiplexed (up to)", "%", Some(28.0), 0, most),
        slices,
    );
    let n = Big::pow2(1022).checked_sub(&Big::one()).unwrap_or_default();
    let cycles = |arch: &Arch| {
        Perin::new(arch, &n, Some(16))
            .expect("a valid configuration")
            .product_cycles()
    };
    let (sys, mux) = (cycles(&SYSTOLIC), cycles(&MULTIPLEXED));
    let faster = t.note(format!(
        "§5 says the multiplexed array is faster in clock cycles per product; at the same k it takes 8m cycles \
         against the systolic 6m ({mux} against {sys} at n = 1024, k = 16), a third more. Table 2 compares the \
         multiplexed array at k = 32 (256 cycles) with the systolic one at k = 16 (384): the k, not the \
         multiplexing, makes it faster"
    ));
    t.push_noted(
        Entry::new(
            "§5, n = 1024, k = 16",
            "cycles per product, multiplexed / systolic",
            "×",
            None,
            2,
            mux as f64 / sys as f64,
        ),
        faster,
    );
    t
}

/// A model with m = n/k words: the largest modulus that fits, of n − 2 bits.
fn paper_size(arch: &Arch, n: usize, k: u32) -> Perin {
    let modulus = Big::pow2(n - 2).checked_sub(&Big::one()).unwrap_or_default();
    Perin::new(arch, &modulus, Some(k)).expect("a valid configuration")
}

/// Table 1: clock cycles and block RAM per multiplier, both devices.
fn table1() -> Table {
    let mut t = Table::new(
        format!("{FILE} Table 1"),
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

/// Table 2: 1024-bit RSA decryption on Virtex-5, with §6's ladder beside it.
fn table2() -> Table {
    let mut t = Table::new(
        format!("{FILE} Table 2"),
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
