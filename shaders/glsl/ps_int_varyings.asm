// Integer pixel inputs (dcl_input_ps constant) are flat int/uint varyings,
// bitcast into the float register file before the body.
ps_5_0
.semantic v1 TEXCOORD 1 uint
.semantic v2 TEXCOORD 2 int
dcl_input_ps constant v1.xy
dcl_input_ps constant v2.x
dcl_output o0.xyzw
dcl_temps 1
utof r0.xy, v1.xyxx
itof r0.z, v2.x
mov r0.w, l(1.000000)
mov o0.xyzw, r0.xyzw
ret
