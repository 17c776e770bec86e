//! Small helpers every entry point uses: panic containment, errcode_ret, C strings, lists.

use super::types::*;
use std::ffi::c_char;
use std::panic::{catch_unwind, AssertUnwindSafe};

pub type ClResult<T> = Result<T, cl_int>;

/// Run an entry point's body; a panic becomes CL_OUT_OF_HOST_MEMORY (the spec's catch-all for
/// "failure to allocate resources required by the OpenCL implementation on the host").
pub fn entry(f: impl FnOnce() -> ClResult<()>) -> cl_int {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(Ok(())) => CL_SUCCESS,
        Ok(Err(e)) => e,
        Err(_) => {
            tracing::error!("panic inside an OpenCL entry point");
            CL_OUT_OF_HOST_MEMORY
        }
    }
}

/// Run an entry point that returns an object (or pointer) and reports through `errcode_ret`.
pub fn entry_ptr<T>(errcode_ret: *mut cl_int, f: impl FnOnce() -> ClResult<*mut T>) -> *mut T {
    let (p, e) = match catch_unwind(AssertUnwindSafe(f)) {
        Ok(Ok(p)) => (p, CL_SUCCESS),
        Ok(Err(e)) => (std::ptr::null_mut(), e),
        Err(_) => {
            tracing::error!("panic inside an OpenCL entry point");
            (std::ptr::null_mut(), CL_OUT_OF_HOST_MEMORY)
        }
    };
    set_err(errcode_ret, e);
    p
}

pub(crate) fn set_err(errcode_ret: *mut cl_int, e: cl_int) {
    // SAFETY: the spec requires errcode_ret to be NULL or point to a cl_int.
    if let Some(r) = unsafe { errcode_ret.as_mut() } {
        *r = e;
    }
}

/// What the unimplemented entry points return (see dispatch::unsupported).
pub fn unsupported(name: &str, code: cl_int) -> cl_int {
    tracing::debug!("{name} is not supported by gencl");
    code
}

/// Write `v` through an optional out-pointer.
pub(crate) fn write_opt<T>(p: *mut T, v: T) {
    // SAFETY: the caller's out-pointers are NULL or valid for one T, per the spec.
    if let Some(r) = unsafe { p.as_mut() } {
        *r = v;
    }
}

/// A slice from a (pointer, count) pair; NULL or zero count is empty.
///
/// # Safety
/// `p` must be NULL or point to `n` valid `T`s.
pub unsafe fn slice<'a, T>(p: *const T, n: usize) -> &'a [T] {
    if p.is_null() || n == 0 {
        &[]
    } else {
        // SAFETY: per this function's contract.
        unsafe { std::slice::from_raw_parts(p, n) }
    }
}

/// A zero-terminated property list (`key, value, ..., 0`) as pairs; `None` for NULL.
///
/// # Safety
/// `p` must be NULL or point to a 0-terminated list of pairs.
pub unsafe fn properties<T: Copy + Default + PartialEq>(p: *const T) -> Option<Vec<(T, T)>> {
    if p.is_null() {
        return None;
    }
    let mut out = Vec::new();
    let mut i = 0;
    loop {
        // SAFETY: per this function's contract the list is terminated by a 0 key.
        let k = unsafe { *p.add(i) };
        if k == T::default() {
            return Some(out);
        }
        // SAFETY: as above: a non-zero key is followed by its value.
        let v = unsafe { *p.add(i + 1) };
        out.push((k, v));
        i += 2;
        if out.len() > 64 {
            return Some(out); // a list this long is garbage; callers reject unknown keys.
        }
    }
}

/// The raw list including its terminator (for CL_*_PROPERTIES queries).
pub fn flatten<T: Copy + Default>(pairs: &[(T, T)]) -> Vec<T> {
    let mut v: Vec<T> = pairs.iter().flat_map(|&(k, v)| [k, v]).collect();
    v.push(T::default());
    v
}

/// A C string argument as UTF-8 (invalid UTF-8 is replaced, so it still fails to match names).
///
/// # Safety
/// `p` must be NULL or point to a NUL-terminated string.
pub unsafe fn c_str(p: *const c_char) -> Option<String> {
    if p.is_null() {
        return None;
    }
    // SAFETY: per this function's contract.
    Some(
        unsafe { std::ffi::CStr::from_ptr(p) }
            .to_string_lossy()
            .into_owned(),
    )
}

/// Bits of `flags` outside `allowed`.
pub fn has_other_bits(flags: u64, allowed: u64) -> bool {
    flags & !allowed != 0
}
