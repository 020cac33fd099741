// Shifts use only the low five bits of the count (D3D masks; GLSL leaves
// counts >= 32 undefined), so a count of 33 shifts by 1: `& 31u`.
vs_5_0
.semantic v0 TEXCOORD 0 uint
dcl_input v0.xyzw
dcl_output_siv o0.xyzw, position
dcl_temps 2
ishl r0.x, v0.x, l(33)
ishr r0.y, v0.y, l(32)
ushr r0.z, v0.z, v0.w
ishl r1.xyzw, v0.xyzw, l(0, 31, 32, 63)
ushr r0.w, v0.w, l(-1)
xor o0.xyzw, r0.xyzw, r1.xyzw
ret
