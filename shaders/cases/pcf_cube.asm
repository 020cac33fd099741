ps_5_0
// Cube shadow lookups, one face per pixel column: direction cb0[x].xyz,
// low reference cb0[x].w, high reference cb0[x + 6].x. s0 and s1 are
// comparison samplers with different functions (set by the case).
// o0 = (sample_c s0 low, sample_c_lz s1 high, sample_c s1 low, sample_c_lz s0 high)
dcl_constantbuffer cb0[12], dynamicIndexed
dcl_sampler s0, mode_comparison
dcl_sampler s1, mode_comparison
dcl_resource_texturecube (float,float,float,float) t0
dcl_input_ps_siv linear noperspective v0.xy, position
dcl_output o0.xyzw
dcl_temps 2
ftou r1.x, v0.x
mov r0.xyzw, cb0[r1.x + 0].xyzw
mov r1.y, cb0[r1.x + 6].x
sample_c_indexable(texturecube)(float,float,float,float) o0.x, r0.xyzx, t0.xxxx, s0, r0.w
sample_c_lz_indexable(texturecube)(float,float,float,float) o0.y, r0.xyzx, t0.xxxx, s1, r1.y
sample_c_indexable(texturecube)(float,float,float,float) o0.z, r0.xyzx, t0.xxxx, s1, r0.w
sample_c_lz_indexable(texturecube)(float,float,float,float) o0.w, r0.xyzx, t0.xxxx, s0, r1.y
ret
