// Float arithmetic (add, mul, mad, div, rcp, min, max) and `_sat`, which
// clamps the float result to [0, 1] after the operation.
ps_5_0
dcl_input_ps linear v1.xyzw
dcl_output o0.xyzw
dcl_temps 2
add r0.xyzw, v1.xyzw, l(1.000000, 2.000000, 3.000000, 4.000000)
mul r1.xy, r0.xyxx, v1.zwzz
mad r0.xyz, r0.xyzx, v1.xyzx, r1.xyyx
div r0.w, r0.w, v1.x
rcp r1.z, v1.y
min r1.w, r0.x, r1.z
max r1.x, r0.y, r1.w
add_sat o0.xy, r0.xyxx, r1.xzxx
mad_sat o0.z, r0.z, r0.w, l(0.500000)
mov_sat o0.w, r1.x
ret
