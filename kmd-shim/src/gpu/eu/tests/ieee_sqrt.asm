// IGC's DF square root for (4|M0) and (4|M4) (ocloc -device skl, fp64.cl d_sqrt), as iga64 assembles it into ieee_sqrt.hex.
(W)     or (1|M0)                cr0.0<1>:ud   cr0.0<0;1,0>:ud   0x4C0:uw              {Switch}
        math.rsqtm (4|M0) (eo)f0.0  r14.mme0:df  r107.nomme:df
(~f0.0) if (4|M0)                            L_END0                  L_END0
        madm (4|M0)              r18.mme1:df   r3.nomme:df       r119.nomme:df     r14.mme0:df
        madm (4|M0)              r109.mme2:df  r3.nomme:df       r107.nomme:df     r14.mme0:df
        madm (4|M0)              r22.mme3:df   r119.nomme:df     -r109.mme2:df     r18.mme1:df
        madm (4|M0)              r113.mme5:df  r121.nomme:df     r117.nomme:df     r22.mme3:df
        madm (4|M0)              r14.mme6:df   r3.nomme:df       r22.mme3:df       r109.mme2:df
        madm (4|M0)              r22.mme7:df   r3.nomme:df       r22.mme3:df       r18.mme1:df
        madm (4|M0)              r14.mme6:df   r109.mme2:df      r113.mme5:df      r14.mme6:df
        madm (4|M0)              r113.mme5:df  r18.mme1:df       r113.mme5:df      r22.mme7:df
        madm (4|M0)              r18.mme1:df   r107.nomme:df     -r14.mme6:df      r14.mme6:df
        madm (4|M0)              r14.nomme:df  r14.mme6:df       r18.mme1:df       r113.mme5:df
L_END0:
        endif (4|M0)                         L_NEXT0
L_NEXT0:
        math.rsqtm (4|M4) (eo)f0.0  r15.mme0:df  r108.nomme:df
(~f0.0) if (4|M4)                            L_END1                  L_END1
        madm (4|M4)              r19.mme1:df   r3.nomme:df       r119.nomme:df     r15.mme0:df
        madm (4|M4)              r110.mme2:df  r3.nomme:df       r108.nomme:df     r15.mme0:df
        madm (4|M4)              r23.mme3:df   r119.nomme:df     -r110.mme2:df     r19.mme1:df
        madm (4|M4)              r114.mme5:df  r121.nomme:df     r117.nomme:df     r23.mme3:df
        madm (4|M4)              r15.mme6:df   r3.nomme:df       r23.mme3:df       r110.mme2:df
        madm (4|M4)              r23.mme7:df   r3.nomme:df       r23.mme3:df       r19.mme1:df
        madm (4|M4)              r15.mme6:df   r110.mme2:df      r114.mme5:df      r15.mme6:df
        madm (4|M4)              r114.mme5:df  r19.mme1:df       r114.mme5:df      r23.mme7:df
        madm (4|M4)              r19.mme1:df   r108.nomme:df     -r15.mme6:df      r15.mme6:df
        madm (4|M4)              r15.nomme:df  r15.mme6:df       r19.mme1:df       r114.mme5:df
L_END1:
        endif (4|M4)                         L_NEXT1
L_NEXT1:
(W)     send (8|M0)  null:ud  r127  0x27  0x02000010 {EOT}
