ps_5_0
// Cube-map arrays (vk450 only: es300 refuses them). t0 is read plainly by
// every non-comparison instruction, t1 compared (naga types a compared
// texture as depth). The address is the direction in xyz and the cube in w.
.semantic v1 TEXCOORD 0
.semantic v2 TEXCOORD 1
dcl_sampler s0, mode_default
dcl_sampler s1, mode_comparison
dcl_resource_texturecubearray (float,float,float,float) t0
dcl_resource_texturecubearray (float,float,float,float) t1
dcl_input_ps linear v1.xyzw
dcl_input_ps linear v2.xyzw
dcl_output o0.xyzw
dcl_temps 4
sample_indexable(texturecubearray)(float,float,float,float) r0.xyzw, v1.xyzw, t0.xyzw, s0
sample_l_indexable(texturecubearray)(float,float,float,float) r1.xyzw, v1.xyzw, t0.xyzw, s0, v2.x
add r0.xyzw, r0.xyzw, r1.xyzw
sample_b_indexable(texturecubearray)(float,float,float,float) r1.xyzw, v1.xyzw, t0.xyzw, s0, v2.y
add r0.xyzw, r0.xyzw, r1.xyzw
sample_d_indexable(texturecubearray)(float,float,float,float) r1.xyzw, v1.xyzw, t0.xyzw, s0, v2.xyzx, v2.yzxy
add r0.xyzw, r0.xyzw, r1.xyzw
sample_c_indexable(texturecubearray)(float,float,float,float) r1.x, v1.xyzw, t1.xxxx, s1, v2.w
sample_c_lz_indexable(texturecubearray)(float,float,float,float) r1.y, v1.xyzw, t1.xxxx, s1, v2.w
add r0.xy, r0.xyxx, r1.xyxx
gather4_indexable(texturecubearray)(float,float,float,float) r1.xyzw, v1.xyzw, t0.xyzw, s0.y
add r0.xyzw, r0.xyzw, r1.xyzw
gather4_c_indexable(texturecubearray)(float,float,float,float) r1.xyzw, v1.xyzw, t1.xyzw, s1.x, v2.w
add r0.xyzw, r0.xyzw, r1.xyzw
resinfo_indexable(texturecubearray)(float,float,float,float)_uint r2.xyzw, l(1), t0.xyzw
utof r2.xyzw, r2.xyzw
add r0.xyzw, r0.xyzw, r2.xyzw
lod_indexable(texturecubearray)(float,float,float,float) r3.xy, v1.xyzx, t0.xyzw, s0
add r0.xy, r0.xyxx, r3.xyxx
ld_indexable(texturecubearray)(float,float,float,float) r3.xyzw, l(0,0,0,0), t0.xyzw
add o0.xyzw, r0.xyzw, r3.xyzw
ret
