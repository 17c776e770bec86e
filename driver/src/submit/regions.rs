//! Splitting an ND-range into walker regions.
//!
//! OpenCL 2.0 allows a global size that is not a multiple of the local
//! size: the last work-group in a dimension is smaller. GPGPU_WALKER
//! dispatches groups of one shape, so the range becomes up to 2^dims
//! regions (full groups, and the remainder groups of each dimension), each
//! with its own group shape and walker, as Intel's runtime does.

/// One walker's worth of work-groups.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Region {
    /// Work-group shape of this region.
    pub local: [u32; 3],
    /// First group id and one past the last, per dimension.
    pub group_start: [u32; 3],
    pub group_end: [u32; 3],
}

/// Regions covering `global` with groups of `local` (both per dimension, ≥ 1).
pub fn split(global: [u64; 3], local: [u32; 3]) -> Vec<Region> {
    // Per dimension: the full part and, if any, the remainder part.
    let mut parts: Vec<Vec<(u32, u32, u32)>> = Vec::new(); // (local, start, end)
    for d in 0..3 {
        let l = local[d] as u64;
        let full = (global[d] / l) as u32;
        let rem = (global[d] % l) as u32;
        let mut p = Vec::new();
        if full > 0 {
            p.push((local[d], 0, full));
        }
        if rem > 0 {
            p.push((rem, full, full + 1));
        }
        parts.push(p);
    }
    let mut out = Vec::new();
    for x in &parts[0] {
        for y in &parts[1] {
            for z in &parts[2] {
                out.push(Region {
                    local: [x.0, y.0, z.0],
                    group_start: [x.1, y.1, z.1],
                    group_end: [x.2, y.2, z.2],
                });
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn items(r: &[Region]) -> u64 {
        r.iter()
            .map(|r| {
                (0..3)
                    .map(|d| (r.group_end[d] - r.group_start[d]) as u64 * r.local[d] as u64)
                    .product::<u64>()
            })
            .sum()
    }

    #[test]
    fn uniform_range_is_one_region() {
        let r = split([1024, 1, 1], [64, 1, 1]);
        assert_eq!(
            r,
            vec![Region {
                local: [64, 1, 1],
                group_start: [0, 0, 0],
                group_end: [16, 1, 1]
            }]
        );
    }

    #[test]
    fn remainders_get_their_own_regions() {
        let r = split([100, 10, 1], [32, 4, 1]);
        assert_eq!(r.len(), 4);
        assert_eq!(items(&r), 1000);
        assert!(r.contains(&Region {
            local: [4, 2, 1],
            group_start: [3, 2, 0],
            group_end: [4, 3, 1]
        }));
        let r = split([7, 1, 1], [16, 1, 1]);
        assert_eq!(
            r,
            vec![Region {
                local: [7, 1, 1],
                group_start: [0, 0, 0],
                group_end: [1, 1, 1]
            }]
        );
    }
}
