//! The Gen9 family by PCI id: which platform and GT level an i915 device is, and the facts
//! that follow from it (threads per EU, the command streamer's timestamp frequency, the
//! topology of each emulated configuration). The ids are those of the Linux driver's
//! `include/drm/i915_pciids.h` (SKL, KBL, AML, CFL, WHL, CML, BXT, GLK); the per-platform
//! facts are those Mesa's `intel_device_info.c` and NEO's hardware tables give for Gen9.
//! Anything else is not a Gen9 GPU and is refused by name.

use std::fmt;

/// A Gen9 platform (Gen9 "big core", its 9.5 refreshes, and Gen9LP).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Platform {
    Skylake,
    KabyLake,
    AmberLake,
    CoffeeLake,
    WhiskeyLake,
    CometLake,
    /// Apollo Lake (Broxton), Gen9LP.
    ApolloLake,
    /// Gemini Lake, Gen9LP.
    GeminiLake,
}

impl Platform {
    pub fn name(self) -> &'static str {
        match self {
            Platform::Skylake => "Skylake",
            Platform::KabyLake => "Kaby Lake",
            Platform::AmberLake => "Amber Lake",
            Platform::CoffeeLake => "Coffee Lake",
            Platform::WhiskeyLake => "Whiskey Lake",
            Platform::CometLake => "Comet Lake",
            Platform::ApolloLake => "Apollo Lake",
            Platform::GeminiLake => "Gemini Lake",
        }
    }

    /// Gen9LP: the Atom-class parts, 6 threads per EU and a 19.2 MHz timestamp.
    pub fn is_lp(self) -> bool {
        matches!(self, Platform::ApolloLake | Platform::GeminiLake)
    }

    /// Hardware threads per EU: 7 on Gen9, 6 on Gen9LP.
    pub fn threads_per_eu(self) -> u32 {
        if self.is_lp() {
            6
        } else {
            7
        }
    }

    /// The command streamer's TIMESTAMP frequency (what I915_PARAM_CS_TIMESTAMP_FREQUENCY
    /// reports): 12 MHz on Gen9, 19.2 MHz on Gen9LP.
    pub fn cs_timestamp_hz(self) -> u64 {
        if self.is_lp() {
            19_200_000
        } else {
            12_000_000
        }
    }
}

/// A GT level (GT1.5 counted as GT1 with more EUs).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Gt {
    Gt1,
    Gt1_5,
    Gt2,
    Gt3,
    Gt4,
}

impl fmt::Display for Gt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Gt::Gt1 => "GT1",
            Gt::Gt1_5 => "GT1.5",
            Gt::Gt2 => "GT2",
            Gt::Gt3 => "GT3",
            Gt::Gt4 => "GT4",
        })
    }
}

/// One Gen9 part.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Part {
    pub pci_id: u16,
    pub platform: Platform,
    pub gt: Gt,
}

impl Part {
    /// "Kaby Lake GT2", for device names.
    pub fn describe(&self) -> String {
        format!("{} {}", self.platform.name(), self.gt)
    }

    /// The full topology of the GT level: (slices, subslices per slice, EUs per subslice).
    /// A real device reports its own (fused-off EUs included) through
    /// I915_QUERY_TOPOLOGY_INFO; this is what the emulated configurations present.
    pub fn topology(&self) -> (u16, u16, u16) {
        let eus = if self.platform.is_lp() { 6 } else { 8 };
        match self.gt {
            Gt::Gt1 => (1, 2, 6),
            Gt::Gt1_5 => (1, 3, 6),
            Gt::Gt2 => (1, 3, eus),
            Gt::Gt3 => (2, 3, 8),
            Gt::Gt4 => (3, 3, 8),
        }
    }
}

use Gt::*;
use Platform::*;

/// (PCI id, platform, GT): the Gen9 ids of i915_pciids.h.
const PARTS: &[(u16, Platform, Gt)] = &[
    // Skylake
    (0x1906, Skylake, Gt1),
    (0x190E, Skylake, Gt1),
    (0x1902, Skylake, Gt1),
    (0x190B, Skylake, Gt1),
    (0x190A, Skylake, Gt1),
    (0x1913, Skylake, Gt1_5),
    (0x1915, Skylake, Gt1_5),
    (0x1917, Skylake, Gt1_5),
    (0x1916, Skylake, Gt2),
    (0x1921, Skylake, Gt2),
    (0x191E, Skylake, Gt2),
    (0x1912, Skylake, Gt2),
    (0x191B, Skylake, Gt2),
    (0x191A, Skylake, Gt2),
    (0x191D, Skylake, Gt2),
    (0x1923, Skylake, Gt3),
    (0x1926, Skylake, Gt3),
    (0x1927, Skylake, Gt3),
    (0x192A, Skylake, Gt3),
    (0x192B, Skylake, Gt3),
    (0x192D, Skylake, Gt3),
    (0x1932, Skylake, Gt4),
    (0x193B, Skylake, Gt4),
    (0x193D, Skylake, Gt4),
    (0x193A, Skylake, Gt4),
    // Kaby Lake
    (0x5906, KabyLake, Gt1),
    (0x590E, KabyLake, Gt1),
    (0x5902, KabyLake, Gt1),
    (0x5908, KabyLake, Gt1),
    (0x590B, KabyLake, Gt1),
    (0x590A, KabyLake, Gt1),
    (0x5913, KabyLake, Gt1_5),
    (0x5915, KabyLake, Gt1_5),
    (0x5916, KabyLake, Gt2),
    (0x5921, KabyLake, Gt2),
    (0x591E, KabyLake, Gt2),
    (0x5917, KabyLake, Gt2),
    (0x5912, KabyLake, Gt2),
    (0x591B, KabyLake, Gt2),
    (0x591A, KabyLake, Gt2),
    (0x591D, KabyLake, Gt2),
    (0x5926, KabyLake, Gt3),
    (0x5923, KabyLake, Gt3),
    (0x5927, KabyLake, Gt3),
    (0x593B, KabyLake, Gt4),
    // Amber Lake (Y, GT2)
    (0x591C, AmberLake, Gt2),
    (0x87C0, AmberLake, Gt2),
    (0x87CA, AmberLake, Gt2),
    // Coffee Lake
    (0x3E90, CoffeeLake, Gt1),
    (0x3E93, CoffeeLake, Gt1),
    (0x3E99, CoffeeLake, Gt1),
    (0x3E9C, CoffeeLake, Gt1),
    (0x3E91, CoffeeLake, Gt2),
    (0x3E92, CoffeeLake, Gt2),
    (0x3E96, CoffeeLake, Gt2),
    (0x3E98, CoffeeLake, Gt2),
    (0x3E9A, CoffeeLake, Gt2),
    (0x3E9B, CoffeeLake, Gt2),
    (0x3E94, CoffeeLake, Gt2),
    (0x3EA9, CoffeeLake, Gt2),
    (0x3EA5, CoffeeLake, Gt3),
    (0x3EA6, CoffeeLake, Gt3),
    (0x3EA7, CoffeeLake, Gt3),
    (0x3EA8, CoffeeLake, Gt3),
    // Whiskey Lake (U)
    (0x3EA1, WhiskeyLake, Gt1),
    (0x3EA4, WhiskeyLake, Gt1),
    (0x3EA0, WhiskeyLake, Gt2),
    (0x3EA3, WhiskeyLake, Gt2),
    (0x3EA2, WhiskeyLake, Gt3),
    // Comet Lake
    (0x9BA5, CometLake, Gt1),
    (0x9BA8, CometLake, Gt1),
    (0x9BA4, CometLake, Gt1),
    (0x9BA2, CometLake, Gt1),
    (0x9B21, CometLake, Gt1),
    (0x9BAA, CometLake, Gt1),
    (0x9BAC, CometLake, Gt1),
    (0x9BC5, CometLake, Gt2),
    (0x9BC8, CometLake, Gt2),
    (0x9BC4, CometLake, Gt2),
    (0x9BC2, CometLake, Gt2),
    (0x9BC6, CometLake, Gt2),
    (0x9BE6, CometLake, Gt2),
    (0x9BF6, CometLake, Gt2),
    (0x9B41, CometLake, Gt2),
    (0x9BCA, CometLake, Gt2),
    (0x9BCC, CometLake, Gt2),
    // Apollo Lake (Broxton)
    (0x0A84, ApolloLake, Gt1_5),
    (0x1A84, ApolloLake, Gt1_5),
    (0x1A85, ApolloLake, Gt1),
    (0x5A84, ApolloLake, Gt1_5),
    (0x5A85, ApolloLake, Gt1),
    // Gemini Lake
    (0x3184, GeminiLake, Gt1_5),
    (0x3185, GeminiLake, Gt1),
];

/// The Gen9 part with this PCI id.
pub fn part(pci_id: u32) -> Option<Part> {
    PARTS
        .iter()
        .find(|p| u32::from(p.0) == pci_id)
        .map(|&(pci_id, platform, gt)| Part {
            pci_id,
            platform,
            gt,
        })
}

/// Why a PCI id is refused: the generation it belongs to where the id says (the first
/// digits of Intel's ids are grouped by generation), else "not a Gen9 GPU".
pub fn refusal(pci_id: u32) -> String {
    let family = match pci_id >> 8 {
        0x01 | 0x04 | 0x0a | 0x0c | 0x0d | 0x0f | 0x16 | 0x22 => Some("Gen7/Gen8"),
        0x5a if pci_id & 0xf0 != 0x80 => Some("Cannon Lake (Gen10)"),
        0x8a | 0x45 | 0x4e => Some("Ice Lake or Elkhart/Jasper Lake (Gen11)"),
        0x9a | 0x4c | 0x46 | 0x49 | 0x56 | 0xa7 => Some("Gen12 or later"),
        _ => None,
    };
    match family {
        Some(f) => format!(
            "PCI id {pci_id:#06x} is {f}; gencl supports the Gen9 family only (Skylake to Comet Lake, Apollo Lake, Gemini Lake)"
        ),
        None => format!(
            "PCI id {pci_id:#06x} is not a Gen9 GPU; gencl supports the Gen9 family only (Skylake to Comet Lake, Apollo Lake, Gemini Lake)"
        ),
    }
}

/// The configurations the emulated device can present (GENCL_EMULATED_GPU), by name:
/// (name, PCI id). The default is `skl-gt2`.
pub const EMULATED: &[(&str, u16)] = &[
    ("skl-gt1", 0x1902),
    ("skl-gt2", 0x1912),
    ("skl-gt3", 0x192B),
    ("skl-gt4", 0x1932),
    ("kbl-gt2", 0x5912),
    ("kbl-gt3", 0x5926),
    ("aml-gt2", 0x87C0),
    ("cfl-gt2", 0x3E92),
    ("whl-gt2", 0x3EA0),
    ("cml-gt2", 0x9BC5),
    ("apl", 0x5A84),
    ("glk", 0x3184),
    ("glk-gt1", 0x3185),
];

/// The emulated configuration `name` names.
pub fn emulated(name: &str) -> Result<Part, String> {
    EMULATED
        .iter()
        .find(|e| e.0 == name)
        .and_then(|e| part(u32::from(e.1)))
        .ok_or_else(|| {
            let names: Vec<&str> = EMULATED.iter().map(|e| e.0).collect();
            format!(
                "GENCL_EMULATED_GPU={name:?}: no such configuration (one of {})",
                names.join(", ")
            )
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_id_is_listed_once_and_every_emulated_configuration_exists() {
        let mut ids: Vec<u16> = PARTS.iter().map(|p| p.0).collect();
        ids.sort();
        let n = ids.len();
        ids.dedup();
        assert_eq!(ids.len(), n, "an id listed twice");
        for (name, _) in EMULATED {
            emulated(name).unwrap();
        }
    }

    #[test]
    fn facts_by_platform() {
        let skl = part(0x1912).unwrap();
        assert_eq!((skl.platform, skl.gt), (Platform::Skylake, Gt::Gt2));
        assert_eq!(skl.topology(), (1, 3, 8));
        assert_eq!(skl.platform.threads_per_eu(), 7);
        assert_eq!(skl.platform.cs_timestamp_hz(), 12_000_000);
        let glk = part(0x3184).unwrap();
        assert_eq!(glk.platform.threads_per_eu(), 6);
        assert_eq!(glk.platform.cs_timestamp_hz(), 19_200_000);
        assert_eq!(glk.topology(), (1, 3, 6));
        assert_eq!(part(0x5926).unwrap().topology(), (2, 3, 8));
        assert_eq!(part(0x3EA0).unwrap().describe(), "Whiskey Lake GT2");
    }

    #[test]
    fn other_generations_are_refused_by_name() {
        assert!(part(0x9A49).is_none());
        assert!(refusal(0x9A49).contains("Gen12"), "{}", refusal(0x9A49));
        assert!(refusal(0x8A52).contains("Gen11"));
        assert!(refusal(0x1616).contains("Gen7/Gen8"), "Broadwell");
        assert!(refusal(0x1234).contains("not a Gen9 GPU"));
        assert!(emulated("tgl").unwrap_err().contains("skl-gt2"));
    }
}
