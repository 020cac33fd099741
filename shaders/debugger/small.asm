// A small pixel shader for the debugger's tests (tests/tui.rs). Every
// value follows by hand from the pixel centre the documented defaults put
// in SV_Position (x + 0.5, y + 0.5): for the quad at pixel (0,0), lane 0
// ends with o0 = (7.5, 2.5, 4, 6), lane 1 with (12.5, 2.5, 5, 8) and lane 3
// with (16.5, 3.5, 6, 10). The last division makes +Inf (x / 0).
ps_4_0
dcl_input_ps_siv linear noperspective v0.xy, position
dcl_output o0.xyzw
dcl_temps 2
mov r0.xy, v0.xyxx
add r0.z, r0.x, r0.y
mul r0.w, r0.z, l(2.000000)
mov r1.xyzw, l(1.000000, 2.000000, 3.000000, 4.000000)
mad r1.x, r0.w, r1.y, r1.z
add o0.xyzw, r0.xyzw, r1.xyzw
div r1.y, r1.x, l(0.000000)
ret
