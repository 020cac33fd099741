// ftoi and ftou truncate and saturate (NaN gives 0, out-of-range values
// clamp) through helpers; itof and utof convert the integer value.
vs_5_0
dcl_input v0.xyzw
dcl_output_siv o0.xyzw, position
dcl_temps 2
ftoi r0.xy, v0.xyxx
ftou r0.zw, v0.zzzw
itof r1.xy, r0.xyxx
utof r1.zw, r0.zzzw
ftoi r0.x, l(0x7fc00000)
ftou r0.y, l(-1.000000)
itof r1.x, l(-2147483648)
utof r1.y, l(0xffffffff)
add o0.xyzw, r1.xyzw, r0.xyzw
ret
