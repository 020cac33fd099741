# dxbc-dbg's own es300 binding contract (docs/glsl.md, "Runtime contract"),
# for its text fed back through `--translator`.
# docs/translators.md, "Profiles", describes each rule.

vertex-input    in_{semantic}{index}
vertex-output   vs_{semantic}{index}
pixel-input     vs_{semantic}{index}
pixel-output    location
# ES 3.00 has no `noperspective`: the pixel shader divides by clip w,
# which the vertex stage multiplies in.
noperspective   emulated

# Constant buffer N is block `ConstantBufferN`, one `vec4 data[rows]`.
constant-buffer ConstantBuffer{slot}.data

# Combined samplers per (texture, sampler) pair; bare textures for
# texelFetch and textureSize.
sampler         t{t}TEX_with_SMPs{s}
sampler-compare hlslcc_zcmpt{t}TEX_with_SMPs{s}
texture         t{t}
texture         hlslcc_zcmpt{t}

# The runtime values.
uniform hlslcc_YFlip               y-flip
uniform hlslcc_textureLevels_t{t}  texture-levels
uniform hlslcc_rasterizer          rasterizer-samples
uniform hlslcc_samplerMode_s{s}    sampler-mode
uniform hlslcc_samplerBorder_s{s}  sampler-border
uniform hlslcc_samplerLod_s{s}     sampler-lod
uniform hlslcc_samplerFilter_s{s}  sampler-filter
uniform hlslcc_interfaceTable      interface-table
uniform hlslcc_this                interface-this
