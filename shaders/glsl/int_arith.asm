// Integer arithmetic in int: iadd, imad, imin, imax and ineg, wrapping
// modulo 2^32 and comparing as signed.
vs_5_0
.semantic v0 TEXCOORD 0 int
dcl_input v0.xyzw
dcl_output_siv o0.xyzw, position
dcl_temps 2
iadd r0.xy, v0.xyxx, l(-1, 0x7fffffff, 0, 0)
imad r0.zw, v0.zzzw, v0.wwwz, l(0, 0, 3, -3)
imin r1.x, v0.x, l(-5)
imax r1.y, v0.y, r0.x
ineg r1.zw, v0.zzzw
iadd o0.xyzw, r0.xyzw, r1.xyzw
ret
