//
// Input signature:
//
// Name                 Index   Mask Register SysValue  Format   Used
// -------------------- ----- ------ -------- -------- ------- ------
// POSITION                 0   xyzw        0     NONE   float   xyzw
//
//
// Output signature:
//
// Name                 Index   Mask Register SysValue  Format   Used
// -------------------- ----- ------ -------- -------- ------- ------
// SV_Position              0   xyzw        0      POS   float   xyzw
// TEXCOORD                 0   xy          1     NONE   float   xy  
// COLOR                    0     zw        1     NONE   float     zw
//
vs_5_0
// Two semantics packed into one output register (o1.xy and o1.zw) become
// two varyings, each copied from its own components of o1.
dcl_input v0.xyzw
dcl_output_siv o0.xyzw, position
dcl_output o1.xy
dcl_output o1.zw
mov o0.xyzw, v0.xyzw
mov o1.xy, v0.xyxx
mul o1.zw, v0.zzzw, l(0, 0, 0.500000, 0.500000)
ret
