//! Output destinations: stdout, or a file written whole or not at all.

use anyhow::Context;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

/// Where a command's output goes. A file is written under a temporary name in
/// the same directory and renamed into place by [`Sink::finish`]; dropped
/// without `finish` (an error on the way), the temporary file is removed and
/// nothing half-written is left behind.
pub(crate) enum Sink {
    /// Standard output.
    Stdout(BufWriter<std::io::Stdout>),
    /// A temporary file and its final name.
    File {
        out: Option<BufWriter<File>>,
        tmp: PathBuf,
        dest: PathBuf,
    },
}

impl Sink {
    /// Standard output, or a temporary file beside `path`.
    pub(crate) fn open(path: Option<&Path>) -> anyhow::Result<Self> {
        let Some(dest) = path.filter(|p| p.as_os_str() != "-") else {
            return Ok(Sink::Stdout(BufWriter::new(std::io::stdout())));
        };
        let name = dest
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let tmp = dest.with_file_name(format!(".{name}.redc-{}.tmp", std::process::id()));
        let file = File::create(&tmp).with_context(|| format!("cannot create {}", tmp.display()))?;
        Ok(Sink::File {
            out: Some(BufWriter::new(file)),
            tmp,
            dest: dest.to_path_buf(),
        })
    }

    /// The writer.
    pub(crate) fn writer(&mut self) -> &mut dyn Write {
        match self {
            Sink::Stdout(w) => w,
            Sink::File { out, .. } => out.as_mut().expect("sink already finished"),
        }
    }

    /// Flush, and move a file into place.
    pub(crate) fn finish(mut self) -> anyhow::Result<()> {
        match &mut self {
            Sink::Stdout(w) => w.flush().context("cannot write to stdout"),
            Sink::File { out, tmp, dest } => {
                let w = out.take().expect("sink already finished");
                let file = w
                    .into_inner()
                    .map_err(|e| e.into_error())
                    .context("cannot write output")?;
                file.sync_all().context("cannot write output")?;
                std::fs::rename(&*tmp, &*dest).with_context(|| format!("cannot rename output to {}", dest.display()))
            }
        }
    }
}

impl Drop for Sink {
    fn drop(&mut self) {
        if let Sink::File { out: Some(_), tmp, .. } = self {
            let _ = std::fs::remove_file(tmp);
        }
    }
}
