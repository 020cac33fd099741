// retc_nz returns early from the body when the condition's bits are
// non-zero; outputs written so far are still copied out by main().
ps_5_0
dcl_input_ps linear v1.xyzw
dcl_output o0.xyzw
dcl_temps 1
mov o0.xyzw, v1.xyzw
lt r0.x, v1.w, l(0.500000)
retc_nz r0.x
mov o0.xyzw, l(1.000000, 0, 0, 1.000000)
ret
