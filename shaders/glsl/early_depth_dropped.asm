// dcl_globalFlags forceEarlyDepthStencil is dropped: ES 3.00 has no
// layout(early_fragment_tests), and the hint only affects performance.
ps_5_0
dcl_globalFlags refactoringAllowed | forceEarlyDepthStencil
dcl_input_ps linear v1.xyzw
dcl_output o0.xyzw
mov o0.xyzw, v1.xyzw
ret
