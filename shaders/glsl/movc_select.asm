// movc selects per component on the condition's bits being non-zero (not
// on a float comparison), as a scalar and as a vector.
ps_5_0
dcl_input_ps linear v1.xyzw
dcl_input_ps linear v2.xyzw
dcl_output o0.xyzw
dcl_temps 2
lt r0.xyzw, v1.xyzw, v2.xyzw
movc r1.x, r0.x, v1.x, v2.x
movc r1.yzw, r0.yyzw, v1.yyzw, l(0, -1.000000, 2.000000, 0x7fc00000)
mov o0.xyzw, r1.xyzw
ret
