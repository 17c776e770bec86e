//! The OpenCL C built-in library: libclc-15's SPIR-V (`/usr/lib/clc/spirv64-mesa3d-.spv`,
//! Debian package libclc-15, the library Mesa's rusticl links), loaded and indexed once
//! per process. A built-in the JIT has no exact sequence for (sin, exp, pow, fmod,
//! length, ...) is found here by its Itanium-mangled name and inlined into the kernel;
//! its constant tables become the kernel's second data buffer.

use std::collections::HashMap;
use std::sync::OnceLock;

use rspirv::dr::Operand;
use rspirv::spirv;

use super::lower::ModuleInfo;
use super::FrontendError;

/// Where Debian's libclc-15 puts the SPIR-V library; `GENCL_LIBCLC` overrides it.
pub const DEFAULT_PATH: &str = "/usr/lib/clc/spirv64-mesa3d-.spv";

pub(super) struct Library {
    pub info: ModuleInfo<'static>,
    /// Exported function name → its id.
    pub exports: HashMap<String, u32>,
}

static LIBCLC: OnceLock<Result<Library, String>> = OnceLock::new();

/// The library, loaded on first use (about 60 ms, once per process).
pub(super) fn libclc() -> Result<&'static Library, FrontendError> {
    LIBCLC
        .get_or_init(load)
        .as_ref()
        .map_err(|e| FrontendError::Tool(e.clone()))
}

fn load() -> Result<Library, String> {
    let path = std::env::var("GENCL_LIBCLC").unwrap_or_else(|_| DEFAULT_PATH.into());
    let bytes = std::fs::read(&path).map_err(|e| {
        format!("the built-in library {path} cannot be read ({e}); install Debian's libclc-15")
    })?;
    let loaded = super::spirv::load(&bytes).map_err(|e| format!("{path}: {e}"))?;
    // The library lives as long as the process: leaking it once lets the index borrow it.
    let loaded: &'static super::spirv::Module = Box::leak(Box::new(loaded));
    let mut info = ModuleInfo::new(&loaded.module).map_err(|e| format!("{path}: {e}"))?;
    info.set_odd_int_widths(loaded.odd_int_widths.clone());
    let mut exports = HashMap::new();
    for d in &loaded.module.annotations {
        if let (
            Some(Operand::IdRef(id)),
            Some(Operand::Decoration(spirv::Decoration::LinkageAttributes)),
            Some(Operand::LiteralString(name)),
            Some(Operand::LinkageType(spirv::LinkageType::Export)),
        ) = (
            d.operands.first(),
            d.operands.get(1),
            d.operands.get(2),
            d.operands.get(3),
        ) {
            exports.insert(name.clone(), *id);
        }
    }
    Ok(Library { info, exports })
}

/// A parameter type as Itanium mangling sees it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Param {
    /// A builtin type: `f`, `d`, `Dh`, `i`, ...
    Scalar(&'static str),
    /// A vector: `Dv4_f`.
    Vector(u32, &'static str),
    /// A pointer into an address space (`P` private, `PU3AS1` global, `PU3AS3` local).
    Pointer(&'static str, Box<Param>),
}

/// The Itanium-mangled name of an OpenCL C built-in with these parameter types, with the
/// substitutions that repeated vector and pointer types take (`pow(float4, float4)` is
/// `_Z3powDv4_fS_`, `modf(float2, float2 *)` is `_Z4modfDv2_fPS_`).
pub(super) fn mangle(name: &str, params: &[Param]) -> String {
    let mut out = format!("_Z{}{}", name.len(), name);
    let mut subs: Vec<Param> = Vec::new();
    for p in params {
        out.push_str(&encode(p, &mut subs));
    }
    out
}

fn encode(p: &Param, subs: &mut Vec<Param>) -> String {
    if !matches!(p, Param::Scalar(_)) {
        if let Some(k) = subs.iter().position(|s| s == p) {
            return if k == 0 {
                "S_".to_string()
            } else {
                format!("S{}_", k - 1)
            };
        }
    }
    let text = match p {
        Param::Scalar(c) => return c.to_string(),
        Param::Vector(n, c) => format!("Dv{n}_{c}"),
        Param::Pointer(prefix, inner) => format!("{prefix}{}", encode(inner, subs)),
    };
    subs.push(p.clone());
    text
}

#[cfg(test)]
mod tests {
    use super::mangle;

    #[test]
    fn mangling_matches_clang() {
        use super::Param::*;
        let v = |n, c| Vector(n, c);
        assert_eq!(mangle("sin", &[Scalar("f")]), "_Z3sinf");
        assert_eq!(mangle("pow", &[v(4, "f"), v(4, "f")]), "_Z3powDv4_fS_");
        assert_eq!(
            mangle("ldexp", &[v(2, "d"), v(2, "i")]),
            "_Z5ldexpDv2_dDv2_i"
        );
        assert_eq!(
            mangle("fma", &[v(3, "f"), v(3, "f"), v(3, "f")]),
            "_Z3fmaDv3_fS_S_"
        );
        assert_eq!(
            mangle("smoothstep", &[Scalar("f"), Scalar("f"), v(2, "f")]),
            "_Z10smoothstepffDv2_f"
        );
        // Pointers: private, global; a pointer to a vector already seen.
        assert_eq!(
            mangle("frexp", &[Scalar("f"), Pointer("P", Box::new(Scalar("i")))]),
            "_Z5frexpfPi"
        );
        assert_eq!(
            mangle(
                "modf",
                &[Scalar("f"), Pointer("PU3AS1", Box::new(Scalar("f")))]
            ),
            "_Z4modffPU3AS1f"
        );
        assert_eq!(
            mangle("modf", &[v(2, "f"), Pointer("P", Box::new(v(2, "f")))]),
            "_Z4modfDv2_fPS_"
        );
    }
}
