ps_5_0
// gather4 with an immediate offset
.semantic v1 TEXCOORD 0
dcl_sampler s0, mode_default
dcl_resource_texture2d (float,float,float,float) t0
dcl_input_ps linear v1.xyzw
dcl_output o0.xyzw
dcl_temps 2
gather4_aoffimmi_indexable(-1,2,0)(texture2d)(float,float,float,float) o0.xyzw, v1.xyxx, t0.xyzw, s0.x
ret
