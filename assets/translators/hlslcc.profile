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
# as HLSLcc's vec4 arrays; with uniform buffers enabled, block members.
constant       {name}
constant       hlslcc_mtx4x4{name}
constant       {cbuffer}.{name}

# One sampler uniform per texture, named by the RDEF texture and bound
# with the sampler the shader reads it with; `hlslcc_zcmp` for the
# comparison sampler's reads.
sampler         {texture}
sampler-compare hlslcc_zcmp{texture}
