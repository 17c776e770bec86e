//! Images and samplers through the API, called directly on the embedded emulated device: the
//! bytes each image command leaves (against layouts computed here), fills converted as the
//! spec says, maps of images with and without CL_MEM_USE_HOST_PTR, image queries, and image
//! and sampler kernel arguments (their checks and a kernel that samples and writes).

use gencl::api::entry::*;
use gencl::api::types::*;
use std::ffi::{c_void, CString};
use std::ptr::{null, null_mut};

struct Env {
    ctx: cl_context,
    q: cl_command_queue,
    d: cl_device_id,
}

fn setup() -> Env {
    std::env::set_var("GENCL_MODE", "embedded");
    std::env::set_var("GENCL_DEVICE", "emulated");
    let (mut p, mut d) = (null_mut(), null_mut());
    let mut e = 0;
    // SAFETY: valid out-pointers.
    unsafe {
        assert_eq!(clGetPlatformIDs(1, &mut p, null_mut()), CL_SUCCESS);
        assert_eq!(
            clGetDeviceIDs(p, CL_DEVICE_TYPE_GPU, 1, &mut d, null_mut()),
            CL_SUCCESS
        );
        let ctx = clCreateContext(null(), 1, &d, None, null_mut(), &mut e);
        assert_eq!(e, CL_SUCCESS);
        let q = clCreateCommandQueueWithProperties(ctx, d, null(), &mut e);
        assert_eq!(e, CL_SUCCESS);
        Env { ctx, q, d }
    }
}

fn fmt(order: cl_channel_order, ty: cl_channel_type) -> cl_image_format {
    cl_image_format {
        image_channel_order: order,
        image_channel_data_type: ty,
    }
}

fn desc(ty: cl_mem_object_type, w: usize, h: usize, depth: usize, array: usize) -> cl_image_desc {
    cl_image_desc {
        image_type: ty,
        image_width: w,
        image_height: h,
        image_depth: depth,
        image_array_size: array,
        image_row_pitch: 0,
        image_slice_pitch: 0,
        num_mip_levels: 0,
        num_samples: 0,
        buffer: null_mut(),
    }
}

fn image(
    env: &Env,
    flags: cl_mem_flags,
    f: cl_image_format,
    d: cl_image_desc,
    host: *mut c_void,
) -> cl_mem {
    let mut e = 0;
    // SAFETY: valid pointers; host holds the image when given.
    let m = unsafe { clCreateImage(env.ctx, flags, &f, &d, host, &mut e) };
    assert_eq!(e, CL_SUCCESS);
    m
}

/// Read the whole of an image (packed rows).
fn read_all(env: &Env, m: cl_mem, region: [usize; 3], bpp: usize) -> Vec<u8> {
    let mut out = vec![0u8; region.iter().product::<usize>() * bpp];
    // SAFETY: `out` holds the region packed.
    let r = unsafe {
        clEnqueueReadImage(
            env.q,
            m,
            CL_TRUE,
            [0usize; 3].as_ptr(),
            region.as_ptr(),
            0,
            0,
            out.as_mut_ptr().cast(),
            0,
            null(),
            null_mut(),
        )
    };
    assert_eq!(r, CL_SUCCESS);
    out
}

fn info_usize(m: cl_mem, p: cl_image_info) -> usize {
    let mut v = 0usize;
    // SAFETY: a size_t query.
    let r = unsafe { clGetImageInfo(m, p, 8, (&raw mut v).cast(), null_mut()) };
    assert_eq!(r, CL_SUCCESS);
    v
}

/// Every image type: written from a host layout with padded pitches at an offset region,
/// read back whole, the bytes where the region says and zero elsewhere (a fill of zero
/// first).
#[test]
fn every_image_type_writes_and_reads_regions_with_host_pitches() {
    let env = setup();
    let f = fmt(CL_RGBA, CL_UNSIGNED_INT16); // 8 bytes a texel
    let bpp = 8;
    let types = [
        (CL_MEM_OBJECT_IMAGE1D, [13, 1, 1], [2, 0, 0], [9, 1, 1]),
        (
            CL_MEM_OBJECT_IMAGE1D_ARRAY,
            [13, 5, 1],
            [2, 1, 0],
            [9, 3, 1],
        ),
        (CL_MEM_OBJECT_IMAGE2D, [13, 7, 1], [2, 1, 0], [9, 5, 1]),
        (
            CL_MEM_OBJECT_IMAGE2D_ARRAY,
            [13, 7, 3],
            [2, 1, 1],
            [9, 5, 2],
        ),
        (CL_MEM_OBJECT_IMAGE3D, [13, 7, 5], [2, 1, 1], [9, 5, 3]),
    ];
    for (ty, dims, o, r) in types {
        let d = match ty {
            CL_MEM_OBJECT_IMAGE1D_ARRAY => desc(ty, dims[0], 0, 0, dims[1]),
            CL_MEM_OBJECT_IMAGE2D_ARRAY => desc(ty, dims[0], dims[1], 0, dims[2]),
            _ => desc(ty, dims[0], dims[1], dims[2], 0),
        };
        let m = image(&env, 0, f, d, null_mut());
        let zero = [0u32; 4];
        // SAFETY: valid arrays and a uint4 colour.
        unsafe {
            assert_eq!(
                clEnqueueFillImage(
                    env.q,
                    m,
                    zero.as_ptr().cast(),
                    [0usize; 3].as_ptr(),
                    dims.as_ptr(),
                    0,
                    null(),
                    null_mut()
                ),
                CL_SUCCESS
            );
        }
        // The host layout: rows of r[0] texels padded to 100 bytes; slices (a 1D array's
        // elements) 1000 bytes apart.
        let (row, slice) = (100usize, 1000usize);
        let layered = ty != CL_MEM_OBJECT_IMAGE1D && ty != CL_MEM_OBJECT_IMAGE2D;
        let host: Vec<u8> = (0..slice * 4).map(|i| (i * 7 + 3) as u8).collect();
        // SAFETY: host holds the region in that layout.
        let w = unsafe {
            clEnqueueWriteImage(
                env.q,
                m,
                CL_TRUE,
                o.as_ptr(),
                r.as_ptr(),
                if ty == CL_MEM_OBJECT_IMAGE1D_ARRAY {
                    0
                } else {
                    row
                },
                if layered { slice } else { 0 },
                host.as_ptr().cast(),
                0,
                null(),
                null_mut(),
            )
        };
        assert_eq!(w, CL_SUCCESS, "{ty:#x}");
        let all = read_all(&env, m, dims, bpp);
        for z in 0..dims[2] {
            for y in 0..dims[1] {
                for x in 0..dims[0] {
                    let at = ((z * dims[1] + y) * dims[0] + x) * bpp;
                    let inside = (0..3).all(|k| {
                        let c = [x, y, z][k];
                        c >= o[k] && c < o[k] + r[k]
                    });
                    let want: Vec<u8> = if inside {
                        let (hx, hy, hz) = (x - o[0], y - o[1], z - o[2]);
                        // A 1D array's element index is its second coordinate: its
                        // elements are `slice` apart.
                        let h = if ty == CL_MEM_OBJECT_IMAGE1D_ARRAY {
                            hy * slice + hx * bpp
                        } else {
                            hz * slice + hy * row + hx * bpp
                        };
                        host[h..h + bpp].to_vec()
                    } else {
                        vec![0; bpp]
                    };
                    assert_eq!(&all[at..at + bpp], &want[..], "{ty:#x} at {x},{y},{z}");
                }
            }
        }
        // SAFETY: the image made above.
        unsafe { clReleaseMemObject(m) };
    }
}

/// "The fill color will be converted to the appropriate image channel format and order":
/// normalized values rounded to nearest even, integers saturated, BGRA stored B first.
#[test]
fn fills_convert_the_colour_to_the_format() {
    let env = setup();
    let cases: [(cl_image_format, [u32; 4], Vec<u8>); 5] = [
        (
            fmt(CL_RGBA, CL_UNORM_INT8),
            [0.5f32, 1.5, -1.0, 0.25].map(f32::to_bits),
            // 127.5 → 128 (even), clamped 255 and 0, 63.75 → 64.
            vec![128, 255, 0, 64],
        ),
        (
            fmt(CL_BGRA, CL_UNORM_INT8),
            [1.0f32, 0.0, 0.2, 1.0].map(f32::to_bits),
            // 0.2 × 255 = 51.
            vec![51, 0, 255, 255],
        ),
        (
            fmt(CL_RGBA, CL_SIGNED_INT8),
            [300i32, -300, 5, -5].map(|v| v as u32),
            vec![127, 128, 5, 251],
        ),
        (
            fmt(CL_R, CL_FLOAT),
            [2.5f32, 9.0, 9.0, 9.0].map(f32::to_bits),
            2.5f32.to_le_bytes().to_vec(),
        ),
        (
            fmt(CL_RG, CL_HALF_FLOAT),
            [1.0f32, -2.0, 0.0, 0.0].map(f32::to_bits),
            vec![0x00, 0x3C, 0x00, 0xC0],
        ),
    ];
    for (f, color, texel) in cases {
        let m = image(
            &env,
            0,
            f,
            desc(CL_MEM_OBJECT_IMAGE2D, 3, 2, 0, 0),
            null_mut(),
        );
        // SAFETY: valid arrays and a 16-byte colour.
        unsafe {
            assert_eq!(
                clEnqueueFillImage(
                    env.q,
                    m,
                    color.as_ptr().cast(),
                    [0usize; 3].as_ptr(),
                    [3usize, 2, 1].as_ptr(),
                    0,
                    null(),
                    null_mut()
                ),
                CL_SUCCESS
            );
        }
        let all = read_all(&env, m, [3, 2, 1], texel.len());
        for t in all.chunks(texel.len()) {
            assert_eq!(t, &texel[..], "{f:x?}");
        }
        // SAFETY: the image made above.
        unsafe { clReleaseMemObject(m) };
    }
}

/// Copies between images (2D into a 3D slice), to a buffer (packed) and back, and maps:
/// CL_MEM_USE_HOST_PTR's map is the application's memory in its own pitch, the other's the
/// image's pages with its pitches.
#[test]
fn copies_and_maps_move_the_texels() {
    let env = setup();
    let f = fmt(CL_RGBA, CL_UNORM_INT8);
    let (w, h) = (10usize, 6usize);
    let row = 48; // the application's pitch: 40 bytes of texels, 8 of padding
    let mut host: Vec<u8> = (0..row * h).map(|i| (i * 13 % 251) as u8).collect();
    let mut d = desc(CL_MEM_OBJECT_IMAGE2D, w, h, 0, 0);
    d.image_row_pitch = row;
    let host_ptr = host.as_mut_ptr();
    let src = image(&env, CL_MEM_USE_HOST_PTR, f, d, host_ptr.cast());
    let orig = host.clone();
    let texel = |x: usize, y: usize| orig[y * row + x * 4..y * row + x * 4 + 4].to_vec();
    // CL_IMAGE_ROW_PITCH of a USE_HOST_PTR image: the application's.
    assert_eq!(info_usize(src, CL_IMAGE_ROW_PITCH), row);
    assert_eq!(info_usize(src, CL_IMAGE_ELEMENT_SIZE), 4);
    let vol = image(
        &env,
        0,
        f,
        desc(CL_MEM_OBJECT_IMAGE3D, w, h, 3, 0),
        null_mut(),
    );
    assert_eq!(info_usize(vol, CL_IMAGE_ROW_PITCH), w * 4);
    assert_eq!(info_usize(vol, CL_IMAGE_SLICE_PITCH), w * 4 * h);
    let mut e = 0;
    // SAFETY: valid handles, arrays and out-pointers throughout.
    unsafe {
        // src (3..7, 1..5) → vol slice 2 at (0, 0).
        assert_eq!(
            clEnqueueCopyImage(
                env.q,
                src,
                vol,
                [3usize, 1, 0].as_ptr(),
                [0usize, 0, 2].as_ptr(),
                [4usize, 4, 1].as_ptr(),
                0,
                null(),
                null_mut()
            ),
            CL_SUCCESS
        );
        // vol → a buffer (packed from offset 16), and the buffer back into src at (6, 2).
        let buf = clCreateBuffer(env.ctx, CL_MEM_READ_WRITE, 256, null_mut(), &mut e);
        assert_eq!(e, CL_SUCCESS);
        assert_eq!(
            clEnqueueCopyImageToBuffer(
                env.q,
                vol,
                buf,
                [0usize, 0, 2].as_ptr(),
                [4usize, 4, 1].as_ptr(),
                16,
                0,
                null(),
                null_mut()
            ),
            CL_SUCCESS
        );
        let mut packed = vec![0u8; 64];
        assert_eq!(
            clEnqueueReadBuffer(
                env.q,
                buf,
                CL_TRUE,
                16,
                64,
                packed.as_mut_ptr().cast(),
                0,
                null(),
                null_mut()
            ),
            CL_SUCCESS
        );
        for y in 0..4 {
            for x in 0..4 {
                let i = (y * 4 + x) * 4;
                assert_eq!(packed[i..i + 4], texel(3 + x, 1 + y)[..], "packed {x},{y}");
            }
        }
        assert_eq!(
            clEnqueueCopyBufferToImage(
                env.q,
                buf,
                src,
                16,
                [6usize, 2, 0].as_ptr(),
                [4usize, 4, 1].as_ptr(),
                0,
                null(),
                null_mut()
            ),
            CL_SUCCESS
        );
        // A map of src: the application's memory, brought up to date, in its pitch.
        let (mut rp, mut sp) = (0usize, 7usize);
        let p = clEnqueueMapImage(
            env.q,
            src,
            CL_TRUE,
            CL_MAP_READ | CL_MAP_WRITE,
            [0usize; 3].as_ptr(),
            [w, h, 1].as_ptr(),
            &mut rp,
            &mut sp,
            0,
            null(),
            null_mut(),
            &mut e,
        )
        .cast::<u8>();
        assert_eq!(e, CL_SUCCESS);
        assert_eq!(p, host_ptr);
        assert_eq!((rp, sp), (row, 0));
        let mapped = std::slice::from_raw_parts_mut(p, row * h);
        let before: Vec<u8> = (0..4).flat_map(|y| texel(3, 1 + y)).collect();
        for y in 0..4 {
            let at = (2 + y) * row + 6 * 4;
            assert_eq!(
                mapped[at..at + 4],
                before[y * 4..y * 4 + 4],
                "mapped row {y}"
            );
        }
        // Written through the map, seen by the image once unmapped.
        mapped[0..4].copy_from_slice(&[1, 2, 3, 4]);
        assert_eq!(
            clEnqueueUnmapMemObject(env.q, src, p.cast(), 0, null(), null_mut()),
            CL_SUCCESS
        );
        let all = read_all(&env, src, [w, h, 1], 4);
        assert_eq!(all[0..4], [1, 2, 3, 4]);
        // A map of vol: its own pages, in its pitches.
        let q = clEnqueueMapImage(
            env.q,
            vol,
            CL_TRUE,
            CL_MAP_READ,
            [1usize, 1, 2].as_ptr(),
            [2usize, 2, 1].as_ptr(),
            &mut rp,
            &mut sp,
            0,
            null(),
            null_mut(),
            &mut e,
        )
        .cast::<u8>();
        assert_eq!(e, CL_SUCCESS);
        assert_eq!(
            (rp, sp),
            (w * 4, w * 4 * 8),
            "3D slices a multiple of 4 rows apart"
        );
        let got = std::slice::from_raw_parts(q, 4);
        assert_eq!(got, &texel(4, 2)[..]);
        assert_eq!(
            clEnqueueUnmapMemObject(env.q, vol, q.cast(), 0, null(), null_mut()),
            CL_SUCCESS
        );
        assert_eq!(clFinish(env.q), CL_SUCCESS);
        for m in [src, vol, buf] {
            assert_eq!(clReleaseMemObject(m), CL_SUCCESS);
        }
    }
}

const KERNELS: &str = r#"
kernel void blur(read_only image2d_t src, sampler_t s, write_only image2d_t dst) {
    int2 p = (int2)(get_global_id(0), get_global_id(1));
    float2 c = (float2)(p.x + 1.0f, p.y + 0.5f);
    write_imagef(dst, p, read_imagef(src, s, c));
}
kernel void size3d(read_only image3d_t v, global int *out) {
    out[0] = get_image_width(v) * 10000 + get_image_height(v) * 100 + get_image_depth(v);
}
"#;

/// Image and sampler arguments: clSetKernelArg's checks, clGetKernelArgInfo's access
/// qualifiers, and a kernel that samples with a linear filter between two texels (x + 1.0 is
/// the edge between texels x and x + 1 in unnormalized coordinates, y + 0.5 a centre) and
/// writes, against the mean computed here.
#[test]
fn image_and_sampler_arguments_run_a_kernel() {
    let env = setup();
    let mut e = 0;
    // SAFETY: valid handles, strings, arrays and out-pointers throughout.
    unsafe {
        let src = CString::new(KERNELS).unwrap();
        let mut sp = src.as_ptr();
        let prog = clCreateProgramWithSource(env.ctx, 1, &mut sp, null(), &mut e);
        assert_eq!(e, CL_SUCCESS);
        let opts = CString::new("-cl-kernel-arg-info").unwrap();
        assert_eq!(
            clBuildProgram(prog, 1, &env.d, opts.as_ptr(), None, null_mut()),
            CL_SUCCESS
        );
        let name = CString::new("blur").unwrap();
        let k = clCreateKernel(prog, name.as_ptr(), &mut e);
        assert_eq!(e, CL_SUCCESS);
        let access = |i: cl_uint| {
            let mut v: cl_uint = 0;
            assert_eq!(
                clGetKernelArgInfo(
                    k,
                    i,
                    CL_KERNEL_ARG_ACCESS_QUALIFIER,
                    4,
                    (&raw mut v).cast(),
                    null_mut()
                ),
                CL_SUCCESS
            );
            v
        };
        assert_eq!(access(0), CL_KERNEL_ARG_ACCESS_READ_ONLY);
        assert_eq!(access(1), CL_KERNEL_ARG_ACCESS_NONE);
        assert_eq!(access(2), CL_KERNEL_ARG_ACCESS_WRITE_ONLY);

        let (w, h) = (8usize, 4usize);
        let f = fmt(CL_RGBA, CL_FLOAT);
        let mut texels: Vec<f32> = (0..w * h * 4).map(|i| (i % 37) as f32 * 0.25).collect();
        let input = image(
            &env,
            CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
            f,
            desc(CL_MEM_OBJECT_IMAGE2D, w, h, 0, 0),
            texels.as_mut_ptr().cast(),
        );
        let output = image(
            &env,
            CL_MEM_WRITE_ONLY,
            f,
            desc(CL_MEM_OBJECT_IMAGE2D, w, h, 0, 0),
            null_mut(),
        );
        let vol = image(
            &env,
            0,
            f,
            desc(CL_MEM_OBJECT_IMAGE3D, 5, 3, 2, 0),
            null_mut(),
        );
        let buf = clCreateBuffer(env.ctx, CL_MEM_READ_WRITE, 64, null_mut(), &mut e);
        let smp = clCreateSampler(
            env.ctx,
            CL_FALSE,
            CL_ADDRESS_CLAMP_TO_EDGE,
            CL_FILTER_LINEAR,
            &mut e,
        );
        assert_eq!(e, CL_SUCCESS);
        let set = |i: cl_uint, m: &cl_mem| clSetKernelArg(k, i, 8, (m as *const cl_mem).cast());
        // "CL_INVALID_ARG_VALUE if the argument is an image declared with the read_only
        // qualifier and arg_value refers to an image object created with cl_mem_flags of
        // CL_MEM_WRITE_ONLY".
        assert_eq!(set(0, &output), CL_INVALID_ARG_VALUE);
        assert_eq!(set(2, &input), CL_INVALID_ARG_VALUE);
        // A 3D image for an image2d_t, a buffer for an image, an image for a sampler.
        assert_eq!(set(0, &vol), CL_INVALID_ARG_VALUE);
        assert_eq!(set(0, &buf), CL_INVALID_MEM_OBJECT);
        assert_eq!(set(1, &input), CL_INVALID_SAMPLER);
        assert_eq!(
            clSetKernelArg(k, 1, 4, (&raw const smp).cast()),
            CL_INVALID_ARG_SIZE
        );
        assert_eq!(set(0, &input), CL_SUCCESS);
        assert_eq!(clSetKernelArg(k, 1, 8, (&raw const smp).cast()), CL_SUCCESS);
        assert_eq!(set(2, &output), CL_SUCCESS);
        let global = [w, h];
        assert_eq!(
            clEnqueueNDRangeKernel(
                env.q,
                k,
                2,
                null(),
                global.as_ptr(),
                null(),
                0,
                null(),
                null_mut()
            ),
            CL_SUCCESS
        );
        let got = read_all(&env, output, [w, h, 1], 16);
        for y in 0..h {
            for x in 0..w {
                let x1 = (x + 1).min(w - 1); // clamp to edge
                for c in 0..4 {
                    let a = texels[(y * w + x) * 4 + c];
                    let b = texels[(y * w + x1) * 4 + c];
                    let want = (a + b) / 2.0;
                    let at = ((y * w + x) * 4 + c) * 4;
                    let v = f32::from_le_bytes(got[at..at + 4].try_into().unwrap());
                    assert!((v - want).abs() <= 1e-5, "({x}, {y}).{c}: {v} != {want}");
                }
            }
        }
        // The 3D image's size, pushed to the kernel.
        let name = CString::new("size3d").unwrap();
        let k3 = clCreateKernel(prog, name.as_ptr(), &mut e);
        assert_eq!(e, CL_SUCCESS);
        assert_eq!(
            clSetKernelArg(k3, 0, 8, (&raw const vol).cast()),
            CL_SUCCESS
        );
        assert_eq!(
            clSetKernelArg(k3, 1, 8, (&raw const buf).cast()),
            CL_SUCCESS
        );
        assert_eq!(
            clEnqueueNDRangeKernel(
                env.q,
                k3,
                1,
                null(),
                [1usize].as_ptr(),
                null(),
                0,
                null(),
                null_mut()
            ),
            CL_SUCCESS
        );
        let mut out = 0i32;
        assert_eq!(
            clEnqueueReadBuffer(
                env.q,
                buf,
                CL_TRUE,
                0,
                4,
                (&raw mut out).cast(),
                0,
                null(),
                null_mut()
            ),
            CL_SUCCESS
        );
        assert_eq!(out, 50302);
        assert_eq!(clReleaseKernel(k), CL_SUCCESS);
        assert_eq!(clReleaseKernel(k3), CL_SUCCESS);
        assert_eq!(clReleaseSampler(smp), CL_SUCCESS);
        assert_eq!(clReleaseProgram(prog), CL_SUCCESS);
        for m in [input, output, vol, buf] {
            assert_eq!(clReleaseMemObject(m), CL_SUCCESS);
        }
    }
}

const DEPTH: &str = r#"
kernel void depth(read_only image2d_depth_t src, sampler_t s, write_only image2d_depth_t dst,
                  global int *order) {
    int2 p = (int2)(get_global_id(0), get_global_id(1));
    float v = read_imagef(src, s, (float2)(p.x + 0.5f, p.y + 0.5f));
    float w = read_imagef(src, (int2)(p.y, p.x));
    write_imagef(dst, p, v * 2.0f + w);
    order[0] = get_image_channel_order(src);
}
kernel void plain(read_only image2d_t src, global float *out) {
    out[0] = read_imagef(src, (int2)(0, 0)).x;
}
"#;

/// cl_khr_depth_images: CL_DEPTH images of floats (R32_FLOAT) and UNORM16 (R16_UNORM), read
/// through the sampler and without, written with one float, only for depth arguments.
#[test]
fn depth_images_read_and_write_one_float() {
    let env = setup();
    let mut e = 0;
    // SAFETY: valid handles, strings, arrays and out-pointers throughout.
    unsafe {
        let src = CString::new(DEPTH).unwrap();
        let mut sp = src.as_ptr();
        let prog = clCreateProgramWithSource(env.ctx, 1, &mut sp, null(), &mut e);
        assert_eq!(
            clBuildProgram(prog, 1, &env.d, null(), None, null_mut()),
            CL_SUCCESS
        );
        let name = CString::new("depth").unwrap();
        let k = clCreateKernel(prog, name.as_ptr(), &mut e);
        assert_eq!(e, CL_SUCCESS);
        let n = 4usize;
        let mut depths: Vec<f32> = (0..n * n).map(|i| i as f32 * 0.125 - 0.5).collect();
        let input = image(
            &env,
            CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
            fmt(CL_DEPTH, CL_FLOAT),
            desc(CL_MEM_OBJECT_IMAGE2D, n, n, 0, 0),
            depths.as_mut_ptr().cast(),
        );
        let output = image(
            &env,
            CL_MEM_WRITE_ONLY,
            fmt(CL_DEPTH, CL_UNORM_INT16),
            desc(CL_MEM_OBJECT_IMAGE2D, n, n, 0, 0),
            null_mut(),
        );
        // Depth formats are for 2D images and 2D arrays.
        let d3 = desc(CL_MEM_OBJECT_IMAGE3D, n, n, 2, 0);
        let f = fmt(CL_DEPTH, CL_FLOAT);
        assert!(clCreateImage(env.ctx, 0, &f, &d3, null_mut(), &mut e).is_null());
        assert_eq!(e, CL_IMAGE_FORMAT_NOT_SUPPORTED);
        let smp = clCreateSampler(
            env.ctx,
            CL_FALSE,
            CL_ADDRESS_CLAMP_TO_EDGE,
            CL_FILTER_NEAREST,
            &mut e,
        );
        let buf = clCreateBuffer(env.ctx, CL_MEM_READ_WRITE, 64, null_mut(), &mut e);
        assert_eq!(
            clSetKernelArg(k, 0, 8, (&raw const input).cast()),
            CL_SUCCESS
        );
        assert_eq!(clSetKernelArg(k, 1, 8, (&raw const smp).cast()), CL_SUCCESS);
        assert_eq!(
            clSetKernelArg(k, 2, 8, (&raw const output).cast()),
            CL_SUCCESS
        );
        assert_eq!(clSetKernelArg(k, 3, 8, (&raw const buf).cast()), CL_SUCCESS);
        assert_eq!(
            clEnqueueNDRangeKernel(
                env.q,
                k,
                2,
                null(),
                [n, n].as_ptr(),
                null(),
                0,
                null(),
                null_mut()
            ),
            CL_SUCCESS
        );
        let got = read_all(&env, output, [n, n, 1], 2);
        for y in 0..n {
            for x in 0..n {
                let v = depths[y * n + x] * 2.0 + depths[x * n + y];
                // UNORM16: clamped to [0, 1], × 65535, rounded to nearest even.
                let want = (v.clamp(0.0, 1.0) * 65535.0).round_ties_even() as u16;
                let at = (y * n + x) * 2;
                let g = u16::from_le_bytes([got[at], got[at + 1]]);
                assert_eq!(g, want, "({x}, {y}) of {v}");
            }
        }
        let mut order = 0i32;
        assert_eq!(
            clEnqueueReadBuffer(
                env.q,
                buf,
                CL_TRUE,
                0,
                4,
                (&raw mut order).cast(),
                0,
                null(),
                null_mut()
            ),
            CL_SUCCESS
        );
        assert_eq!(order as u32, CL_DEPTH);
        // A depth image is no value for an image2d_t, nor a plain image for a depth argument.
        let name = CString::new("plain").unwrap();
        let k2 = clCreateKernel(prog, name.as_ptr(), &mut e);
        assert_eq!(
            clSetKernelArg(k2, 0, 8, (&raw const input).cast()),
            CL_INVALID_ARG_VALUE
        );
        let rgba = image(
            &env,
            CL_MEM_READ_ONLY,
            fmt(CL_R, CL_FLOAT),
            desc(CL_MEM_OBJECT_IMAGE2D, n, n, 0, 0),
            null_mut(),
        );
        assert_eq!(
            clSetKernelArg(k, 0, 8, (&raw const rgba).cast()),
            CL_INVALID_ARG_VALUE
        );
        assert_eq!(
            clSetKernelArg(k2, 0, 8, (&raw const rgba).cast()),
            CL_SUCCESS
        );
        for m in [input, output, buf, rgba] {
            assert_eq!(clReleaseMemObject(m), CL_SUCCESS);
        }
        clReleaseKernel(k);
        clReleaseKernel(k2);
        clReleaseSampler(smp);
        clReleaseProgram(prog);
    }
}
