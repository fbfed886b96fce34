//! `redc_hw::simulate`: one run of every architecture gives a report whose
//! text and JSON agree with its fields, and bad options are named.

use redc_hw::simulate::{Body, SimError, SimSpec, simulate};
use redc_hw::{Arch, HwError, fdfm};

fn spec(bits: usize) -> SimSpec {
    SimSpec {
        bits,
        seed: 7,
        radix: None,
        exp: None,
        cores: 1,
        mhz: None,
        ladder: false,
        crt: false,
        parallel: false,
        vcd: None,
    }
}

#[test]
fn every_architecture_reports_a_checked_exponentiation() {
    for arch in Arch::ALL {
        let report = simulate(arch, &spec(64)).unwrap_or_else(|e| panic!("{}: {e}", arch.name()));
        let Body::Exponentiation { products, cycles, .. } = report.body else {
            panic!("{}: not an exponentiation", arch.name());
        };
        assert!(products > 0 && cycles > 0, "{}", arch.name());
        let text = report.to_string();
        assert!(text.starts_with(&format!("redc sim {}: random 64-bit modulus (seed 7)", arch.name())));
        assert!(text.contains("exponentiation  ok"), "{text}");
        let json = report.json();
        assert_eq!(json["arch"], arch.name());
        assert_eq!(json["exponentiation"]["cycles"], cycles);
        assert_eq!(json["throughput"]["cores"], 1);
    }
}

#[test]
fn the_same_seed_gives_the_same_report() {
    assert_eq!(
        simulate(&fdfm::ARCH, &spec(128)).ok(),
        simulate(&fdfm::ARCH, &spec(128)).ok()
    );
}

#[test]
fn crt_worst_case_and_vcd_are_reported() {
    let s = SimSpec {
        crt: true,
        exp: Some("worst".into()),
        vcd: Some("trace.vcd".into()),
        ..spec(256)
    };
    let report = simulate(&fdfm::ARCH, &s).expect("fdfm decrypts with CRT");
    let Body::Crt {
        worst: Some((bits, cycles)),
        ref phases,
        ..
    } = report.body
    else {
        panic!("no worst case: {report}");
    };
    assert!(bits > 0 && cycles > 0 && !phases.is_empty());
    let vcd = report.product.vcd.as_ref().expect("a trace");
    assert!(
        vcd.text.starts_with("$date") || vcd.text.contains("$timescale"),
        "{}",
        &vcd.text[..80]
    );
    assert!(report.to_string().contains("  vcd             trace.vcd: "));
    assert_eq!(report.json()["worst_case"]["cycles"], cycles);
}

#[test]
fn bad_options_are_input_errors_naming_the_option() {
    let cases: [(SimSpec, &str); 3] = [
        (
            SimSpec {
                mhz: Some(0.0),
                ..spec(64)
            },
            "--mhz: ",
        ),
        (
            SimSpec {
                exp: Some("zz".into()),
                ..spec(64)
            },
            "--exp: ",
        ),
        (
            SimSpec {
                ladder: true,
                ..spec(64)
            },
            "--ladder: ",
        ),
    ];
    for (s, start) in cases {
        match simulate(&fdfm::ARCH, &s) {
            Err(SimError::Input(m)) => assert!(m.starts_with(start), "{m}"),
            other => panic!("{start}: {:?}", other.map(|r| r.to_string())),
        }
    }
    // A CRT key too small is the modulus's fault, as `redc vectors --crt`
    // says it (`crt_request`, shared), which the CLI shows under --bits.
    match simulate(&fdfm::ARCH, &SimSpec { crt: true, ..spec(16) }) {
        Err(SimError::Hw(HwError::Modulus(m))) => assert_eq!(m, "16 bits: a CRT key needs at least 32"),
        other => panic!("--crt at 16 bits: {:?}", other.map(|r| r.to_string())),
    }
}
