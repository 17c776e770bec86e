// SIMD32 f32 mad loop, IGC style: 4 independent mads per iteration, each as
// (16|M0) + (16|M16) halves; loop count in r8.0, counter in r9.0.
(W)     mov (1|M0)               r9.0<1>:d     0:d
LOOP:
        mad (16|M0)              r10.0<1>:f    r10.0<4;1>:f      r40.0<4;1>:f      r44.0<1>:f
        mad (16|M16)             r12.0<1>:f    r12.0<4;1>:f      r42.0<4;1>:f      r46.0<1>:f
        mad (16|M0)              r14.0<1>:f    r14.0<4;1>:f      r40.0<4;1>:f      r44.0<1>:f
        mad (16|M16)             r16.0<1>:f    r16.0<4;1>:f      r42.0<4;1>:f      r46.0<1>:f
        mad (16|M0)              r18.0<1>:f    r18.0<4;1>:f      r40.0<4;1>:f      r44.0<1>:f
        mad (16|M16)             r20.0<1>:f    r20.0<4;1>:f      r42.0<4;1>:f      r46.0<1>:f
        mad (16|M0)              r22.0<1>:f    r22.0<4;1>:f      r40.0<4;1>:f      r44.0<1>:f
        mad (16|M16)             r24.0<1>:f    r24.0<4;1>:f      r42.0<4;1>:f      r46.0<1>:f
(W)     add (1|M0)               r9.0<1>:d     r9.0<0;1,0>:d     1:w
(W)     cmp (16|M0)   (lt)f0.0   null<1>:d     r9.0<0;1,0>:d     r8.0<0;1,0>:d
(W&f0.0) jmpi                    LOOP
(W)     mov (8|M0)               r127.0<1>:ud  r0.0<8;8,1>:ud
(W)     send (8|M0)              null     r127    0x27            0x02000010           {EOT}
