ps_5_0
// sample_l: textureLod, with an offset (textureLodOffset)
.semantic v1 TEXCOORD 0
dcl_sampler s0, mode_default
dcl_resource_texture2d (float,float,float,float) t0
dcl_input_ps linear v1.xyzw
dcl_output o0.xyzw
dcl_temps 2
sample_l_indexable(texture2d)(float,float,float,float) r0.xyzw, v1.xyxx, t0.xyzw, s0, v1.z
sample_l_aoffimmi_indexable(1,1,0)(texture2d)(float,float,float,float) r1.xyzw, v1.xyxx, t0.xyzw, s0, l(2.0)
add o0.xyzw, r0.xyzw, r1.xyzw
ret
