//! The `redc` binary end to end: outputs, exit statuses and error messages.

mod common;

/// Run `redc` with `args` and `stdin`; (status, stdout, stderr).
fn redc(args: &[&str], stdin: &str) -> (i32, String, String) {
    let out = common::run(args, stdin);
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

/// Bad input: status 2, nothing on stdout, one line on stderr containing `needle`.
fn rejects(args: &[&str], needle: &str) {
    let (code, out, err) = redc(args, "");
    assert_eq!(code, 2, "{args:?}: {err}");
    assert!(out.is_empty(), "{args:?} printed {out}");
    assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
    assert!(err.contains(needle), "{args:?}: {err:?} lacks {needle:?}");
}

#[test]
fn modexp_prints_the_result_alone() {
    assert_eq!(
        redc(&["modexp", "4", "13", "497"], ""),
        (0, "445\n".into(), String::new())
    );
    assert_eq!(redc(&["modexp", "0x4", "0xd", "0x1f1", "--hex"], "").1, "0x1bd\n");
    assert_eq!(redc(&["modexp", "5", "0", "1"], "").1, "0\n");
    assert_eq!(redc(&["modexp", "0", "0", "10"], "").1, "1\n");
    assert_eq!(
        redc(&["modexp", "3", "100", "1024"], "").1,
        "977\n" /* pow(3, 100, 1024) */
    );
}

#[test]
fn every_option_gives_the_same_answer() {
    for product in common::PRODUCTS {
        for schedule in common::SCHEDULES {
            for word in common::WORDS {
                let args = [
                    "modexp",
                    "123456789",
                    "987654321",
                    "1000000007000000063",
                    "--product",
                    product,
                    "--schedule",
                    schedule,
                    "--word",
                    word,
                ];
                let (code, out, err) = redc(&args, "");
                assert_eq!((code, err.as_str()), (0, ""), "{args:?}");
                // pow(123456789, 987654321, 1000000007000000063) by Python.
                assert_eq!(out, "308509532548110076\n", "{args:?}");
            }
        }
    }
}

#[test]
fn trace_prints_a_table_then_the_result() {
    let (code, out, _) = redc(
        &[
            "modexp",
            "7",
            "5",
            "0xfffefff1",
            "--trace",
            "--word",
            "8",
            "--schedule",
            "ltr",
        ],
        "",
    );
    assert_eq!(code, 0);
    let lines: Vec<&str> = out.lines().collect();
    assert!(
        lines[0].starts_with("# product cios, schedule ltr, w = 8, s = 4"),
        "{out}"
    );
    assert!(lines[2].starts_with("step"), "{out}");
    // init rows (M, x) and one row per exponent bit (5 = 101b): 3 bits.
    assert_eq!(lines.iter().filter(|l| l.contains("square")).count(), 3, "{out}");
    assert_eq!(*lines.last().unwrap(), "16807");
    assert!(out.contains("0x41a7"), "the last row's value is 7^5 = 0x41a7: {out}");
}

#[test]
fn bad_input_exits_2_naming_the_field() {
    // A negative base is Python's (pow(-5, 3, 7) = 1); one without an inverse
    // cannot take a negative exponent.
    assert_eq!(redc(&["modexp", "-5", "3", "7"], "").1, "1\n");
    rejects(&["modexp", "4", "-1", "8"], "BASE: not invertible");
    rejects(&["modexp", "5", "x", "7"], "EXP");
    rejects(&["modexp", "5", "3", "1.5"], "MOD");
    rejects(&["modexp", "5", "3", "0"], "MOD: modulus is zero");
    rejects(&["modexp", "5", "3"], "MOD");
    rejects(&["modexp", "0x", "3", "7"], "BASE");
    rejects(&["modexp", "5", "3", "7", "--bogus"], "--bogus");
    rejects(&["modexp", "5", "3", "7", "--word", "12"], "--word");
    rejects(&["modexp", "5", "3", "7", "--product", "fast"], "--product");
    rejects(&["modexp", "5", "3", "7", "--schedule", "magic"], "--schedule");
    rejects(&["modexp", "--batch", "/nonexistent/redc-input"], "--batch");
    rejects(&["modexp", "5", "3", "7", "--batch", "-"], "--batch");
    rejects(&["frobnicate"], "frobnicate");
    let huge = "9".repeat(30_000);
    rejects(&["modexp", &huge, "3", "7"], "BASE");
}

#[test]
fn usage_errors_keep_all_of_clap_and_point_at_the_subcommand_help() {
    let cases: [(&[&str], &str); 5] = [
        (
            &["keygen", "--publc", "x"],
            "redc: unexpected argument '--publc' found; a similar argument exists: '--pub' (see 'redc keygen --help')",
        ),
        (
            &["modexp", "--batch", "f", "--trace", "1", "2", "3"],
            "redc: the argument '--batch <FILE>' cannot be used with: --trace [BASE] [EXP] [MOD] \
             (see 'redc modexp --help')",
        ),
        (
            &["rsa", "encrpt"],
            "redc: unrecognized subcommand 'encrpt'; some similar subcommands exist: 'decrypt', 'encrypt' \
             (see 'redc rsa --help')",
        ),
        (
            &["rsa", "decrypt", "--key", "k", "-i", "x", "-o", "y", "--scheme", "foo"],
            "redc: invalid value 'foo' for '--scheme <SCHEME>' [possible values: oaep, pkcs1v15] \
             (see 'redc rsa decrypt --help')",
        ),
        (
            &["verify"],
            "redc: the following required arguments were not provided: --key <KEY> --sig <SIG> \
             (see 'redc verify --help')",
        ),
    ];
    for (args, line) in cases {
        let (code, out, err) = redc(args, "");
        assert_eq!((code, out.as_str()), (2, ""), "{args:?}");
        assert_eq!(err, format!("{line}\n"), "{args:?}");
    }
}

/// `redc ... | head -1`: the reader goes away after one line; redc stops
/// quietly with status 0 (no "Broken pipe" message).
#[test]
fn a_reader_that_stops_early_is_not_an_error() {
    use std::io::{BufRead, BufReader, Read, Write};
    use std::process::{Command, Stdio};
    let lines: String = (0..200_000)
        .map(|i| format!("{{\"base\": {i}, \"exp\": 65537, \"mod\": 1000003}}\n"))
        .collect();
    let mut child = Command::new(env!("CARGO_BIN_EXE_redc"))
        .args(["modexp", "--batch", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("redc starts");
    let mut stdin = child.stdin.take().expect("piped");
    let writer = std::thread::spawn(move || stdin.write_all(lines.as_bytes()));
    let mut first = String::new();
    BufReader::new(child.stdout.take().expect("piped"))
        .read_line(&mut first)
        .expect("one line");
    assert_eq!(first, "{\"result\":\"0\"}\n");
    // The reader is dropped here: the pipe is closed.
    let status = child.wait().expect("redc ends");
    let _ = writer.join();
    let mut err = String::new();
    child
        .stderr
        .take()
        .expect("piped")
        .read_to_string(&mut err)
        .expect("stderr");
    assert_eq!((status.code(), err.as_str()), (Some(0), ""));
}

#[test]
fn help_exits_0() {
    let (code, out, _) = redc(&["modexp", "--help"], "");
    assert_eq!(code, 0);
    assert!(out.contains("--schedule"));
}

#[test]
fn batch_answers_every_line_in_order() {
    let input = concat!(
        "{\"base\": 2, \"exp\": 10, \"mod\": 1000}\n",
        "{\"base\": \"0x10\", \"exp\": \"-1\", \"mod\": 7}\n",
        "\n",
        "{\"base\": 1}\n",
        "not json\n",
        "{\"base\": \"3\", \"exp\": \"200\", \"mod\": \"0x10000000000000000000000000000000000\"}\n",
        "{\"base\": true, \"exp\": 1, \"mod\": 7}\n",
        "{\"base\": 12345678901234567890123456789, \"exp\": 2, \"mod\": 1000000007}\n",
    );
    // On the batch engine (the default), and on the reference modpow that
    // --product, --schedule or --word ask for: the same answers.
    let (code, out, err) = redc(&["modexp", "--batch", "-"], input);
    for reference in [["--product", "sos"], ["--schedule", "ladder"], ["--word", "8"]] {
        let args = ["modexp", "--batch", "-", reference[0], reference[1]];
        assert_eq!(redc(&args, input), (code, out.clone(), err.clone()), "{reference:?}");
    }
    assert_eq!(code, 2, "bad lines make the status 2: {err}");
    assert!(err.contains("5 of 8 lines"), "{err}");
    let lines: Vec<serde_json::Value> = out.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(lines.len(), 8);
    assert_eq!(lines[0], serde_json::json!({"result": "24"}));
    assert_eq!(lines[1]["field"], "exp");
    assert_eq!(lines[1]["line"], 2);
    assert!(lines[1]["error"].as_str().unwrap().contains("negative"));
    assert_eq!(lines[2]["line"], 3);
    assert_eq!(lines[3]["field"], "exp");
    assert!(lines[4]["error"].as_str().unwrap().starts_with("line 5"));
    // pow(3, 200, 2**136) by Python.
    assert_eq!(lines[5]["result"], "62106750038150894321001589340522493292705");
    assert_eq!(lines[6]["field"], "base");
    // 12345678901234567890123456789^2 mod 1000000007
    assert_eq!(lines[7]["result"], "645627018");
    // An "id" is echoed, with an answer or an error.
    let input =
        "{\"id\": \"a\", \"base\": 2, \"exp\": 3, \"mod\": 5}\n{\"id\": [1], \"base\": -2, \"exp\": 3, \"mod\": 5}\n";
    let (_, out, _) = redc(&["modexp", "--batch", "-"], input);
    let lines: Vec<serde_json::Value> = out.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(lines[0], serde_json::json!({"id": "a", "result": "3"}));
    assert_eq!(
        (&lines[1]["id"], &lines[1]["field"]),
        (&serde_json::json!([1]), &serde_json::json!("base"))
    );
}

#[test]
fn batch_output_file_is_written_whole() {
    let dir = std::env::temp_dir().join(format!("redc-cli-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let input = dir.join("in.jsonl");
    let output = dir.join("out.jsonl");
    std::fs::write(
        &input,
        "{\"base\": 3, \"exp\": 4, \"mod\": 5}\n{\"base\": 3, \"exp\": 4, \"mod\": \"0x10\"}\n",
    )
    .unwrap();
    let (code, out, err) = redc(
        &[
            "modexp",
            "--batch",
            input.to_str().unwrap(),
            "-o",
            output.to_str().unwrap(),
            "--hex",
        ],
        "",
    );
    assert_eq!((code, out.as_str(), err.as_str()), (0, "", ""));
    assert_eq!(
        std::fs::read_to_string(&output).unwrap(),
        "{\"result\":\"0x1\"}\n{\"result\":\"0x1\"}\n"
    );
    // No temporary files are left beside it.
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 2);
    // An output directory that does not exist: bad input (status 2) naming
    // -o, nothing created.
    let (code, _, err) = redc(
        &[
            "modexp",
            "--batch",
            input.to_str().unwrap(),
            "-o",
            "/nonexistent/dir/out",
        ],
        "",
    );
    assert_eq!(code, 2, "{err}");
    assert!(
        err.starts_with("redc: -o /nonexistent/dir/out: cannot create the file"),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn demo_runs() {
    let (code, out, err) = redc(&["demo"], "");
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("= 245"));
    assert!(out.contains("all 30 results identical"));
}

#[test]
fn counts_prints_koc_table() {
    let (code, out, _) = redc(&["counts", "--digits", "8"], "");
    assert_eq!(code, 0);
    assert_eq!(out.lines().filter(|l| l.starts_with("| 8 |")).count(), 6);
    assert!(
        out.contains("| 8 | cios | 136 |"),
        "2·8² + 8 = 136 multiplications: {out}"
    );
}

#[test]
fn counts_and_single_modexp_as_json() {
    let (code, out, _) = redc(&["counts", "--digits", "8,16", "--word", "64", "--json"], "");
    assert_eq!(code, 0);
    let rows: Vec<serde_json::Value> = out.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(rows.len(), 12, "{out}");
    for row in &rows {
        let s = row["s"].as_u64().unwrap();
        assert_eq!(row["w"], 64);
        // Koç: 2s² + s multiplications for every schedule.
        assert_eq!(row["mul"].as_u64().unwrap(), 2 * s * s + s, "{row}");
        for key in ["schedule", "add", "read", "write", "scratch_digits"] {
            assert!(!row[key].is_null(), "{key} in {row}");
        }
    }
    // The same figures as the table.
    let table = redc(&["counts", "--digits", "8,16", "--word", "64"], "").1;
    for row in &rows {
        let line = format!(
            "| {} | {} | {} | {} | {} | {} | {} |",
            row["s"],
            row["schedule"].as_str().unwrap(),
            row["mul"],
            row["add"],
            row["read"],
            row["write"],
            row["scratch_digits"]
        );
        assert!(table.contains(&line), "{line} not in {table}");
    }
    assert_eq!(
        redc(&["modexp", "4", "13", "497", "--json"], "").1,
        "{\"result\":\"445\"}\n"
    );
    assert_eq!(
        redc(&["modexp", "4", "13", "497", "--json", "--hex"], "").1,
        "{\"result\":\"0x1bd\"}\n"
    );
    rejects(
        &["modexp", "4", "13", "497", "--json", "--trace"],
        "'--json' cannot be used with '--trace'",
    );
}

#[test]
fn output_files_and_special_files() {
    let dir = std::env::temp_dir().join(format!("redc-cli-out-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("r.txt");
    // -o works for a single result too.
    assert_eq!(
        redc(&["modexp", "4", "13", "497", "-o", out.to_str().unwrap()], ""),
        (0, String::new(), String::new())
    );
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "445\n");
    // A device is written in place, not replaced by a regular file.
    assert_eq!(redc(&["modexp", "4", "13", "497", "-o", "/dev/null"], "").0, 0);
    use std::os::unix::fs::FileTypeExt;
    assert!(std::fs::metadata("/dev/null").unwrap().file_type().is_char_device());
    // A directory as output or as batch input: status 2, nothing left behind.
    rejects(
        &["modexp", "4", "13", "497", "-o", dir.to_str().unwrap()],
        "is a directory",
    );
    rejects(&["modexp", "--batch", dir.to_str().unwrap()], "--batch");
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 1);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn batch_lines_edge_cases() {
    // A byte-order mark on the first line is ignored; a key given twice is an error;
    // an over-long line is an error line, not an out-of-memory.
    let long = format!("{{\"base\": \"{}\", \"exp\": 1, \"mod\": 7}}\n", "1".repeat(1 << 21));
    let input = format!(
        "\u{feff}{{\"base\": 2, \"exp\": 3, \"mod\": 5}}\n{{\"base\": 2, \"exp\": 3, \"mod\": 5, \"mod\": 0}}\n{long}{{\"base\": 2, \"exp\": 3, \"mod\": 5}}\r\n"
    );
    let (code, out, _) = redc(&["modexp", "--batch", "-"], &input);
    assert_eq!(code, 2);
    let lines: Vec<serde_json::Value> = out.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(lines.len(), 4);
    assert_eq!(lines[0]["result"], "3");
    assert!(
        lines[1]["error"].as_str().unwrap().contains("\"mod\" given twice"),
        "{}",
        lines[1]
    );
    assert!(lines[2]["error"].as_str().unwrap().contains("limit"), "{}", lines[2]);
    assert_eq!(lines[3]["result"], "3");
}

#[test]
fn version_names_commit_features_and_backends() {
    let (code, out, err) = redc(&["--version"], "");
    assert_eq!((code, err.as_str()), (0, ""));
    let first = out.lines().next().unwrap();
    assert!(
        first.starts_with(&format!("redc {} (commit ", env!("CARGO_PKG_VERSION"))),
        "{out}"
    );
    assert!(out.contains("\nfeatures: cuda "), "{out}");
    for backend in ["ifma", "scalar", "cuda", "auto picks"] {
        assert!(out.contains(&format!("\n  {backend}: ")), "{backend} missing: {out}");
    }
    // -V: the version alone, one line.
    assert_eq!(redc(&["-V"], "").1, format!("redc {}\n", env!("CARGO_PKG_VERSION")));
}

#[test]
fn completions_are_generated_for_every_shell() {
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let (code, out, err) = redc(&["completions", shell], "");
        assert_eq!((code, err.as_str()), (0, ""), "{shell}");
        // Every command and a nested one are completed.
        for word in ["keygen", "private-batch", "--password-file"] {
            assert!(out.contains(word), "{shell} completions lack {word}");
        }
    }
    // The bash script is valid bash.
    let script = redc(&["completions", "bash"], "").1;
    let path = common::scratch_dir("completions").join("redc.bash");
    std::fs::write(&path, script).unwrap();
    let status = std::process::Command::new("bash")
        .arg("-n")
        .arg(&path)
        .status()
        .unwrap();
    assert!(status.success(), "bash -n rejects the completion script");
    rejects(&["completions", "tcsh"], "invalid value 'tcsh' for '<SHELL>'");
}

#[test]
fn man_pages_cover_every_command() {
    let (code, page, err) = redc(&["man"], "");
    assert_eq!((code, err.as_str()), (0, ""));
    assert!(page.contains(".TH redc 1"), "{page}");
    let dir = common::scratch_dir("man");
    let (code, out, err) = redc(&["man", "--dir", dir.to_str().unwrap()], "");
    assert_eq!((code, out.as_str(), err.as_str()), (0, "", ""));
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    for want in [
        "redc.1",
        "redc-keygen.1",
        "redc-rsa.1",
        "redc-rsa-private-batch.1",
        "redc-dh-derive-batch.1",
        "redc-dsa-verify-batch.1",
        "redc-man.1",
    ] {
        assert!(names.iter().any(|n| n == want), "{want} missing from {names:?}");
    }
    // One page per command and subcommand, nothing else (no temporary files).
    // redc, its 17 commands, rsa's 4, dh's 4 and dsa's 2 subcommands.
    assert_eq!(names.len(), 1 + 17 + 4 + 4 + 2, "{names:?}");
    let text = std::fs::read_to_string(dir.join("redc-rsa-encrypt.1")).unwrap();
    assert!(
        text.contains(".TH redc-rsa-encrypt 1") && text.contains("OAEP"),
        "{text}"
    );
    // Public files: 0666 less the umask, never 0600.
    use std::os::unix::fs::PermissionsExt;
    let mode = std::fs::metadata(dir.join("redc.1")).unwrap().permissions().mode() & 0o777;
    assert_ne!(mode & 0o044, 0, "mode {mode:o}");
    let file = dir.join("redc.1");
    rejects(&["man", "--dir", file.join("x").to_str().unwrap()], "--dir");
}

/// `-o /dev/stdout` is standard output, written in its place: a shell's
/// redirection of a whole group of commands to a file keeps the lines the
/// others wrote (the file is not replaced behind them).
#[test]
fn dev_stdout_is_standard_output() {
    let dir = std::env::temp_dir().join(format!("redc-devstdout-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let log = dir.join("log");
    let script = format!(
        "{{ echo header; \"$1\" modexp 3 5 7 -o /dev/stdout; echo footer; }} > '{}'",
        log.display()
    );
    let status = std::process::Command::new("sh")
        .args(["-c", &script, "sh", env!("CARGO_BIN_EXE_redc")])
        .status()
        .unwrap();
    assert!(status.success());
    assert_eq!(std::fs::read_to_string(&log).unwrap(), "header\n5\nfooter\n");
    std::fs::remove_dir_all(&dir).unwrap();
}
