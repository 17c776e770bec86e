//! The one way every clGet*Info answers: a query produces an `Info` (the value's bytes), and
//! `answer` applies the spec's rules for param_value, param_value_size and
//! param_value_size_ret, identical for all info queries:
//!
//! "CL_INVALID_VALUE if ... size in bytes specified by param_value_size is < size of return type
//! as specified in the table and param_value is not a NULL value."
//! "param_value_size_ret: Returns the actual size in bytes of data being queried by param_name.
//! If param_value_size_ret is NULL, it is ignored."

use super::types::*;
use super::util::{entry, ClResult};
use std::ffi::c_void;

/// The bytes of one info value, laid out as the C type the spec names.
pub struct Info(pub Vec<u8>);

/// Values that have a C representation in an info query.
pub trait ToInfo {
    fn to_info(&self) -> Vec<u8>;
}

macro_rules! scalar_info {
    ($($t:ty),*) => {$(
        impl ToInfo for $t {
            fn to_info(&self) -> Vec<u8> { self.to_ne_bytes().to_vec() }
        }
    )*};
}
scalar_info!(u8, u16, u32, i32, u64, i64, usize, isize);

/// Strings are returned NUL-terminated (`char[]`).
impl ToInfo for str {
    fn to_info(&self) -> Vec<u8> {
        let mut v = self.as_bytes().to_vec();
        v.push(0);
        v
    }
}
impl ToInfo for String {
    fn to_info(&self) -> Vec<u8> {
        self.as_str().to_info()
    }
}
impl ToInfo for &str {
    fn to_info(&self) -> Vec<u8> {
        (*self).to_info()
    }
}
impl<T: ToInfo> ToInfo for [T] {
    fn to_info(&self) -> Vec<u8> {
        self.iter().flat_map(|x| x.to_info()).collect()
    }
}
impl<T: ToInfo> ToInfo for Vec<T> {
    fn to_info(&self) -> Vec<u8> {
        self.as_slice().to_info()
    }
}
impl<T: ToInfo, const N: usize> ToInfo for [T; N] {
    fn to_info(&self) -> Vec<u8> {
        self.as_slice().to_info()
    }
}
/// Handles are returned as the pointer value.
impl<T> ToInfo for *mut T {
    fn to_info(&self) -> Vec<u8> {
        (*self as usize).to_info()
    }
}
impl ToInfo for cl_name_version {
    fn to_info(&self) -> Vec<u8> {
        let mut v = self.version.to_info();
        v.extend_from_slice(&self.name);
        v
    }
}

impl<T: ToInfo + ?Sized> From<&T> for Info {
    fn from(v: &T) -> Self {
        Info(v.to_info())
    }
}

/// Shorthand for building an `Info` in a match arm.
pub fn val<T: ToInfo + ?Sized>(v: &T) -> ClResult<Info> {
    Ok(Info(v.to_info()))
}

/// A `cl_name_version` for `name` at `major.minor.patch`.
pub fn name_version(name: &str, major: u32, minor: u32, patch: u32) -> cl_name_version {
    let mut n = [0u8; 64];
    let b = name.as_bytes();
    n[..b.len().min(63)].copy_from_slice(&b[..b.len().min(63)]);
    cl_name_version {
        version: make_version(major, minor, patch),
        name: n,
    }
}

/// CL_MAKE_VERSION: major in bits 31..22, minor 21..12, patch 11..0.
pub const fn make_version(major: u32, minor: u32, patch: u32) -> cl_version {
    (major << (CL_VERSION_MINOR_BITS + CL_VERSION_PATCH_BITS))
        | (minor << CL_VERSION_PATCH_BITS)
        | patch
}

/// Copy a query's value out per the rules quoted at the top of this file.
pub fn write(
    value: ClResult<Info>,
    param_value_size: usize,
    param_value: *mut c_void,
    param_value_size_ret: *mut usize,
) -> ClResult<()> {
    let Info(bytes) = value?;
    if !param_value.is_null() {
        if param_value_size < bytes.len() {
            return Err(CL_INVALID_VALUE);
        }
        // SAFETY: the application guarantees param_value points to param_value_size writable
        // bytes, and we write bytes.len() <= param_value_size of them.
        unsafe {
            std::ptr::copy_nonoverlapping(bytes.as_ptr(), param_value.cast::<u8>(), bytes.len())
        };
    }
    super::util::write_opt(param_value_size_ret, bytes.len());
    Ok(())
}

/// The size rule quoted at the top of this file, for a query whose return type `T` has a size
/// known without the value: checked ahead of the errors the spec lists after CL_INVALID_VALUE
/// (which need the value: CL_INVALID_PROGRAM_EXECUTABLE, CL_KERNEL_ARG_INFO_NOT_AVAILABLE).
pub fn fits<T>(param_value_size: usize, param_value: *mut c_void) -> ClResult<()> {
    if !param_value.is_null() && param_value_size < std::mem::size_of::<T>() {
        return Err(CL_INVALID_VALUE);
    }
    Ok(())
}

/// An entire clGet*Info body: validate the object (inside `query`), compute, write.
pub fn answer(
    query: impl FnOnce() -> ClResult<Info>,
    param_value_size: usize,
    param_value: *mut c_void,
    param_value_size_ret: *mut usize,
) -> cl_int {
    entry(|| write(query(), param_value_size, param_value, param_value_size_ret))
}
