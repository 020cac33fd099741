ps_5_0
// class interfaces: fbN functions, each fcall a switch over the tables the
// interface lists (the bound one chosen by hlslcc_interfaceTable), `this`
// read from hlslcc_this
.semantic v0 COLOR 0
dcl_globalFlags refactoringAllowed
dcl_function_body fb0
dcl_function_body fb1
dcl_function_body fb2
dcl_function_body fb3
dcl_function_table ft0 = {fb0, fb2}
dcl_function_table ft1 = {fb1, fb3}
dcl_interface fp0[1][2] = {ft0, ft1}
dcl_input_ps linear v0.xyz
dcl_output o0.xyzw
dcl_temps 1
fcall fp0[0][0]
mov o0.yz, r0.yyzy
fcall fp0[0][1]
mov o0.x, r0.x
utof o0.w, this[0].y
ret
label fb0
mov r0.xyz, v0.xyzx
ret
label fb1
add r0.xyz, v0.xyzx, v0.xyzx
ret
label fb2
ret
label fb3
add r0.x, r0.x, r0.x
ret
