//! The secret-taint check's hooks: Valgrind memcheck client requests that
//! mark secret memory undefined, so that memcheck reports every branch,
//! memory address or length computed from a secret as a use of an
//! uninitialised value (the method of Langley's ctgrind, BoringSSL's
//! constant-time validation and libsecp256k1's `valgrind_ctime_test`).
//!
//! With the feature `ctgrind` on x86-64, each hook is Valgrind's client
//! request sequence (`valgrind.h`'s preamble: four rotations of `rdi` by
//! 128 bits in all, then `xchg rbx, rbx`), a no-op on a real CPU that
//! Valgrind recognises; without it every hook compiles to nothing.
//! [`SecretNat`](super::SecretNat) calls [`classify`] when it is made and
//! [`declassify`] when it is revealed; [`super::declassify`] turns a
//! secret-derived [`subtle::Choice`] into a public decision, and
//! [`declassified`] any other value that becomes public on purpose (a
//! message's length, the bytes of a public number). Every place where a
//! secret becomes public calls one of these, so `grep declassif` lists
//! them. The harness is `redc-rsa`'s `tests/ctgrind.rs`.

/// Memcheck's `VG_USERREQ__MAKE_MEM_UNDEFINED` (`memcheck.h`:
/// `VG_USERREQ_TOOL_BASE('M','C') + 1`).
#[cfg(all(feature = "ctgrind", target_arch = "x86_64"))]
const MAKE_MEM_UNDEFINED: u64 = 0x4d43_0001;
/// Memcheck's `VG_USERREQ__MAKE_MEM_DEFINED`.
#[cfg(all(feature = "ctgrind", target_arch = "x86_64"))]
const MAKE_MEM_DEFINED: u64 = 0x4d43_0002;
/// Valgrind's `VG_USERREQ__RUNNING_ON_VALGRIND` (`valgrind.h`).
#[cfg(all(feature = "ctgrind", target_arch = "x86_64"))]
const RUNNING_ON_VALGRIND: u64 = 0x1001;
/// Valgrind's `VG_USERREQ__COUNT_ERRORS`.
#[cfg(all(feature = "ctgrind", target_arch = "x86_64"))]
const COUNT_ERRORS: u64 = 0x1201;

/// One client request with two arguments; `0` outside Valgrind.
#[cfg(all(feature = "ctgrind", target_arch = "x86_64"))]
#[allow(unsafe_code)]
fn request(code: u64, arg1: u64, arg2: u64) -> u64 {
    let args: [u64; 6] = [code, arg1, arg2, 0, 0, 0];
    let result: u64;
    // SAFETY: the rotations leave `rdi` as it was (3 + 13 + 61 + 51 = 128)
    // and `xchg rbx, rbx` changes nothing; on a real CPU the sequence only
    // clobbers the flags. Under Valgrind the request reads the six words at
    // `rax` (alive for the whole block) and writes its answer to `rdx`; it
    // changes shadow state only, never the program's memory.
    unsafe {
        core::arch::asm!(
            "rol rdi, 3",
            "rol rdi, 13",
            "rol rdi, 61",
            "rol rdi, 51",
            "xchg rbx, rbx",
            in("rax") args.as_ptr(),
            inout("rdx") 0u64 => result,
            out("rdi") _,
            options(nostack),
        );
    }
    result
}

/// One marking request (`code`) over the `len` bytes at `ptr`.
#[cfg(all(feature = "ctgrind", target_arch = "x86_64"))]
fn mark(code: u64, ptr: *const u8, len: usize) {
    request(code, ptr as u64, len as u64);
}

/// Mark the memory of `value` as secret: memcheck reports any branch or
/// address that depends on it. Taken as `&mut` so that the compiler reads
/// the value from memory afterwards rather than from an earlier register
/// copy (the request changes Valgrind's shadow state only). A no-op
/// without `ctgrind`.
#[inline]
pub fn classify<T: ?Sized>(value: &mut T) {
    #[cfg(all(feature = "ctgrind", target_arch = "x86_64"))]
    mark(
        MAKE_MEM_UNDEFINED,
        (value as *mut T).cast_const().cast(),
        size_of_val(value),
    );
    #[cfg(not(all(feature = "ctgrind", target_arch = "x86_64")))]
    let _ = value;
}

/// Mark the memory of `value` as public again (a result leaving the
/// private path); `&mut` as for [`classify`]. A no-op without `ctgrind`.
#[inline]
pub fn declassify<T: ?Sized>(value: &mut T) {
    #[cfg(all(feature = "ctgrind", target_arch = "x86_64"))]
    mark(
        MAKE_MEM_DEFINED,
        (value as *mut T).cast_const().cast(),
        size_of_val(value),
    );
    #[cfg(not(all(feature = "ctgrind", target_arch = "x86_64")))]
    let _ = value;
}

/// `value`, public: declassified in memory and read back from there by a
/// volatile read, so that no register copy made before the request (still
/// secret to Valgrind) is used. For a scalar that steers a branch or a
/// length.
#[inline]
pub fn declassified<T: Copy>(value: T) -> T {
    #[cfg(all(feature = "ctgrind", target_arch = "x86_64"))]
    {
        let mut value = value;
        declassify(&mut value);
        read_back(&value)
    }
    #[cfg(not(all(feature = "ctgrind", target_arch = "x86_64")))]
    value
}

/// A volatile read of `value`.
#[cfg(all(feature = "ctgrind", target_arch = "x86_64"))]
#[allow(unsafe_code)]
fn read_back<T: Copy>(value: &T) -> T {
    // SAFETY: `value` is a valid, aligned reference to an initialised `T`.
    unsafe { core::ptr::read_volatile(value) }
}

/// Is the program running under Valgrind (with `ctgrind`)? Always `false`
/// without the feature, so a harness can refuse to pass vacuously.
pub fn running_on_valgrind() -> bool {
    #[cfg(all(feature = "ctgrind", target_arch = "x86_64"))]
    return request(RUNNING_ON_VALGRIND, 0, 0) != 0;
    #[cfg(not(all(feature = "ctgrind", target_arch = "x86_64")))]
    false
}

/// The number of errors Valgrind has reported so far (0 outside it).
pub fn errors() -> u64 {
    #[cfg(all(feature = "ctgrind", target_arch = "x86_64"))]
    return request(COUNT_ERRORS, 0, 0);
    #[cfg(not(all(feature = "ctgrind", target_arch = "x86_64")))]
    0
}
