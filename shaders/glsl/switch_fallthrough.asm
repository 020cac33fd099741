// switch on an int: a case without break falls through into the next, two
// labels share a body, default comes last; a break ends the switch.
ps_5_0
dcl_input_ps constant v1.x
.semantic v1 TEXCOORD 1 int
dcl_output o0.xyzw
dcl_temps 1
mov r0.xyzw, l(0, 0, 0, 0)
switch v1.x
  case l(0)
  mov r0.x, l(1.000000)
  case l(1)
  mov r0.y, l(1.000000)
  break
  case l(2)
  case l(-3)
  mov r0.z, l(1.000000)
  break
  default
  mov r0.w, l(1.000000)
  break
endswitch
mov o0.xyzw, r0.xyzw
ret
