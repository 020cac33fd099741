// Float comparisons (eq, ne, lt, ge) give 0xFFFFFFFF for true and 0 for
// false, as scalars and as vectors.
ps_5_0
dcl_input_ps linear v1.xyzw
dcl_output o0.xyzw
dcl_temps 2
eq r0.x, v1.x, v1.y
ne r0.y, v1.z, l(0.000000)
lt r0.zw, v1.xxxy, v1.zzzw
ge r1.xyzw, v1.xyzw, l(0.500000, 0.500000, 0.500000, 0.500000)
and r0.xyzw, r0.xyzw, r1.xyzw
and o0.xyzw, r0.xyzw, l(0x3f800000, 0x3f800000, 0x3f800000, 0x3f800000)
ret
