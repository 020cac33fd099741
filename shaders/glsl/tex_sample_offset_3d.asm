ps_5_0
// sample on a 3D texture with an immediate offset: textureOffset with ivec3
.semantic v1 TEXCOORD 0
dcl_sampler s0, mode_default
dcl_resource_texture3d (float,float,float,float) t0
dcl_input_ps linear v1.xyzw
dcl_output o0.xyzw
dcl_temps 2
sample_aoffimmi_indexable(1,-1,2)(texture3d)(float,float,float,float) o0.xyzw, v1.xyzx, t0.xyzw, s0
ret
