//! `redc sim` and `redc vectors` end to end: every architecture runs and
//! checks itself, the tables print with every difference explained, and the
//! vectors agree with Python's arithmetic (an oracle independent of redc).

mod common;

use common::{redc, run, scratch_dir};
use serde_json::Value;
use std::io::Write;
use std::process::{Command, Stdio};

/// The CLI names of every architecture, from redc-hw's registry: a new
/// architecture is run here as soon as it is registered.
fn archs() -> impl Iterator<Item = &'static str> {
    redc_hw::Arch::ALL.iter().map(|a| a.name())
}

fn json(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("{e}: {text}"))
}

#[test]
fn every_architecture_simulates_and_checks_itself() {
    for arch in archs() {
        for exp in ["worst", "random", "f4", "0x1d"] {
            let v = json(&redc(&["sim", arch, "--bits", "96", "--exp", exp, "--json"], 0));
            assert_eq!(v["arch"], arch);
            assert_eq!(v["product"]["ok"], true, "{arch}");
            assert_eq!(v["exponentiation"]["ok"], true, "{arch}");
            assert!(v["exponentiation"]["cycles"].as_u64().unwrap() > 0, "{arch}");
            assert!(v["throughput"]["kbit_per_s"].as_f64().unwrap() > 0.0, "{arch}");
        }
        let text = redc(&["sim", arch, "--bits", "64", "--cores", "4", "--mhz", "100"], 0);
        assert!(
            text.contains("product         ok") && text.contains("4 cores"),
            "{text}"
        );
    }
}

#[test]
fn crt_decryption_on_the_papers_that_define_it() {
    for arch in ["fdfm", "blum-paar"] {
        for parallel in [false, true] {
            let mut args = vec!["sim", arch, "--crt", "--bits", "128", "--json"];
            if parallel {
                args.push("--parallel");
            }
            let out = run(&args, "");
            let stderr = String::from_utf8_lossy(&out.stderr);
            match out.status.code() {
                Some(0) => {
                    let v = json(&String::from_utf8_lossy(&out.stdout));
                    assert_eq!(v["crt"]["ok"], true);
                    let phases: u64 = v["crt"]["phases"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .map(|p| p["cycles"].as_u64().unwrap())
                        .sum();
                    assert!(phases > 0);
                }
                // A paper without parallel halves says so, naming the option.
                Some(2) => assert!(parallel && stderr.contains("parallel"), "{arch}: {stderr}"),
                other => panic!("{arch} {parallel}: {other:?} {stderr}"),
            }
        }
    }
    let out = run(&["sim", "csa-radix2", "--crt", "--bits", "64"], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--crt"));
}

#[test]
fn tables_print_with_every_difference_explained() {
    let v = json(&redc(&["sim", "--table", "all", "--json"], 0));
    let tables = v.as_array().unwrap();
    assert!(tables.len() >= 8, "{} tables", tables.len());
    for t in tables {
        let notes = t["notes"].as_array().unwrap().len() as u64;
        for e in t["entries"].as_array().unwrap() {
            let explained = e["note"].as_u64().is_some_and(|n| (1..=notes).contains(&n));
            assert!(e["difference"] == 0.0 || explained, "{}: {e}", t["source"]);
        }
    }
    // 001 Table 2 is reproduced to the cycle.
    let t2 = tables
        .iter()
        .find(|t| {
            t["source"]
                .as_str()
                .unwrap()
                .contains("001_24b3bbce8c558126.txt Table 2")
        })
        .unwrap();
    let cycles: Vec<&Value> = t2["entries"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["quantity"].as_str().unwrap().contains("cycles") && e["paper"].is_number())
        .collect();
    assert!(cycles.len() >= 6);
    assert!(cycles.iter().all(|e| e["difference"] == 0.0), "{cycles:?}");
    let text = redc(&["sim", "--table", "fdfm"], 0);
    assert!(
        text.contains("| row | quantity | unit | paper | model | difference | note |"),
        "{text}"
    );
    // Every table row has its seven cells: a `|` inside a cell (`|Dp|`) is
    // escaped.
    let text = redc(&["sim", "--table", "all"], 0);
    let rows: Vec<&str> = text.lines().filter(|l| l.starts_with('|')).collect();
    assert!(rows.iter().any(|r| r.contains("\\|Dp\\|")), "an escaped cell");
    for row in rows {
        let cells = row.replace("\\|", "").matches('|').count() - 1;
        assert_eq!(cells, 7, "{row}");
    }
    // Each paper ends with the list of the cells its model does not derive,
    // one item a line (no table grid), and the JSON carries it as a table
    // without entries.
    for file in ["000_", "001_", "002_", "003_", "004_"] {
        let head = text
            .lines()
            .position(|l| l.starts_with(file) && l.contains(" cells not modelled: "))
            .unwrap_or_else(|| panic!("{file}: no list"));
        assert!(text.lines().nth(head + 2).unwrap().starts_with("- "), "{file}");
    }
    let lists: Vec<&Value> = tables
        .iter()
        .filter(|t| t["entries"].as_array().unwrap().is_empty())
        .collect();
    assert_eq!(lists.len(), 5);
}

/// Users see a paper by its title, authors and venue; the file name is only
/// the citation key (and stays in the JSON as it was).
#[test]
fn papers_are_named_by_title_and_authors() {
    const TITLE: &str = "The Parallel FDFM Processor Core Approach for CRT-based RSA Decryption";
    const AUTHORS: &str = "Ito, Nakano, Song";
    const VENUE: &str = "International Journal of Networking and Computing";
    let named = |text: &str| text.contains(TITLE) && text.contains(AUTHORS) && text.contains(VENUE);

    // Table headings.
    let text = redc(&["sim", "--table", "fdfm"], 0);
    let first = text.lines().next().unwrap_or_default();
    assert!(named(first) && first.ends_with("(001)"), "{first}");
    let text = redc(&["sim", "--table", "all"], 0);
    for c in redc_hw::Citation::ALL {
        assert!(text.contains(&format!("# {c}\n")), "{c}");
    }
    // A paper whose text gives no title or authors says so.
    assert!(
        text.contains("[title, authors, venue and year not given in the text] (000)"),
        "{text}"
    );
    let v = json(&redc(&["sim", "--table", "fdfm", "--json"], 0));
    for t in v.as_array().unwrap() {
        assert_eq!(t["citation"]["title"], TITLE);
        assert_eq!(t["citation"]["authors"][0], "Yasuaki Ito");
        assert!(t["source"].as_str().unwrap().starts_with("001_24b3bbce8c558126.txt"));
    }

    // A run: the header names the paper, not the file.
    let text = redc(&["sim", "fdfm", "--bits", "64"], 0);
    let paper = text
        .lines()
        .find(|l| l.trim_start().starts_with("paper"))
        .unwrap_or_default();
    assert!(named(paper), "{text}");
    assert!(!text.contains(".txt"), "{text}");
    let v = json(&redc(&["sim", "fdfm", "--bits", "64", "--json"], 0));
    assert_eq!(v["paper"], "001_24b3bbce8c558126.txt");
    assert_eq!(v["citation"]["title"], TITLE);
    assert_eq!(v["citation"]["key"], "001");
    let v = json(&redc(&["sim", "csa-radix2", "--bits", "64", "--json"], 0));
    assert_eq!(v["citation"]["authors"], serde_json::json!(["Richa Garg", "Renu Vig"]));
    assert!(v["citation"]["venue"].is_null());

    // The vectors: the manifest, the JSON and the text files.
    let dir = scratch_dir("hw-citation");
    for format in ["readmemh", "json", "hex"] {
        let out = dir.join(format);
        let args = [
            "vectors", "fdfm", "--count", "2", "--bits", "40", "--format", format, "-o",
        ];
        redc(&[&args[..], &[out.to_str().unwrap()]].concat(), 0);
        match format {
            "readmemh" => {
                let m = json(&std::fs::read_to_string(out.join("manifest.json")).unwrap());
                assert_eq!(m["paper"], "001_24b3bbce8c558126.txt");
                assert_eq!(m["citation"]["title"], TITLE);
                assert_eq!(m["citation"]["authors"][2], "Bo Song");
                assert!(named(m["citation"]["citation"].as_str().unwrap()), "{m}");
                let mem = std::fs::read_to_string(out.join("n.mem")).unwrap();
                assert!(mem.lines().any(|l| l.starts_with("// paper: ") && named(l)), "{mem}");
            }
            "json" => {
                let v = json(&std::fs::read_to_string(out.join("vectors.json")).unwrap());
                assert_eq!(v["citation"]["title"], TITLE);
            }
            _ => {
                let text = std::fs::read_to_string(out.join("vectors.txt")).unwrap();
                assert!(text.lines().any(|l| l.starts_with("# paper: ") && named(l)), "{text}");
            }
        }
    }
}

/// Python checks every case: result·2^r ≡ a·b (mod n), and the per-step
/// trace registers fit their widths.
const PY_CHECK: &str = r#"
import json, sys
v = json.load(sys.stdin)
r = v["r_log2"]
widths = {w["name"]: w["bits"] for w in v["register_widths"]}
for c in v["cases"]:
    n, a, b, res = (int(c[k], 16) for k in ("n", "a", "b", "result"))
    assert n.bit_length() == v["bits"] and n % 2 == 1
    assert (res << r) % n == (a * b) % n, c
    for s in c["trace"]:
        for name, val in s["regs"].items():
            assert int(val, 16) < 1 << widths[name], (name, val)
print(len(v["cases"]))
"#;

#[test]
fn vectors_agree_with_python_and_are_reproducible() {
    let dir = scratch_dir("hw-vectors");
    for arch in archs() {
        let out = dir.join(format!("{arch}-json"));
        let o = out.to_str().unwrap();
        redc(
            &[
                "vectors", arch, "--count", "25", "--bits", "72", "--format", "json", "-o", o,
            ],
            0,
        );
        let text = std::fs::read_to_string(out.join("vectors.json")).unwrap();
        let mut py = Command::new("python3")
            .args(["-c", PY_CHECK])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("python3 is installed (.ci/run installs it)");
        py.stdin.take().unwrap().write_all(text.as_bytes()).unwrap();
        let res = py.wait_with_output().unwrap();
        assert!(res.status.success(), "{arch}: python rejected the vectors");
        assert_eq!(String::from_utf8_lossy(&res.stdout).trim(), "25");

        // Same seed, same files; another seed, other files.
        let again = dir.join(format!("{arch}-again"));
        redc(
            &[
                "vectors",
                arch,
                "--count",
                "25",
                "--bits",
                "72",
                "--format",
                "json",
                "-o",
                again.to_str().unwrap(),
            ],
            0,
        );
        assert_eq!(text, std::fs::read_to_string(again.join("vectors.json")).unwrap());
        let other = dir.join(format!("{arch}-other"));
        let args = [
            "vectors", arch, "--count", "25", "--bits", "72", "--seed", "2", "--format", "json",
        ];
        redc(&[&args[..], &["-o", other.to_str().unwrap()]].concat(), 0);
        assert_ne!(text, std::fs::read_to_string(other.join("vectors.json")).unwrap());
    }
}

/// Every word has the hex digits of `width` bits and a value below 2^width.
fn assert_words_fit(words: &[&str], width: usize, what: &str) {
    for w in words {
        assert_eq!(w.len(), width.div_ceil(4), "{what}: {w}");
        assert!(w.chars().all(|c| c.is_ascii_hexdigit()), "{what}: {w}");
        let top = u32::from_str_radix(&w[..1], 16).unwrap();
        let spare = 4 * width.div_ceil(4) - width;
        assert!(top >> (4 - spare) == 0, "{what}: {w} exceeds {width} bits");
    }
}

/// Blum–Paar's operand bound 2M~ depends on the modulus: the memories must
/// be as wide as the widest of many cases.
#[test]
fn readmemh_widths_hold_every_case() {
    let out = scratch_dir("hw-widths").join("blum-paar");
    let o = out.to_str().unwrap();
    redc(
        &[
            "vectors",
            "blum-paar",
            "--count",
            "200",
            "--bits",
            "17",
            "--format",
            "readmemh",
            "-o",
            o,
        ],
        0,
    );
    let manifest = json(&std::fs::read_to_string(out.join("manifest.json")).unwrap());
    for m in manifest["memories"].as_array().unwrap() {
        let text = std::fs::read_to_string(out.join(m["file"].as_str().unwrap())).unwrap();
        let words: Vec<&str> = text.lines().filter(|l| !l.starts_with("//")).collect();
        assert_words_fit(&words, m["width"].as_u64().unwrap() as usize, &m.to_string());
    }
}

#[test]
fn readmemh_files_have_one_word_per_line_and_a_manifest() {
    let dir = scratch_dir("hw-readmemh");
    for arch in archs() {
        let out = dir.join(arch);
        redc(
            &[
                "vectors",
                arch,
                "--count",
                "4",
                "--bits",
                "40",
                "--format",
                "readmemh",
                "-o",
                out.to_str().unwrap(),
            ],
            0,
        );
        let manifest = json(&std::fs::read_to_string(out.join("manifest.json")).unwrap());
        // The paper's size parameter under its own name (the carry-save k is
        // bits, not a count of 2-bit digits).
        assert!(
            manifest["size_parameter"].is_u64() && manifest.get("digits").is_none(),
            "{arch}"
        );
        let mems = manifest["memories"].as_array().unwrap();
        assert!(mems.len() > 5, "{arch}: a trace memory per register");
        // Plain file names (no braces for a shell to expand), one per
        // memory; a trace names its register as the paper writes it.
        let files: std::collections::BTreeSet<&str> = mems.iter().map(|m| m["file"].as_str().unwrap()).collect();
        assert_eq!(files.len(), mems.len(), "{arch}: {files:?}");
        for f in &files {
            assert!(
                f.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.'),
                "{arch}: {f}"
            );
            assert_eq!(
                f.starts_with("trace_") || (f.starts_with("clock_") && *f != "clock_cycle.mem"),
                mems.iter().any(|m| m["file"] == *f && m["register"].is_string()),
                "{arch}: {f}"
            );
        }
        if arch == "csa-radix4" {
            assert!(
                mems.iter()
                    .any(|m| m["file"] == "trace_a2i1_a2i.mem" && m["register"] == "{a2i+1,a2i}"),
                "{mems:?}"
            );
            assert!(
                manifest["operands"]
                    .as_str()
                    .unwrap()
                    .contains("a1.mem and a2.mem are the pair (A1, A2)"),
                "{manifest}"
            );
        }
        assert!(
            manifest["words"].is_string() && manifest["operands"].is_string(),
            "{arch}"
        );
        // r2.mem: R^2 mod n of each case's n, R = 2^r_log2 (num-bigint).
        let words = |f: &str| -> Vec<num_bigint::BigUint> {
            std::fs::read_to_string(out.join(f))
                .unwrap()
                .lines()
                .filter(|l| !l.starts_with("//"))
                .map(|l| num_bigint::BigUint::parse_bytes(l.as_bytes(), 16).unwrap())
                .collect()
        };
        let r_log2 = manifest["r_log2"].as_u64().unwrap() as usize;
        let (ns, r2s) = (words("n.mem"), words("r2.mem"));
        assert_eq!((ns.len(), r2s.len()), (4, 4), "{arch}");
        for (n, r2) in ns.iter().zip(&r2s) {
            assert_eq!(*r2, (num_bigint::BigUint::from(1u8) << (2 * r_log2)) % n, "{arch}");
        }
        for m in mems {
            let text = std::fs::read_to_string(out.join(m["file"].as_str().unwrap())).unwrap();
            let words: Vec<&str> = text.lines().filter(|l| !l.starts_with("//")).collect();
            assert_eq!(words.len() as u64, m["depth"].as_u64().unwrap(), "{arch} {m}");
            assert_words_fit(&words, m["width"].as_u64().unwrap() as usize, &format!("{arch} {m}"));
        }
        let hex = dir.join(format!("{arch}-hex"));
        redc(
            &[
                "vectors",
                arch,
                "--count",
                "2",
                "--bits",
                "40",
                "--format",
                "hex",
                "-o",
                hex.to_str().unwrap(),
            ],
            0,
        );
        let text = std::fs::read_to_string(hex.join("vectors.txt")).unwrap();
        assert!(
            text.contains("# case 1") && text.contains("result = 0x") && text.contains("step "),
            "{text}"
        );
        // Public files: the mode any new file gets here (0666 less the
        // umask), not the 0600 of keys and plaintext.
        use std::os::unix::fs::PermissionsExt;
        let control = dir.join("control");
        std::fs::write(&control, b"").unwrap();
        let mode = |p: &std::path::Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode(&hex.join("vectors.txt")), mode(&control), "{arch}");
        assert_eq!(mode(&out.join("manifest.json")), mode(&control), "{arch}");
    }
}

/// `redc sim fdfm --crt --exp worst`: the key's decryption checked, and
/// Eq. 10's worst case counted beside it (001 Table 2 / the abstract:
/// 4,625,348 cycles, 13.737 ms at 1024 bits); with `--cores 320` the whole
/// processor runs at Table 1's 320-core clock, 325.098 MHz; 003's at
/// its Table II RSA processor's.
#[test]
fn fdfm_crt_worst_case_and_the_multicore_clock() {
    let v = json(&redc(
        &["sim", "fdfm", "--crt", "--exp", "worst", "--bits", "1024", "--json"],
        0,
    ));
    assert_eq!(v["crt"]["ok"], true);
    assert_eq!(v["worst_case"]["cycles"], 4_625_348);
    assert_eq!(v["worst_case"]["exp_bits"], 527);
    assert!(
        (v["worst_case"]["time_us"].as_f64().unwrap() / 1e3 - 13.737).abs() < 5e-4,
        "{v}"
    );
    assert_eq!(v["mhz"].as_f64(), Some(336.7), "{v}");
    let v = json(&redc(
        &[
            "sim", "fdfm", "--crt", "--exp", "worst", "--bits", "1024", "--cores", "320", "--json",
        ],
        0,
    ));
    assert_eq!(v["mhz"].as_f64(), Some(325.098), "{v}");
    // Without --crt, too: the processor's clock follows the core count.
    let v = json(&redc(&["sim", "fdfm", "--bits", "256", "--cores", "320", "--json"], 0));
    assert_eq!(v["mhz"].as_f64(), Some(325.098), "{v}");
    let v = json(&redc(&["sim", "fdfm", "--bits", "256", "--json"], 0));
    assert_eq!(v["mhz"].as_f64(), Some(336.7), "{v}");
    // 003's RSA processor runs at Table II's clock, not its multiplier's
    // (Table I), and the header says both.
    let v = json(&redc(&["sim", "csa-radix4", "--bits", "512", "--json"], 0));
    assert_eq!(v["mhz"].as_f64(), Some(138.293), "{v}");
    let text = redc(&["sim", "csa-radix2", "--bits", "1024"], 0);
    assert!(
        text.contains("clock           93.34 MHz (the whole processor's; the circuit alone: 111.32 MHz)"),
        "{text}"
    );
    // A clock given by --mhz is the user's, labelled as nothing else.
    let text = redc(&["sim", "csa-radix2", "--bits", "1024", "--mhz", "100"], 0);
    assert!(text.contains("clock           100 MHz\n"), "{text}");
}

/// `--ladder`: 004 §6's Montgomery powering ladder on both Perin arrays,
/// checked against redc's modpow; with the two products of a bit on two
/// multipliers it takes n·n_MM cycles plus the conversions, about half of
/// Alg. 2's worst case (all-ones exponent, 2 products per bit).
#[test]
fn perin_ladder_is_a_sim_option() {
    for arch in ["perin-systolic", "perin-multiplexed"] {
        let plain = json(&redc(&["sim", arch, "--bits", "256", "--json"], 0));
        let ladder = json(&redc(&["sim", arch, "--bits", "256", "--ladder", "--json"], 0));
        assert_eq!(ladder["exponentiation"]["ok"], true, "{arch}");
        assert_eq!(ladder["exponentiation"]["ladder"], true, "{arch}");
        let (p, l) = (
            plain["exponentiation"]["cycles"].as_u64().unwrap(),
            ladder["exponentiation"]["cycles"].as_u64().unwrap(),
        );
        let product = plain["product"]["cycles"].as_u64().unwrap();
        assert!(
            l < p && l >= 256 * product,
            "{arch}: ladder {l}, square-and-multiply {p}, product {product}"
        );
    }
}

/// `redc sim --vcd FILE`: the checked product's trace as a VCD, one row
/// (a rising `clk`) per clock for FDFM (as many as the product's cycles,
/// at 336.7 MHz: 2970 ps apart), per iteration elsewhere; the file is
/// public (0644 under the usual umask) and a bad path is status 2.
#[test]
fn sim_writes_the_trace_as_vcd() {
    let dir = scratch_dir("hw-vcd");
    for (arch, per) in [
        ("fdfm", "clock"),
        ("csa-radix2", "iteration"),
        ("perin-systolic", "iteration"),
    ] {
        let file = dir.join(format!("{arch}.vcd"));
        let v = json(&redc(
            &["sim", arch, "--bits", "64", "--vcd", file.to_str().unwrap(), "--json"],
            0,
        ));
        assert_eq!(v["product"]["vcd"]["per"], per, "{arch}");
        let text = std::fs::read_to_string(&file).unwrap();
        assert!(
            text.contains("$enddefinitions $end") && text.contains("$var wire 1 ! clk $end"),
            "{arch}"
        );
        let rises = text.lines().filter(|l| *l == "1!").count();
        assert_eq!(rises as u64, v["product"]["vcd"]["rows"].as_u64().unwrap(), "{arch}");
        if arch == "fdfm" {
            assert_eq!(rises as u64, v["product"]["cycles"].as_u64().unwrap());
            assert!(text.contains("\n#2970\n1!\n"), "336.7 MHz: 2970 ps");
            for reg in ["t", "q", "Ca", "alpha", "Cb", "Cg", "Cs", "Sw"] {
                assert!(text.contains(&format!(" {reg} $end")), "{reg}");
            }
        }
    }
    let out = run(&["sim", "fdfm", "--bits", "64", "--vcd", "/nonexistent-dir/x.vcd"], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--vcd"));
}

/// `--exponent-bits B`: exponentiations through the paper's exponentiator
/// (what rtl/fdfm/fdfm_exp.v is checked against): result = a^e mod n by
/// num-bigint, e of exactly B bits, and for FDFM Alg. 2's
/// `3 + |E| + popcount(E)` products of `2d^2 + 8d + 4` cycles each.
#[test]
fn exponentiation_vectors() {
    use num_bigint::BigUint;
    let dir = scratch_dir("hw-exp");
    for arch in archs() {
        let out = dir.join(arch);
        let args = [
            "vectors",
            arch,
            "--count",
            "6",
            "--bits",
            "64",
            "--exponent-bits",
            "40",
            "--format",
            "readmemh",
            "-o",
        ];
        redc(&[&args[..], &[out.to_str().unwrap()]].concat(), 0);
        let manifest = json(&std::fs::read_to_string(out.join("manifest.json")).unwrap());
        assert_eq!(manifest["operation"], "exponentiation", "{arch}");
        let w = |f: &str| mem_words(&out, f);
        let (n, a, e, result, products, cycles) = (
            w("n.mem"),
            w("a.mem"),
            w("e.mem"),
            w("result.mem"),
            w("products.mem"),
            w("cycles.mem"),
        );
        for i in 0..6 {
            assert_eq!(e[i].bits(), 40, "{arch}");
            assert_eq!(result[i], a[i].modpow(&e[i], &n[i]), "{arch} {i}");
            if arch == "fdfm" {
                let d = manifest["size_parameter"].as_u64().unwrap();
                let ones = u64::from(e[i].count_ones() as u32);
                assert_eq!(products[i], BigUint::from(3 + 40 + ones), "Alg. 2");
                assert_eq!(cycles[i], BigUint::from((3 + 40 + ones) * (2 * d * d + 8 * d + 4)));
            }
        }
        let vh = std::fs::read_to_string(out.join("vectors.vh")).unwrap();
        assert!(vh.contains("localparam integer EXP_BITS = 40;"), "{arch}: {vh}");
    }
    // A given exponentiation, as the cocotb test asks it.
    let out = dir.join("given");
    redc(
        &[
            "vectors",
            "fdfm",
            "--n",
            "0xc5a1f3e9b2d4c6a9",
            "--a",
            "0x1234",
            "--e",
            "0x10001",
            "--format",
            "json",
            "-o",
            out.to_str().unwrap(),
        ],
        0,
    );
    let v = json(&std::fs::read_to_string(out.join("vectors.json")).unwrap());
    let n = BigUint::parse_bytes(b"c5a1f3e9b2d4c6a9", 16).unwrap();
    let want = BigUint::from(0x1234u32).modpow(&BigUint::from(0x10001u32), &n);
    assert_eq!(v["cases"][0]["result"], format!("0x{want:x}"));
}

/// `--crt`: RSA CRT decryptions as the papers run them (001 Steps 1–4 on
/// one FDFM core, 002 §5.2 on two half-size arrays): result = c^d mod n and
/// n = p·q, d·65537 ≡ 1 (mod φ), the host's loaded values and the phases'
/// cycles all by num-bigint; FDFM's phases are Eq. 10's terms.
#[test]
fn crt_vectors() {
    use num_bigint::BigUint;
    let dir = scratch_dir("hw-crt");
    let one = BigUint::from(1u8);
    // −x^(−1) mod 2^k, by search (independent of the models).
    let neg_inv = |x: &BigUint, k: u32| {
        let m = 1u64 << k;
        let x0 = x.iter_u64_digits().next().unwrap_or(0) % m;
        BigUint::from((0..m).find(|t| (x0 * t + 1).is_multiple_of(m)).expect("odd"))
    };
    for arch in ["fdfm", "blum-paar", "blum-paar-radix2"] {
        let out = dir.join(arch);
        let args = [
            "vectors", arch, "--crt", "--count", "4", "--bits", "96", "--format", "readmemh", "-o",
        ];
        redc(&[&args[..], &[out.to_str().unwrap()]].concat(), 0);
        let manifest = json(&std::fs::read_to_string(out.join("manifest.json")).unwrap());
        assert_eq!(manifest["operation"], "crt", "{arch}");
        let w = |f: &str| mem_words(&out, f);
        let (n, c, p, q, d, result, cycles) = (
            w("n.mem"),
            w("c.mem"),
            w("p.mem"),
            w("q.mem"),
            w("d.mem"),
            w("result.mem"),
            w("cycles.mem"),
        );
        let phases: Vec<Vec<BigUint>> = manifest["phases"]
            .as_array()
            .unwrap()
            .iter()
            .map(|ph| w(ph["file"].as_str().unwrap()))
            .collect();
        let loaded = |name: &str| w(&format!("crt_{name}.mem"));
        let (dp, dq) = (loaded("dp"), loaded("dq"));
        for i in 0..4 {
            assert_eq!(n[i].bits(), 96, "{arch}");
            assert_eq!(&p[i] * &q[i], n[i], "{arch} {i}");
            let phi = (&p[i] - &one) * (&q[i] - &one);
            assert_eq!((&d[i] * BigUint::from(65537u32)) % &phi, one, "{arch} {i}: d");
            assert!(c[i] < n[i]);
            assert_eq!(result[i], c[i].modpow(&d[i], &n[i]), "{arch} {i}");
            assert_eq!(dp[i], &d[i] % (&p[i] - &one), "{arch} {i}: dp");
            assert_eq!(dq[i], &d[i] % (&q[i] - &one), "{arch} {i}: dq");
            let sum: BigUint = phases.iter().map(|ph| &ph[i]).sum();
            assert_eq!(sum, cycles[i], "{arch} {i}: the phases add up");
        }
        let vh = std::fs::read_to_string(out.join("vectors.vh")).unwrap();
        assert!(
            vh.contains(&format!("localparam integer PHASES = {};", phases.len())),
            "{vh}"
        );
        if arch == "fdfm" {
            // Eq. 10's terms: d = ceil((bits + 3) / 17), d1 = 6 (96 bits), d2 = 3 (48).
            let (d1, d2) = (6u64, 3u64);
            let mm = 2 * d2 * d2 + 8 * d2 + 4;
            let (kp, r2p, zp) = (loaded("kp"), loaded("r2p"), loaded("zp"));
            let (minv, minvp, minvq) = (loaded("minv"), loaded("minvp"), loaded("minvq"));
            for i in 0..4 {
                assert_eq!(minv[i], neg_inv(&n[i], 17), "−M^(−1) mod 2^17");
                assert_eq!(
                    (minvp[i].clone(), minvq[i].clone()),
                    (neg_inv(&p[i], 17), neg_inv(&q[i], 17))
                );
                assert_eq!(kp[i], (&one << (34 * d1)) % &p[i], "Rp^2 mod p");
                assert_eq!(r2p[i], (&one << (34 * d2)) % &p[i], "2^(34 d2) mod p");
                assert_eq!(zp[i], q[i].modpow(&(&p[i] - &one), &n[i]), "Zp = q^(p-1) mod M");
                let ones = |e: &BigUint| u64::from(e.count_ones() as u32) + e.bits();
                let want = [
                    2 * d2 * d1 + 8 * d1 + 4,
                    2 * d1 * d2 + 8 * d1 + 4,
                    2 * d2 * d1 + 8 * d1 + 4,
                    2 * d1 * d2 + 8 * d1 + 4,
                    mm * (3 + ones(&dp[i])),
                    mm * (3 + ones(&dq[i])),
                    mm,
                    2 * d1 * d2 + 8 * d2 + 4,
                    mm,
                    2 * d1 * d2 + 8 * d2 + 4,
                    0,
                ];
                let got: Vec<BigUint> = phases.iter().map(|ph| ph[i].clone()).collect();
                assert_eq!(got, want.map(BigUint::from), "case {i}: Eq. 10 term by term");
            }
        } else {
            // Each half's array: M~ = (−p^(−1) mod 2^k)·p and C = 2^(2k(m+2)) mod p.
            let k = if arch == "blum-paar" { 4 } else { 1 };
            let (cp, qinv, mtildep, prefactorq) =
                (loaded("cp"), loaded("qinv"), loaded("mtildep"), loaded("prefactorq"));
            for i in 0..4 {
                assert_eq!(cp[i], &c[i] % &p[i]);
                assert_eq!((&qinv[i] * &q[i]) % &p[i], one);
                assert_eq!(mtildep[i], neg_inv(&p[i], k) * &p[i], "{arch}: M~ of p");
                let m = q[i].bits().div_ceil(u64::from(k));
                assert_eq!(
                    prefactorq[i],
                    (&one << (2 * u64::from(k) * (m + 2))) % &q[i],
                    "{arch}: C of q"
                );
            }
            assert!(
                !out.join("const_mtilde.mem").exists(),
                "{arch}: no constants of the unused n-size array"
            );
        }
    }
}

/// The RAM images: n, a, b and result in the datapath's digits (17-bit for
/// FDFM, k-bit for Blum–Paar and Perin, w-bit for the dataflow SOS), least
/// significant first, digits_per_case words per case, rejoin to the whole
/// numbers; the bit-serial forms (carry-save, radix-2 [8]) have none.
#[test]
fn digit_layout_memories_rejoin_to_the_numbers() {
    use num_bigint::BigUint;
    let dir = scratch_dir("hw-digits");
    for arch in archs() {
        let out = dir.join(arch);
        let args = [
            "vectors", arch, "--count", "5", "--bits", "100", "--format", "readmemh", "-o",
        ];
        redc(&[&args[..], &[out.to_str().unwrap()]].concat(), 0);
        let manifest = json(&std::fs::read_to_string(out.join("manifest.json")).unwrap());
        let per_case = manifest["digits_per_case"].as_u64().unwrap() as usize;
        let w = manifest["digit_bits"].as_u64().unwrap() as usize;
        if w <= 2 {
            // The bit-serial forms: carry-save, Blum–Paar's radix-2 [8].
            assert_eq!(per_case, 0, "{arch}");
            assert!(!out.join("a_digits.mem").exists(), "{arch}");
            continue;
        }
        assert!(per_case * w >= 100, "{arch}");
        for name in ["n", "a", "b", "result"] {
            let whole = mem_words(&out, &format!("{name}.mem"));
            let digits = mem_words(&out, &format!("{name}_digits.mem"));
            assert_eq!(digits.len(), 5 * per_case, "{arch} {name}");
            for (i, number) in whole.iter().enumerate() {
                let joined = digits[i * per_case..(i + 1) * per_case]
                    .iter()
                    .rev()
                    .fold(BigUint::from(0u8), |acc, d| (acc << w) + d);
                assert_eq!(joined, *number, "{arch} {name} case {i}");
                assert!(
                    digits[i * per_case..(i + 1) * per_case]
                        .iter()
                        .all(|d| d.bits() as usize <= w)
                );
            }
        }
    }
}

/// Every architecture's constants (`const_<name>.mem`, listed with their
/// widths in the manifest), each recomputed by num-bigint from n: FDFM's
/// minv, Blum–Paar's M', M~ and C = 2^(2k(m+2)) mod M, the carry-save
/// radix-4 n' and 3n, Perin's N', R mod N and R² mod N, the dataflow n'[0].
#[test]
fn every_constant_by_num_bigint() {
    use num_bigint::BigUint;
    let dir = scratch_dir("hw-constants");
    let one = BigUint::from(1u8);
    for arch in archs() {
        let out = dir.join(arch);
        let args = [
            "vectors", arch, "--count", "4", "--bits", "80", "--format", "readmemh", "-o",
        ];
        redc(&[&args[..], &[out.to_str().unwrap()]].concat(), 0);
        let manifest = json(&std::fs::read_to_string(out.join("manifest.json")).unwrap());
        let (k, r) = (
            manifest["digit_bits"].as_u64().unwrap() as usize,
            manifest["r_log2"].as_u64().unwrap() as usize,
        );
        let listed: Vec<(String, u64)> = manifest["constants"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| (c["name"].as_str().unwrap().to_owned(), c["width"].as_u64().unwrap()))
            .collect();
        let c = |name: &str| mem_words(&out, &format!("const_{name}.mem"));
        let ns = mem_words(&out, "n.mem");
        let neg_inv = |x: &BigUint, n: &BigUint, bits: usize| (x * n + 1u8) % (&one << bits) == BigUint::from(0u8);
        let names: Vec<&str> = listed.iter().map(|(n, _)| n.as_str()).collect();
        match arch {
            "fdfm" => assert_eq!(names, ["minv"]),
            "blum-paar" | "blum-paar-radix2" => {
                assert_eq!(names, ["mprime", "mtilde", "prefactor"]);
                let m = 80usize.div_ceil(k);
                for (i, n) in ns.iter().enumerate() {
                    assert!(neg_inv(&c("mprime")[i], n, k), "M' of case {i}");
                    assert_eq!(c("mtilde")[i], &c("mprime")[i] * n);
                    assert_eq!(c("prefactor")[i], (&one << (2 * k * (m + 2))) % n);
                }
            }
            "csa-radix4" => assert_eq!(names, ["nprime", "n3"]),
            "perin-systolic" | "perin-multiplexed" => {
                assert_eq!(names, ["nprime", "r_mod_n", "r2_mod_n"]);
                for (i, n) in ns.iter().enumerate() {
                    assert!(neg_inv(&c("nprime")[i], n, k), "N' of case {i}");
                    assert_eq!(c("r_mod_n")[i], (&one << r) % n);
                    assert_eq!(c("r2_mod_n")[i], (&one << (2 * r)) % n);
                }
            }
            "dataflow" => {
                assert_eq!(names, ["n0"]);
                for (i, n) in ns.iter().enumerate() {
                    assert!(neg_inv(&c("n0")[i], n, k), "n'[0] of case {i}");
                }
            }
            // csa-radix2, and any new architecture loaded with n alone; one
            // with constants must say here what each is.
            other => assert!(
                names.is_empty(),
                "{other}: constants {names:?}; check what each is in this test"
            ),
        }
        for (name, width) in &listed {
            assert!(c(name).iter().all(|v| v.bits() <= *width), "{arch} {name}");
        }
    }
}

/// The numbers of one readmemh memory (num-bigint).
fn mem_words(dir: &std::path::Path, file: &str) -> Vec<num_bigint::BigUint> {
    std::fs::read_to_string(dir.join(file))
        .unwrap_or_else(|e| panic!("{file}: {e}"))
        .lines()
        .filter(|l| !l.starts_with("//"))
        .map(|l| num_bigint::BigUint::parse_bytes(l.as_bytes(), 16).unwrap())
        .collect()
}

/// The carry-save multipliers' vectors carry pairs with nonzero second
/// words (what their exponentiator feeds back), and the pairs add up: A1 +
/// A2 = a, B1 + B2 = b, S1 + S2 = result ≡ a·b·2^(−r) (mod n), by num-bigint.
#[test]
fn carry_save_vectors_have_pairs_with_nonzero_second_words() {
    use num_bigint::BigUint;
    let dir = scratch_dir("hw-pairs");
    for arch in ["csa-radix2", "csa-radix4"] {
        let out = dir.join(arch);
        let args = [
            "vectors", arch, "--count", "30", "--bits", "48", "--format", "readmemh", "-o",
        ];
        redc(&[&args[..], &[out.to_str().unwrap()]].concat(), 0);
        let manifest = json(&std::fs::read_to_string(out.join("manifest.json")).unwrap());
        let r = manifest["r_log2"].as_u64().unwrap() as usize;
        let w = |f: &str| mem_words(&out, f);
        let (n, a, b, result) = (w("n.mem"), w("a.mem"), w("b.mem"), w("result.mem"));
        let (a1, a2, b1, b2, s1, s2) = (
            w("a1.mem"),
            w("a2.mem"),
            w("b1.mem"),
            w("b2.mem"),
            w("s1.mem"),
            w("s2.mem"),
        );
        let zero = BigUint::from(0u8);
        assert!(
            a2.iter().filter(|x| **x != zero).count() >= 25,
            "{arch}: A2 mostly nonzero"
        );
        assert!(
            b2.iter().filter(|x| **x != zero).count() >= 25,
            "{arch}: B2 mostly nonzero"
        );
        for i in 0..30 {
            assert_eq!(&a1[i] + &a2[i], a[i], "{arch} {i}");
            assert_eq!(&b1[i] + &b2[i], b[i], "{arch} {i}");
            assert_eq!(&s1[i] + &s2[i], result[i], "{arch} {i}");
            assert_eq!((&result[i] << r) % &n[i], (&a[i] * &b[i]) % &n[i], "{arch} {i}");
        }
        // Alg. II's constants (what rtl/carry_save/csa_r4.v is loaded with):
        // n' = −n⁻¹ mod 4 and 3n; Alg. I has none.
        if arch == "csa-radix4" {
            let (np, n3) = (w("const_nprime.mem"), w("const_n3.mem"));
            for i in 0..30 {
                assert_eq!((&n[i] * &np[i] + 1u8) % 4u8, zero, "n' of case {i}");
                assert_eq!(n3[i], &n[i] * 3u8, "3n of case {i}");
            }
        } else {
            assert!(!out.join("const_nprime.mem").exists());
        }
    }
}

/// FDFM's vectors: the constant `minv` (n·minv ≡ −1 mod 2^17, num-bigint),
/// a clock trace of Eq. 8's `2d^2 + 8d + 4` rows per case with the cycle of
/// each row, and vectors.vh's parameters equal to the manifest's.
#[test]
fn fdfm_vectors_have_the_constant_and_a_clock_trace() {
    let out = scratch_dir("hw-fdfm-clocks").join("fdfm");
    let args = [
        "vectors", "fdfm", "--count", "3", "--bits", "64", "--format", "readmemh", "-o",
    ];
    redc(&[&args[..], &[out.to_str().unwrap()]].concat(), 0);
    let manifest = json(&std::fs::read_to_string(out.join("manifest.json")).unwrap());
    let d = manifest["size_parameter"].as_u64().unwrap() as usize;
    let clocks = 2 * d * d + 8 * d + 4;
    assert_eq!(manifest["clocks_per_case"], clocks as u64);
    assert_eq!(manifest["constants"][0]["name"], "minv");
    assert_eq!(manifest["constants"][0]["width"], 17);
    let (n, minv) = (mem_words(&out, "n.mem"), mem_words(&out, "const_minv.mem"));
    let m17 = num_bigint::BigUint::from(1u32 << 17);
    for (n, k) in n.iter().zip(&minv) {
        assert_eq!((n * k + 1u8) % &m17, num_bigint::BigUint::from(0u8));
    }
    let cycles = mem_words(&out, "cycles.mem");
    assert!(cycles.iter().all(|c| *c == num_bigint::BigUint::from(clocks)));
    let rows = mem_words(&out, "clock_cycle.mem");
    assert_eq!(rows.len(), 3 * clocks);
    for (k, row) in rows.iter().enumerate() {
        assert_eq!(*row, num_bigint::BigUint::from(k % clocks + 1));
    }
    for reg in ["t", "q", "Ca", "alpha", "Cb", "Cg", "Cs", "Sw"] {
        assert_eq!(mem_words(&out, &format!("clock_{reg}.mem")).len(), 3 * clocks, "{reg}");
    }
    let vh = std::fs::read_to_string(out.join("vectors.vh")).unwrap();
    for (name, want) in [
        ("BITS", 64),
        ("COUNT", 3),
        ("DIGITS", d),
        ("CLOCKS", clocks),
        ("STEPS", d),
        ("R_LOG2", 17 * d),
    ] {
        assert!(
            vh.contains(&format!("localparam integer {name} = {want};")),
            "{name}: {vh}"
        );
    }
}

/// `--n --a --b` (and `--a2 --b2`): the model on the caller's own case, as
/// the cocotb tests ask it; checked by num-bigint.
#[test]
fn vectors_of_a_given_case() {
    use num_bigint::BigUint;
    let dir = scratch_dir("hw-given");
    let n = BigUint::parse_bytes(b"c5a1f3e9b2d4c6a8f1e3b5d7c9a2e4f7", 16).unwrap();
    let (a, b) = (&n + 12345u32, &n - 999u32);
    for (arch, extra, r) in [
        ("fdfm", vec![], 17 * 8),
        ("csa-radix2", vec!["--a2", "0x1f", "--b2", "0x2e"], 130),
    ] {
        let out = dir.join(arch);
        let (na, nb, nn) = (format!("{a:x}"), format!("{b:x}"), format!("0x{n:x}"));
        let mut args = vec!["vectors", arch, "--n", &nn, "--a", &na, "--b", &nb];
        args.extend(&extra);
        args.extend(["--format", "json", "-o", out.to_str().unwrap()]);
        redc(&args, 0);
        let v = json(&std::fs::read_to_string(out.join("vectors.json")).unwrap());
        let c = &v["cases"][0];
        let hex =
            |k: &str| BigUint::parse_bytes(c[k].as_str().unwrap().trim_start_matches("0x").as_bytes(), 16).unwrap();
        let (va, vb) = match arch {
            "fdfm" => (a.clone(), b.clone()),
            _ => (&a + 0x1fu8, &b + 0x2eu8),
        };
        assert_eq!(
            (hex("a"), hex("b"), hex("n")),
            (va.clone(), vb.clone(), n.clone()),
            "{arch}"
        );
        assert_eq!(v["r_log2"], r, "{arch}");
        assert_eq!((hex("result") << r) % &n, (&va * &vb) % &n, "{arch}");
        assert_eq!(v["cases"].as_array().unwrap().len(), 1);
    }
}

#[test]
fn bad_input_names_the_field() {
    let dir = scratch_dir("hw-bad");
    let missing = dir.join("never-created");
    let file = dir.join("plain-file");
    std::fs::write(&file, "x").unwrap();
    let long_exp = format!("0x1{}", "0".repeat(2048));
    let none = missing.to_str().unwrap();
    let given = |extra: &[&'static str]| -> Vec<&'static str> {
        let mut v = vec![
            "vectors", "fdfm", "--n", "0xd", "--a", "1", "--b", "2", "--format", "hex", "-o",
        ];
        v.extend(extra);
        v
    };
    let never = Box::leak(none.to_owned().into_boxed_str());
    let (bad_n, bad_a2, big_a) = (
        [
            &[
                "vectors", "fdfm", "--n", "0xzz", "--a", "1", "--b", "1", "--format", "hex", "-o",
            ][..],
            &[never],
        ]
        .concat(),
        given(&[never, "--a2", "1"]),
        [
            &[
                "vectors", "fdfm", "--n", "0xd", "--a", "0x1a", "--b", "1", "--format", "hex", "-o",
            ][..],
            &[never],
        ]
        .concat(),
    );
    let no_b = given(&[never])
        .into_iter()
        .filter(|a| *a != "--b" && *a != "2")
        .collect::<Vec<_>>();
    let crt = |arch: &'static str, bits: &'static str| -> Vec<&'static str> {
        vec![
            "vectors", arch, "--crt", "--count", "1", "--bits", bits, "--format", "hex", "-o", never,
        ]
    };
    let (crt_perin, crt_small) = (crt("perin-systolic", "64"), crt("fdfm", "31"));
    let cases: [(&[&str], &str); 23] = [
        (&crt_perin, "--crt"),
        (&crt_small, "--bits"),
        (&no_b, "--b"),
        (&["sim", "fdfm", "--ladder", "--bits", "64"], "--ladder"),
        (&["sim", "fdfm", "--crt", "--exp", "f4", "--bits", "64"], "--exp"),
        (
            &["sim", "blum-paar", "--crt", "--exp", "worst", "--bits", "64"],
            "--exp",
        ),
        (&bad_n, "--n"),
        (&bad_a2, "--a2"),
        (&big_a, "--a"),
        (&["sim", "fdfm", "--mhz", "1e-300"], "--mhz"),
        (&["sim", "fdfm", "--exp", &long_exp], "--exp"),
        (&["sim", "fdfm", "--crt", "--parallel", "--bits", "64"], "--parallel"),
        (&["sim", "csa-radix2", "--crt", "--bits", "4096"], "--crt"),
        (
            &[
                "vectors",
                "csa-radix2",
                "--count",
                "1000000",
                "--format",
                "json",
                "-o",
                none,
            ],
            "--count",
        ),
        (&["sim", "nope"], "ARCH"),
        (&["sim", "perin-systolic", "--radix", "24"], "--radix"),
        (&["sim", "fdfm", "--radix", "16"], "--radix"),
        (&["sim", "fdfm", "--exp", "0xzz"], "--exp"),
        (&["sim", "fdfm", "--mhz", "0"], "--mhz"),
        (&["sim", "fdfm", "--bits", "1"], "--bits"),
        (&["sim", "--table", "nope"], "--table"),
        (
            &["vectors", "fdfm", "--count", "0", "--format", "hex", "-o", "x"],
            "--count",
        ),
        (
            &[
                "vectors",
                "fdfm",
                "--count",
                "1",
                "--format",
                "hex",
                "-o",
                file.to_str().unwrap(),
            ],
            "-o",
        ),
    ];
    for (args, field) in cases {
        let out = run(args, "");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(field), "{args:?}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
    }
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "x");
    // A refused request creates no directory; a bad radix neither.
    assert!(!missing.exists());
    let out = run(
        &[
            "vectors", "fdfm", "--count", "1", "--radix", "5", "--format", "hex", "-o", none,
        ],
        "",
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(!missing.exists());
}
