// f32tof16 puts half bits in the low 16 bits of a uint; f16tof32 reads the
// low 16 bits as a half (through packHalf2x16/unpackHalf2x16).
vs_5_0
dcl_input v0.xyzw
dcl_output_siv o0.xyzw, position
dcl_temps 2
f32tof16 r0.xyzw, v0.xyzw
f16tof32 r1.x, r0.x
f16tof32 r1.yzw, l(0, 0x3c00, 0x7c00, 0x17c00)
add o0.xyzw, r1.xyzw, v0.xyzw
ret
