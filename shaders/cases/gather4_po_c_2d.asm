ps_5_0
// gather4_po_c at texel centres of a 4x4 target with the offset in
// cb0[1].xy (int) and the reference depth in cb0[0].x.
dcl_constantbuffer cb0[2], immediateIndexed
dcl_sampler s0, mode_comparison
dcl_resource_texture2d (float,float,float,float) t0
dcl_input_ps_siv linear noperspective v0.xy, position
dcl_output o0.xyzw
dcl_temps 1
mul r0.xy, v0.xyxx, l(0.250000, 0.250000, 0.000000, 0.000000)
gather4_po_c_indexable(texture2d)(float,float,float,float) o0.xyzw, r0.xyxx, cb0[1].xyxx, t0.xyzw, s0.x, cb0[0].x
ret
