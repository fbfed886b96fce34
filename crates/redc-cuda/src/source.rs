//! The kernel source handed to NVRTC: `kernels/redc.cu` with its
//! `#include "x.cuh"` lines replaced by the files' text (NVRTC gets one
//! string and no include path), compiled with only the entries of a plan.
//!
//! The host build of the same files (crate `redc-cuda-sim`) includes them
//! from disk; here they are embedded with `include_str!`, so every header
//! must be listed in [`headers!`] below.

/// The kernel headers, by file name under `kernels/`: the one list to
/// extend when a header is added (the test
/// `every_header_on_disk_is_embedded` fails until it is).
macro_rules! headers {
    ($($name:literal),* $(,)?) => {
        &[$(($name, include_str!(concat!("../kernels/", $name)))),*]
    };
}

/// `(file name, text)` of every `kernels/*.cuh`.
const HEADERS: &[(&str, &str)] = headers![
    "types.cuh",
    "arith.cuh",
    "mont_thread.cuh",
    "mont_coop.cuh",
    "exp.cuh",
    "entries.cuh"
];

/// The entry file, which defines `REDC_ENTRY(T, N)`.
const ENTRY_FILE: (&str, &str) = ("redc.cu", include_str!("../kernels/redc.cu"));

/// The source for NVRTC: `#define REDC_CUSTOM_ENTRIES`, the entry file with
/// every header expanded in place (each once, at its first include), then
/// one `REDC_ENTRY(T, N)` line per `(threads, digits)` of `entries`.
///
/// Fails, naming it, on an `#include "..."` of a file that is not embedded
/// (a missing entry in [`HEADERS`]).
pub(crate) fn kernel_source(entries: &[(usize, usize)]) -> Result<String, String> {
    let mut out = String::from("#define REDC_CUSTOM_ENTRIES\n");
    expand(HEADERS, ENTRY_FILE, &mut Vec::new(), &mut out)?;
    for &(threads, digits) in entries {
        out.push_str(&format!("REDC_ENTRY({threads}, {digits})\n"));
    }
    Ok(out)
}

/// Append `file`'s text to `out` with its includes expanded from `table`
/// (recursively; a file already in `seen` expands to nothing). `#pragma
/// once` lines are dropped (the expansion does their job, and NVRTC warns
/// about them in a main file); `#line` markers keep NVRTC's messages
/// pointing at the original files.
fn expand<'a>(
    table: &[(&'a str, &'a str)],
    (name, text): (&'a str, &'a str),
    seen: &mut Vec<&'a str>,
    out: &mut String,
) -> Result<(), String> {
    out.push_str(&format!("#line 1 \"{name}\"\n"));
    for (index, line) in text.lines().enumerate() {
        if line.trim() == "#pragma once" {
            out.push('\n');
            continue;
        }
        let Some(included) = quoted_include(line) else {
            out.push_str(line);
            out.push('\n');
            continue;
        };
        let &(included, body) = table.iter().find(|(known, _)| *known == included).ok_or_else(|| {
            format!(
                "{name}:{}: `#include \"{included}\"` is not an embedded kernel file",
                index + 1
            )
        })?;
        if !seen.contains(&included) {
            seen.push(included);
            expand(table, (included, body), seen, out)?;
            out.push_str(&format!("#line {} \"{name}\"\n", index + 2));
        } else {
            out.push('\n');
        }
    }
    Ok(())
}

/// The file name of a line `#include "name"` (spaces allowed around `#`
/// and between the words), or `None` for any other line.
fn quoted_include(line: &str) -> Option<&str> {
    let rest = line.trim_start().strip_prefix('#')?.trim_start();
    let rest = rest.strip_prefix("include")?.trim_start();
    let rest = rest.strip_prefix('"')?;
    rest.split_once('"').map(|(name, _)| name)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plan;

    fn expand_all(
        table: &[(&'static str, &'static str)],
        entry: (&'static str, &'static str),
    ) -> Result<String, String> {
        let mut out = String::new();
        expand(table, entry, &mut Vec::new(), &mut out).map(|()| out)
    }

    #[test]
    fn include_lines_are_recognised() {
        assert_eq!(quoted_include("#include \"a.cuh\""), Some("a.cuh"));
        assert_eq!(quoted_include("  #  include   \"b.cuh\" // why"), Some("b.cuh"));
        assert_eq!(quoted_include("#include <cstdint>"), None);
        assert_eq!(quoted_include("// #include \"a.cuh\""), None);
        assert_eq!(quoted_include("#define include \"a.cuh\""), None);
    }

    #[test]
    fn nested_includes_expand_once_each() {
        let table = [
            ("a.cuh", "#pragma once\n#include \"b.cuh\"\nA\n"),
            ("b.cuh", "#pragma once\n#include \"a.cuh\"\nB\n"),
        ];
        let out = expand_all(&table, ("main.cu", "#include \"a.cuh\"\n#include \"b.cuh\"\nMAIN\n")).unwrap();
        let code: Vec<&str> = out
            .lines()
            .filter(|l| !l.is_empty() && !l.starts_with("#line"))
            .collect();
        assert_eq!(code, ["B", "A", "MAIN"]);
        assert!(!out.contains("#include") && !out.contains("#pragma once"), "{out}");
    }

    #[test]
    fn line_markers_follow_the_files() {
        let table = [("a.cuh", "A\n")];
        let out = expand_all(&table, ("main.cu", "one\n#include \"a.cuh\"\nthree\n")).unwrap();
        assert_eq!(
            out,
            "#line 1 \"main.cu\"\none\n#line 1 \"a.cuh\"\nA\n#line 3 \"main.cu\"\nthree\n"
        );
    }

    #[test]
    fn an_unknown_include_is_an_error_naming_it() {
        let table = [("a.cuh", "#include \"missing.cuh\"\n")];
        let err = expand_all(&table, ("main.cu", "#include \"a.cuh\"\n")).unwrap_err();
        assert!(err.contains("a.cuh:1") && err.contains("missing.cuh"), "{err}");
    }

    #[test]
    fn the_kernel_source_is_self_contained_and_asks_for_the_plan() {
        let entries: Vec<(usize, usize)> = plan::valid_pairs().collect();
        let src = kernel_source(&entries).unwrap();
        assert!(src.starts_with("#define REDC_CUSTOM_ENTRIES\n"));
        assert!(!src.contains("#include \""), "an include is left for NVRTC to resolve");
        assert!(src.contains("REDC_ENTRY"), "redc.cu must define REDC_ENTRY");
        let tail: Vec<&str> = src.lines().rev().take(entries.len()).collect();
        for (t, n) in entries {
            assert!(
                tail.contains(&format!("REDC_ENTRY({t}, {n})").as_str()),
                "({t}, {n}) not requested"
            );
        }
    }

    #[test]
    fn every_header_on_disk_is_embedded() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/kernels");
        for file in std::fs::read_dir(dir).unwrap() {
            let name = file.unwrap().file_name().into_string().unwrap();
            if name.ends_with(".cuh") {
                assert!(
                    HEADERS.iter().any(|(known, _)| *known == name),
                    "add {name} to HEADERS in source.rs"
                );
            }
        }
    }

    /// The entry names the plan asks for are the ones the preprocessed
    /// source defines (checked with the host's C++ preprocessor, which
    /// expands `REDC_ENTRY` as NVRTC would; skipped without one).
    #[test]
    fn the_preprocessed_source_defines_exactly_the_requested_entries() {
        let entries = [(1, 16), (8, 64), (32, 128)];
        let src = kernel_source(&entries).unwrap();
        let Some(expanded) = preprocess(&src) else {
            #[allow(clippy::print_stdout)]
            {
                println!("SKIPPED: no host C++ preprocessor (c++ -E)");
            }
            return;
        };
        let mut defined: Vec<String> = expanded
            .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .filter(|word| word.starts_with("redc_pow_t"))
            .map(str::to_owned)
            .collect();
        defined.sort();
        defined.dedup();
        let mut wanted: Vec<String> = entries
            .iter()
            .flat_map(|&(t, n)| [crate::Secrecy::Secret, crate::Secrecy::Public].map(|s| plan::entry_name(t, n, s)))
            .collect();
        wanted.sort();
        assert_eq!(defined, wanted);
    }

    /// `src` run through `c++ -E` with NVRTC's predefined macros, or `None`
    /// when no host compiler runs.
    fn preprocess(src: &str) -> Option<String> {
        use std::io::Write;
        use std::process::{Command, Stdio};
        let mut child = Command::new("c++")
            .args([
                "-E",
                "-P",
                "-x",
                "c++",
                "-D__CUDACC__",
                "-D__CUDACC_RTC__",
                "-D__CUDA_ARCH__=700",
                "-",
            ])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .ok()?;
        child.stdin.take()?.write_all(src.as_bytes()).ok()?;
        let output = child.wait_with_output().ok()?;
        assert!(output.status.success(), "c++ -E failed on the kernel source");
        Some(String::from_utf8(output.stdout).unwrap())
    }
}
