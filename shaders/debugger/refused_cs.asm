// A compute shader: WebGL2 has no compute stage, so the GLSL emitter
// refuses it, yet the debugger still steps it (tests/tui.rs).
cs_5_0
dcl_globalFlags refactoringAllowed
dcl_temps 1
dcl_thread_group 1, 1, 1
mov r0.x, l(3.000000)
add r0.x, r0.x, r0.x
ret
