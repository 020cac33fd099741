// sincos with both destinations, and with the sine or the cosine
// destination null: a null destination writes nothing.
ps_5_0
dcl_input_ps linear v1.xyzw
dcl_output o0.xyzw
dcl_temps 2
sincos r0.xy, r1.xy, v1.xyxx
sincos null, r0.z, v1.z
sincos r0.w, null, v1.w
add r0.xy, r0.xyxx, r1.xyxx
mov o0.xyzw, r0.xyzw
ret
