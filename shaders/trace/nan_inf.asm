// Results that are not finite numbers, and integers beside them
// (tests/trace_cli.rs): `trace` prints each by the type its instruction
// gives it. By the D3D11 functional spec: log(+0) = -inf (bits
// 0xff800000), sqrt of a negative number is NaN, and a float NaN moved
// stays a float; iadd makes the integer -5 (0xfffffffb, a NaN's bits if
// read as a float) and ieq a mask.
ps_4_0
dcl_output o0.xyzw
dcl_temps 2
log r0.x, l(0.000000)
sqrt r0.y, l(-1.000000)
iadd r0.z, l(-8), l(3)
ieq r0.w, r0.z, l(-5)
mov r1.xy, r0.yxyy
mov o0.xyzw, r0.xyzw
ret
