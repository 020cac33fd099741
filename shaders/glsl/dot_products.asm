// dp2, dp3 and dp4 reduce over 2, 3 and 4 source components whatever the
// destination mask, and replicate the scalar into every masked component.
ps_5_0
dcl_input_ps linear v1.xyzw
dcl_input_ps linear v2.xyzw
dcl_output o0.xyzw
dcl_temps 1
dp2 r0.x, v1.xyxx, v2.xyxx
dp3 r0.yz, v1.xyzx, v2.zyxz
dp4 r0.w, v1.xyzw, v2.wzyx
dp4 o0.xyw, r0.xyzw, l(1.000000, 1.000000, 1.000000, 1.000000)
mov o0.z, r0.x
ret
