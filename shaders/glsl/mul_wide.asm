// imul and umul write the high and the low 32 bits of the 64-bit product;
// the high half needs a helper (no imulExtended/umulExtended in ES 3.00).
vs_5_0
.semantic v0 TEXCOORD 0 uint
dcl_input v0.xyzw
dcl_output_siv o0.xyzw, position
dcl_temps 2
umul r0.x, r0.y, v0.x, v0.y
imul r0.z, r0.w, v0.z, v0.w
umul null, r1.xy, v0.xyxx, l(3, 5, 0, 0)
imul r1.zw, null, v0.zzzw, l(0, 0, -7, 9)
iadd o0.xyzw, r0.xyzw, r1.xyzw
ret
