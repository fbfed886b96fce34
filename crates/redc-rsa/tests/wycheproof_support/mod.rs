//! The Wycheproof runners' shared harness (the RSA runner here, the DSA
//! runner of `redc-ffc`): the vector directory, the tally of expected
//! against actual results, and the run over every file of a prefix, one
//! thread per file, dispatched on the file's `schema` (an unknown schema
//! fails the run, never skipped).

#![allow(clippy::print_stderr, dead_code, unreachable_pub)]

use serde_json::Value;
use std::path::{Path, PathBuf};

/// The vector directory, or `None` when the default one is absent.
pub fn vectors_dir() -> Option<PathBuf> {
    if let Some(dir) = std::env::var_os("REDC_VECTORS") {
        let dir = PathBuf::from(dir);
        let sub = dir.join("testvectors_v1");
        let dir = if sub.is_dir() { sub } else { dir };
        assert!(dir.is_dir(), "REDC_VECTORS={} is not a directory", dir.display());
        return Some(dir);
    }
    let default = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/vectors/wycheproof/testvectors_v1");
    default.is_dir().then_some(default)
}

/// The outcome of one file.
#[derive(Default)]
pub struct Tally {
    pub total: usize,
    passed: usize,
    valid: usize,
    invalid: usize,
    acceptable_accepted: usize,
    acceptable_rejected: usize,
    failures: Vec<String>,
}

impl Tally {
    /// Record test case `tc`: did the operation succeed (`ok`), and why not.
    pub fn record(&mut self, tc: &Value, ok: bool, why: &str) {
        self.total += 1;
        let result = tc["result"].as_str().unwrap_or("");
        let pass = match result {
            "valid" => {
                self.valid += 1;
                ok
            }
            "invalid" => {
                self.invalid += 1;
                !ok
            }
            "acceptable" => {
                if ok {
                    self.acceptable_accepted += 1;
                } else {
                    self.acceptable_rejected += 1;
                }
                true
            }
            _ => false,
        };
        if pass {
            self.passed += 1;
        } else {
            self.failures.push(format!(
                "tcId {} ({}, {}, flags {}): expected {result}, got {}{}",
                tc["tcId"],
                tc["comment"].as_str().unwrap_or(""),
                if ok { "accepted" } else { "rejected" },
                tc["flags"],
                if ok { "success" } else { "failure" },
                if why.is_empty() {
                    String::new()
                } else {
                    format!(" ({why})")
                },
            ));
        }
    }

    /// Record test case `tc` as failed whatever its expected result.
    pub fn fail(&mut self, tc: &Value, why: &str) {
        self.total += 1;
        self.failures.push(format!(
            "tcId {} ({}): {why}",
            tc["tcId"],
            tc["comment"].as_str().unwrap_or("")
        ));
    }

    /// Every test of a group whose key or parameters could not be set up.
    pub fn record_group_failure(&mut self, group: &Value, why: &str) {
        for tc in tests(group) {
            self.record(tc, false, why);
        }
    }
}

pub fn tests(group: &Value) -> &[Value] {
    group["tests"].as_array().map(Vec::as_slice).unwrap_or(&[])
}

pub fn field<'a>(v: &'a Value, name: &str) -> &'a str {
    v[name].as_str().unwrap_or("")
}

/// A runner of one schema's test groups.
pub type GroupRunner = fn(&Value, &mut Tally) -> Result<(), String>;

/// Runs one file: its schema's runner (from `dispatch`, by the schema name
/// without `.json` and `_v1`) on every test group.
fn run_file(path: &Path, known: &[&str], dispatch: fn(&str) -> Option<GroupRunner>) -> Result<Tally, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let doc: Value = serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    let schema = field(&doc, "schema");
    let base = schema.trim_end_matches(".json").trim_end_matches("_v1");
    let run =
        dispatch(base).ok_or_else(|| format!("{}: unknown schema {schema:?} (known: {known:?})", path.display()))?;
    let mut tally = Tally::default();
    for group in doc["testGroups"].as_array().map(Vec::as_slice).unwrap_or(&[]) {
        if let Err(why) = run(group, &mut tally) {
            tally.record_group_failure(group, &why);
        }
    }
    let declared = doc["numberOfTests"].as_u64().unwrap_or(0) as usize;
    if declared != 0 && declared != tally.total {
        tally
            .failures
            .push(format!("numberOfTests says {declared}, ran {}", tally.total));
    }
    Ok(tally)
}

/// Runs every `<prefix>*_test.json` file of the vector directory and fails
/// with every problem found; skipped (with a note) when the default
/// directory is absent.
pub fn run_all(prefix: &str, known: &[&str], dispatch: fn(&str) -> Option<GroupRunner>) {
    let Some(dir) = vectors_dir() else {
        eprintln!(
            "wycheproof {prefix}*: no vectors (set REDC_VECTORS or provide ../shared/vectors/wycheproof); skipped"
        );
        return;
    };
    run_dir(&dir, prefix, known, dispatch);
}

/// Runs every `<prefix>*_test.json` file of `dir` and fails with every
/// problem found (none found is a problem).
pub fn run_dir(dir: &Path, prefix: &str, known: &[&str], dispatch: fn(&str) -> Option<GroupRunner>) {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with(prefix) && n.ends_with("_test.json"))
        })
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no {prefix}*_test.json in {}", dir.display());

    // One thread per file: the private-key files dominate the run time.
    let results: Vec<(PathBuf, Result<Tally, String>)> = std::thread::scope(|s| {
        let handles: Vec<_> = files
            .iter()
            .map(|f| (f.clone(), s.spawn(|| run_file(f, known, dispatch))))
            .collect();
        handles
            .into_iter()
            .map(|(f, h)| (f, h.join().unwrap_or_else(|_| Err("runner panicked".into()))))
            .collect()
    });

    let mut problems = Vec::new();
    let (mut all_total, mut all_passed) = (0, 0);
    for (path, result) in &results {
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("?");
        match result {
            Ok(t) => {
                eprintln!(
                    "{name}: {}/{} passed ({} valid, {} invalid, acceptable {} accepted / {} rejected)",
                    t.passed, t.total, t.valid, t.invalid, t.acceptable_accepted, t.acceptable_rejected
                );
                all_total += t.total;
                all_passed += t.passed;
                for f in &t.failures {
                    problems.push(format!("{name}: {f}"));
                }
            }
            Err(e) => problems.push(e.clone()),
        }
    }
    eprintln!(
        "wycheproof: {all_passed}/{all_total} test cases passed in {} files",
        results.len()
    );
    assert!(
        problems.is_empty(),
        "{} problems:\n{}",
        problems.len(),
        problems.join("\n")
    );
}
