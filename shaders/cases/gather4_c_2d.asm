ps_5_0
// gather4_c at texel centres of a 4x4 target (u = (x+0.5)/4) with the
// reference depth in cb0[0].x; the four 0/1 results go straight out.
dcl_constantbuffer cb0[1], immediateIndexed
dcl_sampler s0, mode_comparison
dcl_resource_texture2d (float,float,float,float) t0
dcl_input_ps_siv linear noperspective v0.xy, position
dcl_output o0.xyzw
dcl_temps 1
mul r0.xy, v0.xyxx, l(0.250000, 0.250000, 0.000000, 0.000000)
gather4_c_indexable(texture2d)(float,float,float,float) o0.xyzw, r0.xyxx, t0.xyzw, s0.x, cb0[0].x
ret
