// Signed integer comparisons (ieq, ine, ilt, ige) give 0xFFFFFFFF / 0
// masks; ilt and ige compare as signed, so -1 < 0.
vs_5_0
.semantic v0 TEXCOORD 0 int
dcl_input v0.xyzw
dcl_output_siv o0.xyzw, position
dcl_temps 2
ieq r0.x, v0.x, v0.y
ine r0.y, v0.z, l(0)
ilt r0.zw, v0.xxxy, l(0, 0, -1, 7)
ige r1.xyzw, v0.xyzw, v0.wzyx
xor o0.xyzw, r0.xyzw, r1.xyzw
ret
