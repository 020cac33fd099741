// Bitwise and/or/xor/not, countbits, firstbit_hi/lo/shi and bfrev. D3D's
// firstbit_hi counts from the most significant bit; all three give
// 0xFFFFFFFF when no bit is found.
vs_5_0
.semantic v0 TEXCOORD 0 uint
dcl_input v0.xyzw
dcl_output_siv o0.xyzw, position
dcl_temps 2
and r0.x, v0.x, l(0xff00ff00)
or r0.y, v0.y, v0.z
xor r0.z, v0.z, v0.w
not r0.w, v0.w
countbits r1.xy, v0.xyxx
firstbit_hi r1.z, v0.z
firstbit_lo r1.w, v0.w
firstbit_shi r0.x, r0.x
bfrev r0.y, r0.y
iadd o0.xyzw, r0.xyzw, r1.xyzw
ret
