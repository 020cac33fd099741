// oDepth is a float register copied to gl_FragDepth after the body.
ps_5_0
dcl_input_ps linear v1.xyzw
dcl_output o0.xyzw
dcl_output oDepth
mov o0.xyzw, v1.xyzw
mul_sat oDepth, v1.z, l(0.500000)
ret
