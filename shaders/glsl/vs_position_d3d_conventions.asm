// SV_Position from a vertex shader: es300 copies it to gl_Position first
// (before the other outputs, declared earlier here), then flips y by
// hlslcc_YFlip.x (D3D's row order when drawing into a texture) and moves
// clip z from D3D's [0, w] to GL's [-w, w]; vk450 copies it unchanged.
vs_5_0
dcl_input v0.xyzw
dcl_output o0.xy
dcl_output_siv o1.xyzw, position
mov o0.xy, v0.zwzz
mov o1.xyzw, v0.xyzw
ret
