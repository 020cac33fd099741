ps_5_0
// Shadow lookup at u = (SV_Position.xy + cb0[0].zw) * cb0[0].xy with the
// reference depth in cb0[1].x: o0 = (sample_c, sample_c_lz, 0, 1).
dcl_constantbuffer cb0[2], immediateIndexed
dcl_sampler s0, mode_comparison
dcl_resource_texture2d (float,float,float,float) t0
dcl_input_ps_siv linear noperspective v0.xy, position
dcl_output o0.xyzw
dcl_temps 1
add r0.xy, v0.xyxx, cb0[0].zwzz
mul r0.xy, r0.xyxx, cb0[0].xyxx
sample_c_indexable(texture2d)(float,float,float,float) o0.x, r0.xyxx, t0.xxxx, s0, cb0[1].x
sample_c_lz_indexable(texture2d)(float,float,float,float) o0.y, r0.xyxx, t0.xxxx, s0, cb0[1].x
mov o0.zw, l(0, 0, 0, 1.000000)
ret
