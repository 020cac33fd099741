// msad (D3D11.1 masked sum of absolute differences): per component, the
// accumulator plus |reference byte - source byte| over the four bytes,
// skipping bytes whose reference is 0.
ps_5_0
.semantic v0 TEXCOORD 0 uint
.semantic o0 SV_Target 0 uint
dcl_input_ps constant v0.xyzw
dcl_output o0.xyzw
msad o0.xyzw, v0.xxxx, v0.yyyy, v0.zwzw
ret
