ps_5_0
// sample_l on an int texture: isampler2D and an Int result
.semantic v1 TEXCOORD 0
dcl_sampler s0, mode_default
dcl_resource_texture2d (sint,sint,sint,sint) t0
dcl_input_ps linear v1.xyzw
dcl_output o0.xyzw
dcl_temps 2
sample_l_indexable(texture2d)(sint,sint,sint,sint) r0.xyzw, v1.xyxx, t0.xyzw, s0, l(0.0)
itof o0.xyzw, r0.xyzw
ret
