ps_5_0
// gather4 and gather4_c on a cube map (the face-local approximation); separate textures, since naga types a
// texture compared anywhere as depth
.semantic v1 TEXCOORD 0
dcl_sampler s0, mode_default
dcl_sampler s1, mode_comparison
dcl_resource_texturecube (float,float,float,float) t0
dcl_resource_texturecube (float,float,float,float) t1
dcl_input_ps linear v1.xyzw
dcl_output o0.xyzw
dcl_temps 2
gather4_indexable(texturecube)(float,float,float,float) r0.xyzw, v1.xyzx, t0.xyzw, s0.x
gather4_c_indexable(texturecube)(float,float,float,float) r1.xyzw, v1.xyzx, t1.xyzw, s1.x, v1.w
add o0.xyzw, r0.xyzw, r1.xyzw
ret
