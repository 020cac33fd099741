// discard_nz / discard_z kill the pixel when the condition's bits are
// non-zero / zero.
ps_5_0
dcl_input_ps linear v1.xyzw
dcl_output o0.xyzw
dcl_temps 1
lt r0.x, v1.w, l(0.500000)
discard_nz r0.x
discard_z v1.x
mov o0.xyzw, v1.xyzw
ret
