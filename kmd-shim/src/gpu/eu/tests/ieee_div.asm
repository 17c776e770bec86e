// IGC's DF division for (4|M0) and (4|M4) (ocloc -device skl, fp64.cl d_div), as iga64 assembles it into ieee_div.hex.
(W)     or (1|M0)                cr0.0<1>:ud   cr0.0<0;1,0>:ud   0x4C0:uw              {Switch}
        math.invm (4|M0) (eo)f1.0  r29.mme0:df  r104.nomme:df    r113.nomme:df
(~f1.0) if (4|M0)                            L_END0                  L_END0
        madm (4|M0)              r34.mme1:df   r33.nomme:df      r104.nomme:df     r29.mme0:df
        madm (4|M0)              r39.mme2:df   r38.nomme:df      -r113.nomme:df    r29.mme0:df
        madm (4|M0)              r43.mme3:df   r104.nomme:df     -r113.nomme:df    r34.mme1:df
        madm (4|M0)              r48.mme4:df   r29.mme0:df       r39.mme2:df       r29.mme0:df
        madm (4|M0)              r52.mme5:df   r38.nomme:df      -r113.nomme:df    r48.mme4:df
        madm (4|M0)              r29.mme6:df   r29.mme0:df       r39.mme2:df       r48.mme4:df
        madm (4|M0)              r34.mme7:df   r34.mme1:df       r43.mme3:df       r48.mme4:df
        madm (4|M0)              r48.mme0:df   r48.mme4:df       r29.mme6:df       r52.mme5:df
        madm (4|M0)              r43.mme1:df   r104.nomme:df     -r113.nomme:df    r34.mme7:df
        madm (4|M0)              r29.nomme:df  r34.mme7:df       r43.mme1:df       r48.mme0:df
L_END0:
        endif (4|M0)                         L_NEXT0
L_NEXT0:
        math.invm (4|M4) (eo)f1.0  r30.mme0:df  r105.nomme:df    r114.nomme:df
(~f1.0) if (4|M4)                            L_END1                  L_END1
        madm (4|M4)              r35.mme1:df   r33.nomme:df      r105.nomme:df     r30.mme0:df
        madm (4|M4)              r40.mme2:df   r38.nomme:df      -r114.nomme:df    r30.mme0:df
        madm (4|M4)              r44.mme3:df   r105.nomme:df     -r114.nomme:df    r35.mme1:df
        madm (4|M4)              r49.mme4:df   r30.mme0:df       r40.mme2:df       r30.mme0:df
        madm (4|M4)              r53.mme5:df   r38.nomme:df      -r114.nomme:df    r49.mme4:df
        madm (4|M4)              r30.mme6:df   r30.mme0:df       r40.mme2:df       r49.mme4:df
        madm (4|M4)              r35.mme7:df   r35.mme1:df       r44.mme3:df       r49.mme4:df
        madm (4|M4)              r49.mme0:df   r49.mme4:df       r30.mme6:df       r53.mme5:df
        madm (4|M4)              r44.mme1:df   r105.nomme:df     -r114.nomme:df    r35.mme7:df
        madm (4|M4)              r30.nomme:df  r35.mme7:df       r44.mme1:df       r49.mme0:df
L_END1:
        endif (4|M4)                         L_NEXT1
L_NEXT1:
(W)     send (8|M0)  null:ud  r127  0x27  0x02000010 {EOT}
