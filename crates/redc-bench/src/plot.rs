//! `--plot FILE.svg`: batched operations per second per core, as grouped
//! bars on a log scale — one group per operation and size, one bar per
//! engine; a panel for one thread and, with more threads, one for all.

use super::report::Versus;
use super::{Mode, Report, Row};
use anyhow::anyhow;
use plotters::prelude::*;

/// The picture's size in pixels.
const SIZE: (u32, u32) = (1100, 420);

/// A bar's engine.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Engine {
    /// A redc backend, by name.
    Redc(&'static str),
    /// An anchor of the table.
    Anchor(Versus),
}

impl Engine {
    fn label(self) -> String {
        match self {
            Engine::Redc(b) => format!("redc {b}"),
            Engine::Anchor(v) => v.name().to_owned(),
        }
    }

    fn color(self) -> RGBColor {
        match self {
            Engine::Redc("ifma") => RGBColor(20, 70, 160),
            Engine::Redc("cuda") => RGBColor(118, 185, 0),
            Engine::Redc(_) => RGBColor(120, 160, 220),
            Engine::Anchor(Versus::OpenSsl) => RGBColor(200, 60, 50),
            Engine::Anchor(Versus::OpenSsl4) => RGBColor(230, 140, 40),
            Engine::Anchor(Versus::Gmp) => RGBColor(60, 150, 70),
            Engine::Anchor(Versus::CryptoMb) => RGBColor(110, 60, 150),
        }
    }

    /// The engine's rate in `row`.
    fn rate(self, row: &Row) -> Option<f64> {
        match self {
            Engine::Redc(b) => row.redc.iter().find(|(x, _)| *x == b).map(|&(_, r)| r),
            Engine::Anchor(v) => row.anchor(v),
        }
    }
}

/// The chart as SVG text.
pub(super) fn svg(report: &Report) -> anyhow::Result<String> {
    let modes: Vec<Mode> = [Mode::OneCore, Mode::AllCores]
        .into_iter()
        .filter(|&m| report.rows.iter().any(|r| r.mode == m))
        .collect();
    let mut text = String::new();
    {
        let size = (SIZE.0, SIZE.1 * modes.len().max(1) as u32);
        let root = SVGBackend::with_string(&mut text, size).into_drawing_area();
        root.fill(&WHITE).map_err(|e| anyhow!("plot: {e}"))?;
        for (area, &mode) in root.split_evenly((modes.len().max(1), 1)).iter().zip(&modes) {
            panel(area, report, mode)?;
        }
        root.present().map_err(|e| anyhow!("plot: {e}"))?;
    }
    Ok(text)
}

/// One panel: the rows of `mode`, per core.
fn panel(
    area: &DrawingArea<SVGBackend<'_>, plotters::coord::Shift>,
    report: &Report,
    mode: Mode,
) -> anyhow::Result<()> {
    let err = |e: &dyn std::fmt::Display| anyhow!("plot: {e}");
    let rows: Vec<&Row> = report.rows.iter().filter(|r| r.mode == mode).collect();
    let mut engines: Vec<Engine> = report.backends.iter().map(|&b| Engine::Redc(b)).collect();
    engines.extend([Versus::OpenSsl, Versus::Gmp, Versus::CryptoMb].map(Engine::Anchor));
    engines.retain(|e| rows.iter().any(|r| e.rate(r).is_some()));
    let per_core = |e: Engine, r: &Row| e.rate(r).map(|x| x / r.threads as f64);
    let values: Vec<f64> = rows
        .iter()
        .flat_map(|r| engines.iter().filter_map(|&e| per_core(e, r)))
        .collect();
    let lo = values.iter().copied().fold(f64::INFINITY, f64::min).max(1e-3) / 2.0;
    let hi = values.iter().copied().fold(0.0, f64::max).max(lo * 4.0) * 3.0;
    let names: Vec<String> = rows.iter().map(|r| format!("{} {}", r.op.short(), r.bits)).collect();
    let title = match mode {
        Mode::AllCores => format!(
            "batched, {} threads: operations/s per thread ({})",
            report.threads, report.cpu
        ),
        _ => format!("batched, 1 thread: operations/s ({})", report.cpu),
    };
    let groups = rows.len().max(1);
    // Group i is centred on x = i, so the integer key points carry the names.
    let mut chart = ChartBuilder::on(area)
        .caption(title, ("sans-serif", 18))
        .margin(10)
        .x_label_area_size(30)
        .y_label_area_size(70)
        .build_cartesian_2d(-0.5f64..groups as f64 - 0.5, (lo..hi).log_scale())
        .map_err(|e| err(&e))?;
    let label = |x: &f64| {
        let i = x.round();
        if (x - i).abs() < 1e-6 && i >= 0.0 {
            names.get(i as usize).cloned().unwrap_or_default()
        } else {
            String::new()
        }
    };
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_labels(groups)
        .x_label_formatter(&label)
        .y_label_formatter(&|y| si(*y))
        .y_desc("operations/s per thread (log scale)")
        .draw()
        .map_err(|e| err(&e))?;
    let width = 0.8 / engines.len().max(1) as f64;
    for (j, &engine) in engines.iter().enumerate() {
        let color = engine.color();
        let bars = rows.iter().enumerate().filter_map(|(i, r)| {
            let x0 = i as f64 - 0.4 + j as f64 * width;
            per_core(engine, r).map(|v| Rectangle::new([(x0, lo), (x0 + width, v)], color.filled()))
        });
        chart
            .draw_series(bars)
            .map_err(|e| err(&e))?
            .label(engine.label())
            .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 12, y + 5)], color.filled()));
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperRight)
        .background_style(WHITE.mix(0.9))
        .border_style(BLACK)
        .draw()
        .map_err(|e| err(&e))?;
    Ok(())
}

/// `y` with a k or M suffix, to three significant digits.
fn si(y: f64) -> String {
    let (v, suffix) = match y {
        y if y >= 1e6 => (y / 1e6, "M"),
        y if y >= 1e3 => (y / 1e3, "k"),
        y => (y, ""),
    };
    let digits = 3 - (v.abs().max(1.0).log10().floor() as i32 + 1);
    let scale = 10f64.powi(digits.max(0));
    format!("{}{suffix}", (v * scale).round() / scale)
}

#[cfg(test)]
mod tests {
    use super::si;

    #[test]
    fn si_labels() {
        assert_eq!(si(100_000.0), "100k");
        assert_eq!(si(2_000_000.0), "2M");
        assert_eq!(si(1500.0), "1.5k");
        assert_eq!(si(299_999.999_9), "300k");
        assert_eq!(si(50.0), "50");
        assert_eq!(si(0.5), "0.5");
    }
}
