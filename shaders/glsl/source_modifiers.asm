// Source modifiers: -x, |x| and -|x| in float arithmetic, and on integer
// sources, where negation is two's complement in int arithmetic.
ps_5_0
dcl_input_ps linear v1.xyzw
dcl_input_ps constant v2.xy
.semantic v2 TEXCOORD 2 int
dcl_output o0.xyzw
dcl_temps 2
add r0.x, -v1.x, |v1.y|
mul r0.y, -|v1.z|, v1.w
mov r0.zw, -v1.xxxy
iadd r1.x, -v2.x, v2.y
iadd r1.y, |v2.x|, -|v2.y|
itof r1.xy, r1.xyxx
add o0.xyzw, r0.xyzw, r1.xyxy
ret
