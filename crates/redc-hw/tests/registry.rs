//! The registry, [`Arch::ALL`]: unique names, entries that build their own
//! models, the paper list derived from it, and CRT support that says what
//! `crt_decrypt` does, with typed refusals.

use redc_hw::random::Seeded;
use redc_hw::{Arch, HwError, HwOption, Paper, blum_paar, build, crt_decrypt, crt_support, fdfm, reference};

#[test]
fn names_are_unique_and_looked_up() {
    for (i, &arch) in Arch::ALL.iter().enumerate() {
        assert_eq!(Arch::from_name(arch.name()), Some(arch));
        assert!(Arch::ALL[..i].iter().all(|a| a.name() != arch.name()), "{arch:?} twice");
    }
    assert_eq!(Arch::from_name("nosuch"), None);
}

#[test]
fn every_entry_builds_its_own_model() {
    let n = Seeded::new(3).odd_modulus(64);
    for &arch in Arch::ALL {
        let c = build(arch, &n, None).unwrap_or_else(|e| panic!("{}: {e}", arch.name()));
        assert_eq!(c.arch(), arch);
        assert_eq!(c.modulus(), &n, "{}", arch.name());
    }
}

#[test]
fn papers_come_from_the_registry() {
    let papers = Paper::all();
    assert_eq!(
        papers,
        [
            Paper::Fdfm,
            Paper::BlumPaar,
            Paper::CarrySave,
            Paper::Perin,
            Paper::Dataflow
        ]
    );
    for &arch in Arch::ALL {
        assert!(papers.contains(&arch.paper()), "{}", arch.name());
    }
    for p in papers {
        assert_eq!(Paper::from_name(p.name()), Some(p));
        let tables = p.tables();
        assert!(!tables.is_empty(), "{}", p.name());
        for t in &tables {
            assert!(t.source.starts_with(p.file()), "{}: {}", p.name(), t.source);
        }
        // The last is the list of cells not modelled: entries none, items some.
        let list = tables.last().unwrap();
        assert!(list.is_list() && !list.notes.is_empty(), "{}", p.name());
        assert!(list.source.ends_with("cells not modelled"));
        assert_eq!(tables.iter().filter(|t| t.is_list()).count(), 1, "{}", p.name());
    }
    assert_eq!(Paper::from_name("all"), None);
}

#[test]
fn crt_support_says_what_crt_decrypt_does() {
    let mut rng = Seeded::new(11);
    let key = rng.crt_key(64);
    let c = rng.below(&key.n);
    let want = reference::modpow(&c, &key.d, &key.n);
    for &arch in Arch::ALL {
        for parallel in [false, true] {
            let run = crt_decrypt(arch, &key, &c, None, parallel);
            match crt_support(arch, parallel) {
                Ok(()) => assert_eq!(run.expect("supported").value, want, "{}", arch.name()),
                Err(e) => {
                    assert!(
                        matches!(e, HwError::Unsupported { option: Some(_), .. }),
                        "{}: {e}",
                        arch.name()
                    );
                    assert_eq!(run, Err(e));
                }
            }
        }
    }
}

#[test]
fn crt_refusals_name_the_option() {
    for &arch in Arch::ALL {
        for parallel in [false, true] {
            match crt_support(arch, parallel) {
                Ok(()) => assert!(
                    *arch == blum_paar::ARCH || *arch == blum_paar::RADIX2 || (*arch == fdfm::ARCH && !parallel)
                ),
                Err(
                    e @ HwError::Unsupported {
                        option: Some(HwOption::Parallel),
                        ..
                    },
                ) => {
                    assert!(*arch == fdfm::ARCH && parallel);
                    assert!(e.to_string().starts_with("parallel: the FDFM core"), "{e}");
                }
                Err(
                    e @ HwError::Unsupported {
                        option: Some(HwOption::Crt),
                        ..
                    },
                ) => {
                    assert!(*arch != fdfm::ARCH && *arch != blum_paar::ARCH && *arch != blum_paar::RADIX2);
                    assert_eq!(
                        e.to_string(),
                        format!(
                            "crt: the {} paper models no CRT decryption (fdfm, blum-paar and blum-paar-radix2 do)",
                            arch.name()
                        )
                    );
                }
                Err(e) => panic!("{}: {e}", arch.name()),
            }
        }
    }
}

#[test]
fn sample_products_one_per_model_checked() {
    let runs = redc_hw::sample::products(256, 7).unwrap();
    assert_eq!(runs.len(), Arch::ALL.len());
    // The same draws, rebuilt here: each model's product against the reference.
    let mut rng = Seeded::new(7);
    let n = rng.odd_modulus(256);
    for (run, &arch) in runs.iter().zip(Arch::ALL) {
        assert_eq!(run.arch, arch);
        assert!(run.matches, "{run}");
        let c = build(arch, &n, None).unwrap();
        let bound = c.operand_bound();
        let (a, b) = (rng.below(&bound), rng.below(&bound));
        let value = c.multiply(&a, &b, None).unwrap().value;
        let r_inv = reference::pow2_mod(c.r_log2(), &n).inv_mod(&n).unwrap();
        assert_eq!(
            reference::reduce(&value, &n),
            reference::reduce(&a.mul(&b).mul(&r_inv), &n)
        );
        assert!(run.cycles > 0 && (run.micros() - run.cycles as f64 / run.clock_mhz).abs() < 1e-12);
        assert!(run.to_string().starts_with(arch.name()), "{run}");
    }
}

#[test]
fn paper_entry_finds_a_cell() {
    let e = Paper::Fdfm
        .entry("R=1024", "clock cycles")
        .expect("001 Table 2's 1024-bit row");
    assert!(e.paper.is_some());
    assert!(Paper::Fdfm.entry("R=1024", "no such column").is_none());
}

#[test]
fn papers_select_and_render_their_tables() {
    use redc_hw::table;
    assert_eq!(Paper::select("all"), Some(Paper::all()));
    assert_eq!(Paper::select("fdfm"), Some(vec![Paper::Fdfm]));
    assert_eq!(Paper::select("nosuch"), None);
    let papers = Paper::all();
    let tables = table::of_papers(&papers);
    let count: usize = papers.iter().map(|p| p.tables().len()).sum();
    assert_eq!(tables.len(), count);
    let md = table::markdown(&tables);
    for p in &papers {
        let heading = format!("# {}\n\n", p.citation());
        assert_eq!(md.matches(&heading).count(), 1, "{}", p.name());
    }
    assert!(tables.iter().all(|(_, t)| md.contains(&t.to_markdown())));
    let json = table::json(&tables);
    assert_eq!(json.as_array().map(Vec::len), Some(count));
    assert_eq!(json[0], tables[0].1.to_json(tables[0].0));
}
