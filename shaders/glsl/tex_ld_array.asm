ps_5_0
// ld on a 2D array without offset
.semantic v1 TEXCOORD 0
dcl_resource_texture2darray (float,float,float,float) t0
dcl_input_ps linear v1.xyzw
dcl_output o0.xyzw
dcl_temps 2
ftoi r0.xyzw, v1.xyzw
ld_indexable(texture2darray)(float,float,float,float) o0.xyzw, r0.xyzw, t0.xyzw
ret
