ps_5_0
// Pixel (x, y) shows texel (x, 0) of t<y> (y in 0..5), read with ld,
// so a case can put one format per row of its target and only the
// upload and the format's decoding matter. SINT results through itof
// (exact below 2^24).
dcl_input_ps_siv linear noperspective v0.xy, position
dcl_resource_texture2d (sint,sint,sint,sint) t0
dcl_resource_texture2d (sint,sint,sint,sint) t1
dcl_resource_texture2d (sint,sint,sint,sint) t2
dcl_resource_texture2d (sint,sint,sint,sint) t3
dcl_resource_texture2d (sint,sint,sint,sint) t4
dcl_resource_texture2d (sint,sint,sint,sint) t5
dcl_output o0.xyzw
dcl_temps 5
ftou r0.xy, v0.xyxx
mov r1.x, r0.x
mov r1.yzw, l(0, 0, 0, 0)
ld_indexable(texture2d)(sint,sint,sint,sint) r2.xyzw, r1.xyzw, t0.xyzw
ld_indexable(texture2d)(sint,sint,sint,sint) r3.xyzw, r1.xyzw, t1.xyzw
ieq r4.x, r0.y, l(1)
movc r2.xyzw, r4.xxxx, r3.xyzw, r2.xyzw
ld_indexable(texture2d)(sint,sint,sint,sint) r3.xyzw, r1.xyzw, t2.xyzw
ieq r4.x, r0.y, l(2)
movc r2.xyzw, r4.xxxx, r3.xyzw, r2.xyzw
ld_indexable(texture2d)(sint,sint,sint,sint) r3.xyzw, r1.xyzw, t3.xyzw
ieq r4.x, r0.y, l(3)
movc r2.xyzw, r4.xxxx, r3.xyzw, r2.xyzw
ld_indexable(texture2d)(sint,sint,sint,sint) r3.xyzw, r1.xyzw, t4.xyzw
ieq r4.x, r0.y, l(4)
movc r2.xyzw, r4.xxxx, r3.xyzw, r2.xyzw
ld_indexable(texture2d)(sint,sint,sint,sint) r3.xyzw, r1.xyzw, t5.xyzw
ieq r4.x, r0.y, l(5)
movc r2.xyzw, r4.xxxx, r3.xyzw, r2.xyzw
itof o0.xyzw, r2.xyzw
ret
