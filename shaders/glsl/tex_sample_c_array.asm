ps_5_0
// sample_c and sample_c_lz on a 2D array: the textureGrad LOD-0 workaround
.semantic v1 TEXCOORD 0
dcl_sampler s0, mode_comparison
dcl_resource_texture2darray (float,float,float,float) t0
dcl_input_ps linear v1.xyzw
dcl_output o0.xyzw
dcl_temps 2
sample_c_indexable(texture2darray)(float,float,float,float) r0.x, v1.xyzx, t0.xxxx, s0, v1.w
sample_c_lz_indexable(texture2darray)(float,float,float,float) r0.y, v1.xyzx, t0.xxxx, s0, v1.w
mov o0.xyzw, r0.xyxy
ret
