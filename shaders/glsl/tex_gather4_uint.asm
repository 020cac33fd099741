ps_5_0
// gather4 on a uint texture: bits returned as they are
.semantic v1 TEXCOORD 0
dcl_sampler s0, mode_default
dcl_resource_texture2d (uint,uint,uint,uint) t0
dcl_input_ps linear v1.xyzw
dcl_output o0.xyzw
dcl_temps 2
gather4_indexable(texture2d)(uint,uint,uint,uint) r0.xyzw, v1.xyxx, t0.xyzw, s0.x
utof o0.xyzw, r0.xyzw
ret
