// call and callc_nz invoke label functions (l0, l1) declared before
// dxbc_main; ret inside a label returns from that function only.
vs_5_0
dcl_input v0.xyzw
dcl_output_siv o0.xyzw, position
dcl_temps 2
mov r0.xyzw, v0.xyzw
call l0
lt r1.x, r0.x, l(0.000000)
callc_nz r1.x, l1
mov o0.xyzw, r0.xyzw
ret
label l0
mul r0.xyz, r0.xyzx, l(2.000000, 2.000000, 2.000000, 0)
ret
label l1
mov r0.x, l(0)
ret
