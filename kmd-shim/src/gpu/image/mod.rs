//! Images as the typed messages and the sampler see them: surface formats (`format`) and
//! where a texel lives in a surface (`surface`).

pub mod format;
pub mod surface;
