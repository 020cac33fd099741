ps_5_0
// sample_c on 2D: txVec temp then texture() on the shadow sampler
.semantic v1 TEXCOORD 0
dcl_sampler s0, mode_comparison
dcl_resource_texture2d (float,float,float,float) t0
dcl_input_ps linear v1.xyzw
dcl_output o0.xyzw
dcl_temps 2
sample_c_indexable(texture2d)(float,float,float,float) r0.x, v1.xyxx, t0.xxxx, s0, v1.z
mov o0.xyzw, r0.xxxx
ret
