// The immediate constant buffer is emitted as raw uvec4 bits, so NaN
// payloads, +-Inf, -0 and denormals survive; read with a relative index.
vs_5_0
.semantic v0 TEXCOORD 0 int
dcl_immediateConstantBuffer { { 0x7fc00000, 0x7f800000, 0xff800000, 0x00000001 },
                              { 0x7fa00001, 0x80000000, 0x807fffff, 1.500000 } }
dcl_input v0.x
dcl_output_siv o0.xyzw, position
dcl_temps 1
mov r0.xyzw, icb[v0.x + 0].xyzw
add o0.xyzw, r0.xyzw, icb[1].wzyx
ret
