// An interface array fp0[2] (slots 0 and 1) indexed by cb0[0].x, as fxc
// writes `gInterfaces[index].Method()`, and a second interface fp2 (slot
// 2). Each class writes a constant colour; fp2's classes add to it.
ps_5_0
dcl_constantbuffer cb0[1], immediateIndexed
dcl_function_body fb0
dcl_function_body fb1
dcl_function_body fb2
dcl_function_body fb3
dcl_function_table ft0 = {fb0}
dcl_function_table ft1 = {fb1}
dcl_function_table ft2 = {fb2}
dcl_function_table ft3 = {fb3}
dcl_interface_dynamicindexed fp0[2][1] = {ft0, ft1}
dcl_interface fp2[1][1] = {ft2, ft3}
dcl_output o0.xyzw
dcl_temps 1
mov r0.x, cb0[0].x
fcall fp0[r0.x + 0][0]
fcall fp2[0][0]
mov o0.xyzw, r0.xyzw
ret
label fb0
mov r0.xyzw, l(0.250000, 0, 0, 1.000000)
ret
label fb1
mov r0.xyzw, l(0, 0.250000, 0, 1.000000)
ret
label fb2
ret
label fb3
add r0.z, r0.z, l(0.500000)
ret
