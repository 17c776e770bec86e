// Disassembly (iga64 -d -p=9) of mix.bin, the kernel heap of mix.cl compiled by
// `ocloc compile -file mix.cl -device skl -options "-cl-std=CL2.0"` (SIMD32).
L0:
(W)     mov (8|M0)               r3.0<1>:ud    r0.0<1;1,0>:ud                  
(W)     or (1|M0)                cr0.0<1>:ud   cr0.0<0;1,0>:ud   0x4C0:uw              {Switch}
(W)     mul (1|M0)               r126.0<1>:d   r9.0<0;1,0>:d     r3.1<0;1,0>:d    {Compacted}
(W)     mov (1|M0)               r117.0<1>:f   0.5:f                              
(W)     mov (1|M0)               r6.0<1>:f     1.0:f                              
(W)     cmp (16|M0)   (gt)f1.0   null<1>:d     r8.4<0;1,0>:d     0:w              
(W)     cmp (16|M16)  (gt)f1.0   null<1>:d     r8.4<0;1,0>:d     0:w              
        add (16|M0)              r4.0<1>:d     r126.0<0;1,0>:d   r1.0<16;16,1>:uw
        add (16|M16)             r124.0<1>:d   r126.0<0;1,0>:d   r2.0<16;16,1>:uw
        add (16|M0)              r10.0<1>:d    r4.0<8;8,1>:d     r7.0<0;1,0>:d    {Compacted}
        add (16|M16)             r122.0<1>:d   r124.0<8;8,1>:d   r7.0<0;1,0>:d   
        shl (16|M0)              r12.0<1>:d    r10.0<8;8,1>:d    2:w              
        shl (16|M16)             r120.0<1>:d   r122.0<8;8,1>:d   2:w              
        add (16|M0)              r14.0<1>:d    r12.0<8;8,1>:d    r8.6<0;1,0>:d    {Compacted}
        add (16|M16)             r118.0<1>:d   r120.0<8;8,1>:d   r8.6<0;1,0>:d   
        send (16|M0)             r16:w    r14     0xC            0x04205E01           // wr:2+0, rd:2; hdc.dc1; untyped surface read with x
        send (16|M16)            r18:w    r118    0xC            0x04205E01           // wr:2+0, rd:2; hdc.dc1; untyped surface read with x
        mad (16|M0)              r115.0<1>:f   r6.0<0;0>:f       r117.0<0;0>:f     r16.0<1>:f       {Compacted}
        mad (16|M16)             r113.0<1>:f   r6.0<0;0>:f       r117.0<0;0>:f     r18.0<1>:f       {Compacted}
(W&~f1.0) jmpi                               L744                                
L280:
        mul (16|M0)              r111.0<1>:d   r10.0<8;8,1>:d    -1640531535:d              
        mul (16|M16)             r20.0<1>:d    r122.0<8;8,1>:d   -1640531535:d              
(W)     mov (1|M0)               r6.1<1>:f     0.0001:f                              
(W)     mov (1|M0)               r117.1<1>:f   0.999:f                              
(W)     mov (1|M0)               r6.2<1>:f     0.25:f                              
(W)     mov (1|M0)               r126.1<1>:d   0:w                              
L376:
        shl (16|M0)              r26.0<1>:d    r111.0<8;8,1>:d   13:w              
        shl (16|M16)             r105.0<1>:d   r20.0<8;8,1>:d    13:w              
        mad (16|M0)              r22.0<1>:f    r6.2<0;0>:f       r16.0<2;1>:f      r115.0<1>:f      {Compacted}
        mad (16|M16)             r109.0<1>:f   r6.2<0;0>:f       r18.0<2;1>:f      r113.0<1>:f      {Compacted}
        xor (16|M0)              r26.0<1>:d    r111.0<8;8,1>:d   r26.0<8;8,1>:d   {Compacted}
        xor (16|M16)             r105.0<1>:d   r20.0<8;8,1>:d    r105.0<8;8,1>:d 
(W)     add (1|M0)               r126.1<1>:d   r126.1<0;1,0>:d   1:w              
        mul (16|M0)              r24.0<1>:f    r22.0<8;8,1>:f    -0.001:f              
        shr (16|M0)              r28.0<1>:d    r26.0<8;8,1>:ud   17:w              
        shr (16|M16)             r103.0<1>:d   r105.0<8;8,1>:ud  17:w              
        mul (16|M16)             r107.0<1>:f   r109.0<8;8,1>:f   -0.001:f              
(W)     cmp (16|M0)   (lt)f0.0   null<1>:d     r126.1<0;1,0>:d   r8.4<0;1,0>:d   
        xor (16|M0)              r26.0<1>:d    r26.0<8;8,1>:d    r28.0<8;8,1>:d   {Compacted}
        xor (16|M16)             r105.0<1>:d   r105.0<8;8,1>:d   r103.0<8;8,1>:d 
(W)     cmp (16|M16)  (lt)f0.0   null<1>:d     r126.1<0;1,0>:d   r8.4<0;1,0>:d   
        mad (16|M0)              r16.0<1>:f    r24.0<2;1>:f      r117.1<0;0>:f     r16.0<1>:f       {Compacted}
        shl (16|M0)              r30.0<1>:d    r26.0<8;8,1>:d    5:w              
        shl (16|M16)             r101.0<1>:d   r105.0<8;8,1>:d   5:w              
        mad (16|M16)             r18.0<1>:f    r107.0<2;1>:f     r117.1<0;0>:f     r18.0<1>:f       {Compacted}
        xor (16|M0)              r111.0<1>:d   r26.0<8;8,1>:d    r30.0<8;8,1>:d   {Compacted}
        xor (16|M16)             r20.0<1>:d    r105.0<8;8,1>:d   r101.0<8;8,1>:d 
        and (16|M0)              r32.0<1>:d    r111.0<8;8,1>:d   255:w              
        and (16|M16)             r99.0<1>:d    r20.0<8;8,1>:d    255:w              
        mov (16|M0)              r97.0<1>:f    r32.0<8;8,1>:ud                  {Compacted}
        mov (16|M16)             r95.0<1>:f    r99.0<8;8,1>:ud                 
        mad (16|M0)              r115.0<1>:f   r22.0<2;1>:f      r6.1<0;0>:f       r97.0<1>:f       {Compacted}
        mad (16|M16)             r113.0<1>:f   r109.0<2;1>:f     r6.1<0;0>:f       r95.0<1>:f       {Compacted}
(W&f0.0) jmpi                                L376                                
L744:
        add (16|M0)              r34.0<1>:f    r16.0<8;8,1>:f    r115.0<8;8,1>:f  {Compacted}
        add (16|M0)              r36.0<1>:d    r12.0<8;8,1>:d    r8.5<0;1,0>:d    {Compacted}
        add (16|M16)             r93.0<1>:f    r18.0<8;8,1>:f    r113.0<8;8,1>:f 
        add (16|M16)             r91.0<1>:d    r120.0<8;8,1>:d   r8.5<0;1,0>:d   
(W)     mov (8|M0)               r127.0<1>:ud  r3.0<8;8,1>:ud                   {Compacted}
        sends (16|M0)            null:w   r36     r34     0x8C            0x04025E00           // wr:2+2, rd:0; hdc.dc1; untyped surface write with x
        sends (16|M16)           null:w   r91     r93     0x8C            0x04025E00           // wr:2+2, rd:0; hdc.dc1; untyped surface write with x
(W)     send (8|M0)              null     r127    0x27            0x02000010           {EOT} // wr:1+0, rd:0; spawner; end of thread
L848:
