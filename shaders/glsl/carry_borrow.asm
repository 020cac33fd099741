// uaddc and usubb write the wrapped sum or difference and the carry or
// borrow (1 or 0) out of bit 31.
vs_5_0
.semantic v0 TEXCOORD 0 uint
dcl_input v0.xyzw
dcl_output_siv o0.xyzw, position
dcl_temps 2
uaddc r0.xy, r1.xy, v0.xyxx, v0.zwzz
usubb r0.zw, r1.zw, v0.xxxy, v0.zzzw
iadd o0.xyzw, r0.xyzw, r1.xyzw
ret
