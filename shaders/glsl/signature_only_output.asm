// An output in the signature that no instruction writes is still declared
// and comes out as zero (every o register starts at vec4(0.0)).
vs_5_0
dcl_input v0.xyzw
dcl_output_siv o0.xyzw, position
dcl_output o1.xyzw
dcl_output o2.xy
mov o0.xyzw, v0.xyzw
mov o2.xy, v0.xyxx
ret
