//! Seeds of the CLI targets: number texts, modexp cases and JSON Lines
//! batch inputs.

use super::*;
use redc_rsa::padding::{Oaep, Pkcs1v15Encrypt, Pkcs1v15Sign, Pss};

pub(super) fn numbers(c: &mut Corpus) {
    let n = key_wycheproof().public_key().n();
    let texts = [
        "0".to_owned(),
        "1".into(),
        "00042".into(),
        "0x".into(),
        "0xff".into(),
        "0XABCdef0123456789".into(),
        "-5".into(),
        "0x-5".into(),
        "12a".into(),
        " 1".into(),
        "1_000".into(),
        "١".into(),
        "9999999999999999999".into(),
        "10000000000000000000".into(),
        "18446744073709551615".into(),
        "18446744073709551616".into(),
        "340282366920938463463374607431768211456".into(),
        n.to_dec(),
        format!("0x{}", n.to_hex()),
        format!("0x{}", "0".repeat(40)),
        "0".repeat(57),
    ];
    for (i, t) in texts.iter().enumerate() {
        c.add("number_text", format!("{i:02}"), t.as_bytes());
    }
}

pub(super) fn modexp_cases(c: &mut Corpus) {
    // Python's pow corner cases and a few sizes: (base, exp, mod).
    let cases: [(&[u8], &[u8], &[u8]); 12] = [
        (&[], &[], &[1]),
        (&[], &[], &[2]),
        (&[5], &[], &[1]),
        (&[2], &[10], &[4, 0]),
        (&[3], &[0xff, 0xff], &[0x10, 0, 0]),
        (&[7], &[13], &[0x01, 0xf1]),
        (&[0xff; 20], &[0xff; 16], &[0x80; 24]),
        (
            &[1, 2, 3, 4, 5, 6, 7, 8, 9],
            &[0x01, 0x00, 0x01],
            &[0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xc5],
        ),
        (&[9; 64], &[0xaa; 32], &[0x55; 64]),
        (&[4], &[13], &[]),
        (&[0xde, 0xad], &[0xbe, 0xef], &[0x0c, 0, 0, 0, 0, 0, 0, 0, 0]),
        (&[1; 33], &[3], &[0xff; 33]),
    ];
    for (i, (b, e, n)) in cases.iter().enumerate() {
        // (width, product, schedule) as modexp_diff's flags byte.
        let all = [(3u8, 0u8, 0u8), (0, 1, 3), (1, 5, 1), (2, 3, 4), (3, 2, 2)];
        for flags in all.map(|(w, p, s)| w | p << 2 | s << 5) {
            let mut s = vec![flags, b.len() as u8];
            s.extend(*b);
            s.push(e.len() as u8);
            s.extend(*e);
            s.extend(*n);
            c.add("modexp_diff", format!("{i:02}-{flags:02x}"), s.clone());
            if flags == all[1].0 | all[1].1 << 2 | all[1].2 << 5 {
                // Any bytes decode as a batch case; these carry the same numbers.
                let mut r = vec![0u8; 64];
                rng(i as u64).fill_bytes(&mut r);
                c.add("batch_vs_single", format!("{i:02}"), [s, r].concat());
            }
        }
    }
    for len in [32usize, 256, 1024] {
        let mut r = vec![0u8; len];
        rng(1000 + len as u64).fill_bytes(&mut r);
        c.add("batch_vs_single", format!("random-{len}"), r);
    }
}

pub(super) fn batch_lines(c: &mut Corpus) {
    let key = key_1024();
    let public: &RsaPublicKey = key.public_key();
    let k = public.size();
    let line = |v: Value| format!("{v}\n");
    // modexp: [command] lines; commands 0-5 (word 64, 32, 16, 8, auto, scalar), bit 4 --hex.
    let modexp = [
        line(json!({"base": 4, "exp": 13, "mod": 497})),
        line(json!({"base": "0x10", "exp": "0", "mod": "1"})),
        line(json!({"base": 2, "exp": 100, "mod": 1024})),
        line(json!({"base": "123456789", "exp": "0xfff", "mod": "1000000007"})),
        line(json!({"base": 1, "exp": 1, "mod": 0})),
        line(json!({"base": -1, "exp": 1, "mod": 7})),
        line(json!({"base": 1.5, "exp": 1, "mod": 7})),
        line(json!({"base": 1e3, "exp": 1, "mod": 7})),
        line(json!({"exp": 1, "mod": 7})),
        line(json!({"base": [1], "exp": 1, "mod": 7})),
        "{\"base\": 1, \"base\": 2, \"exp\": 1, \"mod\": 7}\n".into(),
        "\u{feff}{\"base\": 3, \"exp\": 5, \"mod\": 11}\r\n".into(),
        "\n".into(),
        "[1, 2, 3]\n".into(),
        "{\"base\": 3\n".into(),
        "not json\n".into(),
    ];
    let all: String = modexp.concat();
    for command in [0u8, 1, 2, 3, 4, 5, 16, 20] {
        c.add(
            "batch_jsonl",
            format!("modexp-{command:02}"),
            [&[command][..], all.as_bytes()].concat(),
        );
    }
    c.add("batch_jsonl", "modexp-one", [&[0u8][..], modexp[0].as_bytes()].concat());
    // RSA: [command] lines; 6-10 private ops, 11-15 public ops; bits 5-6 the hash (0: sha256).
    let hexline = |name: &str, b: &[u8]| line(json!({ name: to_hex(b) }));
    let msg = b"batch message";
    let ct_oaep = public
        .encrypt(
            Oaep {
                hash: HashAlg::Sha256,
                mgf_hash: HashAlg::Sha256,
                label: <[u8]>::to_vec(&[]),
            },
            msg,
            &mut rng(1),
        )
        .unwrap();
    let ct_v15 = public.encrypt(Pkcs1v15Encrypt, msg, &mut rng(2)).unwrap();
    let sig_pss = key
        .sign(
            Pss {
                hash: HashAlg::Sha256,
                mgf_hash: HashAlg::Sha256,
                salt_len: None,
            },
            msg,
            &mut rng(3),
        )
        .unwrap();
    let sig_v15 = key.sign(Pkcs1v15Sign::new(HashAlg::Sha256), msg, &mut rng(4)).unwrap();
    let raw = hazmat::raw_public(public, &[7; 32]).unwrap();
    let bad = [
        line(json!({"in": "0"})),
        line(json!({"in": "zz"})),
        line(json!({"in": 5})),
        line(json!({"out": "00"})),
        hexline("in", &vec![0xff; k]),
    ]
    .concat();
    let private = [
        (6u8, hexline("in", &raw)),
        (7, hexline("in", msg)),
        (8, hexline("in", msg)),
        (9, hexline("in", &ct_oaep)),
        (10, hexline("in", &ct_v15)),
    ];
    for (command, good) in private {
        c.add(
            "batch_jsonl",
            format!("rsa-{command:02}"),
            [&[command][..], good.as_bytes(), bad.as_bytes()].concat(),
        );
    }
    let pair = |sig: &[u8]| line(json!({"in": to_hex(msg), "sig": to_hex(sig)}));
    let public_lines = [
        (11u8, hexline("in", &[7; 32])),
        (12, pair(&sig_pss)),
        (13, pair(&sig_v15)),
        (14, hexline("in", msg)),
        (15, hexline("in", msg)),
    ];
    for (command, good) in public_lines {
        let lines = [good.as_str(), &line(json!({"in": "00", "sig": "00"})), &bad].concat();
        c.add(
            "batch_jsonl",
            format!("rsa-{command:02}"),
            [&[command][..], lines.as_bytes()].concat(),
        );
    }
    let shake = key
        .sign(
            Pss {
                hash: HashAlg::Shake256,
                mgf_hash: HashAlg::Shake256,
                salt_len: Some(16),
            },
            msg,
            &mut rng(5),
        )
        .unwrap();
    c.add(
        "batch_jsonl",
        "rsa-pss-shake256",
        [&[12u8 | 0x60][..], pair(&shake).as_bytes()].concat(),
    );
}
