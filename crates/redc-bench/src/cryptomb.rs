//! Intel's crypto_mb (`mbx_rsa_private_crt_mb8`: eight RSA CRT private
//! operations at once on AVX-512 IFMA), loaded at run time as the
//! batch anchor that Envoy's CryptoMB provider and Intel's QAT provider
//! deploy. PyPI ships it: `pip install ipp-crypto ipp-crypto-include
//! intel-cmplr-lib-rt` puts `libcrypto_mb.so` and the Intel runtime it
//! needs into `<prefix>/lib`, the directory `redc bench --crypto-mb` takes
//! (without it, the loader's own search path is tried).
//!
//! The binding covers the calls the bench makes, with their prototypes
//! from `crypto_mb/rsa.h`, `cpu_features.h` and `version.h` (crypto_mb
//! 2.x, `libcrypto_mb.so.13`, ipp-crypto 2026): the inputs and outputs are big-endian byte
//! strings of the modulus's length, the key's numbers little-endian
//! 64-bit words of a prime's length, and the status 4 bits per lane, 0
//! when every lane succeeded. crypto_mb neither blinds nor checks its
//! results; redc does both, so the ratio is redc's whole operation over
//! crypto_mb's bare one.

#![allow(unsafe_code)]

use super::Num;
use super::gmp::symbol;
use anyhow::{Context, anyhow, bail};
use libloading::Library;
use redc_rsa::RsaPrivateKey;
use std::ffi::{CStr, c_char, c_int};
use std::path::Path;
use zeroize::Zeroizing;

/// Lanes of one call.
pub(super) const LANES: usize = 8;

/// `mbx_RSA_Method`, opaque.
#[repr(C)]
struct Method {
    _private: [u8; 0],
}

/// `mbxVersion` of `version.h`.
#[repr(C)]
struct Version {
    major: c_int,
    minor: c_int,
    patch: c_int,
    target_cpu: [c_char; 4],
    name: *const c_char,
    build_date: *const c_char,
    str_version: *const c_char,
}

type PrivateCrt = unsafe extern "C" fn(
    *const *const u8,
    *const *mut u8,
    *const *const u64,
    *const *const u64,
    *const *const u64,
    *const *const u64,
    *const *const u64,
    c_int,
    *const Method,
    *mut u8,
) -> u32;
type MethodOf = unsafe extern "C" fn(c_int) -> *const Method;
type BufSize = unsafe extern "C" fn(*const Method) -> c_int;
type Applicable = unsafe extern "C" fn(u64) -> c_int;
type GetVersion = unsafe extern "C" fn() -> *const Version;

/// The loaded library and its functions.
pub(super) struct CryptoMb {
    private_crt: PrivateCrt,
    method_of: MethodOf,
    buf_size: BufSize,
    version: String,
    /// Keeps the functions above mapped (the Intel runtime first).
    _libs: Vec<Library>,
}

/// The library's names, newest first.
const NAMES: [&str; 2] = ["libcrypto_mb.so.13", "libcrypto_mb.so"];

/// The Intel runtime `libcrypto_mb.so` needs (PyPI's `intel-cmplr-lib-rt`),
/// loaded from the same directory first so that the library's own
/// dependencies resolve to them by name.
const RUNTIME: [&str; 4] = ["libintlc.so.5", "libimf.so", "libsvml.so", "libirng.so"];

/// What to do where crypto_mb is not found.
pub(super) const HOW_TO_GET: &str = "pip install ipp-crypto ipp-crypto-include intel-cmplr-lib-rt, \
     then give redc bench --crypto-mb <prefix>/lib (the prefix: python3 -c 'import sys; print(sys.prefix)')";

/// A library by name or path, or the loader's reason.
fn open(name: &Path) -> Result<Library, libloading::Error> {
    // SAFETY: the Intel runtime's and crypto_mb's initialisers set up their
    // CPU dispatch only; neither keeps state the bench could disturb.
    unsafe { Library::new(name) }
}

impl CryptoMb {
    /// Load crypto_mb from `dir` (with its runtime), or from the loader's
    /// search path; refused where its IFMA code cannot run.
    pub(super) fn load(dir: Option<&Path>) -> anyhow::Result<CryptoMb> {
        let mut libs: Vec<Library> = match dir {
            Some(d) => RUNTIME.iter().filter_map(|n| open(&d.join(n)).ok()).collect(),
            None => Vec::new(),
        };
        // The first name that loads; else the loader's reason for the last.
        let mut why = String::new();
        let lib = NAMES
            .iter()
            .find_map(|n| {
                open(&dir.map_or_else(|| Path::new(n).to_path_buf(), |d| d.join(n)))
                    .map_err(|e| why = e.to_string())
                    .ok()
            })
            .ok_or_else(|| match dir {
                Some(d) => anyhow!("cannot load {} from {}: {why}", NAMES.join(" or "), d.display()),
                None => anyhow!("not found ({why}; {HOW_TO_GET})"),
            })?;
        // SAFETY: each type is the function's prototype in crypto_mb's
        // headers (rsa.h, cpu_features.h, version.h).
        let (private_crt, method_of, buf_size, applicable, get_version) = unsafe {
            (
                symbol::<PrivateCrt>(&lib, b"mbx_rsa_private_crt_mb8\0")?,
                symbol::<MethodOf>(&lib, b"mbx_RSA_private_crt_Method\0")?,
                symbol::<BufSize>(&lib, b"mbx_RSA_Method_BufSize\0")?,
                symbol::<Applicable>(&lib, b"mbx_is_crypto_mb_applicable\0")?,
                symbol::<GetVersion>(&lib, b"mbx_getversion\0")?,
            )
        };
        // SAFETY: both take and return plain values; 0 asks about this CPU.
        if unsafe { applicable(0) } == 0 {
            bail!("this CPU cannot run its AVX-512 IFMA code");
        }
        // SAFETY: `mbx_getversion` returns a static structure whose
        // strings are NUL-terminated and live as long as the library.
        let version = unsafe {
            let v = get_version();
            match v.is_null() || (*v).str_version.is_null() {
                true => "crypto_mb".to_owned(),
                false => CStr::from_ptr((*v).str_version).to_string_lossy().into_owned(),
            }
        };
        libs.push(lib);
        Ok(CryptoMb {
            private_crt,
            method_of,
            buf_size,
            version,
            _libs: libs,
        })
    }

    /// The library's version string.
    pub(super) fn version(&self) -> &str {
        &self.version
    }

    /// Whether crypto_mb has a CRT private method for `bits`-bit keys.
    pub(super) fn supports(&self, bits: usize) -> bool {
        // SAFETY: a plain value in, a pointer (NULL for no method) out.
        c_int::try_from(bits).is_ok_and(|b| !unsafe { (self.method_of)(b) }.is_null())
    }

    /// A worker for `key`'s private operation on `inputs` (eight at a call).
    pub(super) fn worker<'a>(&'a self, key: &RsaPrivateKey, inputs: &'a [Num]) -> anyhow::Result<Worker<'a>> {
        Worker::new(self, key, inputs)
    }

    /// Private operations per second on `threads` threads, each running
    /// `seconds` through the inputs eight at a time (the threads' sum).
    pub(super) fn rate(
        &self,
        key: &RsaPrivateKey,
        inputs: &[Num],
        threads: usize,
        seconds: f64,
    ) -> anyhow::Result<f64> {
        let one = || -> anyhow::Result<f64> {
            let mut w = self.worker(key, inputs)?;
            let mut i = 0;
            super::rate(seconds, LANES, || {
                w.call(i)?;
                i += LANES;
                Ok(())
            })
        };
        super::on_threads(threads, "crypto_mb", one)
    }
}

/// One thread's state: the key as crypto_mb's words, the method, its
/// scratch buffer and the outputs.
pub(super) struct Worker<'a> {
    lib: &'a CryptoMb,
    method: *const Method,
    bits: c_int,
    /// p, q, dp, dq, q^-1 mod p, each as little-endian words.
    key: [Zeroizing<Vec<u64>>; 5],
    /// The inputs as big-endian bytes of the modulus's length.
    inputs: Vec<Vec<u8>>,
    out: [Vec<u8>; LANES],
    /// The method's scratch, 64 bytes more to align it.
    buffer: Vec<u8>,
}

impl<'a> Worker<'a> {
    fn new(lib: &'a CryptoMb, key: &RsaPrivateKey, inputs: &'a [Num]) -> anyhow::Result<Worker<'a>> {
        let n_bits = key.public_key().bits();
        let bits = c_int::try_from(n_bits)?;
        // SAFETY: a plain value in, a pointer (NULL for no method) out.
        let method = unsafe { (lib.method_of)(bits) };
        if method.is_null() {
            bail!("crypto_mb has no RSA CRT method for {n_bits}-bit keys");
        }
        if inputs.is_empty() {
            bail!("no inputs");
        }
        let [p, q, dp, dq, qinv] = super::crt_parts(key).context("crypto_mb")?;
        let words = (n_bits / 2).div_ceil(64);
        let limbs = |x: &Num| -> anyhow::Result<Zeroizing<Vec<u64>>> {
            let bytes = Zeroizing::new(
                x.to_be_bytes_padded(words * 8)
                    .context("a key number is longer than half the modulus")?,
            );
            // Least significant word first.
            Ok(Zeroizing::new(
                bytes
                    .rchunks_exact(8)
                    .map(|w| u64::from_be_bytes(<[u8; 8]>::try_from(w).unwrap_or_default()))
                    .collect(),
            ))
        };
        let len = n_bits.div_ceil(8);
        let inputs = inputs
            .iter()
            .map(|c| c.to_be_bytes_padded(len).context("an input is longer than the modulus"))
            .collect::<anyhow::Result<Vec<_>>>()?;
        // SAFETY: `method` is crypto_mb's own, not NULL.
        let size = usize::try_from(unsafe { (lib.buf_size)(method) })?;
        Ok(Worker {
            lib,
            method,
            bits,
            key: [limbs(&p)?, limbs(&q)?, limbs(&dp)?, limbs(&dq)?, limbs(&qinv)?],
            inputs,
            out: std::array::from_fn(|_| vec![0u8; len]),
            buffer: vec![0u8; size + 64],
        })
    }

    /// The private operation on inputs `first, first + 1, ...` (eight,
    /// wrapping round the inputs) into [`Worker::results`].
    pub(super) fn call(&mut self, first: usize) -> anyhow::Result<()> {
        let from: [*const u8; LANES] = std::array::from_fn(|l| self.inputs[(first + l) % self.inputs.len()].as_ptr());
        let to: [*mut u8; LANES] = std::array::from_fn(|l| self.out[l].as_mut_ptr());
        let lane = |i: usize| -> [*const u64; LANES] { [self.key[i].as_ptr(); LANES] };
        let (p, q, dp, dq, qinv) = (lane(0), lane(1), lane(2), lane(3), lane(4));
        // 64-byte aligned, within the 64 spare bytes.
        let offset = (64 - self.buffer.as_ptr() as usize % 64) % 64;
        let scratch = self.buffer[offset..].as_mut_ptr();
        // SAFETY: every pointer is to a live buffer of the length crypto_mb
        // reads or writes for `bits` (inputs and outputs of the modulus's
        // bytes, key numbers of a prime's words, the method's scratch
        // size after alignment), eight of each, as rsa.h declares. Threads
        // call it at once, each with its own worker: the method is a static
        // read-only table, and the outputs and scratch are this worker's.
        let status = unsafe {
            (self.lib.private_crt)(
                from.as_ptr(),
                to.as_ptr(),
                p.as_ptr(),
                q.as_ptr(),
                dp.as_ptr(),
                dq.as_ptr(),
                qinv.as_ptr(),
                self.bits,
                self.method,
                scratch,
            )
        };
        if status != 0 {
            bail!("crypto_mb: status {status:#010x} (4 bits per lane, 0 for success)");
        }
        Ok(())
    }

    /// The eight results of the last [`Worker::call`].
    pub(super) fn results(&self) -> Vec<Num> {
        self.out.iter().map(|o| Num::from_be_bytes(o)).collect()
    }
}
