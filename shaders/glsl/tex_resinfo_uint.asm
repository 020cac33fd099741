ps_5_0
// resinfo_uint on a 3D texture, swizzled to .wzyx
.semantic v1 TEXCOORD 0
dcl_resource_texture3d (float,float,float,float) t0
dcl_input_ps linear v1.xyzw
dcl_output o0.xyzw
dcl_temps 2
resinfo_indexable(texture3d)(float,float,float,float)_uint r0.xyzw, l(1), t0.wzyx
utof o0.xyzw, r0.xyzw
ret
