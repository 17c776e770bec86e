//! CL objects: heap allocations whose first field is the ICD dispatch pointer (the loader reads
//! it), with a type tag and a reference count. Every live object is in a registry, so a handle
//! is checked (known address, right tag) before it is dereferenced: wrong-type, foreign and
//! freed handles give the type's CL_INVALID_* instead of undefined behaviour (unless the
//! allocator has reused the address for an object of the same type).
//!
//! A freed object leaves its header behind (dispatch pointer, tag, count: 24 bytes) and frees
//! only its contents: the ICD loader dereferences a handle's dispatch pointer before gencl sees
//! the call, so a freed handle must still point at a dispatch table for the call to reach us and
//! get its CL_INVALID_* instead of a crash. Headers are never reused, so a freed handle is never
//! mistaken for a live one.

use super::dispatch::{IcdDispatch, DISPATCH};
use super::types::*;
use super::util::ClResult;
use parking_lot::Mutex;
use std::collections::HashMap;
use std::ffi::c_void;
use std::ops::Deref;
use std::ptr::NonNull;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::LazyLock;

/// A CL object type: its tag, its handle type and the error for a bad handle.
pub trait ClObject: Send + Sync + Sized + 'static {
    /// The C handle type (`cl_mem` = `*mut _cl_mem`, ...).
    type Raw;
    const TAG: u32;
    const INVALID: cl_int;
}

#[repr(C)]
pub struct Object<T: ClObject> {
    /// Must stay first: `struct _cl_icd_dispatch *` is what the ICD loader dereferences.
    dispatch: &'static IcdDispatch,
    tag: u32,
    refs: AtomicU32,
    /// Dropped when the count reaches zero; the header stays (see the module comment).
    inner: std::mem::ManuallyDrop<Box<T>>,
}

/// Live objects: address → tag.
static LIVE: LazyLock<Mutex<HashMap<usize, u32>>> = LazyLock::new(|| Mutex::new(HashMap::new()));

/// One counted reference to an object (the application's or an internal one, e.g. a kernel's
/// reference to its program: "implicit retain" in the spec's reference-count queries).
pub struct Ref<T: ClObject>(NonNull<Object<T>>);

// SAFETY: the pointee is Send + Sync (ClObject bound) and the count is atomic.
unsafe impl<T: ClObject> Send for Ref<T> {}
// SAFETY: as above.
unsafe impl<T: ClObject> Sync for Ref<T> {}

impl<T: ClObject> Ref<T> {
    /// A new object with reference count 1; returns the application's handle.
    pub fn new_handle(inner: T) -> *mut T::Raw {
        let b = Box::new(Object {
            dispatch: &DISPATCH,
            tag: T::TAG,
            refs: AtomicU32::new(1),
            inner: std::mem::ManuallyDrop::new(Box::new(inner)),
        });
        let p = Box::into_raw(b);
        LIVE.lock().insert(p as usize, T::TAG);
        p.cast()
    }

    /// A counted reference from an application handle, after checking it.
    pub fn from_handle(h: *mut T::Raw) -> ClResult<Ref<T>> {
        let addr = h as usize;
        let live = LIVE.lock();
        if live.get(&addr) != Some(&T::TAG) {
            return Err(T::INVALID);
        }
        let p = NonNull::new(h.cast::<Object<T>>()).ok_or(T::INVALID)?;
        // SAFETY: the registry says a live Object<T> is at this address; it cannot be freed while
        // we hold the registry lock (the 1 → 0 transition removes it under the same lock).
        unsafe { p.as_ref() }.refs.fetch_add(1, Ordering::Relaxed);
        Ok(Ref(p))
    }

    /// Whether `h` is a live object of this type.
    pub fn is_valid(h: *mut T::Raw) -> bool {
        LIVE.lock().get(&(h as usize)) == Some(&T::TAG)
    }

    /// The handle (does not transfer the reference).
    pub fn handle(&self) -> *mut T::Raw {
        self.0.as_ptr().cast()
    }

    /// A new reference for the application (clRetain*, or handing out a handle).
    pub fn leak_handle(&self) -> *mut T::Raw {
        self.obj().refs.fetch_add(1, Ordering::Relaxed);
        self.handle()
    }

    pub fn ref_count(&self) -> u32 {
        // Minus the reference `self` holds.
        self.obj().refs.load(Ordering::Relaxed).saturating_sub(1)
    }

    fn obj(&self) -> &Object<T> {
        // SAFETY: a Ref keeps the object alive.
        unsafe { self.0.as_ref() }
    }

    /// clRetain*: check and add one application reference.
    pub fn retain(h: *mut T::Raw) -> ClResult<()> {
        let r = Self::from_handle(h)?;
        r.leak_handle();
        Ok(())
    }

    /// clRelease*: check and drop one application reference.
    pub fn release(h: *mut T::Raw) -> ClResult<()> {
        let r = Self::from_handle(h)?;
        // The application's reference: drop it as a Ref of its own (ours goes with `r`).
        drop(Ref::<T>(r.0));
        drop(r);
        Ok(())
    }
}

impl<T: ClObject> Clone for Ref<T> {
    fn clone(&self) -> Self {
        self.obj().refs.fetch_add(1, Ordering::Relaxed);
        Ref(self.0)
    }
}

impl<T: ClObject> Drop for Ref<T> {
    fn drop(&mut self) {
        // The registry lock only when the count reaches zero: every other drop is one atomic
        // (queued commands clone and drop references on the enqueue path).
        if self.obj().refs.fetch_sub(1, Ordering::AcqRel) != 1 {
            return;
        }
        let mut live = LIVE.lock();
        // Between the decrement and the lock, `from_handle` may have revived the object (it
        // counts up under the lock) and even released it again; it is ours to free only if it
        // is still listed and still at zero. The header is never freed, so reading it is safe.
        let addr = self.0.as_ptr() as usize;
        if self.obj().refs.load(Ordering::Acquire) != 0 || live.get(&addr) != Some(&T::TAG) {
            return;
        }
        live.remove(&addr);
        drop(live);
        // SAFETY: the count is zero and the registry no longer lists the object, so no other
        // reference exists or can be made: nothing reads `inner` again. The header allocation
        // is deliberately kept (see the module comment).
        unsafe { std::mem::ManuallyDrop::drop(&mut (*self.0.as_ptr()).inner) };
    }
}

impl<T: ClObject> Deref for Ref<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.obj().inner
    }
}

/// A checked, counted reference from a handle.
pub fn get<T: ClObject>(h: *mut T::Raw) -> ClResult<Ref<T>> {
    Ref::from_handle(h)
}

/// The destructor callbacks of an object whose handles point at `R`
/// (clSetMemObjectDestructorCallback, clSetContextDestructorCallback): "called in the
/// reverse order in which they were registered" when the object is deleted, each with the
/// object's handle (whose header outlives the object, see the module comment) and its
/// user_data.
pub struct Destructors<R>(Mutex<Vec<Destructor<R>>>);

/// The handle and user_data kept as addresses: the list moves between threads with its object.
type Destructor<R> = (usize, usize, unsafe extern "C" fn(*mut R, *mut c_void));

impl<R> Default for Destructors<R> {
    fn default() -> Self {
        Destructors(Mutex::new(Vec::new()))
    }
}

impl<R> Destructors<R> {
    pub fn push(
        &self,
        handle: *mut R,
        f: unsafe extern "C" fn(*mut R, *mut c_void),
        data: *mut c_void,
    ) {
        self.0.lock().push((handle as usize, data as usize, f));
    }

    /// Call every callback, last registered first.
    pub fn run(&self) {
        for (h, data, f) in std::mem::take(&mut *self.0.lock()).into_iter().rev() {
            // SAFETY: the application's callback, called as the spec says with the handle and
            // user_data it was registered with.
            unsafe { f(h as *mut R, data as *mut c_void) };
        }
    }
}
