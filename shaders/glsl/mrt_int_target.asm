// Multiple render targets: SV_TargetN at location N, and an integer target
// declared uvec4 and written from the register's bits.
ps_5_0
.semantic o2 SV_Target 2 uint
dcl_input_ps linear v1.xyzw
dcl_output o0.xyzw
dcl_output o1.xy
dcl_output o2.xyzw
mov o0.xyzw, v1.xyzw
mov o1.xy, v1.zwzz
ftou o2.xyzw, v1.xyzw
ret
