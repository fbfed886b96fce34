//! The kernels compiled by NVRTC, the CUDA runtime compiler, loaded at run
//! time: one module per `(threads, digits)` pair, machine code (CUBIN) for
//! the GPU's own architecture when this NVRTC knows it, else PTX for the
//! newest architecture it knows, which the driver compiles on loading.
//! Modules are compiled in parallel, one thread each, and kept in the disk
//! cache of [`crate::cache`] when one is given.

use crate::cache::{self, Cache};
use crate::{CudaError, source};
use cudarc::nvrtc::{result, sys};
use std::ffi::CString;

/// The library names cudarc tries for `lib` (`cuda`, `nvrtc`), each once.
pub(crate) fn candidates(lib: &str) -> String {
    let mut names = cudarc::get_lib_name_candidates(lib);
    let mut seen = std::collections::HashSet::new();
    names.retain(|name| seen.insert(name.clone()));
    names.join(", ")
}

/// Whether the NVRTC library loads, else [`CudaError::NoNvrtc`].
pub(crate) fn library() -> Result<(), CudaError> {
    #[allow(unsafe_code)]
    // SAFETY: loads (and unloads) the library by name, running its
    // initialisers, which is what cudarc's own first call does.
    let present = unsafe { sys::is_culib_present() };
    if present {
        Ok(())
    } else {
        Err(CudaError::NoNvrtc(candidates("nvrtc")))
    }
}

/// An NVRTC call's failure as a [`CudaError::Compile`] naming the call.
fn failed(call: &str) -> impl FnOnce(result::NvrtcError) -> CudaError + '_ {
    move |e| CudaError::Compile(format!("{call}: {e:?}"))
}

/// NVRTC's version, `(major, minor)`. NVRTC must be present ([`library`]).
pub(crate) fn version() -> Result<(i32, i32), CudaError> {
    let (mut major, mut minor) = (0, 0);
    #[allow(unsafe_code)]
    // SAFETY: both pointers are to live integers the call fills in.
    unsafe { sys::nvrtcVersion(&mut major, &mut minor) }
        .result()
        .map_err(failed("nvrtcVersion"))?;
    Ok((major, minor))
}

/// The architectures this NVRTC compiles for, as `major * 10 + minor`.
pub(crate) fn supported_archs() -> Result<Vec<u32>, CudaError> {
    let mut count = 0;
    #[allow(unsafe_code)]
    // SAFETY: `count` is a live integer the call fills in.
    unsafe { sys::nvrtcGetNumSupportedArchs(&mut count) }
        .result()
        .map_err(failed("nvrtcGetNumSupportedArchs"))?;
    let mut archs = vec![0; usize::try_from(count).unwrap_or(0)];
    #[allow(unsafe_code)]
    // SAFETY: `archs` holds the `count` integers the call writes.
    unsafe { sys::nvrtcGetSupportedArchs(archs.as_mut_ptr()) }
        .result()
        .map_err(failed("nvrtcGetSupportedArchs"))?;
    Ok(archs.into_iter().filter_map(|a| u32::try_from(a).ok()).collect())
}

/// What to compile for a GPU of compute capability `major.minor`: the
/// NVRTC `--gpu-architecture` value, `sm_XY` (machine code) when NVRTC
/// knows the GPU's architecture, else `compute_XY` (PTX) of the newest
/// one it knows below it.
pub(crate) fn target(major: u32, minor: u32) -> Result<String, CudaError> {
    let arch = 10 * major + minor;
    let archs = supported_archs()?;
    if archs.contains(&arch) {
        return Ok(format!("sm_{arch}"));
    }
    match archs.iter().copied().filter(|&a| a < arch).max() {
        Some(older) => Ok(format!("compute_{older}")),
        None => {
            let (v_major, v_minor) = version()?;
            Err(CudaError::Compile(format!(
                "NVRTC {v_major}.{v_minor} cannot compile for sm_{arch} (it knows {archs:?}): install the NVRTC of a CUDA toolkit that supports this GPU"
            )))
        }
    }
}

/// A compiled module: what `cuModuleLoadData` takes (PTX ends in a NUL),
/// and whether it came from the cache (so that a module the driver
/// refuses can be compiled again).
#[derive(Debug)]
pub(crate) struct Module {
    pub(crate) bytes: Vec<u8>,
    pub(crate) cached: bool,
}

/// The source and options of `(threads, digits)` for `arch`.
fn inputs((threads, digits): (usize, usize), arch: &str) -> Result<(String, Vec<String>), CudaError> {
    let src = source::kernel_source(&[(threads, digits)]).map_err(CudaError::Compile)?;
    // Functions and variables without `__device__` are device code too:
    // the headers are shared with the host build.
    let options = vec![format!("--gpu-architecture={arch}"), "-default-device".to_owned()];
    Ok((src, options))
}

/// The module of `pair` for `arch` (a [`target`] value): the cached one
/// when `cache` holds it, else NVRTC's output, then stored.
pub(crate) fn module(pair: (usize, usize), arch: &str, cache: Option<&Cache>) -> Result<Module, CudaError> {
    let (src, options) = inputs(pair, arch)?;
    let key = match cache {
        Some(_) => Some(cache::key(&src, &options, version()?)),
        None => None,
    };
    if let (Some(cache), Some(key)) = (cache, &key)
        && let Some(bytes) = cache.get(key)
    {
        return Ok(Module { bytes, cached: true });
    }
    let bytes = compile(&src, &options, arch.starts_with("sm_"))?;
    if let (Some(cache), Some(key)) = (cache, &key) {
        cache.put(key, &bytes);
    }
    Ok(Module { bytes, cached: false })
}

/// Store `bytes` in `cache` as the module of `pair` for `arch` (replacing
/// an entry the driver refused).
pub(crate) fn store(cache: &Cache, pair: (usize, usize), arch: &str, bytes: &[u8]) -> Result<(), CudaError> {
    let (src, options) = inputs(pair, arch)?;
    cache.put(&cache::key(&src, &options, version()?), bytes);
    Ok(())
}

/// The modules of every pair of `pairs`, in their order, compiled in
/// parallel: as many threads as the machine has cores, each taking the
/// next pair (NVRTC needs hundreds of megabytes for the largest).
pub(crate) fn modules(pairs: &[(usize, usize)], arch: &str, cache: Option<&Cache>) -> Result<Vec<Module>, CudaError> {
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::{Mutex, PoisonError};
    let threads = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(pairs.len());
    let next = AtomicUsize::new(0);
    let done: Mutex<Vec<Option<Result<Module, CudaError>>>> = Mutex::new((0..pairs.len()).map(|_| None).collect());
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(&pair) = pairs.get(i) else { break };
                    let out = module(pair, arch, cache);
                    done.lock().unwrap_or_else(PoisonError::into_inner)[i] = Some(out);
                }
            });
        }
    });
    done.into_inner()
        .unwrap_or_else(PoisonError::into_inner)
        .into_iter()
        .map(|m| m.unwrap_or_else(|| Err(CudaError::Compile("a compiling thread panicked".to_owned()))))
        .collect()
}

/// NVRTC's output for `src`: machine code when `cubin`, else PTX with its
/// NUL.
fn compile(src: &str, options: &[String], cubin: bool) -> Result<Vec<u8>, CudaError> {
    let src = CString::new(src).map_err(|_| CudaError::Compile("a NUL in the kernel source".to_owned()))?;
    let name = c"redc.cu";
    let prog = result::create_program(&src, Some(name)).map_err(failed("nvrtcCreateProgram"))?;
    let out = compiled(prog, options, cubin);
    #[allow(unsafe_code)]
    // SAFETY: `prog` was created above and is destroyed once, here.
    let _ = unsafe { result::destroy_program(prog) };
    out
}

/// [`compile`] on a created program (which the caller destroys).
fn compiled(prog: sys::nvrtcProgram, options: &[String], cubin: bool) -> Result<Vec<u8>, CudaError> {
    #[allow(unsafe_code)]
    // SAFETY: `prog` is a live program; the options are copied as C strings.
    if let Err(e) = unsafe { result::compile_program(prog, options) } {
        #[allow(unsafe_code)]
        // SAFETY: as above.
        let log = unsafe { result::get_program_log(prog) }.unwrap_or_default();
        let log: Vec<u8> = log.iter().map(|&c| c as u8).take_while(|&b| b != 0).collect();
        return Err(CudaError::Compile(format!("{e:?}: {}", String::from_utf8_lossy(&log))));
    }
    if !cubin {
        #[allow(unsafe_code)]
        // SAFETY: as above; the PTX of a compiled program ends in its NUL.
        let ptx = unsafe { result::get_ptx(prog) }.map_err(failed("nvrtcGetPTX"))?;
        return Ok(ptx.into_iter().map(|c| c as u8).collect());
    }
    let mut size = 0usize;
    #[allow(unsafe_code)]
    // SAFETY: `size` is a live integer the call fills in.
    unsafe { sys::nvrtcGetCUBINSize(prog, &mut size) }
        .result()
        .map_err(failed("nvrtcGetCUBINSize"))?;
    let mut bytes = vec![0u8; size];
    #[allow(unsafe_code)]
    // SAFETY: `bytes` holds the `size` bytes the call writes.
    unsafe { sys::nvrtcGetCUBIN(prog, bytes.as_mut_ptr().cast()) }
        .result()
        .map_err(failed("nvrtcGetCUBIN"))?;
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Secrecy, plan};

    /// A CUBIN's or PTX's mention of `name` (an entry it defines).
    fn defines(module: &[u8], name: &str) -> bool {
        module.windows(name.len()).any(|w| w == name.as_bytes())
    }

    /// Every kernel compiles, to machine code for sm_90 and for the
    /// oldest architecture this NVRTC knows from sm_70 on, where NVRTC is
    /// installed (no GPU needed; skipped elsewhere).
    #[test]
    fn every_kernel_compiles_where_nvrtc_is_installed() {
        if let Err(e) = library() {
            #[allow(clippy::print_stdout)]
            {
                println!("SKIPPED: {e}");
            }
            return;
        }
        let oldest = supported_archs()
            .unwrap()
            .into_iter()
            .filter(|&a| a >= 70)
            .min()
            .unwrap();
        let pairs: Vec<(usize, usize)> = plan::valid_pairs().collect();
        for arch in [format!("sm_{oldest}"), "sm_90".to_owned()] {
            let modules = modules(&pairs, &arch, None).unwrap_or_else(|e| panic!("{arch}: {e}"));
            for (&(threads, digits), module) in pairs.iter().zip(&modules) {
                for secrecy in [Secrecy::Secret, Secrecy::Public] {
                    let name = plan::entry_name(threads, digits, secrecy);
                    assert!(defines(&module.bytes, &name), "{name} missing for {arch}");
                }
            }
        }
    }

    /// An architecture NVRTC does not know is refused naming it, and
    /// NVRTC's own refusals are compile errors, not panics.
    #[test]
    fn refusals_are_compile_errors() {
        if library().is_err() {
            return;
        }
        let err = target(1, 0).unwrap_err();
        assert!(err.to_string().contains("sm_10"), "{err}");
        let err = module((1, 16), "sm_1", None).unwrap_err();
        assert!(matches!(err, CudaError::Compile(_)), "{err:?}");
    }
}
