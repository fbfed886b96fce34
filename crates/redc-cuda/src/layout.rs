//! One launch's inputs in one buffer: a chunk of a batch's jobs packed as
//! the kernel's five input arrays (moduli, `n0inv`, `R^2 mod n`, bases,
//! exponents), so that each launch takes one host-to-device copy.

use crate::CLASSES as DIGIT_CLASSES;
use redc::engine::device::{DeviceBatch, DeviceError};
use std::ops::Range;

/// Each array starts on a multiple of this many words (256 bytes), so
/// the kernels' loads stay aligned whatever the job count.
const ALIGN: usize = 64;

/// Where the arrays of `jobs` jobs lie in a staging buffer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Layout {
    /// Jobs in the launch.
    pub(crate) jobs: usize,
    /// Digits per number.
    pub(crate) digits: usize,
    /// Words per exponent.
    pub(crate) exp_words: usize,
}

impl Layout {
    /// The word ranges of the moduli, `n0inv`, `R^2 mod n`, bases and
    /// exponents, in the kernel's parameter order, each aligned to
    /// [`ALIGN`] words.
    pub(crate) fn sections(&self) -> [Range<usize>; 5] {
        let lens = [self.digits, 1, self.digits, self.digits, self.exp_words].map(|per_job| per_job * self.jobs);
        let mut start = 0;
        lens.map(|len| {
            let range = start..start + len;
            start = (start + len).next_multiple_of(ALIGN);
            range
        })
    }

    /// Words of the staging buffer.
    pub(crate) fn input_words(&self) -> usize {
        self.sections()[4].end
    }

    /// Words of the results.
    pub(crate) fn output_words(&self) -> usize {
        self.jobs * self.digits
    }
}

/// Copy jobs `jobs` of `batch` into `dst` as [`Layout`] places them (the
/// padding between arrays is left as it is). `batch` must have passed
/// [`check`], `jobs` lie within it and `dst` hold the layout's
/// `input_words()`.
pub(crate) fn pack(batch: &DeviceBatch<'_>, jobs: Range<usize>, dst: &mut [u32]) {
    let layout = Layout {
        jobs: jobs.len(),
        digits: batch.digits,
        exp_words: batch.exp_words,
    };
    let per_job = [batch.digits, 1, batch.digits, batch.digits, batch.exp_words];
    let arrays = [batch.modulus, batch.n0inv, batch.r2, batch.base, batch.exp];
    for ((section, array), width) in layout.sections().into_iter().zip(arrays).zip(per_job) {
        dst[section].copy_from_slice(&array[jobs.start * width..jobs.end * width]);
    }
}

/// Whether `batch` is well formed: a digit class, arrays of the lengths its
/// counts give, `exp_bits <= 32 * exp_words`, and counts that fit the
/// kernels' 32-bit parameters. (The numeric preconditions, odd moduli and
/// bases below them, are the engine's to keep.)
pub(crate) fn check(batch: &DeviceBatch<'_>) -> Result<(), DeviceError> {
    let fail = |what: String| Err(DeviceError(format!("malformed device batch: {what}")));
    if !DIGIT_CLASSES.contains(&batch.digits) {
        return fail(format!("{} digits is not a class of {DIGIT_CLASSES:?}", batch.digits));
    }
    let words = |per_job: usize| batch.count.checked_mul(per_job);
    let arrays = [
        ("modulus", batch.modulus.len(), words(batch.digits)),
        ("n0inv", batch.n0inv.len(), words(1)),
        ("r2", batch.r2.len(), words(batch.digits)),
        ("base", batch.base.len(), words(batch.digits)),
        ("exp", batch.exp.len(), words(batch.exp_words)),
    ];
    for (name, len, want) in arrays {
        if Some(len) != want {
            return fail(format!("{name} holds {len} words for {} jobs", batch.count));
        }
    }
    if batch.exp_words.checked_mul(32).is_none_or(|bits| batch.exp_bits > bits) {
        return fail(format!("exp_bits {} exceeds {} words", batch.exp_bits, batch.exp_words));
    }
    if [batch.count, batch.exp_words, batch.exp_bits]
        .into_iter()
        .any(|x| u32::try_from(x).is_err())
    {
        return fail("a count exceeds 32 bits".to_owned());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A batch of `count` jobs of 16 digits and 3-word exponents whose
    /// words are all different: word `w` of array `a` of job `j` is
    /// `a << 24 | j << 8 | w`.
    fn numbered(count: usize) -> [Vec<u32>; 5] {
        let array = |a: u32, width: usize| -> Vec<u32> {
            (0..count)
                .flat_map(|j| (0..width).map(move |w| a << 24 | (j as u32) << 8 | w as u32))
                .collect()
        };
        [array(1, 16), array(2, 1), array(3, 16), array(4, 16), array(5, 3)]
    }

    fn batch(arrays: &[Vec<u32>; 5], count: usize) -> DeviceBatch<'_> {
        DeviceBatch {
            digits: 16,
            count,
            modulus: &arrays[0],
            n0inv: &arrays[1],
            r2: &arrays[2],
            base: &arrays[3],
            exp: &arrays[4],
            exp_words: 3,
            exp_bits: 96,
        }
    }

    #[test]
    fn sections_are_aligned_disjoint_and_sized() {
        let layout = Layout {
            jobs: 5,
            digits: 16,
            exp_words: 3,
        };
        let s = layout.sections();
        assert_eq!(s.clone().map(|r| r.len()), [80, 5, 80, 80, 15]);
        for pair in s.windows(2) {
            assert!(pair[0].end <= pair[1].start);
        }
        assert!(s.iter().all(|r| r.start % ALIGN == 0));
        assert_eq!(layout.input_words(), s[4].end);
        assert_eq!(layout.output_words(), 80);
    }

    #[test]
    fn pack_places_each_job_where_the_kernel_reads_it() {
        let arrays = numbered(9);
        let b = batch(&arrays, 9);
        let jobs = 3..7;
        let layout = Layout {
            jobs: jobs.len(),
            digits: 16,
            exp_words: 3,
        };
        let mut dst = vec![u32::MAX; layout.input_words()];
        pack(&b, jobs.clone(), &mut dst);
        for (a, (section, width)) in layout.sections().into_iter().zip([16, 1, 16, 16, 3]).enumerate() {
            for (k, word) in dst[section].iter().enumerate() {
                let (job, w) = (jobs.start + k / width, k % width);
                assert_eq!(*word, (a as u32 + 1) << 24 | (job as u32) << 8 | w as u32);
            }
        }
    }

    #[test]
    fn well_formed_batches_pass() {
        let arrays = numbered(4);
        assert_eq!(check(&batch(&arrays, 4)), Ok(()));
        let empty = numbered(0);
        assert_eq!(check(&batch(&empty, 0)), Ok(()));
    }

    #[test]
    fn malformed_batches_are_refused_naming_the_fault() {
        let arrays = numbered(4);
        let cases: [(&str, DeviceBatch<'_>); 5] = [
            (
                "17 digits",
                DeviceBatch {
                    digits: 17,
                    ..batch(&arrays, 4)
                },
            ),
            ("modulus holds 64 words for 5 jobs", batch(&arrays, 5)),
            (
                "exp holds 12 words",
                DeviceBatch {
                    exp_words: 4,
                    exp_bits: 100,
                    ..batch(&arrays, 4)
                },
            ),
            (
                "exp_bits 97",
                DeviceBatch {
                    exp_bits: 97,
                    ..batch(&arrays, 4)
                },
            ),
            (
                "n0inv holds 3",
                DeviceBatch {
                    n0inv: &arrays[1][..3],
                    ..batch(&arrays, 4)
                },
            ),
        ];
        for (why, b) in cases {
            let err = check(&b).unwrap_err().0;
            assert!(err.contains(why), "{why}: {err}");
        }
    }
}
