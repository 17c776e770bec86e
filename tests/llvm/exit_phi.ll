; A loop that lanes leave at different iterations, whose exit block's phi takes the loop
; header's phi from the latch: each lane must get the counter of the iteration it left at.
; The header's phi is uniform (the lanes still looping agree on it), so its back-edge copy
; is one channel without the mask; it must come after the exit edge's per-lane copy, which
; reads the old value (isel/flow.rs). Written as LLVM IR because clang and opt orient such a
; latch so that the exit edge comes first, which hides the order.
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024"
target triple = "spir64-unknown-unknown"

define spir_kernel void @exit_phi(i32 addrspace(1)* %x, i32 addrspace(1)* %out) {
entry:
  %gid = call spir_func i64 @_Z13get_global_idj(i32 0)
  %g = trunc i64 %gid to i32
  br label %head

head:
  %i = phi i32 [ 0, %entry ], [ %inext, %latch ]
  %ia = and i32 %i, 127
  %ia64 = zext i32 %ia to i64
  %pa = getelementptr inbounds i32, i32 addrspace(1)* %x, i64 %ia64
  %va = load i32, i32 addrspace(1)* %pa, align 4
  %g1000 = add i32 %g, 1000
  %brk = icmp eq i32 %va, %g1000
  br i1 %brk, label %exit, label %latch

latch:
  %inext = add i32 %i, 1
  %ib = and i32 %inext, 127
  %ib64 = zext i32 %ib to i64
  %pb = getelementptr inbounds i32, i32 addrspace(1)* %x, i64 %ib64
  %vb = load i32, i32 addrspace(1)* %pb, align 4
  %cont = icmp slt i32 %vb, %g
  br i1 %cont, label %head, label %exit

exit:
  %r = phi i32 [ -1, %head ], [ %i, %latch ]
  %po = getelementptr inbounds i32, i32 addrspace(1)* %out, i64 %gid
  store i32 %r, i32 addrspace(1)* %po, align 4
  ret void
}

declare spir_func i64 @_Z13get_global_idj(i32)

!opencl.ocl.version = !{!0}
!0 = !{i32 2, i32 0}
