// D3D's y in a pixel shader: es300 rebuilds SV_Position.y from
// gl_FragCoord.y and hlslcc_YFlip (rows from the top whichever way GL's
// window y runs), and negates every deriv_rty form by hlslcc_YFlip.x;
// vk450 (already D3D's window) reads gl_FragCoord and dFdy as they are.
ps_5_0
dcl_input_ps_siv linear noperspective v0.xy, position
dcl_input_ps linear v1.xyzw
dcl_output o0.xyzw
dcl_temps 1
deriv_rty r0.x, v1.x
deriv_rty_coarse r0.y, v1.y
deriv_rty_fine r0.zw, v1.zzzw
add r0.xy, r0.xyxx, v0.xyxx
mov o0.xyzw, r0.xyzw
ret
