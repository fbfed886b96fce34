//! `redc completions SHELL` and `redc man`: shell completions and manual
//! pages generated from the clap definitions, so they never drift from
//! `--help`.

use crate::args::{CompletionsArgs, ManArgs, command};
use crate::failure::bad_input;
use crate::output::Sink;
use std::process::ExitCode;

/// Write the completion script of `a.shell` to stdout.
pub(crate) fn completions(a: &CompletionsArgs) -> anyhow::Result<ExitCode> {
    // Generated in memory: clap_complete panics on a write error, and a
    // closed pipe must end quietly as for every other command.
    let mut script = Vec::new();
    clap_complete::generate(a.shell, &mut command(), "redc", &mut script);
    let mut sink = Sink::open(None)?;
    sink.writer().write_all(&script)?;
    sink.finish()?;
    Ok(ExitCode::SUCCESS)
}

/// Write `redc.1` to stdout, or (with `--dir`) one page per command into
/// the directory: `redc.1`, `redc-modexp.1`, `redc-rsa-encrypt.1`, …
pub(crate) fn man(a: &ManArgs) -> anyhow::Result<ExitCode> {
    let mut root = command();
    root.build();
    let Some(dir) = &a.dir else {
        let mut sink = Sink::open(None)?;
        clap_mangen::Man::new(root).render(sink.writer())?;
        sink.finish()?;
        return Ok(ExitCode::SUCCESS);
    };
    std::fs::create_dir_all(dir)
        .map_err(|e| bad_input!("--dir {}: cannot create the directory: {e}", dir.display()))?;
    // Every page is written (under a temporary name) before any is moved
    // into place, as `redc vectors` does.
    let mut sinks = Vec::new();
    let mut pages = vec![root];
    while let Some(page) = pages.pop() {
        pages.extend(page.get_subcommands().filter(|s| s.get_name() != "help").cloned());
        let man = clap_mangen::Man::new(page);
        let mut sink = Sink::open_public(Some(&dir.join(man.get_filename())), "--dir")?;
        man.render(sink.writer())?;
        sinks.push(sink);
    }
    for sink in sinks {
        sink.finish()?;
    }
    Ok(ExitCode::SUCCESS)
}
