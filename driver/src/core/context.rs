//! Context objects (OpenCL 3.0 §4.4): the devices and properties they were made with, and
//! their destructor callbacks. The entry points are in `api/context.rs`.

use crate::api::object::{ClObject, Destructors};
use crate::api::types::*;
use std::ffi::{c_char, c_void};

pub struct Context {
    /// clCreateContext's pfn_notify and user_data: told of errors in this context.
    pub notify: Option<(
        unsafe extern "C" fn(*const c_char, *const c_void, usize, *mut c_void),
        usize,
    )>,
    /// clSetContextDestructorCallback's callbacks.
    pub destructors: Destructors<_cl_context>,
    pub properties: Vec<(cl_context_properties, cl_context_properties)>,
    /// Whether the application passed a property list at all (CL_CONTEXT_PROPERTIES returns
    /// nothing then).
    pub had_properties: bool,
}

impl ClObject for Context {
    type Raw = _cl_context;
    const TAG: u32 = 0x6763_7478; // "gctx"
    const INVALID: cl_int = CL_INVALID_CONTEXT;
}

impl Context {
    /// "pfn_notify ... will be used by the OpenCL implementation to report information on
    /// errors during context creation as well as errors that occur at runtime in this
    /// context": `errinfo` is the text, with no private data.
    pub fn report(&self, errinfo: &str) {
        let Some((f, data)) = self.notify else {
            return;
        };
        let text = std::ffi::CString::new(errinfo.replace('\0', " ")).unwrap_or_default();
        // SAFETY: the application's callback, with a NUL-terminated string that lives across
        // the call, no private data, and its own user_data.
        unsafe { f(text.as_ptr(), std::ptr::null(), 0, data as *mut c_void) };
    }
}

impl Drop for Context {
    fn drop(&mut self) {
        self.destructors.run();
    }
}
