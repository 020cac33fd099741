ps_5_0
// resinfo_rcpFloat on a 2D array: reciprocal sizes, layer count as is
.semantic v1 TEXCOORD 0
dcl_resource_texture2darray (float,float,float,float) t0
dcl_input_ps linear v1.xyzw
dcl_output o0.xyzw
dcl_temps 2
resinfo_indexable(texture2darray)(float,float,float,float)_rcpFloat o0.xyzw, l(0), t0.xyzw
ret
