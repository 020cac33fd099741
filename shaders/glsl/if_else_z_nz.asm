// if_nz / if_z test the condition register's bits against zero (so -0.0,
// 0x80000000, counts as true), with an else branch and nesting.
ps_5_0
dcl_input_ps linear v1.xyzw
dcl_output o0.xyzw
dcl_temps 1
mov r0.xyzw, v1.xyzw
if_nz v1.x
  if_z v1.y
    mov r0.x, l(1.000000)
  else
    mov r0.x, l(2.000000)
  endif
else
  mov r0.y, l(3.000000)
endif
mov o0.xyzw, r0.xyzw
ret
