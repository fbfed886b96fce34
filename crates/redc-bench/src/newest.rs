//! OpenSSL 4.0 linked into the binary (feature `openssl4`, `openssl4.rs`)
//! as one more anchor of the RSA and finite-field rows; without the
//! feature, a stand-in that measures nothing.

#[cfg(feature = "openssl4")]
use super::Operation;
use super::ffc;
#[cfg(feature = "openssl4")]
use super::openssl4;
use super::{NewestFfcRate, NewestRate, Options, Workload};

/// OpenSSL 4.0 linked into this binary (feature `openssl4`), or nothing.
pub(super) struct Newest;

impl Newest {
    /// The linked OpenSSL, when the feature is on.
    pub(super) fn load() -> Option<Newest> {
        cfg!(feature = "openssl4").then_some(Newest)
    }

    /// Its version line.
    pub(super) fn version(&self) -> String {
        #[cfg(feature = "openssl4")]
        return openssl4::version();
        #[cfg(not(feature = "openssl4"))]
        String::new()
    }

    /// The private and public rates at `work`'s size, one thread and every
    /// thread, after the first answers were checked.
    #[cfg(feature = "openssl4")]
    pub(super) fn measure(&self, work: &mut Workload, opts: &Options) -> anyhow::Result<Vec<NewestRate>> {
        let key = openssl4::Key::load(&work.key)?;
        let mut out = Vec::new();
        for (op, private) in [(Operation::RsaPrivate, true), (Operation::RsaPublic, false)] {
            let first = key.first(
                private,
                if private {
                    &work.ciphertexts[0]
                } else {
                    &work.messages[0]
                },
            )?;
            work.check("OpenSSL 4", op, &[first])?;
            let inputs = if private { &work.ciphertexts } else { &work.messages };
            out.push((op, false, key.rate(private, inputs, 1, opts.seconds)?));
            if opts.threads > 1 {
                out.push((op, true, key.rate(private, inputs, opts.threads, opts.seconds)?));
            }
        }
        Ok(out)
    }

    /// Nothing without the feature.
    #[cfg(not(feature = "openssl4"))]
    pub(super) fn measure(&self, _: &mut Workload, _: &Options) -> anyhow::Result<Vec<NewestRate>> {
        Ok(Vec::new())
    }

    /// The rate of a finite-field row's operation, one thread and every
    /// thread, after the first answers were checked.
    #[cfg(feature = "openssl4")]
    pub(super) fn measure_ffc(&self, work: &ffc::Work<'_>, opts: &Options) -> anyhow::Result<Vec<NewestFfcRate>> {
        let mut out = vec![(false, openssl4::ffc_rate(work, 1, opts.seconds)?)];
        if opts.threads > 1 {
            out.push((true, openssl4::ffc_rate(work, opts.threads, opts.seconds)?));
        }
        Ok(out)
    }

    /// Nothing without the feature.
    #[cfg(not(feature = "openssl4"))]
    pub(super) fn measure_ffc(&self, _: &ffc::Work<'_>, _: &Options) -> anyhow::Result<Vec<NewestFfcRate>> {
        Ok(Vec::new())
    }
}
