ps_5_0
// sample_c_lz on 2D: textureLod(shadow, txVec, 0.0), also with an offset
.semantic v1 TEXCOORD 0
dcl_sampler s0, mode_comparison
dcl_resource_texture2d (float,float,float,float) t0
dcl_input_ps linear v1.xyzw
dcl_output o0.xyzw
dcl_temps 2
sample_c_lz_indexable(texture2d)(float,float,float,float) r0.x, v1.xyxx, t0.xxxx, s0, v1.z
sample_c_lz_aoffimmi_indexable(1,0,0)(texture2d)(float,float,float,float) r0.y, v1.xyxx, t0.xxxx, s0, v1.z
mov o0.xyzw, r0.xyxy
ret
