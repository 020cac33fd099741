// SV_IsFrontFace becomes a 0xFFFFFFFF / 0 mask of gl_FrontFacing, so
// integer and bit instructions can consume it as D3D's boolean.
ps_5_0
dcl_input_ps linear v1.xyzw
dcl_input_ps_sgv v2.x, is_front_face
dcl_output o0.xyzw
movc o0.xyzw, v2.xxxx, v1.xyzw, -v1.xyzw
ret
