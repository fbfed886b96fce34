//! `redc bench` end to end: a short run prints the table and writes the
//! JSON figures and the SVG chart; JSON to stdout; bad options exit 2 with
//! a message naming the option. (The bench checks every answer it times
//! itself: redc's against the public operation and `redc::modpow`, GMP's
//! against redc's; a wrong one makes it fail, which these runs would show.)

mod common;

use common::{redc, run, scratch_dir};
use serde_json::Value;

/// A positive, finite number at `v[key]`.
fn positive(v: &Value, key: &str) -> f64 {
    let x = v[key].as_f64().unwrap_or_else(|| panic!("{key} in {v}"));
    assert!(x.is_finite() && x > 0.0, "{key} = {x} in {v}");
    x
}

/// Check one engine's figure object: a positive rate, the rate per thread
/// and the time per operation consistent with it.
fn figure(v: &Value, threads: f64) -> f64 {
    let r = positive(v, "ops_per_s");
    let per_core = positive(v, "ops_per_s_per_core");
    let us = positive(v, "us_per_op");
    assert!((per_core * threads / r - 1.0).abs() < 1e-9, "{v}");
    assert!((us * r / 1e6 - 1.0).abs() < 1e-9, "{v}");
    r
}

/// Is the `openssl` command there?
fn have_openssl() -> bool {
    std::process::Command::new("openssl")
        .arg("version")
        .output()
        .is_ok_and(|o| o.status.success())
}

/// The JSON of the products: a clock on x86-64, and at 1024 bits (16
/// digits of 64 bits, 20 of 52) the scalar kernel and, when the `ifma`
/// backend ran, its four layouts, each with positive times and, where
/// the limit was measured, the instruction counts of the kernels' code.
fn products_are_complete(p: &Value, backends: &Value) {
    let kernels = p["kernels"].as_array().unwrap();
    let find = |name: &str| kernels.iter().find(|k| k["kernel"].as_str().unwrap().starts_with(name));
    let scalar = find("redc scalar").expect("the scalar kernel's row");
    assert_eq!(scalar["numbers"], 1);
    let ifma = backends.as_array().unwrap().iter().any(|b| b == "ifma");
    // Product and squaring at 1024 bits (20 digits).
    let layouts = [
        ("redc ifma 1-way", 1, [481, 481]),
        ("redc ifma 2-way", 2, [881, 881]),
        ("redc ifma 4-lane", 4, [1620, 1220]),
        ("redc ifma 8-lane", 8, [1620, 1220]),
    ];
    for (name, numbers, madds) in layouts {
        let Some(k) = find(name) else {
            assert!(!ifma, "{name} missing: {p}");
            continue;
        };
        assert_eq!(k["numbers"], numbers, "{k}");
        for (op, madds) in ["product", "square"].into_iter().zip(madds) {
            positive(&k[op], "ns");
            if !k[op]["multiply_instructions"].is_null() {
                assert_eq!(k[op]["multiply_instructions"], madds, "{k}");
                positive(&k[op], "of_port_limit");
            }
        }
    }
    for op in ["product", "square"] {
        positive(&scalar[op], "ns");
        if !scalar[op]["multiply_instructions"].is_null() {
            assert_eq!(
                scalar[op]["multiply_instructions"],
                if op == "product" { 528 } else { 408 }
            );
        }
    }
    if cfg!(target_arch = "x86_64") {
        positive(&p["clock"], "core_hz");
    }
}

#[test]
fn quick_run_writes_table_json_and_svg() {
    let dir = scratch_dir("bench");
    let (json, svg) = (dir.join("bench.json"), dir.join("bench.svg"));
    let (json_s, svg_s) = (json.to_str().unwrap(), svg.to_str().unwrap());
    let args = [
        "bench",
        "--quick",
        "--sizes",
        "1024",
        "--seconds",
        "0.05",
        "--json",
        json_s,
        "--plot",
        svg_s,
    ];
    let table = redc(&args, 0);
    for op in ["RSA private", "RSA public", "modexp"] {
        assert!(table.contains(&format!("| {op}")), "{table}");
    }
    assert!(table.contains("| 1024 |") && table.contains("redc/OpenSSL"), "{table}");
    // Where one private operation's time goes, measured in the same run.
    assert!(
        table.contains("RSA private at 1024 bits, one operation on redc")
            && table.contains("CRT exponentiations alone take"),
        "{table}"
    );

    // One product of each kernel, in cycles and as a share of the port limit.
    assert!(
        table.contains("One Montgomery product and squaring") && table.contains("| 1024 | redc scalar"),
        "{table}"
    );

    let v: Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    let machine = &v["machine"];
    assert!(!machine["cpu"].as_str().unwrap().is_empty());
    products_are_complete(&v["products"], &machine["backends"]);
    let threads = positive(machine, "threads");
    positive(machine, "cores");
    let backends: Vec<&str> = machine["backends"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b.as_str().unwrap())
        .collect();
    assert!(backends.contains(&"scalar"), "{machine}");
    assert_eq!(machine["openssl"].is_string(), have_openssl(), "{machine}");
    let gmp = machine["gmp"].is_string();

    let rows = v["rows"].as_array().unwrap();
    let mut modes = vec!["latency", "batch_1_core"];
    if threads > 1.0 {
        modes.push("batch_all_cores");
    }
    assert_eq!(rows.len(), 3 * modes.len(), "{v}");
    for op in ["rsa_private", "rsa_public", "modexp"] {
        for mode in &modes {
            let row = rows
                .iter()
                .find(|r| r["operation"] == op && r["mode"] == *mode)
                .unwrap_or_else(|| panic!("no row {op} {mode}"));
            assert_eq!(row["bits"], 1024);
            let t = positive(row, "threads");
            assert_eq!(t, if *mode == "batch_all_cores" { threads } else { 1.0 });
            let best = backends.iter().map(|b| figure(&row["redc"][*b], t)).fold(0.0, f64::max);
            // OpenSSL has the RSA operations, not raw modexp; GMP has all three.
            if op != "modexp" && have_openssl() {
                let o = figure(&row["openssl"], t);
                assert!((positive(row, "redc_vs_openssl") * o / best - 1.0).abs() < 1e-9);
            } else {
                assert!(row["openssl"].is_null() && row["redc_vs_openssl"].is_null(), "{row}");
            }
            if gmp {
                let g = figure(&row["gmp"], t);
                assert!((positive(row, "redc_vs_gmp") * g / best - 1.0).abs() < 1e-9);
            }
            // At 1024 bits: public and modexp batches have targets, the rest none.
            let target = &row["target"];
            match (op, *mode) {
                ("rsa_public", "batch_1_core" | "batch_all_cores") => {
                    assert_eq!(target["versus"], "openssl");
                    assert_eq!(target["min_ratio"], 1.5);
                }
                ("modexp", "batch_1_core" | "batch_all_cores") => {
                    assert_eq!(target["versus"], "gmp");
                    assert_eq!(target["min_ratio"], 2.0);
                    assert_eq!(target["met"].is_boolean(), gmp, "{row}");
                }
                _ => assert!(target.is_null(), "{row}"),
            }
        }
    }

    let svg = std::fs::read_to_string(&svg).unwrap();
    assert!(svg.starts_with("<svg"), "{}", &svg[..svg.len().min(200)]);
    assert!(svg.contains("RSA priv 1024") && svg.contains("redc scalar"));
    assert!(svg.trim_end().ends_with("</svg>"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn json_to_stdout_on_one_thread_without_others() {
    let out = redc(
        &[
            "bench",
            "--sizes",
            "1024",
            "--seconds",
            "0.02",
            "--threads",
            "1",
            "--backend",
            "scalar",
            "--no-openssl",
            "--no-gmp",
            "--json",
            "-",
        ],
        0,
    );
    let v: Value = serde_json::from_str(&out).expect("stdout is the JSON alone");
    assert_eq!(v["machine"]["threads"], 1);
    assert_eq!(v["machine"]["backends"], serde_json::json!(["scalar"]));
    assert!(v["machine"]["openssl"].is_null() && v["machine"]["gmp"].is_null());
    let rows = v["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 6, "latency and one thread, three operations");
    for row in rows {
        assert_ne!(row["mode"], "batch_all_cores");
        assert!(row["openssl"].is_null() && row["gmp"].is_null());
        figure(&row["redc"]["scalar"], 1.0);
        assert!(row["redc"]["ifma"].is_null());
    }
}

#[test]
fn bad_options_exit_2_naming_the_option() {
    let cases: [(&[&str], &str); 16] = [
        (&["--sizes", "512"], "--sizes"),
        (&["--sizes", "2048,abc"], "--sizes"),
        (&["--sizes", "20000"], "--sizes"),
        (&["--backend", "gpu"], "--backend"),
        (&["--seconds", "0"], "--seconds"),
        (&["--seconds", "-1"], "--seconds"),
        (&["--seconds", "soon"], "--seconds"),
        (&["--seconds", "1e9"], "--seconds"),
        (&["--threads", "0"], "--threads"),
        (
            &["--sizes", "1024", "--no-openssl", "--json", "/nonexistent-dir/b.json"],
            "--json",
        ),
        // The chart is SVG only: a .png name is refused before measuring.
        (
            &["--plot", "chart.png"],
            "--plot chart.png: the chart is written as SVG only",
        ),
        // The GPU's own options need the GPU backend.
        (&["--gpu-only"], "--gpu-only measures the GPU: it needs --backend cuda"),
        (&["--backend", "scalar", "--gpu-batch", "8"], "--gpu-batch"),
        (&["--backend", "cuda", "--gpu-batch", "0"], "--gpu-batch"),
        // crypto_mb's directory is checked before measuring.
        (
            &["--crypto-mb", "/nonexistent-dir"],
            "--crypto-mb /nonexistent-dir: not a directory",
        ),
        (&["--crypto-mb", "/tmp", "--no-crypto-mb"], "--no-crypto-mb"),
    ];
    for (args, option) in cases {
        let argv: Vec<&str> = std::iter::once("bench").chain(args.iter().copied()).collect();
        let out = run(&argv, "");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{argv:?}: {err}");
        assert!(err.contains(option), "{argv:?}: {err}");
        assert!(out.stdout.is_empty(), "{argv:?}");
    }
    // The IFMA backend on a CPU without it is bad input, not a fallback.
    let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    if !cpuinfo.contains("avx512ifma") {
        let out = run(&["bench", "--backend", "ifma", "--no-openssl", "--no-gmp"], "");
        assert_eq!(out.status.code(), Some(2));
        assert!(String::from_utf8_lossy(&out.stderr).contains("--backend ifma"));
    }
}

#[test]
fn finite_field_rows_with_their_targets() {
    let args = [
        "bench",
        "--sizes",
        "2048",
        "--seconds",
        "0.05",
        "--threads",
        "1",
        "--backend",
        "scalar",
        "--no-gmp",
        "--json",
        "-",
    ];
    let v: Value = serde_json::from_str(&redc(&args, 0)).expect("stdout is the JSON alone");
    let rows = v["rows"].as_array().unwrap();
    for op in ["dh_derive", "dsa_sign", "dsa_verify"] {
        for mode in ["latency", "batch_1_core"] {
            let row = rows
                .iter()
                .find(|r| r["operation"] == op && r["mode"] == mode)
                .unwrap_or_else(|| panic!("no row {op} {mode}"));
            assert_eq!(row["bits"], 2048);
            let best = figure(&row["redc"]["scalar"], 1.0);
            // openssl speed has ffdh2048 and dsa2048.
            if have_openssl() {
                let o = figure(&row["openssl"], 1.0);
                assert!((positive(row, "redc_vs_openssl") * o / best - 1.0).abs() < 1e-9);
            }
            let target = &row["target"];
            match (op, mode) {
                ("dh_derive", "latency") => assert_eq!(target["min_ratio"], 1.0, "{row}"),
                ("dh_derive", _) | ("dsa_verify", "batch_1_core") => assert_eq!(target["min_ratio"], 2.0, "{row}"),
                _ => assert!(target.is_null(), "{row}"),
            }
        }
    }
    let notes = v["notes"].to_string();
    assert!(notes.contains("q has 160 bits"), "{notes}");
    let args = [
        "bench",
        "--sizes",
        "2048",
        "--seconds",
        "0.02",
        "--threads",
        "1",
        "--backend",
        "scalar",
        "--no-gmp",
        "--no-openssl",
        "--no-ffc",
        "--json",
        "-",
    ];
    let v: Value = serde_json::from_str(&redc(&args, 0)).unwrap();
    assert_eq!(v["rows"].as_array().unwrap().len(), 6, "RSA rows only");
}
