ps_5_0
// Tiled-resource status: the _s forms lower as their plain forms plus the
// fully-mapped status 0u (no sparse residency here), the _cl clamp l(0.0)
// as no clamp and any other on the emulated path alone, a null status as
// nothing, check_access_fully_mapped as a comparison with 0u (scalar and
// vector).
.semantic v1 TEXCOORD 0
dcl_sampler s0, mode_default
dcl_resource_texture2d (float,float,float,float) t0
dcl_input_ps linear v1.xyzw
dcl_output o0.xyzw
dcl_temps 4
sample_l_s r0.xyzw, r2.x, v1.xyxx, t0.xyzw, s0, l(1.000000)
sample_cl_s r1.xyzw, r2.y, v1.xyxx, t0.xyzw, s0, l(0.000000)
gather4_s r3.xyzw, null, v1.xyxx, t0.xyzw, s0.x
add r0.xyzw, r0.xyzw, r1.xyzw
add r0.xyzw, r0.xyzw, r3.xyzw
ld_s r1.xyzw, r2.z, l(0, 0, 0, 0), t0.xyzw
add r0.xyzw, r0.xyzw, r1.xyzw
sample_b_cl_s r1.xyzw, r2.w, v1.xyxx, t0.xyzw, s0, l(0.500000), v1.w
add r0.xyzw, r0.xyzw, r1.xyzw
or r2.x, r2.x, r2.z
check_access_fully_mapped r2.xy, r2.xyxx
check_access_fully_mapped r2.z, r2.x
and r1.xyz, r2.xyzx, l(1065353216, 1065353216, 1065353216, 0)
mul o0.xyz, r0.xyzx, r1.xyzx
mov o0.w, r0.w
ret
