//! The architecture registry: CRT support and its typed refusals.

use redc_hw::{Arch, HwError, HwOption, crt_support};

#[test]
fn crt_refusals_name_the_option() {
    for arch in Arch::ALL {
        for parallel in [false, true] {
            match crt_support(arch, parallel) {
                Ok(()) => assert!(matches!((arch, parallel), (Arch::Fdfm, false) | (Arch::BlumPaar, _))),
                Err(
                    e @ HwError::Unsupported {
                        option: Some(HwOption::Parallel),
                        ..
                    },
                ) => {
                    assert_eq!((arch, parallel), (Arch::Fdfm, true));
                    assert!(e.to_string().starts_with("parallel: the FDFM core"), "{e}");
                }
                Err(
                    e @ HwError::Unsupported {
                        option: Some(HwOption::Crt),
                        ..
                    },
                ) => {
                    assert!(!matches!(arch, Arch::Fdfm | Arch::BlumPaar));
                    assert_eq!(
                        e.to_string(),
                        format!(
                            "crt: the {} paper models no CRT decryption (fdfm and blum-paar do)",
                            arch.name()
                        )
                    );
                }
                Err(e) => panic!("{}: {e}", arch.name()),
            }
        }
    }
}
