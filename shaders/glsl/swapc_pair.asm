// swapc writes both destinations from the same sources: dst0 gets src2
// where the condition is set, dst1 gets src1; sources are read before
// either write, so an overlapping destination does not feed the second.
ps_5_0
dcl_input_ps linear v1.xyzw
dcl_input_ps linear v2.xyzw
dcl_output o0.xyzw
dcl_temps 3
ge r0.xy, v1.xyxx, v2.xyxx
mov r1.xy, v1.zwzz
swapc r1.xy, r2.xy, r0.xyxx, r1.xyxx, v2.zwzz
mov o0.xy, r1.xyxx
mov o0.zw, r2.xxxy
ret
