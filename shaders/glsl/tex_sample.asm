ps_5_0
// sample: texture() through the combined sampler, resource swizzle .zyxw on a partial mask
.semantic v1 TEXCOORD 0
dcl_sampler s0, mode_default
dcl_resource_texture2d (float,float,float,float) t0
dcl_input_ps linear v1.xyzw
dcl_output o0.xyzw
dcl_temps 2
sample_indexable(texture2d)(float,float,float,float) r0.xyz, v1.xyxx, t0.zyxw, s0
mov o0.xyz, r0.xyzx
mov o0.w, l(1.0)
ret
