//! Progress on stderr for long work, shown only on a terminal.

use indicatif::{ProgressBar, ProgressStyle};
use std::io::IsTerminal;
use std::time::Duration;

/// A ticking spinner with `message` and the elapsed time, or `None` when
/// stderr is not a terminal.
pub(crate) fn spinner(message: String) -> Option<ProgressBar> {
    std::io::stderr().is_terminal().then(|| {
        let bar = ProgressBar::new_spinner();
        bar.set_style(
            ProgressStyle::with_template("{spinner} {msg} [{elapsed}]").unwrap_or(ProgressStyle::default_spinner()),
        );
        bar.set_message(message);
        bar.enable_steady_tick(Duration::from_millis(120));
        bar
    })
}

/// A bar counting `len` items, or `None` when stderr is not a terminal.
pub(crate) fn counter(len: u64, message: String) -> Option<ProgressBar> {
    std::io::stderr().is_terminal().then(|| {
        let bar = ProgressBar::new(len);
        let style = ProgressStyle::with_template("{msg} {wide_bar} {pos}/{len} eta {eta}");
        bar.set_style(style.unwrap_or(ProgressStyle::default_bar()));
        bar.set_message(message);
        bar
    })
}
