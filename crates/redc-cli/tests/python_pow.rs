//! `redc modexp --batch` against Python's `pow(b, e, n)` on thousands of
//! random cases: every product schedule × exponentiation schedule × digit
//! width, moduli of 2..4096 bits at every width (narrow digits get short
//! exponents on large moduli), a quarter of them even.

mod common;

use common::{PRODUCTS, SCHEDULES, WORDS};
use std::io::Write;
use std::process::{Command, Stdio};

const CASES_PER_COMBINATION: usize = 25;

/// splitmix64.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    /// A hexadecimal number of exactly `bits` bits (0 for `bits = 0`).
    fn hex(&mut self, bits: u64) -> String {
        if bits == 0 {
            return "0x0".to_owned();
        }
        let nibbles = bits.div_ceil(4) as usize;
        let mut s: Vec<u8> = (0..nibbles)
            .map(|_| b"0123456789abcdef"[self.below(16) as usize])
            .collect();
        let top_bits = bits - 4 * (nibbles as u64 - 1);
        s[0] = b"0123456789abcdef"[((1u64 << (top_bits - 1)) | self.below(1 << (top_bits - 1))) as usize];
        format!("0x{}", String::from_utf8(s).unwrap())
    }
}

/// The longest exponent for a modulus of `nbits` bits at digit width `word`:
/// narrow digits get short exponents at large sizes, so the suite stays fast.
fn max_exp_bits(word: &str, nbits: u64) -> u64 {
    match word {
        "8" if nbits > 1024 => 48,
        "16" if nbits > 2048 => 96,
        _ => nbits.min(256),
    }
}

/// Random (base, exp, mod) lines for one digit width.
fn cases(rng: &mut Rng, word: &str) -> Vec<(String, String, String)> {
    (0..CASES_PER_COMBINATION)
        .map(|_| {
            let nbits = 2 + rng.below(4095);
            let mut n = rng.hex(nbits);
            if rng.below(4) == 0 {
                // even: append up to 70 zero bits (as a multiple of 2^k)
                let k = 1 + rng.below(70);
                n = format!("{n}*{k}");
            }
            let ebits = rng.below(max_exp_bits(word, nbits) + 1);
            let bbits = rng.below(nbits + 64);
            (rng.hex(bbits), rng.hex(ebits), n)
        })
        .collect()
}

/// Write `input` to the child's stdin from another thread (so neither side
/// blocks on a full pipe) and collect its output.
fn feed(mut child: std::process::Child, input: String) -> std::process::Output {
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap().unwrap();
    out
}

/// Python evaluates `n*k` as `n << k` for the even moduli and answers pow.
fn python_answers(lines: &[(String, String, String)]) -> Vec<String> {
    let script = "import sys\nfor line in sys.stdin:\n    b, e, n = line.split()\n    if '*' in n:\n        m, k = n.split('*')\n        n = int(m, 16) << int(k)\n    else:\n        n = int(n, 16)\n    print(pow(int(b, 16), int(e, 16), n))\n";
    let child = Command::new("python3")
        .args(["-c", script])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("python3 is installed (.ci/run installs it)");
    let input: String = lines.iter().map(|(b, e, n)| format!("{b} {e} {n}\n")).collect();
    let out = feed(child, input);
    assert!(out.status.success());
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(str::to_owned)
        .collect()
}

/// The modulus text as redc reads it (`n*k` becomes a hex number with k zero bits).
fn modulus_hex(n: &str) -> String {
    let Some((m, k)) = n.split_once('*') else {
        return n.to_owned();
    };
    let k: u32 = k.parse().unwrap();
    // shift by whole nibbles, then by the remaining bits via a multiplier digit
    let digits = m.trim_start_matches("0x");
    let mut bits: Vec<u8> = digits
        .chars()
        .flat_map(|c| {
            let v = c.to_digit(16).unwrap() as u8;
            (0..4).rev().map(move |i| (v >> i) & 1)
        })
        .collect();
    bits.extend(std::iter::repeat_n(0, k as usize));
    while !bits.len().is_multiple_of(4) {
        bits.insert(0, 0);
    }
    let hex: String = bits
        .chunks(4)
        .map(|c| char::from_digit(u32::from(c[0] * 8 + c[1] * 4 + c[2] * 2 + c[3]), 16).unwrap())
        .collect();
    format!("0x{hex}")
}

/// The `result` of every output line.
fn results(stdout: &[u8]) -> Vec<String> {
    String::from_utf8_lossy(stdout)
        .lines()
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            v["result"].as_str().expect("a result").to_owned()
        })
        .collect()
}

#[test]
fn agrees_with_python_pow_for_every_option() {
    let mut rng = Rng(0x5eed_f07e_d0c0);
    let mut combos = Vec::new();
    let mut all = Vec::new();
    for product in PRODUCTS {
        for schedule in SCHEDULES {
            for word in WORDS {
                let c = cases(&mut rng, word);
                combos.push((product, schedule, word, all.len(), c.len()));
                all.extend(c);
            }
        }
    }
    let expect = python_answers(&all);
    assert_eq!(expect.len(), all.len());
    for (product, schedule, word, start, len) in combos {
        let input: String = all[start..start + len]
            .iter()
            .map(|(b, e, n)| format!("{{\"base\":\"{b}\",\"exp\":\"{e}\",\"mod\":\"{}\"}}\n", modulus_hex(n)))
            .collect();
        let args = [
            "modexp",
            "--batch",
            "-",
            "--product",
            product,
            "--schedule",
            schedule,
            "--word",
            word,
        ];
        let out = common::run(&args, &input);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{product} {schedule} w={word}: {stderr}");
        let got = results(&out.stdout);
        assert_eq!(got.len(), len);
        for (i, (g, e)) in got.iter().zip(&expect[start..start + len]).enumerate() {
            assert_eq!(g, e, "{product} {schedule} w={word}: case {:?}", all[start + i]);
        }
    }
}

/// `--backend`: the batch on the engine (each backend this machine runs, and
/// `auto`) agrees with Python on odd and even moduli of every size.
#[test]
fn engine_batches_agree_with_python_pow() {
    let mut rng = Rng(0x0ba7_c4e5);
    let all = cases(&mut rng, "64");
    let expect = python_answers(&all);
    let input: String = all
        .iter()
        .map(|(b, e, n)| format!("{{\"base\":\"{b}\",\"exp\":\"{e}\",\"mod\":\"{}\"}}\n", modulus_hex(n)))
        .collect();
    let ifma = std::fs::read_to_string("/proc/cpuinfo").is_ok_and(|c| c.contains("avx512ifma"));
    for backend in ["auto", "scalar", "ifma"] {
        let out = common::run(&["modexp", "--batch", "-", "--backend", backend], &input);
        let stderr = String::from_utf8_lossy(&out.stderr);
        if backend == "ifma" && !ifma {
            assert_eq!(out.status.code(), Some(2), "{stderr}");
            assert!(stderr.contains("--backend ifma"), "{stderr}");
            continue;
        }
        assert!(out.status.success(), "{backend}: {stderr}");
        let got = results(&out.stdout);
        assert_eq!(got, expect, "{backend}");
    }
}

/// `redc modexp BASE EXP MOD` with negative arguments against Python's
/// `pow`: a negative base, an exponent that needs the base's inverse (or
/// fails as Python's does, exit 2), a negative modulus, moduli 1 and -1.
#[test]
fn negative_arguments_agree_with_python_pow() {
    let mut rng = Rng(0x0051_67ed);
    let mut triples: Vec<(i64, i64, i64)> =
        vec![(-1, 2, 5), (2, -1, 5), (4, -1, 8), (0, -1, 1), (-7, 0, -1), (3, 5, -1)];
    for _ in 0..60 {
        let signed = |rng: &mut Rng, n: u64| {
            let x = rng.below(n) as i64;
            if rng.below(2) == 0 { -x } else { x }
        };
        let m = signed(&mut rng, 1000);
        triples.push((
            signed(&mut rng, 1 << 40),
            signed(&mut rng, 50),
            if m == 0 { 97 } else { m },
        ));
    }
    let script = "import sys\nfor line in sys.stdin:\n    b, e, m = map(int, line.split())\n    try:\n        print(pow(b, e, m))\n    except ValueError:\n        print('ValueError')\n";
    let text: String = triples.iter().map(|(b, e, m)| format!("{b} {e} {m}\n")).collect();
    let python = feed(
        Command::new("python3")
            .args(["-c", script])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("python3 runs"),
        text,
    );
    let expect = String::from_utf8(python.stdout).unwrap();
    for ((b, e, m), want) in triples.iter().zip(expect.lines()) {
        let args = ["modexp".to_owned(), b.to_string(), e.to_string(), m.to_string()];
        let out = common::run(&args.iter().map(String::as_str).collect::<Vec<_>>(), "");
        let got = String::from_utf8_lossy(&out.stdout).trim().to_owned();
        if want == "ValueError" {
            assert_eq!(out.status.code(), Some(2), "pow({b}, {e}, {m})");
        } else {
            assert_eq!((out.status.code(), got.as_str()), (Some(0), want), "pow({b}, {e}, {m})");
        }
    }
}
