// Interpolation: centroid is kept; constant becomes flat; noperspective is
// native in vk450 and emulated in es300 (which has none): the input is
// multiplied by gl_FragCoord.w, the linked vertex shader having written
// value * clip w.
ps_5_0
dcl_input_ps linear v1.xyzw
dcl_input_ps linear centroid v2.xy
dcl_input_ps linear noperspective v3.xyzw
dcl_input_ps linear noperspective centroid v4.x
dcl_input_ps constant v5.x
dcl_output o0.xyzw
dcl_temps 1
add r0.xyzw, v1.xyzw, v3.xyzw
add r0.xy, r0.xyxx, v2.xyxx
add r0.z, r0.z, v4.x
add o0.xyzw, r0.xyzw, v5.xxxx
ret
