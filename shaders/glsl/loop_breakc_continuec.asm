// loop becomes while (true); breakc/continuec test bits against zero and
// break or continue the innermost loop.
vs_5_0
dcl_input v0.xyzw
dcl_output_siv o0.xyzw, position
dcl_temps 2
mov r0.xyzw, l(0, 0, 0, 0)
loop
  ige r1.x, r0.x, l(8)
  breakc_nz r1.x
  iadd r0.x, r0.x, l(1)
  and r1.y, r0.x, l(1)
  continuec_z r1.y
  add r0.y, r0.y, v0.x
endloop
mov o0.xyzw, r0.xyzw
ret
