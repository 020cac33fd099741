ps_5_0
// lod: approximated from derivatives, clamped by the mip count and sampler LOD range
.semantic v1 TEXCOORD 0
dcl_sampler s0, mode_default
dcl_resource_texture2d (float,float,float,float) t0
dcl_input_ps linear v1.xyzw
dcl_output o0.xyzw
dcl_temps 2
lod_indexable(texture2d)(float,float,float,float) o0.xy, v1.xyxx, t0.xyzw, s0
mov o0.zw, l(0,0,0,0)
ret
