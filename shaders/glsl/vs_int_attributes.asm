// Integer vertex attributes are declared float (runtimes bind attributes
// with vertexAttribPointer) and bitcast at use with floatBitsTo(U)Int.
vs_5_0
.semantic v0 POSITION 0
.semantic v1 BLENDINDICES 0 uint
.semantic v2 TEXCOORD 3 int
dcl_constantbuffer cb0[8], dynamicIndexed
dcl_input v0.xyzw
dcl_input v1.xy
dcl_input v2.x
dcl_output_siv o0.xyzw, position
dcl_temps 1
ishl r0.x, v1.x, l(1)
iadd r0.x, r0.x, v2.x
mad o0.xyzw, v0.xyzw, cb0[r0.x + 0].xyzw, cb0[v1.y + 1].xyzw
ret
