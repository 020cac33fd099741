// A vertex shader for the reader's and assembler's own tests: nested
// blocks, an immediate constant buffer holding NaN/Inf bit patterns,
// relative constant-buffer indexing, integer immediates and modifiers.
// No header: the signatures come from the declarations and `.semantic`.
.semantic v0 INSTANCE_SEED 0 int
vs_4_0
dcl_immediateConstantBuffer { { 1.000000, 0, 0x7f800000, -1},
                              { 0.500000, 16, -0.000000, 0x7fc00000} }
dcl_constantbuffer cb2[8], dynamicIndexed
dcl_input v0.x
dcl_output_siv o0.xyzw, position
dcl_temps 1
itof r0.x, v0.x
loop
  ige r0.y, r0.x, l(4)
  breakc_nz r0.y
  if_z -r0.y
    mov_sat o0.xyzw, cb2[r0.x + 3].xyzw
  else
    iadd r0.x, r0.x, l(4)
  endif
endloop
ret
