//! 003's Table I (the multipliers) and Table II (the RSA processors with
//! e = 2^16 + 1) beside the models' counting rules, and the abstract's
//! claims against both.

use super::exp::{Slot, alg3_slots};
use super::synthesis::{Row, TABLE2_ALG1, table1_rows, table2_rows};
use super::{CarrySave, FILE, RADIX2, RADIX4};
use crate::{Arch, Big, Circuit, Entry, Table, Unmodelled};

/// The public exponent of Table II's tests, 2^16 + 1 (§IV).
const TABLE2_EXPONENT: u64 = (1 << 16) + 1;

/// The model for a `k`-bit modulus in the tables: n = 2^k − 1 (only k matters).
fn model_for(arch: &'static Arch, k: usize) -> CarrySave {
    let n = Big::pow2(k).checked_sub(&Big::one()).expect("k >= 2");
    CarrySave::new(arch, &n, None).expect("odd modulus, default radix")
}

/// The paper's name of `arch`'s algorithm in the tables.
fn algo(arch: &Arch) -> &'static str {
    if *arch == RADIX2 { "Algo1" } else { "Algo2" }
}

/// Mbit/s: `k` bits in `cycles` cycles at `mhz`.
fn mbps(k: usize, mhz: f64, cycles: u64) -> f64 {
    k as f64 * mhz / cycles as f64
}

/// Adds `entry`; one that differs from the paper gets the note `why()`
/// (entries with the same explanation share one note).
fn push_checked(t: &mut Table, entry: Entry, why: impl FnOnce() -> String) {
    if entry.matches() {
        t.push(entry);
    } else {
        let text = why();
        let n = t
            .notes
            .iter()
            .position(|n| *n == text)
            .map_or_else(|| t.note(text), |i| i + 1);
        t.push_noted(entry, n);
    }
}

/// 003's cells the model does not derive (`redc sim --table` lists them).
pub const UNMODELLED: &Unmodelled = &[(
    "Tables I and II, the frequency and area columns",
    "place-and-route results: the frequencies are the models' clocks (inputs), the areas appear only in the \
         abstract's percentages, recomputed from the printed slices",
)];

/// The paper's tables beside the model: Table I (the multipliers) and
/// Table II (the RSA processors with e = 2^16 + 1). Throughputs come from
/// the models' cycle counting rules ([`Circuit::product_cycles`] and
/// Alg. III's product times); frequencies and areas are the paper's
/// synthesis results, which the model takes as inputs. Then the
/// abstract's four percentages.
pub fn tables() -> Vec<Table> {
    vec![table1(), table2(), abstract_claims()]
}

/// Percent by which `new` exceeds (or, negative, falls short of) `old`.
fn gain(new: f64, old: f64) -> f64 {
    (new / old - 1.0) * 100.0
}

/// The abstract's claims at 1024 bits: the multiplier's throughput gain
/// and area reduction (Table I), the RSA processor's throughput gain and
/// area increase (Table II), each recomputed from the printed figures and,
/// where the model counts it, from the model's cycles.
fn abstract_claims() -> Table {
    let mut t = Table::new(
        format!("{FILE} abstract"),
        "The abstract's claims for Algo2 against Algo1 at 1024 bits",
    );
    let at = |rows: &'static [Row]| rows.iter().find(|r| r.k == 1024).expect("a 1024-bit row");
    let (m1, m2) = (at(table1_rows(&RADIX2)), at(table1_rows(&RADIX4)));
    let (p1, p2) = (at(table2_rows(&RADIX2)), at(table2_rows(&RADIX4)));
    // The model's throughputs at the paper's clocks (Table I's and II's rules).
    let e = Big::from_u64(TABLE2_EXPONENT);
    let slots = alg3_slots(&e).count() as u64;
    let model_mbps = |arch: &'static Arch, mhz: f64, per_product: u64| {
        mbps(1024, mhz, per_product * model_for(arch, 1024).product_cycles())
    };
    let (mm1, mm2) = (model_mbps(&RADIX2, m1.mhz, 1), model_mbps(&RADIX4, m2.mhz, 1));
    let (rm1, rm2) = (model_mbps(&RADIX2, p1.mhz, slots), model_mbps(&RADIX4, p2.mhz, slots));
    let row = "abstract (1024 bits)";
    let throughput = t.note(format!(
        "Table I's printed throughputs give {} / {:.2} − 1 = {:.3} %, the claim (truncated); the model's Algo2 \
         runs its radix-4 loop in {} cycles where Table I's Algo2 throughput, equal to its clock, implies 1024, so \
         at the same clocks its gain is {:.1} %: the claim holds for the paper's figures, not for Alg. II as printed",
        m2.mbps,
        m1.mbps,
        gain(m2.mbps, m1.mbps),
        model_for(&RADIX4, 1024).product_cycles(),
        gain(mm2, mm1),
    ));
    t.push_noted(
        Entry::new(
            row,
            "multiplier throughput gain (model)",
            "%",
            Some(45.49),
            2,
            gain(mm2, mm1),
        ),
        throughput,
    );
    let area = t.note(
        "area is not modelled: the figure is recomputed from the paper's slice counts (Algo1 on a Virtex-II, \
         Algo2 on a Virtex-4, whose slices differ), a consistency check, not a model output",
    );
    t.push_noted(
        Entry::new(
            row,
            "multiplier area reduction (Table I)",
            "%",
            Some(24.27),
            2,
            -gain(m2.slices, m1.slices),
        ),
        area,
    );
    let rsa = t.note(format!(
        "Table II's printed throughputs give {:.2} / {:.2} − 1 = {:.3} %, the claim (truncated, as 45.49 is); \
         with the model's Algo2 product ({slots} product times each) at Table II's clocks the gain is {:.1} %",
        p2.mbps,
        p1.mbps,
        gain(p2.mbps, p1.mbps),
        gain(rm2, rm1),
    ));
    t.push_noted(
        Entry::new(
            row,
            "RSA processor throughput gain (model)",
            "%",
            Some(32.18),
            2,
            gain(rm2, rm1),
        ),
        rsa,
    );
    let (p1_512, p2_512) = (&table2_rows(&RADIX2)[0], &table2_rows(&RADIX4)[0]);
    let rsa_area = t.note(format!(
        "does not hold: Table II's slices give {:.0} / {:.0} − 1 = {:.2} % at 1024 bits (and {:.0} / {:.0} − 1 = \
         {:.2} % at 512 bits); neither is 22.4 %. Area is not modelled; the figure is the paper's own, recomputed",
        p2.slices,
        p1.slices,
        gain(p2.slices, p1.slices),
        p2_512.slices,
        p1_512.slices,
        gain(p2_512.slices, p1_512.slices),
    ));
    t.push_noted(
        Entry::new(
            row,
            "RSA processor area increase (Table II)",
            "%",
            Some(22.4),
            1,
            gain(p2.slices, p1.slices),
        ),
        rsa_area,
    );
    t
}

/// Table I: frequency, area and throughput of the multipliers.
fn table1() -> Table {
    let mut t = Table::new(
        format!("{FILE} Table I"),
        "Frequency, area and throughput of the Montgomery multipliers (Alg. I and II)",
    );
    let inputs = t.note(
        "Frequency and area are the paper's place-and-route results; the model does not estimate them and \
         uses them as given (the clock is clock_mhz()).",
    );
    for arch in [&RADIX2, &RADIX4] {
        for r in table1_rows(arch) {
            let m = model_for(arch, r.k);
            let (k, cycles) = (r.k, m.product_cycles());
            let label = format!("{} {k} ({})", algo(arch), r.device);
            let entry = |column: &str, unit, paper: f64, decimals, model| {
                Entry::new(&label, column, unit, Some(paper), decimals, model)
            };
            t.push_noted(entry("frequency", "MHz", r.mhz, r.mhz_decimals, m.clock_mhz()), inputs);
            t.push_noted(entry("area", "slices", r.slices, 0, r.slices), inputs);
            let model = mbps(k, m.clock_mhz(), cycles);
            push_checked(
                &mut t,
                entry("throughput", "Mbit/s", r.mbps, r.mbps_decimals, model),
                || throughput_note(r, cycles),
            );
            // The cycle counts the text claims: §I "k+2" for [3]'s 4:2 CSA, §III "K+1" for Alg. II.
            let claimed = if *arch == RADIX2 { k + 2 } else { k + 1 };
            push_checked(
                &mut t,
                entry("cycles per product", "cycles", claimed as f64, 0, cycles as f64),
                || {
                    "§III claims K+1 cycles, but Alg. II as printed loops ⌈k/2⌉ times (two bits of A per iteration) \
                 and its own critical-delay analysis puts a whole iteration (steps 2a to 2f, 9X + 2M + A) in one \
                 cycle; the model runs ⌈k/2⌉ + 1 iterations (one more than printed, for the 2n bound), one cycle \
                 each. K+1 = 2·⌈k/2⌉ + 1 (even k) is what two cycles per printed iteration plus one would take, or \
                 the radix-2 count carried over."
                        .to_string()
                },
            );
            // The printed loop bounds: Alg. I "for i in 0 to k-1", Alg. II "0 to [k/2]-1".
            let printed = if *arch == RADIX2 { k } else { k.div_ceil(2) };
            let iterations = m.iterations() as f64;
            push_checked(
                &mut t,
                entry("loop iterations (as printed)", "", printed as f64, 0, iterations),
                || iterations_note(arch),
            );
        }
    }
    t
}

/// Why a Table I throughput differs: truncation (Algo1 512) or Algo2's
/// throughput being its clock.
fn throughput_note(r: &Row, cycles: u64) -> String {
    let (k, f) = (r.k, r.mhz);
    let model = mbps(k, f, cycles);
    let scale = 10f64.powi(r.mbps_decimals as i32);
    if (model * scale).trunc() / scale == r.mbps {
        return format!(
            "k·f/cycles = {k} × {f} / {cycles} = {model:.4} Mbit/s rounds to {:.2}; the paper prints {:.2}, the \
             figure truncated rather than rounded (its other Algo1 rows round).",
            (model * scale).round() / scale,
            r.mbps
        );
    }
    format!(
        "The paper's Algo2 throughput equals its clock, k bits in k cycles ({k} × {f} / {k} = {f}); that is \
         neither its own k+1 claim ({k} × {f} / {} = {:.3}) nor the {cycles} cycles of the radix-4 loop the model \
         runs ({k} × {f} / {cycles} = {model:.3}).",
        k + 1,
        mbps(k, f, k as u64 + 1)
    )
}

/// Why the model runs more iterations than the printed loop of `arch`.
fn iterations_note(arch: &Arch) -> String {
    let text = if *arch == RADIX2 {
        "Alg. I prints 'for i in 0 to k-1' (k iterations, R = 2^k), yet the text claims k+2 cycles, and the \
         carry-save operands (A, B < 2n, no final subtraction) need R > 4n, r = k+2 for a k-bit n: with r = k an \
         output reaches almost 5n. The model runs i = 0..k+1, k+2 iterations."
    } else {
        "Alg. II prints 'for i in 0 to [k/2]-1' (⌈k/2⌉ iterations, R = 4^⌈k/2⌉ ≤ 2^(k+1)), which cannot keep \
         outputs below 2n for inputs below 2n (R > 4n needs 2·iterations ≥ k+2); the model runs ⌈k/2⌉ + 1."
    };
    text.to_string()
}

/// Table II: frequency, area and throughput of the RSA processors.
fn table2() -> Table {
    let mut t = Table::new(
        format!("{FILE} Table II"),
        "Frequency, area and throughput of the RSA processors (Alg. III, public exponent 2^16 + 1)",
    );
    let inputs = t.note(
        "Frequency and area are the paper's place-and-route results, taken as given (the RSA processor's clock, \
         not the multiplier's of Table I). Each processor is about twice its multiplier of Table I (Algo1: 11,196 \
         / 5,782 and 22,075 / 11,520 slices), consistent with Alg. III's squaring and multiplication running on \
         two multipliers at once.",
    );
    let e = Big::from_u64(TABLE2_EXPONENT);
    let slots = alg3_slots(&e).count() as u64;
    let products: u64 = alg3_slots(&e).map(Slot::products).sum();
    let rsa = |s: u64| mbps(512, TABLE2_ALG1[0].mhz, s * (512 + 2));
    let schedule = t.note(format!(
        "Alg. III with e = 2^16 + 1 ({} bits): P[0] and R[0] one after the other (2 product times), {} loop \
         iterations, each a squaring of P with R·P beside it when d[i] = 1 (no dependency, as in 002 Alg. 3.1), \
         and MontMult(1, R): {slots} product times, {products} Montgomery products (the last squaring's result is \
         unused). The paper's Algo1 throughputs imply exactly {slots}: 512 × 96.27 / ({slots} × 514) = {:.4}, \
         while {} or {} product times would give {:.2} or {:.2}.",
        e.bits(),
        e.bits(),
        rsa(slots),
        slots - 1,
        slots + 1,
        rsa(slots - 1),
        rsa(slots + 1),
    ));
    for arch in [&RADIX2, &RADIX4] {
        for r in table2_rows(arch) {
            let m = model_for(arch, r.k);
            let cycles = slots * m.product_cycles();
            let label = format!("{} {} ({})", algo(arch), r.k, r.device);
            let entry =
                |column: &str, unit, paper, decimals, model| Entry::new(&label, column, unit, paper, decimals, model);
            t.push_noted(
                entry("frequency", "MHz", Some(r.mhz), r.mhz_decimals, m.rsa_clock_mhz()),
                inputs,
            );
            t.push_noted(entry("area", "slices", Some(r.slices), 0, r.slices), inputs);
            let model = mbps(r.k, m.rsa_clock_mhz(), cycles);
            push_checked(
                &mut t,
                entry("throughput", "Mbit/s", Some(r.mbps), r.mbps_decimals, model),
                || algo2_rsa_note(r, slots, m.product_cycles()),
            );
            t.push_noted(
                entry("product times per encryption", "", None, 0, slots as f64),
                schedule,
            );
            t.push_noted(
                entry("Montgomery products per encryption", "", None, 0, products as f64),
                schedule,
            );
            t.push_noted(
                entry("clock cycles per encryption", "cycles", None, 0, cycles as f64),
                schedule,
            );
        }
    }
    t
}

/// Why an Algo2 row of Table II differs: which cycle count its figure fits.
fn algo2_rsa_note(r: &Row, slots: u64, cycles: u64) -> String {
    let (k, f) = (r.k, r.mhz);
    let with = |c: u64| mbps(k, f, slots * c);
    let scale = 10f64.powi(r.mbps_decimals as i32);
    let fits = |c: u64| (with(c) * scale).round() / scale == r.mbps;
    let which = match (fits(k as u64 + 1), fits(k as u64)) {
        (true, false) => "k+1 cycles per product, not k",
        (false, true) => "k cycles per product, not the k+1 of §III",
        _ => "no single cycle count",
    };
    format!(
        "Throughput = k·f / ({slots} product times × cycles per product) = {k} × {f} / ({slots} × {cycles}) = \
         {:.3} with the model's radix-4 loop. The paper's {:.2} fits {which}: {k} × {f} / ({slots} × {}) = {:.4}, \
         / ({slots} × {k}) = {:.4}. Table II's other Algo2 row fits the other count (k+1 at 512 bits, k at 1024), \
         so the rows use different counts, and neither is the loop's.",
        with(cycles),
        r.mbps,
        k + 1,
        with(k as u64 + 1),
        with(k as u64),
    )
}
