// The vertex half of linked_pair_ps.asm. Alone it declares every float
// output without qualifiers (a vertex shader carries no interpolation
// mode); tests/glsl_snapshots.rs also translates it linked, where each
// output takes its pixel input's qualifiers and (vk450) location, and
// TEXCOORD0, which the pixel shader does not read, the next location.
vs_5_0
.semantic v0 POSITION 0
.semantic o1 TEXCOORD 0
.semantic o2 TEXCOORD 1
.semantic o3 TEXCOORD 2
.semantic o4 TEXCOORD 3
.semantic o5 TEXCOORD 4
.semantic o6 COLOR 0
dcl_input v0.xyzw
dcl_output_siv o0.xyzw, position
dcl_output o1.xy
dcl_output o2.xyzw
dcl_output o3.xyzw
dcl_output o4.xy
dcl_output o5.x
dcl_output o6.xyzw
mov o0.xyzw, v0.xyzw
mov o1.xy, v0.xyxx
mov o2.xyzw, v0.xyzw
mov o3.xyzw, v0.wzyx
mov o4.xy, v0.zwzz
mov o5.x, v0.y
mov o6.xyzw, l(1.000000, 0.000000, 0.000000, 1.000000)
ret
