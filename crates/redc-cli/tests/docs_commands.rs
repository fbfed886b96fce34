//! Every command shown in `README.md`, `CONTRIBUTING.md`, `ARCHITECTURE.md`
//! and `docs/**/*.md` runs here, against the `redc` of this build.
//!
//! The fenced blocks of a file run in order, in one fresh scratch directory
//! per file (also `HOME`, so `~/...` stays inside it), with `PATH` starting
//! at a directory whose `redc` is the binary under test and
//! `REDC_PROVIDER` naming the OpenSSL provider library of this build:
//!
//! - ```` ```sh ````: a script, run whole by `bash -euo pipefail`; it must
//!   exit 0.
//! - ```` ```console ````: `$ COMMAND` lines, each run by `bash -euo
//!   pipefail`, with the lines under it as its expected output (stdout and
//!   stderr together): `…` inside a line stands for any text, a line `...`
//!   for any number of lines, runs of spaces count as one, and a last line
//!   `[exit status N]` gives the status (else 0). A command with no lines
//!   under it has its status checked only.
//! - ```` ```sh setup ````: builds or tests the repository (`cargo`,
//!   `./test.sh`, `.ci/run`, `make -C rtl`, `pip install`, `apt-get`,
//!   `git config`, and the repository's own test and bench scripts). Not run here; checked to hold
//!   nothing else.
//! - ```` ```sh no-run ```` (or `console no-run`): a block this test cannot
//!   run. The paragraph just above it must say why, in words the reader
//!   sees: "needs a GPU", "needs the FPGA flow" or "needs a network server",
//!   and the block must be about that (a GPU block names CUDA or the GPU,
//!   ...); any other use of the marker fails.
//!
//! Other shell spellings (`bash`, `shell`) fail, so that no block escapes by
//! its info string. ```` ```python ```` blocks are run by the Python suite
//! (`crates/redc-py/tests/test_docs.py`), which this test checks covers
//! every file that has one. Relative links and their `#anchors` must
//! resolve.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The reasons a block may be marked `no-run`, each with words of which
/// the block must contain one (lowercase), so the marker is not used for
/// something else.
const NO_RUN_REASONS: [(&str, &[&str]); 3] = [
    ("needs a GPU", &["cuda", "gpu"]),
    (
        "needs the FPGA flow",
        &["vivado", "quartus", "nextpnr", "bitstream", "fpga"],
    ),
    ("needs a network server", &["://", "--connect", "server"]),
];

/// What a `setup` block's commands may start with (after `sudo` and
/// `NAME=value` assignments): building or testing the repository itself.
const SETUP_COMMANDS: [&str; 12] = [
    "cargo ",
    "git config ",
    "./test.sh",
    ".ci/run",
    "make -C rtl",
    "pip install",
    "apt-get ",
    "crates/redc-py/test.sh",
    "rtl/mutants.sh",
    "crates/redc/mutants.sh",
    "python3 rtl/synth.py",
    "crates/redc-provider/scripts/",
];

/// The Python suite that runs the ```` ```python ```` blocks.
const PYTHON_DOCS_TEST: &str = "crates/redc-py/tests/test_docs.py";

#[derive(Clone, Copy, Debug, PartialEq)]
enum Kind {
    Sh,
    Console,
    Setup,
    NoRun,
    Python,
    Other,
}

#[derive(Debug)]
struct Block {
    /// 1-based line of the opening fence.
    line: usize,
    kind: Kind,
    body: Vec<String>,
    /// The paragraph just above the fence.
    before: String,
}

/// The repository's root.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// README.md, CONTRIBUTING.md, ARCHITECTURE.md and every Markdown file
/// under docs/, as paths relative to the root.
fn doc_files() -> Vec<PathBuf> {
    fn walk(dir: &Path, rel: &Path, out: &mut Vec<PathBuf>) {
        let mut entries: Vec<_> = std::fs::read_dir(dir)
            .expect("docs/ is readable")
            .map(|e| e.expect("a directory entry").path())
            .collect();
        entries.sort();
        for p in entries {
            let name = p.file_name().expect("a file name").to_owned();
            if p.is_dir() {
                walk(&p, &rel.join(&name), out);
            } else if p.extension().is_some_and(|e| e == "md") {
                out.push(rel.join(&name));
            }
        }
    }
    let mut files: Vec<PathBuf> = ["README.md", "CONTRIBUTING.md", "ARCHITECTURE.md"]
        .into_iter()
        .map(PathBuf::from)
        .collect();
    walk(&root().join("docs"), Path::new("docs"), &mut files);
    files
}

/// The fenced blocks of `text`, or the errors of their info strings.
fn blocks(text: &str) -> Result<Vec<Block>, String> {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let trimmed = lines[i].trim_start();
        let Some(info) = trimmed.strip_prefix("```") else {
            i += 1;
            continue;
        };
        let indent = lines[i].len() - trimmed.len();
        let words: Vec<&str> = info.split_whitespace().collect();
        let kind = match words.as_slice() {
            ["sh"] => Kind::Sh,
            ["console"] => Kind::Console,
            ["sh" | "console", "setup"] => Kind::Setup,
            ["sh" | "console", "no-run"] => Kind::NoRun,
            ["sh" | "console", ..] | ["bash" | "shell" | "zsh" | "shell-session", ..] => {
                return Err(format!(
                    "line {}: shell blocks are ```sh or ```console, optionally followed by \
                     `setup` or `no-run`; found ```{info}",
                    i + 1
                ));
            }
            ["python", ..] => Kind::Python,
            _ => Kind::Other,
        };
        // The paragraph above: back over blank lines, then up to one.
        let mut j = i;
        while j > 0 && lines[j - 1].trim().is_empty() {
            j -= 1;
        }
        let mut k = j;
        while k > 0 && !lines[k - 1].trim().is_empty() && !lines[k - 1].contains("```") {
            k -= 1;
        }
        let before = lines[k..j].join(" ");
        let start = i;
        let mut body = Vec::new();
        i += 1;
        while i < lines.len() && lines[i].trim() != "```" {
            let l = lines[i];
            let cut = l.len() - l.trim_start().len();
            body.push(l[cut.min(indent)..].to_owned());
            i += 1;
        }
        if i == lines.len() {
            return Err(format!("line {}: a block that is never closed", start + 1));
        }
        i += 1;
        out.push(Block {
            line: start + 1,
            kind,
            body,
            before,
        });
    }
    Ok(out)
}

/// The commands of a shell block: comments and blank lines dropped,
/// continuation lines joined, a console block's `$ ` taken off (its output
/// lines dropped).
fn commands(block: &Block) -> Vec<String> {
    let mut out = Vec::new();
    let mut pending = String::new();
    for l in &block.body {
        let l = l.trim();
        let l = if block.kind == Kind::Console || l.starts_with("$ ") {
            match l.strip_prefix("$ ") {
                Some(c) => c,
                None if !pending.is_empty() => l,
                None => continue,
            }
        } else {
            l
        };
        if l.is_empty() || l.starts_with('#') {
            continue;
        }
        pending.push_str(l);
        if pending.ends_with('\\') {
            pending.pop();
            continue;
        }
        out.push(std::mem::take(&mut pending));
    }
    if !pending.is_empty() {
        out.push(pending);
    }
    out
}

/// A setup command with `sudo` and leading `NAME=value` assignments taken
/// off.
fn setup_command(cmd: &str) -> &str {
    let mut rest = cmd.trim_start();
    loop {
        let first = rest.split_whitespace().next().unwrap_or("");
        let is_assignment = first
            .split_once('=')
            .is_some_and(|(name, _)| !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'));
        if first == "sudo" || is_assignment {
            // Skip the word; a quoted value may hold spaces.
            let mut quote = None;
            let mut end = rest.len();
            for (n, c) in rest.char_indices() {
                match (quote, c) {
                    (None, '"' | '\'') => quote = Some(c),
                    (Some(q), c) if c == q => quote = None,
                    (None, c) if c.is_whitespace() => {
                        end = n;
                        break;
                    }
                    _ => {}
                }
            }
            rest = rest[end..].trim_start();
        } else {
            return rest;
        }
    }
}

/// The checks of the markers: `setup` holds only setup commands, and
/// `no-run` names one of the three reasons and is about it.
fn check_markers(block: &Block) -> Result<(), String> {
    let at = block.line;
    match block.kind {
        Kind::Setup => {
            for cmd in commands(block) {
                let bare = setup_command(&cmd);
                if !SETUP_COMMANDS.iter().any(|p| bare.starts_with(p)) {
                    return Err(format!(
                        "line {at}: a `setup` block holds only commands that build or test \
                         the repository ({SETUP_COMMANDS:?}); `{cmd}` is not one: move it to \
                         a block that runs"
                    ));
                }
            }
            Ok(())
        }
        Kind::NoRun => {
            let reasons: Vec<_> = NO_RUN_REASONS
                .iter()
                .filter(|(r, _)| block.before.contains(r))
                .collect();
            if reasons.is_empty() {
                return Err(format!(
                    "line {at}: a `no-run` block needs the paragraph above it to say why: \
                     \"needs a GPU\", \"needs the FPGA flow\" or \"needs a network server\""
                ));
            }
            let body = block.body.join("\n").to_lowercase();
            if !reasons.iter().any(|(_, words)| words.iter().any(|w| body.contains(w))) {
                return Err(format!(
                    "line {at}: a `no-run` block that says it {} is about something else \
                     (none of {:?} in it)",
                    reasons[0].0, reasons[0].1
                ));
            }
            let cmds = commands(block);
            if !cmds.is_empty()
                && cmds.iter().all(|c| {
                    let bare = setup_command(c);
                    SETUP_COMMANDS.iter().any(|p| bare.starts_with(p))
                })
            {
                return Err(format!(
                    "line {at}: a `no-run` block of setup commands only: mark it `setup`"
                ));
            }
            Ok(())
        }
        _ => Ok(()),
    }
}

/// Whether `actual` matches `pattern`: `…` stands for any text, runs of
/// whitespace count as one.
fn line_matches(pattern: &str, actual: &str) -> bool {
    let squeeze = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ");
    let (pattern, actual) = (squeeze(pattern), squeeze(actual));
    let parts: Vec<&str> = pattern.split('…').collect();
    if parts.len() == 1 {
        return pattern == actual;
    }
    let (first, last) = (parts[0], parts[parts.len() - 1]);
    if !actual.starts_with(first) || actual.len() < first.len() + last.len() {
        return false;
    }
    let mut rest = &actual[first.len()..];
    if !rest.ends_with(last) {
        return false;
    }
    rest = &rest[..rest.len() - last.len()];
    for part in &parts[1..parts.len() - 1] {
        match rest.find(part) {
            Some(n) => rest = &rest[n + part.len()..],
            None => return false,
        }
    }
    true
}

/// Whether the lines of `actual` match `pattern`, where a line `...`
/// stands for any number of lines.
fn lines_match(pattern: &[String], actual: &[&str]) -> bool {
    match pattern.split_first() {
        None => actual.is_empty(),
        Some((p, rest)) if p.trim() == "..." => (0..=actual.len()).any(|skip| lines_match(rest, &actual[skip..])),
        Some((p, rest)) => match actual.split_first() {
            Some((a, more)) => line_matches(p, a) && lines_match(rest, more),
            None => false,
        },
    }
}

/// The provider library built for this test (a dev-dependency): beside the
/// test binary, in `target/<profile>/deps`.
fn provider_library() -> PathBuf {
    let exe = std::env::current_exe().expect("the test binary");
    let library = exe.parent().expect("its directory").join("libredc_provider.so");
    assert!(library.exists(), "no provider library at {}", library.display());
    library
}

/// Run `script` with `bash -euo pipefail` in `dir`; its status and its
/// stdout and stderr together.
fn bash(dir: &Path, bin: &Path, args: &[&str]) -> (Option<i32>, String) {
    let path = format!("{}:{}", bin.display(), std::env::var("PATH").unwrap_or_default());
    let out = Command::new("bash")
        .args(["-euo", "pipefail"])
        .args(args)
        .current_dir(dir)
        .env("PATH", path)
        .env("HOME", dir)
        .env("REDC_PROVIDER", provider_library())
        .env_remove("REDC_BACKEND")
        .env_remove("REDC_SECURITY_LEVEL")
        .env_remove("REDC_KEY_PASSWORD")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .output()
        .expect("bash runs");
    let mut text = String::from_utf8_lossy(&out.stdout).into_owned();
    text.push_str(&String::from_utf8_lossy(&out.stderr));
    (out.status.code(), text)
}

/// Run a console block's commands in `dir`, checking each one's status and
/// shown output.
fn run_console(block: &Block, dir: &Path, bin: &Path) -> Result<(), String> {
    // (command, its line, expected lines, status)
    let mut steps: Vec<(String, usize, Vec<String>, i32)> = Vec::new();
    for (n, l) in block.body.iter().enumerate() {
        let at = block.line + 1 + n;
        if let Some(cmd) = l.trim_start().strip_prefix("$ ") {
            match steps.last_mut() {
                Some((prev, _, expected, _)) if prev.ends_with('\\') && expected.is_empty() => {
                    prev.pop();
                    prev.push_str(cmd);
                }
                _ => steps.push((cmd.to_owned(), at, Vec::new(), 0)),
            }
        } else if let Some((_, _, expected, status)) = steps.last_mut() {
            let t = l.trim();
            if let Some(code) = t.strip_prefix("[exit status ").and_then(|r| r.strip_suffix(']')) {
                *status = code
                    .parse()
                    .map_err(|_| format!("line {at}: a bad `[exit status N]`"))?;
            } else {
                expected.push(l.clone());
            }
        } else if !l.trim().is_empty() {
            return Err(format!(
                "line {at}: a console block starts with a `$ ` command, not `{l}`"
            ));
        }
    }
    for (cmd, at, expected, status) in steps {
        let script = format!("{{\n{cmd}\n}} 2>&1");
        let (code, out) = bash(dir, bin, &["-c", &script]);
        if code != Some(status) {
            return Err(format!(
                "line {at}: `{cmd}` exited with {code:?}, the docs show {status}:\n{out}"
            ));
        }
        let actual: Vec<&str> = out.lines().collect();
        if !expected.is_empty() && !lines_match(&expected, &actual) {
            return Err(format!(
                "line {at}: `{cmd}` printed\n{out}\nwhere the docs show\n{}",
                expected.join("\n")
            ));
        }
    }
    Ok(())
}

/// How many blocks of a file ran, and how many were skipped by marker.
#[derive(Default)]
struct Tally {
    ran: usize,
    setup: usize,
    no_run: usize,
    python: usize,
}

/// Check and run the blocks of one file, in a scratch directory of its own.
fn run_file(rel: &Path, n: usize, bin: &Path) -> Result<Tally, String> {
    let text = std::fs::read_to_string(root().join(rel)).map_err(|e| e.to_string())?;
    let blocks = blocks(&text)?;
    let mut tally = Tally::default();
    for b in &blocks {
        check_markers(b)?;
    }
    let dir = std::env::temp_dir().join(format!("redc-docs-{}-{n}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    for b in &blocks {
        match b.kind {
            Kind::Sh => {
                let script = dir.join(".block.sh");
                std::fs::write(&script, b.body.join("\n") + "\n").map_err(|e| e.to_string())?;
                let (code, out) = bash(&dir, bin, &[".block.sh"]);
                let _ = std::fs::remove_file(&script);
                if code != Some(0) {
                    return Err(format!("line {}: the block exited with {code:?}:\n{out}", b.line));
                }
                tally.ran += 1;
            }
            Kind::Console => {
                run_console(b, &dir, bin)?;
                tally.ran += 1;
            }
            Kind::Setup => tally.setup += 1,
            Kind::NoRun => tally.no_run += 1,
            Kind::Python => tally.python += 1,
            Kind::Other => {}
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    Ok(tally)
}

/// GitHub's anchor of a heading: lowercase, punctuation dropped, spaces as
/// hyphens.
fn slug(heading: &str) -> String {
    heading
        .trim()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            '-' | '_' => Some(c),
            c if c.is_alphanumeric() => Some(c),
            _ => None,
        })
        .flat_map(char::to_lowercase)
        .collect()
}

/// The anchors of a Markdown file's headings (outside fenced blocks).
fn anchors(text: &str) -> BTreeSet<String> {
    let mut fenced = false;
    let mut out = BTreeSet::new();
    for l in text.lines() {
        if l.trim_start().starts_with("```") {
            fenced = !fenced;
        } else if !fenced && l.starts_with('#') {
            out.insert(slug(l.trim_start_matches('#')));
        }
    }
    out
}

/// The relative links of a file that do not resolve (a missing file or
/// anchor).
fn broken_links(rel: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(root().join(rel)).expect("the file is readable");
    let here = rel.parent().unwrap_or(Path::new(""));
    let mut broken = Vec::new();
    let mut rest = text.as_str();
    while let Some(n) = rest.find("](") {
        rest = &rest[n + 2..];
        let Some(end) = rest.find(')') else { break };
        let target = &rest[..end];
        if target.contains("://") || target.starts_with("mailto:") || target.contains(' ') {
            continue;
        }
        let (path, anchor) = target.split_once('#').unwrap_or((target, ""));
        let file = if path.is_empty() {
            rel.to_path_buf()
        } else {
            here.join(path)
        };
        let full = root().join(&file);
        if !full.exists() {
            broken.push(format!("{}: {target}: no such file", rel.display()));
        } else if !anchor.is_empty() {
            let md = if full.is_dir() { full.join("README.md") } else { full };
            let ok = std::fs::read_to_string(&md).is_ok_and(|t| anchors(&t).contains(anchor));
            if !ok {
                broken.push(format!("{}: {target}: no such heading", rel.display()));
            }
        }
    }
    broken
}

#[test]
#[allow(clippy::print_stderr, reason = "the tally is the test's report")]
fn every_command_in_the_docs_runs() {
    let files = doc_files();
    assert!(files.len() > 5, "README.md and docs/ are found: {files:?}");
    let scratch = std::env::temp_dir().join(format!("redc-docs-bin-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&scratch);
    std::fs::create_dir_all(&scratch).expect("a bin directory");
    std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_redc"), scratch.join("redc")).expect("redc is linked into it");

    let bin = scratch.as_path();
    let results: Vec<(PathBuf, Result<Tally, String>)> = std::thread::scope(|s| {
        let handles: Vec<_> = files
            .iter()
            .enumerate()
            .map(|(n, f)| (f, s.spawn(move || run_file(f, n, bin))))
            .collect();
        handles
            .into_iter()
            .map(|(f, h)| (f.clone(), h.join().expect("no panic")))
            .collect()
    });
    let _ = std::fs::remove_dir_all(&scratch);

    let mut failures = Vec::new();
    let mut total = Tally::default();
    let mut python_files = Vec::new();
    for (f, r) in results {
        match r {
            Ok(t) => {
                eprintln!(
                    "{}: {} blocks ran, {} setup, {} no-run, {} python",
                    f.display(),
                    t.ran,
                    t.setup,
                    t.no_run,
                    t.python
                );
                if t.python > 0 {
                    python_files.push(f.clone());
                }
                total.ran += t.ran;
                total.setup += t.setup;
                total.no_run += t.no_run;
                total.python += t.python;
            }
            Err(e) => failures.push(format!("{}: {e}", f.display())),
        }
        failures.extend(broken_links(&f));
    }
    eprintln!(
        "in all: {} blocks ran; not run here: {} setup, {} no-run, {} python (the Python suite's)",
        total.ran, total.setup, total.no_run, total.python
    );
    let python_test = std::fs::read_to_string(root().join(PYTHON_DOCS_TEST)).unwrap_or_default();
    for f in python_files {
        let name = f.to_string_lossy().into_owned();
        if !python_test.contains(&format!("\"{name}\"")) {
            failures.push(format!(
                "{name} has ```python blocks that {PYTHON_DOCS_TEST} does not run"
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn the_matcher_reads_the_conventions() {
    let p = |s: &[&str]| s.iter().map(|l| (*l).to_owned()).collect::<Vec<_>>();
    assert!(lines_match(&p(&["a", "...", "z"]), &["a", "b", "c", "z"]));
    assert!(lines_match(&p(&["a", "...", "z"]), &["a", "z"]));
    assert!(!lines_match(&p(&["a", "...", "z"]), &["a", "b"]));
    assert!(line_matches(r#"{"out":"…"}"#, r#"{"out":"6423"}"#));
    assert!(!line_matches(r#"{"out":"…"}"#, r#"{"error":"x"}"#));
    assert!(line_matches("step 1:  T    4,274", "step 1: T 4,274"));
    assert_eq!(
        setup_command(r#"MATURIN_PEP517_ARGS="--features cuda" pip install x"#),
        "pip install x"
    );
    assert_eq!(setup_command("sudo apt-get install -y g++"), "apt-get install -y g++");
    assert_eq!(slug("`redc modexp --batch FILE`"), "redc-modexp---batch-file");
    assert_eq!(
        slug("Operation counts (Koç's comparison)"),
        "operation-counts-koçs-comparison"
    );
    let marked = |before: &str, body: &str| Block {
        line: 1,
        kind: Kind::NoRun,
        body: vec![body.to_owned()],
        before: before.to_owned(),
    };
    assert!(check_markers(&marked("This needs a GPU:", "redc bench --backend cuda")).is_ok());
    assert!(check_markers(&marked("Slow:", "redc bench --backend cuda")).is_err());
    assert!(check_markers(&marked("This needs a GPU:", "redc bench --quick")).is_err());
    let setup = Block {
        line: 1,
        kind: Kind::Setup,
        body: vec!["cargo build".to_owned(), "redc demo".to_owned()],
        before: String::new(),
    };
    assert!(check_markers(&setup).is_err());
}
