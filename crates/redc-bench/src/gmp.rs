//! GMP's `mpz_powm` and `mpz_powm_sec`, loaded at run time (`libgmp.so.10`,
//! then `libgmp.so`) so that building redc never needs GMP.
//!
//! The binding covers the few functions the bench calls, with their
//! prototypes from `gmp.h` (GMP 6): `mpz_t` is `{int alloc; int size;
//! mp_limb_t *d}`, and the library must have 64-bit limbs
//! (`__gmp_bits_per_limb`). The RSA private operation is what a GMP-based RSA
//! does: two `mpz_powm_sec` halves modulo `p` and `q`, then Garner's
//! recombination (RFC 8017 §5.1.2 step 2b), without blinding.
//!
//! The bench's key is generated for the run and thrown away; still, every
//! `mpz_t` is wiped before it is freed. GMP's own scratch space inside
//! `mpz_powm_sec` is not under redc's control.

#![allow(unsafe_code)]

use super::Num;
use anyhow::{Context, anyhow, bail};
use libloading::Library;
use redc_rsa::RsaPrivateKey;
use std::ffi::{CStr, c_char, c_int, c_void};
use zeroize::Zeroize;

/// `__mpz_struct` of `gmp.h`.
#[repr(C)]
struct MpzRaw {
    alloc: c_int,
    size: c_int,
    d: *mut u64,
}

type Init = unsafe extern "C" fn(*mut MpzRaw);
type Binary = unsafe extern "C" fn(*mut MpzRaw, *const MpzRaw, *const MpzRaw);
type Powm = unsafe extern "C" fn(*mut MpzRaw, *const MpzRaw, *const MpzRaw, *const MpzRaw);
type Import = unsafe extern "C" fn(*mut MpzRaw, usize, c_int, usize, c_int, usize, *const c_void);
type Export = unsafe extern "C" fn(*mut c_void, *mut usize, c_int, usize, c_int, usize, *const MpzRaw) -> *mut c_void;

/// The loaded library and its functions.
pub(super) struct Gmp {
    init: Init,
    clear: Init,
    import: Import,
    export: Export,
    powm: Powm,
    powm_sec: Powm,
    mul: Binary,
    sub: Binary,
    add: Binary,
    modulo: Binary,
    version: String,
    /// Keeps the functions above mapped.
    _lib: Library,
}

/// The library names tried, in order.
const NAMES: [&str; 2] = ["libgmp.so.10", "libgmp.so"];

/// The value of symbol `name` (NUL-terminated) as a `T`.
///
/// # Safety
/// `T` must be the symbol's true type (a function pointer with its C
/// prototype, or a pointer to a variable of its C type).
pub(super) unsafe fn symbol<T: Copy>(lib: &Library, name: &[u8]) -> anyhow::Result<T> {
    // SAFETY: the caller guarantees that `T` is the symbol's type.
    let sym = unsafe { lib.get::<T>(name) };
    sym.map(|s| *s)
        .with_context(|| String::from_utf8_lossy(name).trim_end_matches('\0').to_owned())
}

impl Gmp {
    /// Load GMP, or say why it cannot be used.
    pub(super) fn load() -> anyhow::Result<Gmp> {
        let lib = NAMES
            .iter()
            // SAFETY: loading libgmp runs no initialisers beyond the C
            // runtime's; GMP keeps no global state the bench could disturb.
            .find_map(|name| unsafe { Library::new(name) }.ok())
            .ok_or_else(|| anyhow!("cannot load {}", NAMES.join(" or ")))?;
        // SAFETY: each type below is the symbol's declaration in gmp.h
        // (GMP 6): `const int __gmp_bits_per_limb`, `const char *const
        // __gmp_version`, and the functions with their prototypes, where
        // `mp_limb_t` is `u64` (checked before any function is used).
        unsafe {
            let bits = *symbol::<*const c_int>(&lib, b"__gmp_bits_per_limb\0")?;
            if bits != 64 {
                bail!("GMP has {bits}-bit limbs; the bench needs 64");
            }
            let version = CStr::from_ptr(*symbol::<*const *const c_char>(&lib, b"__gmp_version\0")?)
                .to_string_lossy()
                .into_owned();
            Ok(Gmp {
                init: symbol(&lib, b"__gmpz_init\0")?,
                clear: symbol(&lib, b"__gmpz_clear\0")?,
                import: symbol(&lib, b"__gmpz_import\0")?,
                export: symbol(&lib, b"__gmpz_export\0")?,
                powm: symbol(&lib, b"__gmpz_powm\0")?,
                powm_sec: symbol(&lib, b"__gmpz_powm_sec\0")?,
                mul: symbol(&lib, b"__gmpz_mul\0")?,
                sub: symbol(&lib, b"__gmpz_sub\0")?,
                add: symbol(&lib, b"__gmpz_add\0")?,
                modulo: symbol(&lib, b"__gmpz_mod\0")?,
                version,
                _lib: lib,
            })
        }
    }

    /// GMP's version, e.g. `6.3.0`.
    pub(super) fn version(&self) -> &str {
        &self.version
    }

    /// The answer to `op` on its first input, to check against redc.
    pub(super) fn first(&self, op: &GmpOp<'_>) -> anyhow::Result<Num> {
        let mut w = Worker::new(self, op)?;
        w.step(0);
        Ok(w.out.to_nat())
    }

    /// Operations per second of `op` on `threads` threads, each running for
    /// `seconds` through the inputs in turn (the sum of the threads' rates).
    pub(super) fn rate(&self, op: &GmpOp<'_>, threads: usize, seconds: f64) -> anyhow::Result<f64> {
        let one = || -> anyhow::Result<f64> {
            let mut w = Worker::new(self, op)?;
            let mut i = 0;
            super::rate(seconds, 1, || {
                w.step(i);
                i += 1;
                Ok(())
            })
        };
        super::on_threads(threads, "GMP", one)
    }

    /// `r = b^e mod m` (`mpz_powm`); `m != 0`, `e >= 0`.
    fn powm(&self, r: &mut Mpz<'_>, b: &Mpz<'_>, e: &Mpz<'_>, m: &Mpz<'_>) {
        // SAFETY: all four are initialised; the callers pass m != 0 and
        // e >= 0 (checked when the worker was built).
        unsafe { (self.powm)(&mut r.raw, &b.raw, &e.raw, &m.raw) }
    }

    /// `r = b^e mod m` in constant time (`mpz_powm_sec`); `m` odd, `e > 0`.
    fn powm_sec(&self, r: &mut Mpz<'_>, b: &Mpz<'_>, e: &Mpz<'_>, m: &Mpz<'_>) {
        // SAFETY: all four are initialised; the callers pass an odd m and
        // e > 0 (checked when the worker was built).
        unsafe { (self.powm_sec)(&mut r.raw, &b.raw, &e.raw, &m.raw) }
    }

    /// `r = f(a, b)` for one of `mpz_mul`, `mpz_sub`, `mpz_add`, `mpz_mod`
    /// (the last with `b != 0`, as the callers ensure).
    fn binary(&self, f: Binary, r: &mut Mpz<'_>, a: &Mpz<'_>, b: &Mpz<'_>) {
        // SAFETY: all three are initialised and distinct; `f` is one of
        // this library's binary functions.
        unsafe { f(&mut r.raw, &a.raw, &b.raw) }
    }
}

/// An `mpz_t`, wiped and cleared on drop.
struct Mpz<'g> {
    gmp: &'g Gmp,
    raw: MpzRaw,
}

impl<'g> Mpz<'g> {
    /// Zero.
    fn new(gmp: &'g Gmp) -> Self {
        let mut raw = MpzRaw {
            alloc: 0,
            size: 0,
            d: std::ptr::null_mut(),
        };
        // SAFETY: mpz_init initialises the struct it is given.
        unsafe { (gmp.init)(&mut raw) };
        Mpz { gmp, raw }
    }

    /// `x` as an `mpz_t`.
    fn from_nat(gmp: &'g Gmp, x: &Num) -> Self {
        let mut z = Mpz::new(gmp);
        let digits = x.digits();
        // SAFETY: `digits` holds `digits.len()` 64-bit words, least
        // significant first (order -1), native endianness (0), no nails.
        unsafe {
            (gmp.import)(&mut z.raw, digits.len(), -1, 8, 0, 0, digits.as_ptr().cast());
        }
        z
    }

    /// The value (non-negative in every use here) as a [`Num`].
    fn to_nat(&self) -> Num {
        let mut words = vec![0u64; self.raw.size.unsigned_abs() as usize];
        let mut count = 0usize;
        // SAFETY: mpz_export writes |size| words at most (the value has
        // |size| limbs of 64 bits), into `words` of exactly that length.
        unsafe {
            (self.gmp.export)(words.as_mut_ptr().cast(), &mut count, -1, 8, 0, 0, &self.raw);
        }
        words.truncate(count);
        Num::from_digits(words)
    }
}

impl Drop for Mpz<'_> {
    fn drop(&mut self) {
        if self.raw.alloc > 0 && !self.raw.d.is_null() {
            // SAFETY: an initialised mpz_t with alloc > 0 owns `alloc`
            // limbs at `d`.
            unsafe { std::slice::from_raw_parts_mut(self.raw.d, self.raw.alloc as usize) }.zeroize();
        }
        // SAFETY: the struct was initialised by mpz_init and is cleared once.
        unsafe { (self.gmp.clear)(&mut self.raw) };
    }
}

/// A GMP operation to time.
pub(super) enum GmpOp<'a> {
    /// `mpz_powm(bases[i], exps[i mod exps.len()], n)`: raw modexp, or
    /// the public operation with one exponent.
    Powm {
        /// The modulus (not zero).
        n: &'a Num,
        /// The bases.
        bases: &'a [Num],
        /// The exponents (one, or one per base).
        exps: &'a [Num],
    },
    /// RSA-CRT private operation with `mpz_powm_sec` halves and Garner.
    Crt {
        /// The key (two primes).
        key: &'a RsaPrivateKey,
        /// The ciphertexts.
        inputs: &'a [Num],
    },
}

/// One thread's GMP values for a [`GmpOp`].
struct Worker<'g> {
    gmp: &'g Gmp,
    kind: WorkerKind<'g>,
    out: Mpz<'g>,
    t: Mpz<'g>,
}

enum WorkerKind<'g> {
    Powm {
        n: Mpz<'g>,
        bases: Vec<Mpz<'g>>,
        exps: Vec<Mpz<'g>>,
    },
    Crt {
        /// `p, q, dp, dq, qInv`.
        key: [Mpz<'g>; 5],
        inputs: Vec<Mpz<'g>>,
        /// `c mod p` or `c mod q`, `m1`, `m2`.
        scratch: [Mpz<'g>; 3],
    },
}

impl<'g> Worker<'g> {
    /// Import `op`'s values, checking what the GMP functions require.
    fn new(gmp: &'g Gmp, op: &GmpOp<'_>) -> anyhow::Result<Self> {
        let all = |xs: &[Num]| xs.iter().map(|x| Mpz::from_nat(gmp, x)).collect::<Vec<_>>();
        let kind = match op {
            GmpOp::Powm { n, bases, exps } => {
                if n.is_zero() || bases.is_empty() || exps.is_empty() {
                    bail!("GMP powm: zero modulus or no inputs");
                }
                WorkerKind::Powm {
                    n: Mpz::from_nat(gmp, n),
                    bases: all(bases),
                    exps: all(exps),
                }
            }
            GmpOp::Crt { key, inputs } => {
                let [p, q, dp, dq, qinv] = super::crt_parts(key).context("GMP RSA-CRT")?;
                if !p.is_odd() || !q.is_odd() || dp.is_zero() || dq.is_zero() || inputs.is_empty() {
                    bail!("GMP RSA-CRT: even prime, zero CRT exponent or no inputs");
                }
                WorkerKind::Crt {
                    key: [&p, &q, &dp, &dq, &qinv].map(|x| Mpz::from_nat(gmp, x)),
                    inputs: all(inputs),
                    scratch: [Mpz::new(gmp), Mpz::new(gmp), Mpz::new(gmp)],
                }
            }
        };
        Ok(Worker {
            gmp,
            kind,
            out: Mpz::new(gmp),
            t: Mpz::new(gmp),
        })
    }

    /// The operation on input `i` (cyclically), into `out`.
    fn step(&mut self, i: usize) {
        let g = self.gmp;
        match &mut self.kind {
            WorkerKind::Powm { n, bases, exps } => {
                g.powm(&mut self.out, &bases[i % bases.len()], &exps[i % exps.len()], n);
            }
            WorkerKind::Crt { key, inputs, scratch } => {
                let [p, q, dp, dq, qinv] = &*key;
                let [cr, m1, m2] = scratch;
                let c = &inputs[i % inputs.len()];
                // m1 = (c mod p)^dp mod p, m2 = (c mod q)^dq mod q.
                g.binary(g.modulo, cr, c, p);
                g.powm_sec(m1, cr, dp, p);
                g.binary(g.modulo, cr, c, q);
                g.powm_sec(m2, cr, dq, q);
                // h = qInv·(m1 - m2) mod p; m = m2 + h·q.
                g.binary(g.sub, cr, m1, m2);
                g.binary(g.mul, &mut self.t, cr, qinv);
                g.binary(g.modulo, m1, &self.t, p);
                g.binary(g.mul, &mut self.t, m1, q);
                g.binary(g.add, &mut self.out, &self.t, m2);
            }
        }
    }
}
