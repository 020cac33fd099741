// One interface (fp0) with two methods (call sites 0 and 1) and two
// classes: ft0 is class A's table (fb0, fb1), ft1 class B's (fb2, fb3).
// The pixel's value starts at (0.25, 0.5, 0.75, 1), goes through method 0
// and then method 1 of whichever class slot 0 is bound to.
ps_5_0
dcl_function_body fb0
dcl_function_body fb1
dcl_function_body fb2
dcl_function_body fb3
dcl_function_table ft0 = {fb0, fb1}
dcl_function_table ft1 = {fb2, fb3}
dcl_interface fp0[1][2] = {ft0, ft1}
dcl_output o0.xyzw
dcl_temps 1
mov r0.xyzw, l(0.250000, 0.500000, 0.750000, 1.000000)
fcall fp0[0][0]
fcall fp0[0][1]
mov o0.xyzw, r0.xyzw
ret
// A, method 0: halve every component.
label fb0
mul r0.xyzw, r0.xyzw, l(0.500000, 0.500000, 0.500000, 0.500000)
ret
// A, method 1: swap x and y.
label fb1
mov r0.xy, r0.yxyy
ret
// B, method 0: 1 - value.
label fb2
add r0.xyzw, -r0.xyzw, l(1.000000, 1.000000, 1.000000, 1.000000)
ret
// B, method 1: alpha 0.5.
label fb3
mov r0.w, l(0.500000)
ret
