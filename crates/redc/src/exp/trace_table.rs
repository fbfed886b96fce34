//! A [`Trace`] as a text table, the way 000_be478b6750af4540.txt §3.2
//! read its intermediate results: a header with the Montgomery constants
//! of the modulus's odd part, then one line per register per step.

use super::Schedule;
use super::trace::{Trace, TraceRow};
use crate::mont::{Modulus, Product};
use crate::nat::Nat;
use crate::word::Word;

impl<W: Word> Trace<W> {
    /// The trace of an exponentiation modulo `n` with `product` and
    /// `schedule` as a text table: a `#` header (product, schedule, `w`,
    /// `s`, the odd part `m` of `n`, `n0'`, `R mod m`, `R^2 mod m`), then
    /// one line per register per row (step, bit, digit, operation,
    /// register, Montgomery form, plain value; both hexadecimal). A modulus
    /// whose odd part is 1 gets one line saying there is no Montgomery
    /// exponentiation.
    pub fn table(&self, n: &Nat<W>, product: Product, schedule: Schedule) -> String {
        let t = n.trailing_zeros().unwrap_or(0);
        let m = n.shr(t);
        let Ok(modulus) = Modulus::new(&m) else {
            return format!("# no Montgomery exponentiation: the odd part of the modulus is {m}\n");
        };
        let odd_part = if t > 0 {
            format!(" (odd part of MOD = 2^{t}·m)")
        } else {
            String::new()
        };
        let mut out = format!(
            "# product {}, schedule {}, w = {}, s = {}, m = 0x{}{odd_part}\n",
            product.name(),
            schedule.name(),
            W::BITS,
            modulus.len(),
            m.to_hex(),
        );
        out.push_str(&format!(
            "# n0' = 0x{:x}, R mod m = 0x{}, R^2 mod m = 0x{}\n",
            modulus.n0_inv().to_u64(),
            modulus.r_mod_n().to_hex(),
            modulus.r2_mod_n().to_hex()
        ));
        out.push_str(&rows(&self.rows));
        out
    }
}

/// One line per register per row, the columns padded to their widest cell
/// (the last one not).
fn rows<W: Word>(rows: &[TraceRow<W>]) -> String {
    let dash = || "-".to_owned();
    let mut lines = vec![["step", "bit", "e", "op", "reg", "montgomery", "value"].map(str::to_owned)];
    for (step, row) in rows.iter().enumerate() {
        for reg in &row.regs {
            lines.push([
                step.to_string(),
                row.bit.map_or_else(dash, |b| b.to_string()),
                row.bit.map_or_else(dash, |_| row.digit.to_string()),
                row.op.to_owned(),
                reg.name.to_owned(),
                format!("0x{}", reg.mont.to_hex()),
                format!("0x{}", reg.value.to_hex()),
            ]);
        }
    }
    let widths: Vec<usize> = (0..7)
        .map(|c| lines.iter().map(|l| l[c].chars().count()).max().unwrap_or(0))
        .collect();
    let mut out = String::new();
    for l in &lines {
        let cells: Vec<String> = l
            .iter()
            .zip(&widths)
            .enumerate()
            .map(|(c, (cell, &wd))| if c == 6 { cell.clone() } else { format!("{cell:<wd$}") })
            .collect();
        out.push_str(cells.join("  ").trim_end());
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use crate::{Nat, PowOptions, Product, Schedule, Trace, modpow};

    #[test]
    fn header_and_one_line_per_register() {
        let (b, e, n) = (Nat::<u8>::from_u64(3), Nat::from_u64(0b101), Nat::from_u64(4 * 251));
        let opts = PowOptions {
            product: Product::Sos,
            schedule: Schedule::Ltr,
        };
        let mut trace = Trace::new();
        modpow(&b, &e, &n, opts, Some(&mut trace)).unwrap();
        let table = trace.table(&n, opts.product, opts.schedule);
        let lines: Vec<&str> = table.lines().collect();
        assert!(lines[0].starts_with("# product sos, schedule ltr, w = 8, s = 1, m = 0xfb (odd part of MOD = 2^2·m)"));
        assert!(lines[1].starts_with("# n0' = 0x"));
        assert!(lines[2].starts_with("step  bit  e  op"));
        let regs: usize = trace.rows.iter().map(|r| r.regs.len()).sum();
        assert_eq!(lines.len(), 3 + regs);
        let one = Trace::<u8>::new().table(&Nat::from_u64(8), opts.product, opts.schedule);
        assert_eq!(
            one,
            "# no Montgomery exponentiation: the odd part of the modulus is 1\n"
        );
    }
}
