// A pixel shader with sixteen temps, three inputs and two outputs, for the
// debugger's layout tests (tests/tui_layout.rs): with one register a row,
// the temps alone fill a small register pane, so the inputs and outputs
// show only by scrolling or, on a wide pane, with registers side by side.
// Its first instruction is a texture fetch whose listing line is longer
// than half of a 160-column screen. By hand, with the documented defaults
// at pixel (0,0) of the 64x64 target: v0 = (0.5, 0.5, 0.5, 1), v1 = v2 =
// (0.5/64, 0.5/64, 0, 1) = (0.0078125, 0.0078125, 0, 1); so o0 = v1 * 2 =
// (0.015625, 0.015625, 0, 2) and o1 = v0 + v2 = (0.5078125, 0.5078125,
// 0.5, 2).
ps_5_0
dcl_sampler s0, mode_default
dcl_resource_texture2d (float,float,float,float) t0
dcl_input_ps_siv linear noperspective v0.xyzw, position
dcl_input_ps linear v1.xyzw
dcl_input_ps linear v2.xyzw
dcl_output o0.xyzw
dcl_output o1.xyzw
dcl_temps 16
sample_l_aoffimmi_indexable(0,-1,0)(texture2d)(float,float,float,float) r0.xyzw, v1.xyxx, t0.xyzw, s0, l(0.000000)
mov r15.xyzw, l(1.000000, 2.000000, 3.000000, 4.000000)
add r14.xyzw, v1.xyzw, v1.xyzw
add r13.xyzw, v0.xyzw, v2.xyzw
mov o0.xyzw, r14.xyzw
mov o1.xyzw, r13.xyzw
ret
