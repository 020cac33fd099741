// Unsigned comparisons (ult, uge) give 0xFFFFFFFF / 0 masks and compare
// bit patterns as unsigned, so 0xFFFFFFFF is the largest value.
vs_5_0
.semantic v0 TEXCOORD 0 uint
dcl_input v0.xyzw
dcl_output_siv o0.xyzw, position
dcl_temps 1
ult r0.x, v0.x, l(0xffffffff)
uge r0.y, v0.y, v0.z
ult r0.zw, v0.zzzw, v0.xxxy
uge o0.xyzw, v0.xyzw, l(1, 2, 3, 0x80000000)
ret
