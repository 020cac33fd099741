// Constant buffers are cbN.data[] of vec4 (block ConstantBufferN); a
// relative index reads the register as int and adds the offset.
vs_5_0
.semantic v0 TEXCOORD 0 int
dcl_constantbuffer cb0[4], immediateIndexed
dcl_constantbuffer cb3[16], dynamicIndexed
dcl_input v0.xy
dcl_output_siv o0.xyzw, position
dcl_temps 1
mov r0.xyzw, cb3[v0.x + 0].xyzw
add r0.xyzw, r0.xyzw, cb3[v0.y + 5].wzyx
mad o0.xyzw, r0.xyzw, cb0[2].xyzw, cb0[3].xxxx
ret
