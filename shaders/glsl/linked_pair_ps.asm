// The pixel half of a pair translated together (linked_pair_vs.asm, with a
// link to this shader): a constant float varying (flat), a centroid one, a
// noperspective one (es300: interpolated v * w, times gl_FragCoord.w), a
// noperspective centroid one and a plain linear one.
ps_5_0
.semantic v5 COLOR 0
dcl_input_ps constant v1.xyzw
dcl_input_ps linear centroid v2.xyzw
dcl_input_ps linear noperspective v3.xy
dcl_input_ps linear noperspective centroid v4.x
dcl_input_ps linear v5.xyzw
dcl_output o0.xyzw
dcl_temps 1
add r0.xyzw, v1.xyzw, v2.xyzw
add r0.xy, r0.xyxx, v3.xyxx
add r0.z, r0.z, v4.x
mul o0.xyzw, r0.xyzw, v5.xyzw
ret
