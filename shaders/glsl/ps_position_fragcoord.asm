// SV_Position as a pixel input reads hlslcc_FragCoord: gl_FragCoord with w
// replaced by 1 / gl_FragCoord.w, the clip-space w D3D gives, and (es300) y
// counted from the top through hlslcc_YFlip.
ps_5_0
dcl_input_ps_siv linear noperspective v0.xyzw, position
dcl_output o0.xyzw
mul o0.xyzw, v0.xyzw, l(0.500000, 0.500000, 1.000000, 1.000000)
ret
