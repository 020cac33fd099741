vs_5_0
// Sampling in a vertex shader, which has no derivatives: implicit-LOD forms
// sample LOD 0 plus the biases (textureLod), sample_c takes sample_c_lz's
// lowering, and the emulated path gets no gradients
.semantic v0 POSITION 0
.semantic v1 TEXCOORD 0
dcl_sampler s0, mode_default
dcl_sampler s1, mode_comparison
dcl_resource_texture2d (float,float,float,float) t0
dcl_resource_texture2darray (float,float,float,float) t1
dcl_resource_texturecube (float,float,float,float) t2
dcl_input v0.xyzw
dcl_input v1.xyzw
dcl_output_siv o0.xyzw, position
dcl_temps 3
sample_indexable(texture2d)(float,float,float,float) r0.xyzw, v1.xyxx, t0.xyzw, s0
sample_b_indexable(texture2d)(float,float,float,float) r1.xyzw, v1.xyxx, t0.xyzw, s0, v1.w
add r0.xyzw, r0.xyzw, r1.xyzw
sample_c_indexable(texture2d)(float,float,float,float) r2.x, v1.xyxx, t0.xxxx, s1, v1.z
sample_c_indexable(texture2darray)(float,float,float,float) r2.y, v1.xyzx, t1.xxxx, s1, v1.w
sample_l_indexable(texturecube)(float,float,float,float) r1.xyzw, v1.xyzx, t2.xyzw, s0, l(1.0)
add r0.xyzw, r0.xyzw, r1.xyzw
mul r0.xyzw, r0.xyzw, r2.xxxy
add o0.xyzw, r0.xyzw, v0.xyzw
ret
