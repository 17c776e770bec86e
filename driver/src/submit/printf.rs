//! printf's output: the records a launch left in its printf buffer (`gencl_jit::abi::Printf`),
//! formatted as OpenCL C 6.15.14 says, in buffer order.
//!
//! Each conversion is handed to the C library's `snprintf` with its flags, width and
//! precision, so that `%g`, `%a`, `%e` and the rest print exactly as the C99 printf that
//! OpenCL's is defined by. OpenCL's own parts are done here: vector conversions (`%v4hlf`:
//! each component with the conversion, separated by commas), the `hh`, `h`, `hl` and `l`
//! lengths on the sizes the kernel stored, and `%s` from the string literal the compiler
//! kept.

use gencl_jit::abi::{PrintfArg, PrintfFormat};

/// The text of the records in `data` (the bytes after the buffer's counter). A record whose
/// format index is unknown or that runs past the data ends the output: the buffer holds
/// nothing after it that could be trusted.
pub fn format_records(formats: &[PrintfFormat], data: &[u8]) -> String {
    let mut out = String::new();
    let mut at = 0usize;
    while at + 4 <= data.len() {
        let id = u32::from_le_bytes(data[at..at + 4].try_into().unwrap_or_default()) as usize;
        let Some(f) = formats.get(id) else { break };
        let size: usize = f.args.iter().map(|a| a.record_bytes() as usize).sum();
        let Some(payload) = data.get(at + 4..at + 4 + size) else {
            break;
        };
        out.push_str(&format_one(f, payload));
        at += 4 + size;
    }
    out
}

/// One argument's values as the record holds them.
enum Value<'a> {
    Ints(Vec<u64>),
    Floats(Vec<f64>),
    Str(&'a str),
}

fn values<'a>(arg: &'a PrintfArg, bytes: &[u8]) -> Value<'a> {
    let word = |k: usize, b: usize| -> u64 {
        let mut w = [0u8; 8];
        w[..b].copy_from_slice(&bytes[k * b..k * b + b]);
        u64::from_le_bytes(w)
    };
    match arg {
        PrintfArg::Int {
            bytes: b,
            components,
        } => {
            let b = *b as usize;
            Value::Ints((0..*components as usize).map(|k| word(k, b)).collect())
        }
        PrintfArg::Float {
            bytes: b,
            components,
        } => {
            let b = *b as usize;
            Value::Floats(
                (0..*components as usize)
                    .map(|k| {
                        let w = word(k, b);
                        if b == 8 {
                            f64::from_bits(w)
                        } else {
                            f64::from(f32::from_bits(w as u32))
                        }
                    })
                    .collect(),
            )
        }
        PrintfArg::Str(s) => Value::Str(s),
    }
}

/// A conversion specification: `%[flags][width][.precision][vN][length]conversion`.
struct Spec {
    /// Flags, width and precision as written (passed on to snprintf).
    head: String,
    length: String,
    conv: u8,
}

/// Parse the specification starting after a '%' at `s[i..]`; returns it and the index after.
fn parse_spec(s: &[u8], mut i: usize) -> Option<(Spec, usize)> {
    let start = i;
    while i < s.len() && b"-+ #0".contains(&s[i]) {
        i += 1;
    }
    while i < s.len() && s[i].is_ascii_digit() {
        i += 1;
    }
    if i < s.len() && s[i] == b'.' {
        i += 1;
        while i < s.len() && s[i].is_ascii_digit() {
            i += 1;
        }
    }
    let head = String::from_utf8_lossy(&s[start..i]).into_owned();
    // The vector size (`v4`) is the argument's own: the record has its components.
    if i < s.len() && s[i] == b'v' {
        i += 1;
        while i < s.len() && s[i].is_ascii_digit() {
            i += 1;
        }
    }
    let l = i;
    while i < s.len() && b"hlL".contains(&s[i]) {
        i += 1;
    }
    let length = String::from_utf8_lossy(&s[l..i]).into_owned();
    let conv = *s.get(i)?;
    Some((Spec { head, length, conv }, i + 1))
}

fn format_one(f: &PrintfFormat, payload: &[u8]) -> String {
    let s = f.format.as_bytes();
    let mut out = Vec::new();
    let mut args = f.args.iter();
    let mut at = 0usize;
    let mut i = 0usize;
    while i < s.len() {
        if s[i] != b'%' {
            out.push(s[i]);
            i += 1;
            continue;
        }
        if s.get(i + 1) == Some(&b'%') {
            out.push(b'%');
            i += 2;
            continue;
        }
        let Some((spec, next)) = parse_spec(s, i + 1) else {
            out.extend_from_slice(&s[i..]);
            break;
        };
        i = next;
        let Some(arg) = args.next() else {
            // More conversions than arguments is undefined; print nothing for them.
            continue;
        };
        let size = arg.record_bytes() as usize;
        let Some(bytes) = payload.get(at..at + size) else {
            break;
        };
        at += size;
        let texts: Vec<String> = match values(arg, bytes) {
            Value::Str(t) => vec![c_format(&spec, Arg::Str(t))],
            Value::Ints(v) => v
                .iter()
                .map(|x| c_format(&spec, Arg::Int(*x, int_bytes(arg))))
                .collect(),
            Value::Floats(v) => v.iter().map(|x| c_format(&spec, Arg::Float(*x))).collect(),
        };
        out.extend_from_slice(texts.join(",").as_bytes());
    }
    String::from_utf8_lossy(&out).into_owned()
}

fn int_bytes(a: &PrintfArg) -> u32 {
    match a {
        PrintfArg::Int { bytes, .. } => *bytes,
        _ => 4,
    }
}

enum Arg<'a> {
    /// Raw bits and the bytes the kernel stored them in.
    Int(u64, u32),
    Float(f64),
    Str(&'a str),
}

/// One value through snprintf with the spec's flags, width and precision. The length
/// modifier is OpenCL's: `hh` and `h` narrow the value, `l` is 64 bits, `hl` (vectors
/// only) is 32 bits; C gets `ll` for 64-bit values and nothing otherwise.
fn c_format(spec: &Spec, arg: Arg<'_>) -> String {
    let conv = spec.conv;
    let head = &spec.head;
    match arg {
        Arg::Str(t) if conv == b's' => snprintf(&format!("%{head}s"), CArg::Str(t)),
        Arg::Str(t) => t.to_string(),
        Arg::Float(x) => match conv {
            b'f' | b'F' | b'e' | b'E' | b'g' | b'G' | b'a' | b'A' => {
                snprintf(&format!("%{head}{}", conv as char), CArg::Double(x))
            }
            _ => snprintf(&format!("%{head}g"), CArg::Double(x)),
        },
        Arg::Int(bits, bytes) => {
            let signed = matches!(conv, b'd' | b'i');
            let v: i64 = match (spec.length.as_str(), signed) {
                ("hh", true) => i64::from(bits as u8 as i8),
                ("hh", false) => i64::from(bits as u8),
                ("h", true) => i64::from(bits as u16 as i16),
                ("h", false) => i64::from(bits as u16),
                (_, true) if bytes == 4 => i64::from(bits as u32 as i32),
                (_, false) if bytes == 4 => i64::from(bits as u32),
                _ => bits as i64,
            };
            match conv {
                b'd' | b'i' | b'o' | b'u' | b'x' | b'X' => {
                    snprintf(&format!("%{head}ll{}", conv as char), CArg::Long(v))
                }
                b'c' => snprintf(&format!("%{head}c"), CArg::Int(v as i32)),
                b'p' => snprintf(&format!("%{head}p"), CArg::Ptr(bits as usize)),
                // A float conversion of an integer is undefined: print its bits' value.
                _ => snprintf(&format!("%{head}lld"), CArg::Long(v)),
            }
        }
    }
}

enum CArg<'a> {
    Long(i64),
    Int(i32),
    Double(f64),
    Ptr(usize),
    Str(&'a str),
}

fn snprintf(fmt: &str, arg: CArg<'_>) -> String {
    let Ok(cfmt) = std::ffi::CString::new(fmt) else {
        return String::new();
    };
    let cstr = match &arg {
        CArg::Str(s) => std::ffi::CString::new(s.replace('\0', "")).unwrap_or_default(),
        _ => std::ffi::CString::default(),
    };
    let mut buf = vec![0u8; 512];
    loop {
        let p = buf.as_mut_ptr().cast::<libc::c_char>();
        let n = buf.len();
        // SAFETY: `buf` has `n` writable bytes; `cfmt` is a NUL-terminated format with exactly
        // one conversion, whose C type matches the one argument passed (checked by the match:
        // %lld/%llx... with a long long, %c with an int, %e/%f/%g/%a with a double, %p with a
        // pointer, %s with `cstr`, a NUL-terminated string that outlives the call).
        let r = unsafe {
            match &arg {
                CArg::Long(v) => libc::snprintf(p, n, cfmt.as_ptr(), *v as libc::c_longlong),
                CArg::Int(v) => libc::snprintf(p, n, cfmt.as_ptr(), *v as libc::c_int),
                CArg::Double(v) => libc::snprintf(p, n, cfmt.as_ptr(), *v as libc::c_double),
                CArg::Ptr(v) => libc::snprintf(p, n, cfmt.as_ptr(), *v as *const libc::c_void),
                CArg::Str(_) => libc::snprintf(p, n, cfmt.as_ptr(), cstr.as_ptr()),
            }
        };
        let Ok(r) = usize::try_from(r) else {
            return String::new();
        };
        if r < n {
            buf.truncate(r);
            return String::from_utf8_lossy(&buf).into_owned();
        }
        // A width larger than the buffer: once more with room for all of it.
        buf = vec![0u8; r + 1];
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rec(id: u32, words: &[u8]) -> Vec<u8> {
        let mut v = id.to_le_bytes().to_vec();
        v.extend_from_slice(words);
        v
    }

    #[test]
    fn formats_as_c_and_opencl_say() {
        let formats = vec![
            PrintfFormat {
                format: "x=%d y=%5.2f %s %%|%v4hlx|%v2f|%c|%hhd|%lu\n".into(),
                args: vec![
                    PrintfArg::Int {
                        bytes: 4,
                        components: 1,
                    },
                    PrintfArg::Float {
                        bytes: 8,
                        components: 1,
                    },
                    PrintfArg::Str("hello".into()),
                    PrintfArg::Int {
                        bytes: 4,
                        components: 4,
                    },
                    PrintfArg::Float {
                        bytes: 4,
                        components: 2,
                    },
                    PrintfArg::Int {
                        bytes: 4,
                        components: 1,
                    },
                    PrintfArg::Int {
                        bytes: 4,
                        components: 1,
                    },
                    PrintfArg::Int {
                        bytes: 8,
                        components: 1,
                    },
                ],
            },
            PrintfFormat {
                format: "%a %g\n".into(),
                args: vec![
                    PrintfArg::Float {
                        bytes: 8,
                        components: 1,
                    },
                    PrintfArg::Float {
                        bytes: 8,
                        components: 1,
                    },
                ],
            },
        ];
        let mut data = Vec::new();
        let mut p = Vec::new();
        p.extend_from_slice(&(-7i32).to_le_bytes());
        p.extend_from_slice(&3.25f64.to_le_bytes());
        for x in [1u32, 0xab, 0x100, 0xffff_ffff] {
            p.extend_from_slice(&x.to_le_bytes());
        }
        p.extend_from_slice(&1.5f32.to_le_bytes());
        p.extend_from_slice(&(-0.25f32).to_le_bytes());
        p.extend_from_slice(&(b'Z' as u32).to_le_bytes());
        p.extend_from_slice(&0x1ffu32.to_le_bytes());
        p.extend_from_slice(&u64::MAX.to_le_bytes());
        data.extend(rec(0, &p));
        let mut q = Vec::new();
        q.extend_from_slice(&1.0f64.to_le_bytes());
        q.extend_from_slice(&1e-5f64.to_le_bytes());
        data.extend(rec(1, &q));
        // A truncated record at the end is dropped.
        data.extend(rec(1, &[0; 3]));
        assert_eq!(
            format_records(&formats, &data),
            "x=-7 y= 3.25 hello %|1,ab,100,ffffffff|1.500000,-0.250000|Z|-1|18446744073709551615\n\
             0x1p+0 1e-05\n"
        );
    }
}
