ps_5_0
// resinfo (float) including the mip count in .w
.semantic v1 TEXCOORD 0
dcl_resource_texture2d (float,float,float,float) t0
dcl_input_ps linear v1.xyzw
dcl_output o0.xyzw
dcl_temps 2
ftou r0.x, v1.x
resinfo_indexable(texture2d)(float,float,float,float) o0.xyzw, r0.x, t0.xyzw
ret
