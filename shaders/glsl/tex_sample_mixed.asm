ps_5_0
// one texture sampled plainly and by comparison: four es300 uniforms for t0
.semantic v1 TEXCOORD 0
dcl_sampler s0, mode_default
dcl_sampler s1, mode_comparison
dcl_resource_texture2d (float,float,float,float) t0
dcl_input_ps linear v1.xyzw
dcl_output o0.xyzw
dcl_temps 2
sample_indexable(texture2d)(float,float,float,float) r0.xyzw, v1.xyxx, t0.xyzw, s0
sample_c_lz_indexable(texture2d)(float,float,float,float) r1.x, v1.xyxx, t0.xxxx, s1, v1.z
mul o0.xyzw, r0.xyzw, r1.xxxx
ret
