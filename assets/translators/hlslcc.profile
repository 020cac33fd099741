# Unity's HLSLcc (GLSL ES 3.00 output), as `hlslcc_batch --print` writes it.
# docs/translators.md, "Profiles", describes each rule.

# Varyings by semantic: `in_POSITION0` into the vertex shader,
# `vs_TEXCOORD0` between the stages.
vertex-input   in_{semantic}{index}
vertex-output  vs_{semantic}{index}
pixel-input    vs_{semantic}{index}
# Colour outputs by `layout(location = N)` (`SV_TARGET0`).
pixel-output   location

# Constants as plain uniforms named by the RDEF variable; matrices also
# as HLSLcc's vec4 arrays. With uniform buffers (HLSLcc's flag 1, as
# Unity's WebGL builds translate), members of a block named by the
# cbuffer, `$Globals` becoming `PGlobals` in a pixel shader and
# `VGlobals` in a vertex shader. (Without uniform buffers HLSLcc's bodies
# read a named cbuffer's variables through an undeclared `NamePS.`
# structure, which no binding can make compile.)
constant       {name}
constant       hlslcc_mtx4x4{name}
constant       {cbuffer}.{name}
constant       PGlobals.{name}
constant       VGlobals.{name}

# One sampler uniform per texture, named by the RDEF texture and bound
# with the sampler the shader reads it with; `hlslcc_zcmp` for the
# comparison sampler's reads.
sampler         {texture}
sampler-compare hlslcc_zcmp{texture}
