// udiv writes quotient and remainder; division by zero gives 0xFFFFFFFF
// for both (GLSL leaves it undefined), through the dx_udiv/dx_urem helpers.
vs_5_0
.semantic v0 TEXCOORD 0 uint
dcl_input v0.xyzw
dcl_output_siv o0.xyzw, position
dcl_temps 2
udiv r0.xy, r1.xy, v0.xyxx, v0.zwzz
udiv r0.z, null, v0.z, l(0)
udiv null, r1.z, v0.w, l(0)
mov r1.w, l(0)
mov o0.xyzw, r0.xyzw
ret
