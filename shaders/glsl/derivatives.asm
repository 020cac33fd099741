// Derivatives: deriv_rtx/rty and their _coarse forms map to dFdx/dFdy;
// _fine goes through dx_dFdxFine/dx_dFdyFine (ES 3.00 has one precision,
// chosen by the implementation).
ps_5_0
dcl_input_ps linear v1.xyzw
dcl_output o0.xyzw
dcl_temps 2
deriv_rtx r0.x, v1.x
deriv_rty r0.y, v1.y
deriv_rtx_coarse r0.zw, v1.zzzw
deriv_rty_coarse r1.x, v1.x
deriv_rtx_fine r1.y, v1.y
deriv_rty_fine r1.zw, v1.zzzw
add o0.xyzw, r0.xyzw, r1.xyzw
ret
