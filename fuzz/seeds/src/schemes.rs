//! Seeds of the scheme targets: signatures, ciphertexts and envelopes
//! made by the library with seeded generators.

use super::*;
use redc_rsa::padding::{Oaep, Pkcs1v15Encrypt, Pkcs1v15Sign, Pss};

pub(super) fn signatures(c: &mut Corpus) {
    let key = key_1024();
    let k = key.public_key().size();
    let em_bits = key.public_key().bits() - 1;
    for (i, h) in HashAlg::ALL.into_iter().enumerate() {
        let msg = format!("message {i}").into_bytes();
        // PSS under the 1024-bit key (mode 0), salt = hLen and any.
        if let Ok(sig) = key.sign(
            Pss {
                hash: h,
                mgf_hash: h,
                salt_len: None,
            },
            &msg,
            &mut rng(i as u64),
        ) {
            for salt in [h.output_len() as u8, 0xff] {
                let mut s = vec![0, hash_index(h), 0x80, salt, 0, 0];
                s.extend(u16be(msg.len()));
                s.extend(&msg);
                s.extend(&sig);
                c.add("verify_pss", format!("1024-{}-salt{salt}", h.name()), s);
            }
        }
        // PSS encodings seen directly (mode 1), at several em_bits.
        for (j, bits) in [em_bits, 1024, 1017, 520, 8 * (h.output_len() + 2)]
            .into_iter()
            .enumerate()
        {
            let salt = [7u8; 20];
            let salt = &salt[..if j % 2 == 0 { 20 } else { 0 }];
            if let Ok(em) = pss::emsa_pss_encode(h, h, &h.digest(&msg), salt, bits) {
                let mut s = vec![1, hash_index(h), 0x80, salt.len() as u8];
                s.extend(u16be(bits));
                s.extend(u16be(msg.len()));
                s.extend(&msg);
                s.extend(&em);
                c.add("verify_pss", format!("em-{}-{bits}", h.name()), s);
            }
        }
        // PKCS#1 v1.5 under the 1024-bit key (mode 0).
        if let Ok(sig) = key.sign(Pkcs1v15Sign::new(h), &msg, &mut rng(100 + i as u64)) {
            let mut s = vec![0, hash_index(h)];
            s.extend(u16be(k));
            s.extend(u16be(msg.len()));
            s.extend(&msg);
            s.extend(&sig);
            c.add("verify_pkcs1v15", format!("1024-{}", h.name()), s);
        }
    }
    // A PSS pair of unlike hashes, and SHAKE with an MGF1 (refused).
    let sig = key
        .sign(
            Pss {
                hash: HashAlg::Sha512,
                mgf_hash: HashAlg::Sha1,
                salt_len: Some(0),
            },
            b"m",
            &mut rng(200),
        )
        .unwrap();
    let mut s = vec![
        0,
        hash_index(HashAlg::Sha512),
        hash_index(HashAlg::Sha1),
        0,
        0,
        0,
        0,
        1,
        b'm',
    ];
    s.extend(&sig);
    c.add("verify_pss", "1024-sha512-mgf1sha1-salt0", s);
    c.add(
        "verify_pss",
        "shake-with-mgf1",
        vec![1, hash_index(HashAlg::Shake128), hash_index(HashAlg::Sha256), 0xff],
    );
}

pub(super) fn decryption(c: &mut Corpus) {
    for (sel, key) in [(0u8, key_1024()), (1, key_wycheproof())] {
        let public = key.public_key();
        let k = public.size();
        let tag = if sel == 0 { "1024" } else { "wycheproof" };
        // OAEP ciphertexts (mode: key, ciphertext).
        for (i, (h, g, label)) in [
            (HashAlg::Sha256, HashAlg::Sha256, &b""[..]),
            (HashAlg::Sha1, HashAlg::Sha1, b"label"),
            (HashAlg::Sha512, HashAlg::Sha256, b""),
            (HashAlg::Sha3_256, HashAlg::Sha224, b"L"),
        ]
        .into_iter()
        .enumerate()
        {
            let Some(max) = k.checked_sub(2 * h.output_len() + 2) else {
                continue;
            };
            for len in [0, 1, max] {
                let msg = vec![0x5a; len];
                let ct = public
                    .encrypt(
                        Oaep {
                            hash: h,
                            mgf_hash: g,
                            label: <[u8]>::to_vec(label),
                        },
                        &msg,
                        &mut rng(i as u64),
                    )
                    .unwrap();
                let mut s = vec![sel, hash_index(h), hash_index(g), label.len() as u8];
                s.extend(label);
                s.extend(&ct);
                c.add("decrypt_oaep", format!("{tag}-{}-{}-{len}", h.name(), g.name()), s);
                if sel == 0 && len == 1 {
                    // The same as EM (mode 2), and for eme_decode alone (mode 4).
                    let em = oaep::eme_encode(h, g, label, &msg, k, &mut rng(50)).unwrap();
                    for mode in [2u8, 4] {
                        let mut s = vec![mode, hash_index(h), hash_index(g), label.len() as u8];
                        s.extend(label);
                        s.extend(em.iter());
                        c.add("decrypt_oaep", format!("em{mode}-{}-{}", h.name(), g.name()), s);
                    }
                }
            }
        }
        // PKCS#1 v1.5 ciphertexts (mode: key) and encoded messages (mode | 2).
        for len in [0, 1, 16, k - 11] {
            let ct = public
                .encrypt(Pkcs1v15Encrypt, &vec![0xa5; len], &mut rng(len as u64))
                .unwrap();
            let mut s = vec![sel];
            s.extend(&ct);
            c.add("decrypt_pkcs1v15", format!("{tag}-{len}"), s);
        }
        let valid = |ps: usize, msg: &[u8]| {
            let mut em = vec![0x00, 0x02];
            em.extend(std::iter::repeat_n(0x11, ps));
            em.push(0);
            em.extend(msg);
            em
        };
        let mut ems: Vec<(&str, Vec<u8>)> = vec![
            ("valid", valid(k - 3 - 5, b"hello")),
            ("ps7", valid(7, &vec![1; k - 10])),
            ("ps8-max", valid(8, &vec![1; k - 11])),
            ("empty-msg", valid(k - 3, b"")),
            ("no-zero", {
                let mut em = vec![0x00, 0x02];
                em.resize(k, 0x33);
                em
            }),
            ("zero-in-ps", {
                let mut em = valid(k - 3 - 5, b"hello");
                em[5] = 0;
                em
            }),
        ];
        let mut wrong = valid(k - 4, b"x");
        wrong[1] = 0x01;
        ems.push(("block-type-1", wrong));
        let mut wrong = valid(k - 4, b"x");
        wrong[0] = 0x01;
        ems.push(("first-byte", wrong));
        for (name, em) in ems {
            assert_eq!(em.len(), k);
            let mut s = vec![sel | 2];
            s.extend(&em);
            c.add("decrypt_pkcs1v15", format!("{tag}-em-{name}"), s);
        }
        // Wrong lengths and c >= n.
        c.add(
            "decrypt_pkcs1v15",
            format!("{tag}-above-n"),
            [&[sel][..], &vec![0xff; k]].concat(),
        );
        c.add(
            "decrypt_oaep",
            format!("{tag}-above-n"),
            [&[sel, 2, 0x80, 0][..], &vec![0xff; k]].concat(),
        );
        c.add("decrypt_pkcs1v15", format!("{tag}-short"), vec![sel, 1, 2, 3]);
    }
}

pub(super) fn envelopes(c: &mut Corpus) {
    let dummy = |k: &[u8; 32]| Ok(k.to_vec());
    for (chunk, len) in [
        (16, 0),
        (16, 15),
        (16, 16),
        (16, 17),
        (17, 50),
        (64, 200),
        (1 << 16, 100),
    ] {
        let data: Vec<u8> = (0..len).map(|i| i as u8).collect();
        let mut out = vec![0u8];
        envelope::seal_with_chunk_size(&data[..], &mut out, dummy, &mut rng(len as u64), &mut |_| {}, chunk).unwrap();
        c.add("envelope_open", format!("dummy-{chunk}-{len}"), out);
    }
    let public = key_1024().public_key().clone();
    for (chunk, len) in [(16, 40), (1 << 16, 0)] {
        let data = vec![0x42u8; len];
        let wrap = |k: &[u8; 32]| {
            public.encrypt(
                Oaep {
                    hash: HashAlg::Sha256,
                    mgf_hash: HashAlg::Sha256,
                    label: <[u8]>::to_vec(&[]),
                },
                k,
                &mut rng(9),
            )
        };
        let mut out = vec![1u8];
        envelope::seal_with_chunk_size(&data[..], &mut out, wrap, &mut rng(len as u64), &mut |_| {}, chunk).unwrap();
        c.add("envelope_open", format!("oaep-{chunk}-{len}"), out);
    }
    // Version 2: two recipients (ids 0x11.. and 0x22..), dummy wrapping,
    // opened by id (mode bit 1) and by trying each entry.
    for (mode, len) in [(2u8, 30usize), (0, 30), (2, 0)] {
        let data = vec![0x24u8; len];
        let recipients: Vec<envelope::Recipient<'_>> = [0x11u8, 0x22]
            .map(|b| envelope::Recipient {
                id: [b; envelope::KEY_ID_LEN],
                wrap: Box::new(|k: &[u8; 32]| Ok(k.to_vec())),
            })
            .into_iter()
            .collect();
        let mut out = vec![mode];
        envelope::seal_for(&data[..], &mut out, &recipients, &mut rng(len as u64), &mut |_| {}).unwrap();
        c.add("envelope_open", format!("v2-mode{mode}-{len}"), out);
    }
    // Headers that stop at each check.
    let mut h = vec![0u8];
    h.extend(envelope::MAGIC);
    c.add("envelope_open", "magic-only", h.clone());
    h.push(2);
    h.extend(16u32.to_be_bytes());
    h.extend(1u16.to_be_bytes());
    c.add("envelope_open", "version-2", h.clone());
    h[9] = 1;
    h.extend([0u8; 1 + 7]);
    c.add("envelope_open", "wrapped-1-no-chunks", h);
}
