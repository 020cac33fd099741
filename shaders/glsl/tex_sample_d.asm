ps_5_0
// sample_d: textureGrad with gradients cut to two components
.semantic v1 TEXCOORD 0
dcl_sampler s0, mode_default
dcl_resource_texture2d (float,float,float,float) t0
dcl_input_ps linear v1.xyzw
dcl_output o0.xyzw
dcl_temps 2
deriv_rtx r0.xyzw, v1.xyzw
deriv_rty r1.xyzw, v1.xyzw
sample_d_indexable(texture2d)(float,float,float,float) o0.xyzw, v1.xyxx, t0.xyzw, s0, r0.xyzw, r1.xyzw
ret
