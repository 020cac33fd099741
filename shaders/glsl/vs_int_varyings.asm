// Integer vertex outputs are flat int/uint varyings (ES 3.00 requires flat
// on integer outputs), written from the register's bits.
vs_5_0
.semantic v0 POSITION 0
.semantic o1 TEXCOORD 1 uint
.semantic o2 TEXCOORD 2 int
dcl_input v0.xyzw
dcl_output_siv o0.xyzw, position
dcl_output o1.xy
dcl_output o2.x
mov o0.xyzw, v0.xyzw
ftou o1.xy, v0.xyxx
ftoi o2.x, v0.z
ret
