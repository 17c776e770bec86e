//! gencl's OpenCL runtime.
