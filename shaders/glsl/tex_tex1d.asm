ps_5_0
// 1D and 1D-array textures lowered to 2D of height 1: sample, ld and resinfo
.semantic v1 TEXCOORD 0
dcl_sampler s0, mode_default
dcl_resource_texture1d (float,float,float,float) t0
dcl_resource_texture1darray (float,float,float,float) t1
dcl_input_ps linear v1.xyzw
dcl_output o0.xyzw
dcl_temps 2
sample_indexable(texture1d)(float,float,float,float) r0.xyzw, v1.xxxx, t0.xyzw, s0
sample_indexable(texture1darray)(float,float,float,float) r1.xyzw, v1.xyxx, t1.xyzw, s0
add r0.xyzw, r0.xyzw, r1.xyzw
ftoi r1.xyzw, v1.xyzw
ld_indexable(texture1d)(float,float,float,float) r1.xyzw, r1.xyzw, t0.xyzw
add r0.xyzw, r0.xyzw, r1.xyzw
resinfo_indexable(texture1darray)(float,float,float,float) r1.xyzw, l(0), t1.xyzw
add o0.xyzw, r0.xyzw, r1.xyzw
ret
