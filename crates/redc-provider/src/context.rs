//! An operation's context behind OpenSSL's pointer, the same way for
//! every operation (signature, encryption): boxed when made, borrowed for
//! a call, copied by `dupctx`, freed by `freectx`.
#![allow(unsafe_code)]

use core::ffi::c_void;

/// Hands a new context to OpenSSL (`newctx`).
pub(crate) fn into_raw<T>(ctx: T) -> *mut c_void {
    Box::into_raw(Box::new(ctx)).cast()
}

/// The context of type `T` behind OpenSSL's pointer.
///
/// # Safety
///
/// `ctx` is null or a pointer [`into_raw`] or [`dup`] returned for a `T`
/// and [`free`] did not free, not otherwise referenced during the call.
pub(crate) unsafe fn get<'a, T>(ctx: *mut c_void) -> Result<&'a mut T, String> {
    // SAFETY: the caller's contract.
    unsafe { ctx.cast::<T>().as_mut() }.ok_or_else(|| "no operation context".into())
}

/// `OSSL_FUNC_*_FREECTX` for contexts of type `T`.
pub(crate) unsafe extern "C" fn free<T>(ctx: *mut c_void) {
    if !ctx.is_null() {
        // SAFETY: OpenSSL frees what `into_raw` or `dup` made for this
        // operation, once.
        drop(unsafe { Box::from_raw(ctx.cast::<T>()) });
    }
}

/// `OSSL_FUNC_*_DUPCTX` for contexts of type `T`.
pub(crate) unsafe extern "C" fn dup<T: Clone>(ctx: *mut c_void) -> *mut c_void {
    // SAFETY: OpenSSL passes a context of this operation.
    match unsafe { ctx.cast::<T>().as_ref() } {
        Some(ctx) => into_raw(ctx.clone()),
        None => core::ptr::null_mut(),
    }
}
