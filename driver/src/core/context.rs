//! Context objects (OpenCL 3.0 §4.4): the devices and properties they were made with, and
//! their destructor callbacks. The entry points are in `api/context.rs`.

use crate::api::object::{ClObject, Destructors};
use crate::api::types::*;
use std::ffi::{c_char, c_void};
use std::sync::atomic::AtomicBool;

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
    /// Its name in the launches it sends (`protocol::Launch::context`): its launches run on
    /// a GPU context of their own, so that a fault or hang fails only this context's
    /// launches. Unique in this process, never 0.
    pub wire_id: u64,
    /// Whether a launch named it (the service then has a GPU context to release for it).
    pub launched: AtomicBool,
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
        // Every launch holds its context until it has finished (`api::launch`), so none of
        // this context's launches is left on its GPU context.
        if *self.launched.get_mut() {
            if let Ok(c) = crate::api::runtime::connection() {
                if let Err(e) = c.release_context(self.wire_id) {
                    tracing::warn!("releasing context {}: {e}", self.wire_id);
                }
            }
        }
        self.destructors.run();
    }
}
