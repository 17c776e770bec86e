; LLVM 15 IR with typed pointers, as `clang-15 -Xclang -no-opaque-pointers -O2` makes it for a
; division whose operands may be poison: DivRemPairs and InstCombine leave `freeze`, which
; llvm-spirv-15 cannot translate ("Can't translate llvm instruction: freeze").
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024"
target triple = "spir64-unknown-unknown"

define spir_kernel void @divrem(i32 addrspace(1)* %a, i32 %d) {
entry:
  %gid = call spir_func i64 @_Z13get_global_idj(i32 0)
  %p = getelementptr inbounds i32, i32 addrspace(1)* %a, i64 %gid
  %x = load i32, i32 addrspace(1)* %p, align 4
  %xf = freeze i32 %x
  %df = freeze i32 %d
  %q = sdiv i32 %xf, %df
  %m = mul i32 %q, %df
  %r = sub i32 %xf, %m
  %s = add i32 %q, %r
  store i32 %s, i32 addrspace(1)* %p, align 4
  ret void
}

declare spir_func i64 @_Z13get_global_idj(i32)

; The OpenCL version tells llvm-spirv to translate OpenCL built-in calls (get_global_id).
!opencl.ocl.version = !{!0}
!0 = !{i32 2, i32 0}
