// ubfe/ibfe extract width bits at offset (zero- or sign-extended) and bfi
// inserts them; width and offset use their low five bits, a zero width
// gives 0 (bfe) or the base unchanged (bfi).
vs_5_0
.semantic v0 TEXCOORD 0 uint
dcl_input v0.xyzw
dcl_output_siv o0.xyzw, position
dcl_temps 2
ubfe r0.x, l(8), l(4), v0.x
ibfe r0.y, l(5), l(27), v0.y
ubfe r0.zw, v0.zzzw, v0.wwwz, v0.xxxy
bfi r1.x, l(4), l(28), v0.x, v0.y
bfi r1.yzw, l(0, 0, 16, 40), l(0, 3, 16, 0), v0.yyzw, v0.xxyz
iadd o0.xyzw, r0.xyzw, r1.xyzw
ret
