// SIMD16 integer loop: add/shl/and/xor/shr chains on :d, 8 per iteration;
// loop count in r8.0, counter in r9.0.
(W)     mov (1|M0)               r9.0<1>:d     0:d
LOOP:
        add (16|M0)              r10.0<1>:d    r10.0<8;8,1>:d    r40.0<8;8,1>:d
        shl (16|M0)              r12.0<1>:d    r10.0<8;8,1>:d    3:w
        and (16|M0)              r12.0<1>:d    r12.0<8;8,1>:d    r42.0<8;8,1>:d
        xor (16|M0)              r10.0<1>:d    r10.0<8;8,1>:d    r12.0<8;8,1>:d
        add (16|M0)              r14.0<1>:d    r14.0<8;8,1>:d    r40.0<8;8,1>:d
        shl (16|M0)              r16.0<1>:d    r14.0<8;8,1>:d    3:w
        and (16|M0)              r16.0<1>:d    r16.0<8;8,1>:d    r42.0<8;8,1>:d
        xor (16|M0)              r14.0<1>:d    r14.0<8;8,1>:d    r16.0<8;8,1>:d
(W)     add (1|M0)               r9.0<1>:d     r9.0<0;1,0>:d     1:w
(W)     cmp (16|M0)   (lt)f0.0   null<1>:d     r9.0<0;1,0>:d     r8.0<0;1,0>:d
(W&f0.0) jmpi                    LOOP
(W)     mov (8|M0)               r127.0<1>:ud  r0.0<8;8,1>:ud
(W)     send (8|M0)              null     r127    0x27            0x02000010           {EOT}
