//! A file encrypted for two recipients (the envelope's version 2, as
//! `redc encrypt --key A --key B` writes it): either private key opens it,
//! each finding its entry by key id; a third key is told it is not a
//! recipient.
//!
//! Run: `cargo run --release --example envelope -p redc-rsa`.

#![allow(clippy::print_stdout)] // an example shows its results on stdout

use rand_core::OsRng;
use redc_rsa::envelope::{self, KEY_LEN, Recipient};
use redc_rsa::keygen::{DEFAULT_E, generate};
use redc_rsa::padding::Oaep;
use redc_rsa::{Error, HashAlg, Num, RsaPrivateKey, RsaPublicKey};

/// The envelope's key id of a public key: SHA-256 of its SubjectPublicKeyInfo.
fn id(key: &RsaPublicKey) -> envelope::KeyId {
    envelope::key_id_of(&key.to_spki_der().expect("a DER encoding"))
}

/// Opens `sealed` with `key`, by its key id.
fn open(sealed: &[u8], key: &RsaPrivateKey) -> Result<Vec<u8>, Error> {
    let unwrap = |w: &[u8]| {
        key.decrypt(
            Oaep {
                hash: HashAlg::Sha256,
                mgf_hash: HashAlg::Sha256,
                label: <[u8]>::to_vec(&[]),
            },
            w,
            &mut OsRng,
        )
    };
    let mut plain = Vec::new();
    envelope::open_as(sealed, &mut plain, &id(key.public_key()), unwrap, &mut |_| {})?;
    Ok(plain)
}

fn main() {
    let e = Num::from_u64(DEFAULT_E);
    let [alice, bob, carol] = [0, 1, 2].map(|_| generate(2048, &e, &|_| {}).expect("a key"));
    let message = b"the quarterly figures".repeat(10_000);

    let recipients: Vec<Recipient<'_>> = [&alice, &bob]
        .map(|k| {
            let public = k.public_key();
            Recipient {
                id: id(public),
                wrap: Box::new(move |aes: &[u8; KEY_LEN]| {
                    public.encrypt(
                        Oaep {
                            hash: HashAlg::Sha256,
                            mgf_hash: HashAlg::Sha256,
                            label: <[u8]>::to_vec(&[]),
                        },
                        aes,
                        &mut OsRng,
                    )
                }),
            }
        })
        .into_iter()
        .collect();
    let mut sealed = Vec::new();
    envelope::seal_for(&message[..], &mut sealed, &recipients, &mut OsRng, &mut |_| {}).expect("sealed");
    println!(
        "{} bytes sealed into {} for two recipients",
        message.len(),
        sealed.len()
    );

    assert_eq!(open(&sealed, &alice).expect("alice opens it"), message);
    assert_eq!(open(&sealed, &bob).expect("bob opens it"), message);
    match open(&sealed, &carol) {
        Err(e @ Error::NotARecipient { .. }) => println!("carol: {e}"),
        other => panic!("carol should not open it: {other:?}"),
    }
}

#[cfg(test)]
mod tests {
    /// `cargo test` runs the example.
    #[test]
    fn runs() {
        super::main();
    }
}
