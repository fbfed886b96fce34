//! Reading and writing OpenSSL's parameter lists (`OSSL_PARAM` arrays,
//! ended by a null key): big numbers as native-endian unsigned integers,
//! integers of 4 or 8 bytes, UTF-8 strings, as `OSSL_PARAM_get_BN`,
//! `_get_int`, `_get_utf8_string` and their setters read and write them.
#![allow(unsafe_code)]

use crate::ffi::{INTEGER, OCTET_PTR, OCTET_STRING, Param, UNMODIFIED, UNSIGNED_INTEGER, UTF8_PTR, UTF8_STRING};
use core::ffi::{CStr, c_char, c_void};
use redc::Num;
use zeroize::Zeroizing;

/// Pointers to the entries of the list at `list` (none for a null
/// pointer).
///
/// # Safety
///
/// `list` is null or an `OSSL_PARAM` array ended by a null key, valid
/// while the iterator is used.
unsafe fn walk(list: *mut Param) -> impl Iterator<Item = *mut Param> {
    let mut at = list;
    core::iter::from_fn(move || {
        // SAFETY: the caller's contract: every entry up to the null key is
        // valid, and the walk stops there.
        unsafe {
            if at.is_null() || (*at).key.is_null() {
                return None;
            }
            let here = at;
            at = at.add(1);
            Some(here)
        }
    })
}

/// The entries of the list at `list` (none for a null pointer).
///
/// # Safety
///
/// `list` is null or an `OSSL_PARAM` array ended by a null key, valid and
/// not written for `'a`.
pub(crate) unsafe fn entries<'a>(list: *const Param) -> impl Iterator<Item = &'a Param> {
    // SAFETY: the caller's contract; the entries are only read.
    unsafe { walk(list.cast_mut()).map(|p| &*p) }
}

/// The entry named `key` in `list`, if any.
///
/// # Safety
///
/// As [`entries`].
pub(crate) unsafe fn find<'a>(list: *const Param, key: &CStr) -> Option<&'a Param> {
    // SAFETY: the caller's contract; each key is a C string.
    unsafe { entries(list).find(|p| CStr::from_ptr(p.key) == key) }
}

/// The entry named `key` in `list`, to write (a `get_params` answer).
///
/// # Safety
///
/// `list` is null or an `OSSL_PARAM` array ended by a null key, valid and
/// not otherwise referenced for `'a`.
pub(crate) unsafe fn find_mut<'a>(list: *mut Param, key: &CStr) -> Option<&'a mut Param> {
    // SAFETY: the caller's contract: the array is ours to write for 'a,
    // and each key is a C string.
    unsafe { walk(list).find(|&p| CStr::from_ptr((*p).key) == key).map(|p| &mut *p) }
}

/// The bytes a parameter points at.
///
/// # Safety
///
/// `p.data` points at `p.data_size` readable bytes (OpenSSL's contract).
unsafe fn bytes(p: &Param) -> &[u8] {
    if p.data.is_null() || p.data_size == 0 {
        return &[];
    }
    // SAFETY: the caller's contract.
    unsafe { core::slice::from_raw_parts(p.data.cast::<u8>(), p.data_size) }
}

/// A big number parameter (`OSSL_PARAM_UNSIGNED_INTEGER`, native-endian).
///
/// # Safety
///
/// As [`bytes`].
pub(crate) unsafe fn get_num(p: &Param) -> Result<Num, String> {
    if p.data_type != UNSIGNED_INTEGER {
        return Err(format!("parameter {} is not an unsigned integer", name(p)));
    }
    // SAFETY: the caller's contract.
    let raw = unsafe { bytes(p) };
    let mut be = Zeroizing::new(raw.to_vec());
    if cfg!(target_endian = "little") {
        be.reverse();
    }
    Ok(Num::from_be_bytes(&be))
}

/// An integer parameter of 1 to 8 bytes, signed or not (native-endian;
/// OpenSSL's text conversion makes an unsigned one as short as its
/// value).
///
/// # Safety
///
/// As [`bytes`].
pub(crate) unsafe fn get_int(p: &Param) -> Result<i64, String> {
    // SAFETY: the caller's contract.
    let raw = unsafe { bytes(p) };
    if raw.is_empty() || raw.len() > 8 || !matches!(p.data_type, INTEGER | UNSIGNED_INTEGER) {
        return Err(format!("parameter {} is not an integer", name(p)));
    }
    // Little-endian digits, extended with the sign (signed) or zeros.
    let mut le: Vec<u8> = raw.to_vec();
    if cfg!(target_endian = "big") {
        le.reverse();
    }
    let negative = p.data_type == INTEGER && le[le.len() - 1] & 0x80 != 0;
    le.resize(8, if negative { 0xff } else { 0 });
    let value = u64::from_le_bytes(le.try_into().unwrap_or_default());
    if p.data_type == INTEGER {
        return Ok(value as i64);
    }
    i64::try_from(value).map_err(|_| format!("parameter {} is out of range", name(p)))
}

/// An integer parameter, or a string of a decimal integer (the text of a
/// `-pkeyopt` that OpenSSL passes on as it came).
///
/// # Safety
///
/// As [`bytes`].
pub(crate) unsafe fn get_int_or_text(p: &Param) -> Result<i64, String> {
    // SAFETY: the caller's contract.
    unsafe { get_int(p) }.or_else(|_| {
        // SAFETY: as above.
        let text = unsafe { get_utf8(p) }?;
        text.trim()
            .parse()
            .map_err(|_| format!("parameter {} = {text} is not an integer", name(p)))
    })
}

/// A UTF-8 string parameter (its bytes up to `data_size` or a NUL).
///
/// # Safety
///
/// As [`bytes`].
pub(crate) unsafe fn get_utf8(p: &Param) -> Result<&str, String> {
    if p.data_type != UTF8_STRING {
        return Err(format!("parameter {} is not a string", name(p)));
    }
    // SAFETY: the caller's contract.
    let raw = unsafe { bytes(p) };
    let end = raw.iter().position(|&b| b == 0).unwrap_or(raw.len());
    core::str::from_utf8(&raw[..end]).map_err(|_| format!("parameter {} is not UTF-8", name(p)))
}

/// An octet-string parameter's bytes.
///
/// # Safety
///
/// As [`bytes`].
pub(crate) unsafe fn get_octets(p: &Param) -> Result<&[u8], String> {
    if p.data_type != OCTET_STRING {
        return Err(format!("parameter {} is not an octet string", name(p)));
    }
    // SAFETY: the caller's contract.
    Ok(unsafe { bytes(p) })
}

/// Writes an integer into a caller's parameter of 4 or 8 bytes; false when
/// it has another type or size, or the value does not fit.
pub(crate) fn set_int(p: &mut Param, value: i64) -> bool {
    let fits = match (p.data_type, p.data_size) {
        (INTEGER, 4) => i32::try_from(value).map(i32::to_ne_bytes).map(|b| b.to_vec()).ok(),
        (INTEGER, 8) => Some(value.to_ne_bytes().to_vec()),
        (UNSIGNED_INTEGER, 4) => u32::try_from(value).map(u32::to_ne_bytes).map(|b| b.to_vec()).ok(),
        (UNSIGNED_INTEGER, 8) => u64::try_from(value).map(u64::to_ne_bytes).map(|b| b.to_vec()).ok(),
        _ => None,
    };
    p.return_size = p.data_size;
    match fits {
        Some(b) if !p.data.is_null() => {
            // SAFETY: OpenSSL's contract: `data` has `data_size` writable
            // bytes, and `b` has exactly that many.
            unsafe { core::ptr::copy_nonoverlapping(b.as_ptr(), p.data.cast::<u8>(), b.len()) };
            true
        }
        // A null buffer asks for the size only.
        Some(_) => true,
        None => false,
    }
}

/// Writes a static string into a caller's string parameter (a buffer, with
/// its NUL, or a pointer); false when it has another type or is too short.
pub(crate) fn set_utf8(p: &mut Param, value: &'static CStr) -> bool {
    let text = value.to_bytes_with_nul();
    match p.data_type {
        // The length said leaves out the NUL, written where it fits.
        UTF8_STRING if p.data_size == text.len() - 1 => copy_into(p, &text[..text.len() - 1], text.len() - 1),
        UTF8_STRING => copy_into(p, text, text.len() - 1),
        UTF8_PTR if !p.data.is_null() => {
            // SAFETY: for a UTF8_PTR, `data` points at a `const char *`.
            unsafe { *p.data.cast::<*const c_char>() = value.as_ptr() };
            p.return_size = text.len() - 1;
            true
        }
        _ => false,
    }
}

/// Writes `value` into a caller's octet-string parameter; false when it
/// has another type or is too short (`return_size` says the length
/// either way, as OpenSSL's setter does).
pub(crate) fn set_octets(p: &mut Param, value: &[u8]) -> bool {
    p.data_type == OCTET_STRING && copy_into(p, value, value.len())
}

/// Points a caller's octet-pointer parameter at `value` (which must
/// outlive the caller's use, as OpenSSL's `OSSL_PARAM_set_octet_ptr`
/// requires); false when it has another type.
pub(crate) fn set_octet_ptr(p: &mut Param, value: &[u8]) -> bool {
    if p.data_type != OCTET_PTR {
        return false;
    }
    p.return_size = value.len();
    if !p.data.is_null() {
        // An empty value is a null pointer, as OpenSSL's provider answers.
        let at = if value.is_empty() {
            core::ptr::null()
        } else {
            value.as_ptr().cast()
        };
        // SAFETY: for an OCTET_PTR, `data` points at a `const void *`.
        unsafe { *p.data.cast::<*const c_void>() = at };
    }
    true
}

/// Copies `bytes` into a caller's buffer parameter, saying `len` as the
/// returned size (a null buffer asks for the size only); false when the
/// buffer is too short.
fn copy_into(p: &mut Param, bytes: &[u8], len: usize) -> bool {
    p.return_size = len;
    if p.data.is_null() {
        return true;
    }
    if p.data_size < bytes.len() {
        return false;
    }
    // SAFETY: OpenSSL's contract: `data` has `data_size` writable bytes,
    // at least `bytes.len()`.
    unsafe { core::ptr::copy_nonoverlapping(bytes.as_ptr(), p.data.cast::<u8>(), bytes.len()) };
    true
}

/// A list of big-number parameters built here (for a key export), each
/// value's little-endian bytes kept, and wiped, with it.
pub(crate) struct Built {
    keys: Vec<&'static CStr>,
    values: Vec<Zeroizing<Vec<u8>>>,
}

impl Built {
    /// An empty list.
    pub(crate) fn new() -> Self {
        Built {
            keys: Vec::new(),
            values: Vec::new(),
        }
    }

    /// Adds `key = value` (native-endian bytes, as OpenSSL's BNs).
    pub(crate) fn push(&mut self, key: &'static CStr, value: &Num) {
        let mut bytes = Zeroizing::new(value.digits().iter().flat_map(|d| d.to_le_bytes()).collect::<Vec<u8>>());
        if cfg!(target_endian = "big") {
            bytes.reverse();
        }
        self.keys.push(key);
        self.values.push(bytes);
    }

    /// The `OSSL_PARAM` array, valid while `self` lives.
    pub(crate) fn array(&mut self) -> Vec<Param> {
        self.keys
            .iter()
            .zip(self.values.iter_mut())
            .map(|(key, value)| Param {
                key: key.as_ptr(),
                data_type: UNSIGNED_INTEGER,
                data: value.as_mut_ptr().cast::<c_void>(),
                data_size: value.len(),
                return_size: UNMODIFIED,
            })
            .chain([Param::END])
            .collect()
    }
}

/// A parameter's key, for messages.
fn name(p: &Param) -> String {
    if p.key.is_null() {
        return String::from("(unnamed)");
    }
    // SAFETY: a non-null key is a C string (OpenSSL's contract).
    unsafe { CStr::from_ptr(p.key) }.to_string_lossy().into_owned()
}
