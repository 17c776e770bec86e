//! Generic pointers whose address space is decided at run time (OpenCL C 2.0 §6.5.5; seed
//! 002's tags), through the API on the emulated GPU, against results computed here: a
//! helper reading through a pointer chosen per work-item among global, local and private
//! memory; to_global, to_local, to_private and get_fence on it; generic pointers kept in a
//! private array indexed at run time (stored to memory and loaded back); stores and atomics
//! through generic pointers into local and global memory.

mod api_common;

use api_common::*;
use gencl::api::entry::*;
use gencl::api::types::*;
use std::ffi::{c_void, CString};
use std::ptr::{null, null_mut};

const SOURCE: &str = r#"
int sum(int *p, int n) {
    int s = 0;
    for (int i = 0; i < n; i++) s += p[i];
    return s;
}

kernel void choose(global int *g, local int *l, global int *out, int which) {
    int lid = get_local_id(0);
    int priv[4] = { 1, 2, 3, lid };
    l[lid] = lid;
    barrier(CLK_LOCAL_MEM_FENCE);
    int w = (which + lid) % 3;
    int *p = w == 0 ? (int *)g : (w == 1 ? (int *)l : (int *)priv);
    out[get_global_id(0)] = sum(p, 4)
        + (to_global(p) != 0) * 100
        + (to_local(p) != 0) * 1000
        + (to_private(p) != 0) * 10000
        + (int)get_fence(p) * 100000;
}

kernel void in_memory(global int *g, local int *l, global int *out, int sel) {
    int lid = get_local_id(0);
    l[lid] = 100 + lid;
    barrier(CLK_LOCAL_MEM_FENCE);
    int priv = 7 + lid;
    int *ptrs[3] = { (int *)(g + lid), (int *)(l + (lid ^ 1)), &priv };
    int *p = ptrs[(sel + lid) % 3];
    out[get_global_id(0)] = *p;
}

kernel void write_through(global int *g, local int *l, global int *out,
                          global int *count) {
    int lid = get_local_id(0);
    int gid = get_global_id(0);
    local int lcount;
    if (lid == 0) lcount = 0;
    l[lid] = -1;
    barrier(CLK_LOCAL_MEM_FENCE);
    int *w = (lid & 1) ? (int *)(l + lid) : (int *)(g + gid);
    *w = 1000 + gid;
    volatile atomic_int *c = (lid % 3 == 0) ? (volatile atomic_int *)count
                                            : (volatile atomic_int *)&lcount;
    atomic_fetch_add_explicit(c, 1, memory_order_relaxed, memory_scope_work_group);
    barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
    out[gid] = l[lid] + (lid == 0 ? lcount * 100000 : 0);
}
"#;

const N: usize = 16;
const LOCAL: usize = 8;

unsafe fn buffer(ctx: cl_context, data: &[i32]) -> cl_mem {
    let mut e = 0;
    // SAFETY: the host pointer covers the size passed and is copied at creation.
    let b = unsafe {
        clCreateBuffer(
            ctx,
            CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
            data.len() * 4,
            data.as_ptr() as *mut c_void,
            &mut e,
        )
    };
    assert_eq!(e, CL_SUCCESS);
    b
}

unsafe fn read(q: cl_command_queue, b: cl_mem, n: usize) -> Vec<i32> {
    let mut out = vec![0i32; n];
    // SAFETY: the host pointer covers the size passed.
    unsafe {
        assert_eq!(
            clEnqueueReadBuffer(
                q,
                b,
                CL_TRUE,
                0,
                n * 4,
                out.as_mut_ptr().cast(),
                0,
                null(),
                null_mut()
            ),
            CL_SUCCESS
        );
    }
    out
}

/// Launch `k` over N work-items in groups of LOCAL.
unsafe fn launch(q: cl_command_queue, k: cl_kernel) {
    let (g, l) = (N, LOCAL);
    // SAFETY: valid handles; one dimension.
    unsafe {
        assert_eq!(
            clEnqueueNDRangeKernel(q, k, 1, null(), &g, &l, 0, null(), null_mut()),
            CL_SUCCESS
        );
        assert_eq!(clFinish(q), CL_SUCCESS);
    }
}

unsafe fn set_mem(k: cl_kernel, i: u32, b: cl_mem) {
    // SAFETY: a cl_mem argument.
    assert_eq!(
        unsafe { clSetKernelArg(k, i, 8, (&raw const b).cast()) },
        CL_SUCCESS
    );
}

unsafe fn set_int(k: cl_kernel, i: u32, v: i32) {
    // SAFETY: an int argument.
    assert_eq!(
        unsafe { clSetKernelArg(k, i, 4, (&raw const v).cast()) },
        CL_SUCCESS
    );
}

unsafe fn set_local(k: cl_kernel, i: u32, bytes: usize) {
    // SAFETY: a __local argument takes a size and NULL.
    assert_eq!(unsafe { clSetKernelArg(k, i, bytes, null()) }, CL_SUCCESS);
}

#[test]
fn generic_pointers_chosen_at_run_time() {
    let (d, ctx, q) = setup();
    let src = CString::new(SOURCE).unwrap();
    let opts = CString::new("-cl-std=CL2.0").unwrap();
    let mut sp = src.as_ptr();
    let mut e = 0;
    // SAFETY: handles from setup; every buffer covers what the kernels touch.
    unsafe {
        let p = clCreateProgramWithSource(ctx, 1, &mut sp, null(), &mut e);
        assert_eq!(e, CL_SUCCESS);
        let r = clBuildProgram(p, 0, null(), opts.as_ptr(), None, null_mut());
        assert_eq!(r, CL_SUCCESS, "{}", build_log(p, d));
        let kernel = |name: &str| {
            let name = CString::new(name).unwrap();
            let mut e = 0;
            let k = clCreateKernel(p, name.as_ptr(), &mut e);
            assert_eq!(e, CL_SUCCESS);
            k
        };
        let gdata: Vec<i32> = (0..N as i32).map(|i| 10 * (i + 1)).collect();

        // choose: the helper reads global, local or private memory per work-item.
        let k = kernel("choose");
        for which in 0..3 {
            let g = buffer(ctx, &gdata);
            let out = buffer(ctx, &[0; N]);
            set_mem(k, 0, g);
            set_local(k, 1, LOCAL * 4);
            set_mem(k, 2, out);
            set_int(k, 3, which);
            launch(q, k);
            let want: Vec<i32> = (0..N)
                .map(|gid| {
                    let lid = (gid % LOCAL) as i32;
                    match (which + lid) % 3 {
                        0 => gdata[..4].iter().sum::<i32>() + 100 + 2 * 100000,
                        1 => 6 + 1000 + 100000,
                        _ => 6 + lid + 10000 + 2 * 100000,
                    }
                })
                .collect();
            assert_eq!(read(q, out, N), want, "choose, which = {which}");
            clReleaseMemObject(g);
            clReleaseMemObject(out);
        }
        clReleaseKernel(k);

        // in_memory: generic pointers stored in a private array and loaded back.
        let k = kernel("in_memory");
        for sel in 0..3 {
            let g = buffer(ctx, &gdata);
            let out = buffer(ctx, &[0; N]);
            set_mem(k, 0, g);
            set_local(k, 1, LOCAL * 4);
            set_mem(k, 2, out);
            set_int(k, 3, sel);
            launch(q, k);
            let want: Vec<i32> = (0..N)
                .map(|gid| {
                    let lid = (gid % LOCAL) as i32;
                    match (sel + lid) % 3 {
                        0 => gdata[lid as usize],
                        1 => 100 + (lid ^ 1),
                        _ => 7 + lid,
                    }
                })
                .collect();
            assert_eq!(read(q, out, N), want, "in_memory, sel = {sel}");
            clReleaseMemObject(g);
            clReleaseMemObject(out);
        }
        clReleaseKernel(k);

        // write_through: stores and atomics through generic pointers.
        let k = kernel("write_through");
        let g = buffer(ctx, &[-5; N]);
        let out = buffer(ctx, &[0; N]);
        let count = buffer(ctx, &[0]);
        set_mem(k, 0, g);
        set_local(k, 1, LOCAL * 4);
        set_mem(k, 2, out);
        set_mem(k, 3, count);
        launch(q, k);
        let gwant: Vec<i32> = (0..N as i32)
            .map(|gid| if gid % 2 == 0 { 1000 + gid } else { -5 })
            .collect();
        assert_eq!(read(q, g, N), gwant, "global stores");
        // Per group, lids 1..7 not multiples of 3 count locally: 1, 2, 4, 5, 7.
        let owant: Vec<i32> = (0..N as i32)
            .map(|gid| {
                let lid = gid % LOCAL as i32;
                let l = if lid % 2 == 1 { 1000 + gid } else { -1 };
                l + if lid == 0 { 5 * 100000 } else { 0 }
            })
            .collect();
        assert_eq!(read(q, out, N), owant, "local stores and local atomics");
        // lids 0, 3 and 6 of each group count globally.
        assert_eq!(read(q, count, 1), [6], "global atomics");
        for b in [g, out, count] {
            clReleaseMemObject(b);
        }
        clReleaseKernel(k);
        clReleaseProgram(p);
        clReleaseCommandQueue(q);
        clReleaseContext(ctx);
    }
}
