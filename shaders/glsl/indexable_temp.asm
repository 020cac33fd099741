// dcl_indexableTemp declares arrays of the declared width (vec2, vec4)
// indexed by a register (relative index) or a constant.
vs_5_0
.semantic v0 TEXCOORD 0 int
dcl_input v0.xy
dcl_output_siv o0.xyzw, position
dcl_temps 1
dcl_indexableTemp x0[3], 2
dcl_indexableTemp x1[4], 4
mov x0[0].xy, l(1.000000, 2.000000, 0, 0)
mov x0[1].xy, l(3.000000, 4.000000, 0, 0)
mov x0[2].xy, l(5.000000, 6.000000, 0, 0)
mov x1[v0.x + 0].xyzw, l(0, 0, 0, 0)
mov x1[v0.y + 1].xw, l(7.000000, 0, 0, 8.000000)
mov r0.xy, x0[v0.x + 0].yxyy
mov r0.zw, x1[v0.y + 1].xxxw
mov o0.xyzw, r0.xyzw
ret
