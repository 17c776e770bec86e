// SIMD8 64-bit address arithmetic as gencl's JIT emits it for size_t/long:
// sign/zero extension, qword shl/add/sub/shr/logic, 32-bit ops on the
// halves of qwords (<8;4,2>, dst stride 2), widening mul, a qword compare and
// predicated qword mov/sel, 64-bit immediates. Loop count in r8.0, counter in r9.0.
(W)     mov (1|M0)               r9.0<1>:d     0:d
(W)     mov (1|M0)               r9.3<1>:uq    0x1:uq
(W)     mov (1|M0)               r9.1<1>:uq    0x40:uq
LOOP:
        mov (8|M0)               r20.0<1>:q    r40.0<8;8,1>:d
        mov (8|M0)               r22.0<1>:uq   r41.0<8;8,1>:ud
        mov (8|M0)               r18.0<1>:ud   r1.0<8;8,1>:uw
        shl (8|M0)               r24.0<1>:uq   r20.0<4;4,1>:uq   0x2:ud
        add (8|M0)               r26.0<1>:uq   r24.0<4;4,1>:uq   r22.0<4;4,1>:q
        mul (8|M0)               r28.0<1>:ud   r26.1<8;4,2>:ud   0x404:ud
        mul (8|M0)               r30.0<1>:uq   r26.0<8;4,2>:ud   0x404:ud
        mov (8|M0)               r29.0<1>:ud   r26.0<8;4,2>:ud
        add (8|M0)               r26.1<2>:ud   r26.1<8;4,2>:ud   r28.0<8;8,1>:ud
        add (8|M0)               r32.0<1>:uq   r9.3<0;1,0>:uq    r30.0<4;4,1>:q
        cmp (8|M0)    (eq)f1.0   null<1>:uq    r32.0<4;4,1>:uq   r9.3<0;1,0>:uq
(~f1.0) mov (8|M0)               r34.0<1>:uq   r32.0<4;4,1>:uq
        add (8|M0)               r36.0<1>:uq   r9.3<0;1,0>:uq    -r9.1<0;1,0>:uq
(f1.0)  sel (8|M0)               r38.0<1>:uq   r34.0<4;4,1>:uq   r9.1<0;1,0>:uq
        shr (8|M0)               r12.0<1>:uq   r26.0<4;4,1>:uq   0x3F:ud
        and (8|M0)               r14.0<1>:uq   r26.0<4;4,1>:uq   r36.0<4;4,1>:uq
        xor (8|M0)               r16.0<1>:uq   r38.0<4;4,1>:uq   r12.0<4;4,1>:uq
(W)     add (1|M0)               r9.0<1>:d     r9.0<0;1,0>:d     1:w
(W)     cmp (16|M0)   (lt)f0.0   null<1>:d     r9.0<0;1,0>:d     r8.0<0;1,0>:d
(W&f0.0) jmpi                    LOOP
(W)     mov (8|M0)               r127.0<1>:ud  r0.0<8;8,1>:ud
(W)     send (8|M0)              null     r127    0x27            0x02000010           {EOT}
