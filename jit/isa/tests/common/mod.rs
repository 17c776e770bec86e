//! Helpers shared by tests: running Intel's iga64 and ocloc (references this
//! project did not write), and pulling the raw kernel heap out of an ocloc
//! patch-token binary.
#![allow(dead_code)]

pub mod corpus;

use std::path::{Path, PathBuf};
use std::process::Command;

/// A scratch directory unique to this test process.
pub fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("gencl-{}-{}", name, std::process::id()));
    std::fs::create_dir_all(&d).expect("create scratch dir");
    d
}

fn tool(name: &str) -> String {
    let ok = Command::new("sh")
        .arg("-c")
        .arg(format!("command -v {name}"))
        .output()
        .map(|o| o.status.success())
        .unwrap_or(false);
    assert!(ok, "required tool `{name}` is not installed (Debian: iga64 is in libigc-tools, ocloc in intel-opencl-icd)");
    name.to_string()
}

/// `iga64 -d -p=9` of raw bytes.
pub fn iga_disasm(bytes: &[u8], dir: &Path, tag: &str) -> String {
    let bin = dir.join(format!("{tag}.bin"));
    std::fs::write(&bin, bytes).unwrap();
    let out = Command::new(tool("iga64"))
        .args(["-d", "-p=9"])
        .arg(&bin)
        .output()
        .expect("run iga64");
    assert!(
        out.status.success(),
        "iga64 -d failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("utf8")
}

/// `iga64 -a -p=9` (no auto-compaction: IGA's default) of assembly text.
pub fn iga_asm(text: &str, dir: &Path, tag: &str) -> Result<Vec<u8>, String> {
    iga_asm_with(text, dir, tag, false)
}

/// `iga64 -a -p=9`, compacting every instruction it can (`-Xautocompact`)
/// or only those marked `{Compacted}` (`-Xno-autocompact`).
pub fn iga_asm_with(text: &str, dir: &Path, tag: &str, auto: bool) -> Result<Vec<u8>, String> {
    let asm = dir.join(format!("{tag}.asm"));
    let bin = dir.join(format!("{tag}-{auto}.out"));
    std::fs::write(&asm, text).unwrap();
    let flag = if auto {
        "-Xautocompact"
    } else {
        "-Xno-autocompact"
    };
    let out = Command::new(tool("iga64"))
        .args(["-a", "-p=9", flag, "-Wnone"])
        .arg(&asm)
        .arg("-o")
        .arg(&bin)
        .output()
        .expect("run iga64");
    if !out.status.success() {
        return Err(String::from_utf8_lossy(&out.stderr).into_owned());
    }
    Ok(std::fs::read(&bin).unwrap())
}

/// The normalisation rule for comparing with iga64 text: trailing whitespace
/// of each line is dropped (IGA pads columns even at end of line); nothing
/// else is changed.
pub fn normalise(text: &str) -> Vec<String> {
    text.lines().map(|l| l.trim_end().to_string()).collect()
}

/// Line equality under the normalisation rule: equal after trimming, except
/// that a send's end-of-line message description may stop early: where
/// gencl's comment (`wr:.., rd:..; sfid[; message]`) is shorter, it must be a
/// prefix of IGA's ending at a `; ` boundary, and it always includes the
/// `wr/rd; sfid` part.
pub fn same_line(ours: &str, iga: &str) -> bool {
    if ours == iga {
        return true;
    }
    match (ours.split_once(" // "), iga.split_once(" // ")) {
        (Some((oa, oc)), Some((ia, ic))) => {
            oa == ia && oc.contains("; ") && ic.starts_with(oc) && ic[oc.len()..].starts_with("; ")
        }
        _ => false,
    }
}

/// Compile OpenCL C with `ocloc -device skl` and return the kernel heaps
/// (name, bytes up to KernelUnpaddedSize) of every kernel in the binary.
pub fn ocloc_kernels(src: &str, dir: &Path, tag: &str) -> Vec<(String, Vec<u8>)> {
    let cl = dir.join(format!("{tag}.cl"));
    std::fs::write(&cl, src).unwrap();
    let out = Command::new(tool("ocloc"))
        .args(["compile", "-file"])
        .arg(&cl)
        .args([
            "-device",
            "skl",
            "-options",
            "-cl-std=CL2.0",
            "-q",
            "-out_dir",
        ])
        .arg(dir)
        .output()
        .expect("run ocloc");
    assert!(
        out.status.success(),
        "ocloc failed: {}",
        String::from_utf8_lossy(&out.stdout)
    );
    let bin = std::fs::read(dir.join(format!("{tag}_Gen9core.bin"))).expect("ocloc output");
    kernel_heaps(&bin).expect("parse ocloc binary")
}

fn u32_at(b: &[u8], o: usize) -> Option<u32> {
    Some(u32::from_le_bytes(b.get(o..o + 4)?.try_into().ok()?))
}
fn u64_at(b: &[u8], o: usize) -> Option<u64> {
    Some(u64::from_le_bytes(b.get(o..o + 8)?.try_into().ok()?))
}

/// Find the patch-token program (magic "CTNI") in an ocloc ELF and return
/// each kernel's heap. Layout (compute-runtime patch_shared.h): program
/// header of 7 u32 (Magic, Version, Device, GPUPointerSizeInBytes,
/// NumberOfKernels, SteppingId, PatchListSize) and its patch list; then per
/// kernel a header {CheckSum u32, ShaderHashCode u64, KernelNameSize,
/// PatchListSize, KernelHeapSize, GeneralStateHeapSize, DynamicStateHeapSize,
/// SurfaceStateHeapSize, KernelUnpaddedSize: u32} followed by the name, the
/// kernel heap, GSH, DSH, SSH and the patch list.
pub fn kernel_heaps(elf: &[u8]) -> Option<Vec<(String, Vec<u8>)>> {
    let shoff = u64_at(elf, 0x28)? as usize;
    let shnum = u16::from_le_bytes(elf.get(0x3c..0x3e)?.try_into().ok()?) as usize;
    for i in 0..shnum {
        let sh = shoff + i * 64;
        let off = u64_at(elf, sh + 0x18)? as usize;
        let size = u64_at(elf, sh + 0x20)? as usize;
        let sec = elf.get(off..off + size)?;
        if sec.get(0..4) != Some(&b"CTNI"[..]) {
            continue;
        }
        let nk = u32_at(sec, 16)? as usize;
        let mut o = 28 + u32_at(sec, 24)? as usize;
        let mut res = Vec::new();
        for _ in 0..nk {
            let name_size = u32_at(sec, o + 12)? as usize;
            let patch = u32_at(sec, o + 16)? as usize;
            let heap = u32_at(sec, o + 20)? as usize;
            let gsh = u32_at(sec, o + 24)? as usize;
            let dsh = u32_at(sec, o + 28)? as usize;
            let ssh = u32_at(sec, o + 32)? as usize;
            let unpadded = u32_at(sec, o + 36)? as usize;
            o += 40;
            let name = String::from_utf8_lossy(sec.get(o..o + name_size)?)
                .trim_end_matches('\0')
                .to_string();
            o += name_size;
            res.push((name, sec.get(o..o + unpadded.min(heap))?.to_vec()));
            o += heap + gsh + dsh + ssh + patch;
        }
        return Some(res);
    }
    None
}

/// Drop the `Compacted` option from iga64 text, so that iga64 decides anew
/// (iga64 prints options without spaces: `{Compacted}`, `{AccWrEn,Compacted}`).
pub fn strip_compacted(text: &str) -> String {
    text.replace("{Compacted}", "")
        .replace(",Compacted", "")
        .replace("Compacted,", "")
}

/// Every kernel ocloc builds from the IGC corpus (tests/igc/*.cl), as
/// ("file/kernel", heap), files in name order. A category not written yet has
/// no kernels (ocloc rejects an empty file); callers count what they get.
pub fn igc_corpus(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let src_dir = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/igc");
    let mut files: Vec<std::path::PathBuf> = std::fs::read_dir(&src_dir)
        .unwrap_or_else(|e| panic!("read {}: {e}", src_dir.display()))
        .map(|e| e.expect("dir entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "cl"))
        .collect();
    files.sort();
    let mut out = Vec::new();
    for path in files {
        let src = std::fs::read_to_string(&path).expect("read kernel source");
        if !src.contains("kernel") {
            continue;
        }
        let tag = path.file_stem().unwrap().to_string_lossy().into_owned();
        for (name, heap) in ocloc_kernels(&src, dir, &tag) {
            out.push((format!("{tag}/{name}"), heap));
        }
    }
    out
}
