//! Malformed case files: each variant breaks one rule of `docs/cases.md`
//! once in an otherwise valid case. Each must be refused with an error
//! naming the case file and the line at fault, and nothing may be drawn:
//! the emulator does not run and no backend is handed the case.
//!
//! A variant is an edit of the valid case below: `old` replaced by `new`,
//! where the line at fault starts with `@` (removed before the file is
//! written; its line number is what the error must name).

use std::cell::Cell;
use std::path::{Path, PathBuf};

use dxbc_dbg::glsl;
use dxbc_dbg::harness::case::{Case, CaseShaders};
use dxbc_dbg::harness::suite::{Backend, Rendered, Renderer, RunOptions, run_all};

/// Valid: two samplers (one comparison), three textures (float, depth,
/// uint), one constant buffer, all declared and used. Every pixel reads at
/// (0.25, 0.25), texel (0, 0)'s centre in a 2x2 texture, so each filter
/// returns texel (0, 0): the checker's (0, 0, 0, 1) (texel (x, y) is white
/// when x + y is odd); the comparison 0.5 < 0.25 fails, 0; `ld` gives 1u,
/// 1.0 after `utof`. So o0 = (0 + 0 + 1, 0, 0, 1) everywhere. One class
/// interface (fp0, one table) is declared and never called, for the
/// `[interfaces]` variants.
const VALID: &str = "\
[pixel shader]
ps_5_0
dcl_constantbuffer cb0[2], immediateIndexed
dcl_sampler s0, mode_default
dcl_sampler s1, mode_comparison
dcl_resource_texture2d (float,float,float,float) t0
dcl_resource_texture2d (float,float,float,float) t1
dcl_resource_texture2d (uint,uint,uint,uint) t2
dcl_function_body fb0
dcl_function_table ft0 = {fb0}
dcl_interface fp0[1][1] = {ft0}
dcl_output o0.xyzw
dcl_temps 2
sample_l_indexable(texture2d)(float,float,float,float) r0.xyzw, cb0[0].xyxx, t0.xyzw, s0, l(0)
sample_c_lz_indexable(texture2d)(float,float,float,float) r1.x, cb0[0].xyxx, t1.xxxx, s1, cb0[1].x
ld_indexable(texture2d)(uint,uint,uint,uint) r1.y, l(0, 0, 0, 0), t2.yxzw
add r0.x, r0.x, r1.x
utof r1.y, r1.y
add o0.x, r0.x, r1.y
mov o0.yzw, r0.yyzw
ret
label fb0
ret

[texture 0]
format rgba8_unorm
size 2 2
fill checker

[texture 1]
format d32_float
size 2 2
values
0.25 0 0 1  0.5 0 0 1
0.75 0 0 1  1 0 0 1

[texture 2]
format r32_uint
size 2 2
fill constant 1u 0u 0u 1u

[sampler 0]
filter point
address clamp

[sampler 1]
compare less

[constant buffer 0]
row 0 float 0.25 0.25 0 0
row 1 float 0.5 0 0 0

[render target]
size 4 4

[quad]
vertex -1 1 0.5 1
vertex 1 1 0.5 1
vertex -1 -1 0.5 1
vertex 1 -1 0.5 1

[tolerance]
abs 0.001
ulp 1

[require]
fine_derivatives none needed; listed to test the section

[test]
probe 0 0 1 0 0 1
probe rect 0 0 4 4 1 0 0 1
";

/// (name, text replaced, replacement with the faulty line marked `@`,
/// words the message must contain).
const VARIANTS: &[(&str, &str, &str, &str)] = &[
    // Sections: one of each, known names, slots within Direct3D 11's.
    (
        "second texture section",
        "[sampler 0]",
        "@[texture 0]\nsize 1 1\n[sampler 0]",
        "a second [texture 0] section",
    ),
    (
        "second sampler section",
        "[constant buffer 0]",
        "@[sampler 0]\n[constant buffer 0]",
        "a second [sampler 0] section",
    ),
    (
        "second constant buffer",
        "[render target]",
        "@[constant buffer 0]\nrow 0 float 0 0 0 0\n[render target]",
        "a second [constant buffer 0]",
    ),
    (
        "second render target",
        "[quad]",
        "@[render target]\nsize 2 2\n[quad]",
        "a second [render target]",
    ),
    (
        "shader file after inline shader",
        "[texture 0]",
        "@[pixel shader file]\nx.asm\n[texture 0]",
        "a second [pixel shader]",
    ),
    (
        "second test section",
        "probe rect 0 0 4 4 1 0 0 1",
        "probe rect 0 0 4 4 1 0 0 1\n@[test]\nprobe 1 1 1 0 0 1",
        "a second [test]",
    ),
    (
        "second quad",
        "[tolerance]",
        "@[quad]\nvertex 0 0 0 1\n[tolerance]",
        "a second [quad]",
    ),
    (
        "unknown section",
        "[sampler 1]",
        "@[samplers 1]",
        "unknown section [samplers 1]",
    ),
    (
        "texture slot past t127",
        "[texture 2]",
        "@[texture 128]",
        "t128 is outside t0..t127",
    ),
    (
        "sampler slot past s15",
        "[sampler 1]",
        "@[sampler 16]",
        "s16 is outside s0..s15",
    ),
    (
        "constant buffer past cb13",
        "[constant buffer 0]",
        "@[constant buffer 14]",
        "cb14 is outside cb0..cb13",
    ),
    (
        "texture slot not a number",
        "[texture 2]",
        "@[texture two]",
        "expected a non-negative integer",
    ),
    (
        "text before the first section",
        "[pixel shader]",
        "@size 4 4\n[pixel shader]",
        "text before the first [section]",
    ),
    // Textures.
    (
        "unknown format",
        "format r32_uint",
        "@format r32_uintt",
        "unknown format",
    ),
    (
        "unknown dimension",
        "format rgba8_unorm",
        "format rgba8_unorm\n@dimension 2dd",
        "unknown dimension",
    ),
    (
        "zero texture size",
        "format rgba8_unorm\nsize 2 2",
        "format rgba8_unorm\n@size 0 2",
        "0",
    ),
    (
        "texture past 16384",
        "format rgba8_unorm\nsize 2 2",
        "format rgba8_unorm\n@size 16385 2",
        "limit of 16384",
    ),
    (
        "2d texture with a depth",
        "format rgba8_unorm\nsize 2 2",
        "format rgba8_unorm\n@size 2 2 2",
        "`size W H`",
    ),
    (
        "2d array without layers",
        "format rgba8_unorm\nsize 2 2",
        "format rgba8_unorm\ndimension 2darray\n@size 2 2",
        "`size W H LAYERS`",
    ),
    (
        "cube not square",
        "format rgba8_unorm\nsize 2 2",
        "format rgba8_unorm\ndimension cube\n@size 4 2",
        "width == height",
    ),
    (
        "zero mips",
        "format rgba8_unorm\nsize 2 2",
        "format rgba8_unorm\nsize 2 2\n@mips 0",
        "at least one mip",
    ),
    (
        "more mips than the chain",
        "format rgba8_unorm\nsize 2 2",
        "format rgba8_unorm\nsize 2 2\n@mips 3",
        "at most 2",
    ),
    (
        "format twice",
        "format rgba8_unorm\nsize 2 2",
        "format rgba8_unorm\n@format r8_unorm\nsize 2 2",
        "`format` is set twice",
    ),
    (
        "values and fill",
        "fill constant 1u 0u 0u 1u",
        "fill constant 1u 0u 0u 1u\n@values\n1u 0 0 1 1u 0 0 1 1u 0 0 1 1u 0 0 1",
        "takes one of `fill`, `values` and `raw`",
    ),
    (
        "too few texel values",
        "values\n0.25 0 0 1  0.5 0 0 1\n0.75 0 0 1  1 0 0 1\n",
        "@values\n0.25 0 0 1  0.5 0 0 1\n0.75 0 0 1\n",
        "needs 4 texel values, found 3",
    ),
    (
        "texel values not in fours",
        "0.75 0 0 1  1 0 0 1\n",
        "@0.75 0 0 1  1 0 0\n",
        "four to a texel",
    ),
    (
        "texel value not a number",
        "0.75 0 0 1  1 0 0 1\n",
        "@0.75 0 0 1  1 0 0 one\n",
        "expected a number",
    ),
    (
        "texture over the memory budget",
        "format rgba8_unorm\nsize 2 2",
        "format rgba8_unorm\n@size 8192 8192",
        "at most 512 MiB",
    ),
    (
        "unknown fill",
        "fill checker",
        "@fill stripes",
        "expected `fill checker`",
    ),
    (
        "fill pattern without a seed",
        "fill checker",
        "@fill pattern",
        "expected `fill pattern SEED`",
    ),
    (
        "fill pattern with a seed that is no whole number",
        "fill checker",
        "@fill pattern -3",
        "the seed is a whole number",
    ),
    (
        "fill pattern on a depth-stencil format",
        "format rgba8_unorm\nsize 2 2\nfill checker",
        "format d24_unorm_s8_uint\nview format r24_unorm_x8_typeless\nsize 2 2\n@fill pattern 1",
        "holds a depth and a stencil",
    ),
    (
        "fill image that is not there",
        "fill checker",
        "@fill image no_such.png",
        "no_such.png",
    ),
    (
        "unknown texture setting",
        "fill checker",
        "fill checker\n@mipmaps 2",
        "unknown texture setting",
    ),
    // Samplers.
    (
        "unknown filter",
        "filter point",
        "@filter nearest",
        "unknown filter",
    ),
    (
        "unknown address mode",
        "address clamp",
        "@address clamp_to_edge",
        "unknown address mode",
    ),
    (
        "four address modes",
        "address clamp",
        "@address clamp clamp clamp clamp",
        "unknown sampler setting",
    ),
    (
        "lod bias past 15.99",
        "address clamp",
        "address clamp\n@lod_bias 16",
        "outside -16..=15.99",
    ),
    (
        "unknown comparison",
        "compare less",
        "@compare lesser",
        "unknown comparison",
    ),
    (
        "filter twice",
        "address clamp",
        "address clamp\n@filter linear",
        "`filter` is set twice",
    ),
    (
        "border with three values",
        "address clamp",
        "address clamp\n@border 1 1 1",
        "unknown sampler setting",
    ),
    // Constant buffers.
    (
        "row past 4095",
        "row 1 float 0.5 0 0 0",
        "@row 4096 float 0.5 0 0 0",
        "outside 0..=4095",
    ),
    (
        "row set twice",
        "row 1 float 0.5 0 0 0",
        "row 1 float 0.5 0 0 0\n@row 0 float 1 0 0 0",
        "`row 0` is set twice in this section (first at line",
    ),
    (
        "row with three values",
        "row 1 float 0.5 0 0 0",
        "@row 1 float 0.5 0 0",
        "a row has four values",
    ),
    (
        "unknown row type",
        "row 1 float 0.5 0 0 0",
        "@row 1 double 0.5 0 0 0",
        "unknown row type",
    ),
    // Render target.
    (
        "zero target size",
        "size 4 4\n\n[quad]",
        "@size 0 4\n\n[quad]",
        "outside 1..=16384",
    ),
    (
        "target past 16384",
        "size 4 4\n\n[quad]",
        "@size 16385 4\n\n[quad]",
        "outside 1..=16384",
    ),
    (
        "target over the pixel budget",
        "size 4 4\n\n[quad]",
        "@size 8192 8192\n\n[quad]",
        "at most 16777216",
    ),
    (
        "target size twice",
        "size 4 4\n\n[quad]",
        "size 4 4\n@size 8 8\n\n[quad]",
        "`size` is set twice in this section (first at line",
    ),
    (
        "viewport twice",
        "size 4 4\n\n[quad]",
        "size 4 4\nviewport 0 0 4 4\n@viewport 0 0 2 2\n\n[quad]",
        "`viewport` is set twice in this section (first at line",
    ),
    // Render targets and the depth buffer.
    (
        "format for a target the shader does not write",
        "size 4 4\n\n[quad]",
        "size 4 4\n@format 1 rgba8_unorm\n\n[quad]",
        "render target 1 is not written",
    ),
    (
        "float output into a uint target",
        "size 4 4\n\n[quad]",
        "size 4 4\n@format 0 r32_uint\n\n[quad]",
        "stores unsigned integers",
    ),
    (
        "target format without its target",
        "size 4 4\n\n[quad]",
        "size 4 4\n@format rgba8_unorm\n\n[quad]",
        "say which target",
    ),
    (
        "unknown target format",
        "size 4 4\n\n[quad]",
        "size 4 4\n@format 0 rgba9_unorm\n\n[quad]",
        "unknown render-target format",
    ),
    (
        "target past SV_Target7",
        "size 4 4\n\n[quad]",
        "size 4 4\n@clear 8 0 0 0 1\n\n[quad]",
        "render target 8 is outside 0..=7",
    ),
    (
        "second clear for a target",
        "size 4 4\n\n[quad]",
        "size 4 4\nclear 0 0 0 0 1\n@clear 0 1 0 0 1\n\n[quad]",
        "`clear 0` is set twice in this section (first at line",
    ),
    (
        "second format for a target",
        "size 4 4\n\n[quad]",
        "size 4 4\nformat 0 rgba8_unorm\n@format 00 r32_float\n\n[quad]",
        "`format 0` is set twice in this section (first at line",
    ),
    (
        "empty viewport",
        "size 4 4\n\n[quad]",
        "size 4 4\n@viewport 0 0 0 4\n\n[quad]",
        "must be above 0",
    ),
    (
        "reversed viewport depth range",
        "size 4 4\n\n[quad]",
        "size 4 4\n@viewport 0 0 4 4 0.75 0.25\n\n[quad]",
        "is above MAXZ",
    ),
    (
        "unknown depth format",
        "size 4 4\n\n[quad]",
        "size 4 4\n[depth]\n@format d24\n\n[quad]",
        "unknown depth format",
    ),
    (
        "clear depth past 1",
        "size 4 4\n\n[quad]",
        "size 4 4\n[depth]\n@clear 2\n\n[quad]",
        "outside 0..=1",
    ),
    (
        "depth setting twice",
        "size 4 4\n\n[quad]",
        "size 4 4\n[depth]\nfunc less\n@func greater\n\n[quad]",
        "`func` is set twice in this section (first at line",
    ),
    (
        "second depth section",
        "size 4 4\n\n[quad]",
        "size 4 4\n[depth]\n@[depth]\n\n[quad]",
        "a second [depth] section",
    ),
    (
        "depth probe without a depth buffer",
        "probe 0 0 1 0 0 1",
        "@probe depth 0 0 0.5",
        "needs a [depth] section",
    ),
    // Quad.
    (
        "three vertices",
        "vertex 1 -1 0.5 1\n",
        "",
        "four vertices, found 3",
    ),
    (
        "input register past v31",
        "vertex 1 -1 0.5 1\n",
        "@vertex 1 -1 0.5 1 v32 0 0 0 0\n",
        "outside v0..v31",
    ),
    (
        "input register twice",
        "vertex 1 -1 0.5 1\n",
        "@vertex 1 -1 0.5 1 v1 0 0 0 0 v1 1 1 1 1\n",
        "given twice",
    ),
    // Tolerance.
    (
        "negative tolerance",
        "abs 0.001",
        "@abs -1",
        "not a finite tolerance",
    ),
    (
        "NaN tolerance",
        "abs 0.001",
        "@abs NaN",
        "not a finite tolerance",
    ),
    ("ulp twice", "ulp 1", "ulp 1\n@ulp 2", "`ulp` is set twice"),
    // Probes.
    (
        "probe outside the target",
        "probe 0 0 1 0 0 1",
        "@probe 4 0 1 0 0 1",
        "not all inside the 4x4",
    ),
    (
        "probe rect past the edge",
        "probe rect 0 0 4 4 1 0 0 1",
        "@probe rect 1 1 4 4 1 0 0 1",
        "not all inside",
    ),
    (
        "empty probe rect",
        "probe rect 0 0 4 4 1 0 0 1",
        "@probe rect 1 1 0 4 1 0 0 1",
        "not all inside",
    ),
    (
        "probe value not a number",
        "probe 0 0 1 0 0 1",
        "@probe 0 0 1 0 zero 1",
        "expected a number",
    ),
    // Requirements.
    (
        "unknown feature",
        "fine_derivatives none needed",
        "@fine_derivative none needed",
        "unknown feature",
    ),
    (
        "requirement without a reason",
        "fine_derivatives none needed; listed to test the section",
        "@fine_derivatives",
        "say why",
    ),
    // Resources against the shader's declarations.
    (
        "uav on a render target's slot",
        "[sampler 0]",
        "@[uav 0]\nraw\nsize 1\n[sampler 0]",
        "u0 shares its slot with SV_Target0",
    ),
    (
        "texture of another dimension",
        "[texture 0]\nformat rgba8_unorm\nsize 2 2",
        "@[texture 0]\nformat rgba8_unorm\ndimension 2darray\nsize 2 2 1",
        "declares it texture2d",
    ),
    (
        "float texture where uint is declared",
        "[texture 2]\nformat r32_uint\nsize 2 2\nfill constant 1u 0u 0u 1u",
        "@[texture 2]\nformat r32_float\nsize 2 2\nfill constant 1 0 0 1",
        "declares it returning uint",
    ),
    (
        "uint texture where float is declared",
        "[texture 0]\nformat rgba8_unorm\nsize 2 2\nfill checker",
        "@[texture 0]\nformat r32_uint\nsize 2 2\nfill constant 1u 0u 0u 1u",
        "declares it returning float",
    ),
    (
        "comparison declared, sampler without compare",
        "[sampler 1]\ncompare less",
        "@[sampler 1]\nfilter linear",
        "mode_comparison",
    ),
    (
        "default declared, sampler with compare",
        "[sampler 0]\nfilter point",
        "@[sampler 0]\nfilter point\ncompare less",
        "mode_default",
    ),
    // Multisampling: counts with a standard pattern, once per section, 2D
    // textures with one mip, no depth buffer beside a multisampled target.
    (
        "render target sample count without a pattern",
        "[render target]\nsize 4 4",
        "[render target]\nsize 4 4\n@samples 3",
        "1, 2, 4, 8, 16",
    ),
    (
        "second samples line",
        "[render target]\nsize 4 4",
        "[render target]\nsize 4 4\nsamples 4\n@samples 4",
        "`samples` is set twice in this section (first at line",
    ),
    (
        "depth buffer with a multisampled target",
        "[render target]\nsize 4 4",
        "[render target]\nsize 4 4\nsamples 4\n@[depth]\nfunc less",
        "single-sampled",
    ),
    (
        "multisampled 3D texture",
        "[texture 0]\nformat rgba8_unorm\nsize 2 2\nfill checker",
        "[texture 0]\nformat rgba8_unorm\ndimension 3d\nsize 2 2 2\n@samples 4\nfill checker",
        "`samples` needs `dimension 2d` or `2darray`",
    ),
    (
        "multisampled texture with mips",
        "[texture 0]\nformat rgba8_unorm\nsize 2 2\nfill checker",
        "[texture 0]\nformat rgba8_unorm\nsize 2 2\nmips 2\n@samples 4\nfill checker",
        "exactly one mip level",
    ),
    // Views: within the resource, each aspect once, the format's group.
    (
        "view mips past the resource's chain",
        "[texture 0]\nformat rgba8_unorm\nsize 2 2\nfill checker",
        "[texture 0]\nformat rgba8_unorm\nsize 2 2\n@view mips 1 1\nfill checker",
        "view:",
    ),
    (
        "view aspect set twice",
        "[texture 0]\nformat rgba8_unorm\nsize 2 2\nfill checker",
        "[texture 0]\nformat rgba8_unorm\nsize 2 2\nview mips 0 1\n@view mips 0 1\nfill checker",
        "`view mips` is set twice in this section (first at line",
    ),
    (
        "view format outside the typeless group",
        "[texture 0]\nformat rgba8_unorm\nsize 2 2\nfill checker",
        "[texture 0]\nformat rgba8_unorm\nsize 2 2\n@view format r32_float\nfill checker",
        "R8G8B8A8_TYPELESS",
    ),
    (
        "unknown view dimension",
        "[texture 0]\nformat rgba8_unorm\nsize 2 2\nfill checker",
        "[texture 0]\nformat rgba8_unorm\nsize 2 2\n@view dimension 4d\nfill checker",
        "unknown view dimension",
    ),
    // Depth-stencil textures: read through a view, values per field.
    (
        "depth-stencil resource without a view format",
        "[texture 1]\nformat d32_float",
        "[texture 1]\n@format d24_unorm_s8_uint",
        "add `view format r24_unorm_x8_typeless`",
    ),
    (
        "view format naming a depth-stencil resource format",
        "[texture 1]\nformat d32_float",
        "[texture 1]\nformat d32_float_s8x24_uint\n@view format d32_float_s8x24_uint",
        "D32_FLOAT_S8X24_UINT is no shader resource format",
    ),
    (
        "stencil above 255",
        "[texture 1]\nformat d32_float\nsize 2 2\nvalues\n0.25 0 0 1  0.5 0 0 1\n0.75 0 0 1  1 0 0 1",
        "[texture 1]\nformat d24_unorm_s8_uint\nview format r24_unorm_x8_typeless\nsize 2 2\nvalues\n0.25 0 0 1  0.5 0 0 1\n@0.75 300 0 1  1 0 0 1",
        "stencil 300 is above 255",
    ),
    (
        "D24 depth above 1",
        "[texture 1]\nformat d32_float\nsize 2 2\nvalues\n0.25 0 0 1  0.5 0 0 1\n0.75 0 0 1  1 0 0 1",
        "[texture 1]\nformat d24_unorm_s8_uint\nview format r24_unorm_x8_typeless\nsize 2 2\nvalues\n@1.5 0 0 1  0.5 0 0 1\n0.75 0 0 1  1 0 0 1",
        "depth 1.5 is outside 0..=1",
    ),
    (
        "D32 depth below 0",
        "[texture 1]\nformat d32_float\nsize 2 2\nvalues\n0.25 0 0 1  0.5 0 0 1\n0.75 0 0 1  1 0 0 1",
        "[texture 1]\nformat d32_float\nsize 2 2\nvalues\n0.25 0 0 1  0.5 0 0 1\n@0.75 0 0 1  -0.5 0 0 1",
        "depth -0.5 is outside 0..=1",
    ),
    (
        "D32S8X24 depth below 0",
        "[texture 1]\nformat d32_float\nsize 2 2\nvalues\n0.25 0 0 1  0.5 0 0 1\n0.75 0 0 1  1 0 0 1",
        "[texture 1]\nformat d32_float_s8x24_uint\nview format r32_float_x8x24_typeless\nsize 2 2\nvalues\n0.25 0 0 1  0.5 0 0 1\n@-0.5 0 0 1  1 0 0 1",
        "depth -0.5 is outside 0..=1",
    ),
    (
        "fractional stencil value",
        "[texture 1]\nformat d32_float\nsize 2 2\nvalues\n0.25 0 0 1  0.5 0 0 1\n0.75 0 0 1  1 0 0 1",
        "[texture 1]\nformat d24_unorm_s8_uint\nview format r24_unorm_x8_typeless\nsize 2 2\nvalues\n@0.25 0.5 0 1  0.5 0 0 1\n0.75 0 0 1  1 0 0 1",
        "takes integer texel values",
    ),
    (
        "pattern fill of a depth-stencil texture",
        "[texture 1]\nformat d32_float\nsize 2 2\nvalues\n0.25 0 0 1  0.5 0 0 1\n0.75 0 0 1  1 0 0 1",
        "[texture 1]\nformat d24_unorm_s8_uint\nview format r24_unorm_x8_typeless\nsize 2 2\n@fill gradient",
        "holds a depth and a stencil",
    ),
    (
        "stencil view where float is declared",
        "[texture 1]\nformat d32_float\nsize 2 2\nvalues\n0.25 0 0 1  0.5 0 0 1\n0.75 0 0 1  1 0 0 1",
        "@[texture 1]\nformat d24_unorm_s8_uint\nview format x24_typeless_g8_uint\nsize 2 2\nvalues\n0.25 0 0 1  0.5 0 0 1\n0.75 0 0 1  1 0 0 1",
        "X24_TYPELESS_G8_UINT, which returns uint",
    ),
    (
        "depth view of a colour resource",
        "[texture 0]\nformat rgba8_unorm\nsize 2 2\nfill checker",
        "[texture 0]\nformat rgba8_unorm\nsize 2 2\n@view format r24_unorm_x8_typeless\nfill checker",
        "R8G8B8A8_TYPELESS",
    ),
    // Interfaces: slots an interface declares, table positions its list
    // holds, instance data within D3D11's slots and in a declared buffer.
    (
        "second interfaces section",
        "[render target]",
        "[interfaces]\nslot 0 table 0\n@[interfaces]\n[render target]",
        "a second [interfaces] section",
    ),
    (
        "unknown interfaces setting",
        "[render target]",
        "[interfaces]\n@slot 0 class 1\n[render target]",
        "expected `slot N table T`",
    ),
    (
        "interface slot past D3D11's 253",
        "[render target]",
        "[interfaces]\n@slot 253 table 0\n[render target]",
        "interface slot 253 is outside 0..=252",
    ),
    (
        "interface slot no dcl_interface reaches",
        "[render target]",
        "[interfaces]\n@slot 1 table 0\n[render target]",
        "declares no interface slot 1",
    ),
    (
        "table position past the interface's list",
        "[render target]",
        "[interfaces]\n@slot 0 table 1\n[render target]",
        "lists 1 function table(s)",
    ),
    (
        "interfaces bound to declarations that do not check",
        "label fb0\nret\n",
        "label fb1\nret\n\n[interfaces]\n@slot 0 table 0\n",
        "class interfaces do not check: instruction 7 (byte offset",
    ),
    (
        "interface slot bound twice",
        "[render target]",
        "[interfaces]\nslot 0 table 0\n@slot 0 table 0\n[render target]",
        "`slot 0` is set twice",
    ),
    (
        "instance data given twice",
        "[render target]",
        "[interfaces]\nthis 0 0 0 0 0\n@this 0 0 1 0 0\n[render target]",
        "`this 0` is set twice",
    ),
    (
        "instance data in a constant buffer past cb13",
        "[render target]",
        "[interfaces]\n@this 0 14 0 0 0\n[render target]",
        "constant buffer 14 is outside 0..=13",
    ),
    (
        "instance data with a sampler past s15",
        "[render target]",
        "[interfaces]\n@this 0 0 0 0 16\n[render target]",
        "sampler 16 is outside 0..=15",
    ),
    (
        "instance data short of four values",
        "[render target]",
        "[interfaces]\n@this 0 0 0 0\n[render target]",
        "`this N CB ROW TEXTURE SAMPLER`",
    ),
    (
        "instance data in an undeclared constant buffer",
        "[render target]",
        "[interfaces]\n@this 0 1 0 0 0\n[render target]",
        "cb1, which the pixel shader does not declare",
    ),
    // Samplers: anisotropy only with its filter, known reductions.
    (
        "max_anisotropy without the anisotropic filter",
        "[sampler 0]\nfilter point",
        "[sampler 0]\nfilter point\n@max_anisotropy 4",
        "needs `filter anisotropic`",
    ),
    (
        "max_anisotropy past D3D11's 16",
        "[sampler 0]\nfilter point",
        "[sampler 0]\nfilter anisotropic\n@max_anisotropy 17",
        "1..=16",
    ),
    (
        "unknown reduction",
        "[sampler 0]\nfilter point",
        "[sampler 0]\nfilter point\n@reduction median",
        "unknown reduction",
    ),
    // Block-compressed textures and DDS files.
    (
        "blocks for a per-texel format",
        "[texture 0]\nformat rgba8_unorm\nsize 2 2\nfill checker",
        "[texture 0]\nformat rgba8_unorm\nsize 2 2\n@blocks\n00000000",
        "`blocks` is for block-compressed formats",
    ),
    (
        "blocks short of the shape",
        "[texture 0]\nformat rgba8_unorm\nsize 2 2\nfill checker",
        "[texture 0]\nformat bc1_unorm\nsize 4 4\n@blocks\n00f81f00",
        "needs 8 bytes of blocks",
    ),
    (
        "bad block token",
        "[texture 0]\nformat rgba8_unorm\nsize 2 2\nfill checker",
        "[texture 0]\nformat bc1_unorm\nsize 4 4\nblocks\n@00f81f00 zz",
        "bad block bytes",
    ),
    (
        "generated fill for a block format",
        "[texture 0]\nformat rgba8_unorm\nsize 2 2\nfill checker",
        "[texture 0]\nformat bc1_unorm\nsize 4 4\n@fill checker",
        "block-compressed",
    ),
    (
        "texel values for a block format",
        "[texture 0]\nformat rgba8_unorm\nsize 2 2\nfill checker",
        "[texture 0]\nformat bc1_unorm\nsize 4 4\n@values\n0 0 0 1",
        "block-compressed",
    ),
    (
        "block format on a 1D texture",
        "[texture 0]\nformat rgba8_unorm\nsize 2 2\nfill checker",
        "[texture 0]\nformat bc1_unorm\ndimension 1d\n@size 4\n",
        "block-compressed",
    ),
    (
        "DDS file that is not there",
        "[texture 0]\nformat rgba8_unorm\nsize 2 2\nfill checker",
        "[texture 0]\nformat rgba8_unorm\nsize 2 2\n@fill image missing.dds",
        "missing.dds",
    ),
    (
        "DDS file for a multisampled texture",
        "[texture 0]\nformat rgba8_unorm\nsize 2 2\nfill checker",
        "[texture 0]\nformat rgba8_unorm\nsize 2 2\n@samples 4\nfill image missing.dds",
        "DDS",
    ),
    // [buffer N] / [uav N]: a layout, whole elements, sizes that hold
    // their data, counters only on UAVs, one view per t# slot.
    (
        "uav slot past the pixel shader's eight",
        "[render target]",
        "@[uav 8]\nraw\nsize 1\n[render target]",
        "u8 is outside u0..u7",
    ),
    (
        "buffer without a layout",
        "[render target]",
        "@[buffer 5]\nsize 4\n[render target]",
        "needs `raw`, `stride S` or (a [uav]) `format F`",
    ),
    (
        "buffer both raw and structured",
        "[render target]",
        "[buffer 5]\nraw\n@stride 4\nsize 1\n[render target]",
        "`raw` is set twice",
    ),
    (
        "stride not a multiple of 4",
        "[render target]",
        "[buffer 5]\n@stride 6\nsize 1\n[render target]",
        "stride 6 is not a multiple of 4",
    ),
    (
        "stride past D3D11's 2048",
        "[render target]",
        "[buffer 5]\n@stride 2052\nsize 1\n[render target]",
        "in 4..=2048",
    ),
    (
        "buffer data larger than its size",
        "[render target]",
        "[buffer 5]\nraw\n@size 1\ndata uint 1 2\n[render target]",
        "does not fit in size 1",
    ),
    (
        "structured data not whole elements",
        "[render target]",
        "@[buffer 5]\nstride 8\ndata uint 1 2 3\n[render target]",
        "not a whole number of 2-word elements",
    ),
    (
        "buffer with neither size nor data",
        "[render target]",
        "@[buffer 5]\nraw\n[render target]",
        "needs `size N` or `data`",
    ),
    (
        "typed uav of a format D3D11 cannot load",
        "[render target]",
        "[uav 2]\n@format rgba8_unorm\nsize 1\n[render target]",
        "a typed UAV here is r32_uint, r32_sint or r32_float",
    ),
    (
        "typed buffer of a format it does not take",
        "[render target]",
        "[buffer 5]\n@format bc1_unorm\nsize 1\n[render target]",
        "a typed buffer here is one of r32_float",
    ),
    (
        "typed buffer of no elements",
        "[render target]",
        "[buffer 5]\nformat r32_uint\n@size 0\n[render target]",
        "a buffer view holds at least one element",
    ),
    (
        "typed buffer without a size",
        "[render target]",
        "@[buffer 5]\nformat r32_uint\nvalues\n1u 0u 0u 0u\n[render target]",
        "a typed [buffer] needs `size N`",
    ),
    (
        "typed buffer values fewer than its size",
        "[render target]",
        "[buffer 5]\nformat r32_uint\nsize 2\n@values\n1u 0u 0u 0u\n[render target]",
        "size 2 needs 2 element values, found 1",
    ),
    (
        "typed buffer values not in fours",
        "[render target]",
        "[buffer 5]\nformat r32_uint\nsize 1\nvalues\n@1u 0u\n[render target]",
        "element values come four to an element",
    ),
    (
        "typed buffer value out of its format",
        "[render target]",
        "[buffer 5]\nformat r32_uint\nsize 1\nvalues\n@-1 0u 0u 0u\n[render target]",
        "outside the 32-bit range of R32_UINT",
    ),
    (
        "typed buffer that is also raw",
        "[render target]",
        "[buffer 5]\nformat r32_uint\n@raw\nsize 1\n[render target]",
        "`raw` and `format F` are two layouts",
    ),
    (
        "typed buffer with a raw buffer's data line",
        "[render target]",
        "[buffer 5]\nformat r32_uint\nsize 1\n@data uint 1\n[render target]",
        "a typed [buffer] takes `format F`, `size N` and `values`",
    ),
    (
        "typed buffer where a 2D texture is declared",
        "[texture 0]\nformat rgba8_unorm\nsize 2 2\nfill checker",
        "@[buffer 0]\nformat rgba8_unorm\nsize 4",
        "t0 is a buffer texture, but the pixel shader declares it texture2d",
    ),
    (
        "typed buffer and texture on one slot",
        "[render target]",
        "@[buffer 0]\nformat rgba8_unorm\nsize 4\n[render target]",
        "t0 is bound twice: by [texture 0] and [buffer 0]",
    ),
    (
        "2D uav size without a format",
        "[render target]",
        "[uav 2]\nraw\n@size 2 2\n[render target]",
        "`size W H` (a 2D texture) needs `format F`",
    ),
    (
        "2D uav with a zero side",
        "[render target]",
        "[uav 2]\nformat r32_uint\n@size 4 0\n[render target]",
        "a 2D texture's sides are in 1..=16384",
    ),
    (
        "counter on an SRV",
        "[render target]",
        "[buffer 5]\nraw\nsize 1\n@counter 3\n[render target]",
        "`counter` belongs to a [uav]",
    ),
    (
        "unordered on an SRV",
        "[render target]",
        "[buffer 5]\nraw\nsize 1\n@unordered\n[render target]",
        "`unordered` belongs to a [uav]",
    ),
    (
        "unordered twice",
        "[render target]",
        "[uav 2]\nraw\nsize 1\nunordered\n@unordered\n[render target]",
        "unordered",
    ),
    (
        "unknown buffer value type",
        "[render target]",
        "[uav 2]\nraw\n@data word 1\n[render target]",
        "unknown value type `word`",
    ),
    (
        "texture and buffer on one t slot",
        "[render target]",
        "@[buffer 0]\nraw\nsize 1\n[render target]",
        "t0 is bound twice",
    ),
    (
        "probe uav without a [uav]",
        "probe rect 0 0 4 4 1 0 0 1\n",
        "probe rect 0 0 4 4 1 0 0 1\n@probe uav 2 0 uint 1\n",
        "no [uav 2] to probe",
    ),
    (
        "probe uav past the end",
        "probe rect 0 0 4 4 1 0 0 1\n",
        "probe rect 0 0 4 4 1 0 0 1\n@probe uav 2 1 uint 1 2\n[uav 2]\nraw\nsize 2\n",
        "past the 2-word [uav 2]",
    ),
    (
        "probe uav with more values than an element",
        "probe rect 0 0 4 4 1 0 0 1\n",
        "probe rect 0 0 4 4 1 0 0 1\n@probe uav 2 0 uint 1 2 3\n[uav 2]\nstride 8\nsize 2\n",
        "an element here holds at most 2",
    ),
    (
        "probe uav with an empty range",
        "probe rect 0 0 4 4 1 0 0 1\n",
        "probe rect 0 0 4 4 1 0 0 1\n@probe uav 2 1..0 uint 1\n[uav 2]\nraw\nsize 2\n",
        "the range 1..0 is empty",
    ),
];

/// A renderer that counts the cases it is handed.
struct Counting {
    jobs: Cell<usize>,
}

impl Renderer for Counting {
    fn backend(&self) -> Backend {
        Backend::Vulkan
    }
    fn name(&self) -> String {
        "counting".into()
    }
    fn render_all(
        &self,
        jobs: &[(&Case, &CaseShaders)],
        _: &glsl::Options,
    ) -> Vec<Result<Rendered, String>> {
        self.jobs.set(self.jobs.get() + jobs.len());
        jobs.iter()
            .map(|_| Err("not drawn in this test".into()))
            .collect()
    }
}

/// Legal D3D that the case probably did not mean: each variant binds a
/// slot no shader declares (D3D draws it; the slot is simply unused). The
/// case is drawn on the emulator and every backend, and the run carries
/// one warning naming the file and the line at fault (`@`). D3D11 also
/// accepts a sampler whose MinLOD is above its MaxLOD: the last variant
/// has one, and draws.
const WARNINGS: &[(&str, &str, &str, &str)] = &[
    (
        "buffer the shader does not declare",
        "[sampler 0]",
        "@[buffer 3]\nraw\nsize 1\n[sampler 0]",
        "declares no buffer t3",
    ),
    (
        "uav the shader does not declare",
        "[sampler 0]",
        "@[uav 3]\nstride 4\nsize 1\n[sampler 0]",
        "declares no buffer u3",
    ),
    (
        "texture the shader does not declare",
        "[sampler 0]",
        "@[texture 3]\nsize 1 1\n[sampler 0]",
        "declares no t3",
    ),
    (
        "sampler the shader does not declare",
        "[constant buffer 0]",
        "@[sampler 5]\n[constant buffer 0]",
        "declares no s5",
    ),
    (
        "constant buffer the shader does not declare",
        "[render target]",
        "@[constant buffer 3]\nrow 0 float 0 0 0 0\n[render target]",
        "declares no cb3",
    ),
    (
        "typed buffer no shader declares",
        "[render target]",
        "@[buffer 5]\nformat r32_uint\nsize 1\n[render target]",
        "the pixel shader declares no t5",
    ),
    (
        "sampler with min lod above max lod",
        "address clamp",
        "address clamp\nmin_lod 2\nmax_lod 0\n@[sampler 5]",
        "declares no s5",
    ),
];

fn temp_dir() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("dxbc-dbg-case-errors-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

/// Applies a variant: the text with the marker removed, and the marked
/// line's number (1-based).
fn apply(old: &str, new: &str) -> (String, usize) {
    assert!(VALID.contains(old), "`{old}` is not in the valid case");
    let text = VALID.replacen(old, new, 1);
    let marked = text.lines().position(|l| l.starts_with('@')).map(|i| i + 1);
    let text = text
        .lines()
        .map(|l| l.strip_prefix('@').unwrap_or(l))
        .collect::<Vec<_>>()
        .join("\n");
    // A variant that deletes the faulty line (a missing vertex) marks
    // nothing: the error names the section's first line.
    let line = marked.unwrap_or_else(|| {
        1 + text
            .lines()
            .position(|l| l == "[quad]")
            .expect("unmarked variants edit the quad")
            + 1
    });
    (text + "\n", line)
}

fn run(path: &Path) -> (dxbc_dbg::harness::suite::CaseResult, usize) {
    let counting = Counting { jobs: Cell::new(0) };
    let cases = [(path.to_path_buf(), "variant".to_string())];
    let mut results = run_all(&cases, &[&counting], &RunOptions::default(), &());
    (results.remove(0), counting.jobs.get())
}

#[test]
fn the_valid_case_loads_and_is_drawn() {
    let dir = temp_dir();
    let path = dir.join("valid.case");
    std::fs::write(&path, VALID).expect("write");
    let (r, jobs) = run(&path);
    assert!(r.case_failures.is_empty(), "{:?}", r.case_failures);
    assert_eq!(jobs, 1, "the valid case reaches the backend");
    assert!(r.cpu_ms.is_some(), "the valid case runs on the emulator");
}

#[test]
fn every_malformed_case_names_its_line_and_draws_nothing() {
    assert!(VARIANTS.len() >= 40, "{} variants", VARIANTS.len());
    let dir = temp_dir();
    let mut wrong = Vec::new();
    for (i, (name, old, new, words)) in VARIANTS.iter().enumerate() {
        let (text, line) = apply(old, new);
        let path = dir.join(format!("variant{i}.case"));
        std::fs::write(&path, &text).expect("write");
        let (r, jobs) = run(&path);
        let want = format!("{}:{line}: ", path.display());
        let first = r.case_failures.first().cloned().unwrap_or_default();
        if r.case_failures.len() != 1 || !first.starts_with(&want) || !first.contains(words) {
            wrong.push(format!(
                "{name}: want `{want}…{words}…`, got {:?}",
                r.case_failures
            ));
        }
        if jobs != 0 || r.cpu_ms.is_some() || !r.cpu.is_empty() {
            wrong.push(format!(
                "{name}: drawn ({jobs} backend jobs, cpu {:?})",
                r.cpu_ms
            ));
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn a_case_file_that_is_not_utf8_is_refused_at_its_line() {
    let dir = temp_dir();
    let path = dir.join("latin1.case");
    let mut bytes = VALID
        .replacen("size 4 4", "size 4 4 # caf\u{e9}", 1)
        .into_bytes();
    // The same line, with é in Latin-1 (0xE9 alone) instead of UTF-8.
    let at = bytes.windows(2).position(|w| w == [0xC3, 0xA9]).expect("é");
    bytes.splice(at..at + 2, [0xE9]);
    std::fs::write(&path, &bytes).expect("write");
    let line = 1
        + VALID
            .lines()
            .position(|l| l == "[render target]")
            .expect("target")
        + 1;
    let (r, jobs) = run(&path);
    let want = format!("{}:{line}: not UTF-8", path.display());
    assert!(
        r.case_failures.len() == 1 && r.case_failures[0].starts_with(&want),
        "{:?}",
        r.case_failures
    );
    assert_eq!(jobs, 0);
}

#[test]
fn a_slot_no_shader_declares_is_drawn_with_a_warning_at_its_line() {
    // A folder of its own: the other tests share temp_dir() and run at
    // the same time.
    let dir = temp_dir().join("warnings");
    std::fs::create_dir_all(&dir).expect("dir");
    let mut wrong = Vec::new();
    for (i, (name, old, new, words)) in WARNINGS.iter().enumerate() {
        let (text, line) = apply(old, new);
        let path = dir.join(format!("warning{i}.case"));
        std::fs::write(&path, &text).expect("write");
        let (r, jobs) = run(&path);
        let want = format!("{}:{line}: warning: ", path.display());
        if !r.case_failures.is_empty() {
            wrong.push(format!("{name}: refused: {:?}", r.case_failures));
        }
        if jobs != 1 || r.cpu_ms.is_none() {
            wrong.push(format!(
                "{name}: not drawn ({jobs} backend jobs, cpu {:?})",
                r.cpu_ms
            ));
        }
        if r.warnings.len() != 1
            || !r.warnings[0].starts_with(&want)
            || !r.warnings[0].contains(words)
        {
            wrong.push(format!(
                "{name}: want `{want}…{words}…`, got {:?}",
                r.warnings
            ));
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn the_valid_case_has_no_warnings() {
    let dir = temp_dir().join("no_warnings");
    std::fs::create_dir_all(&dir).expect("dir");
    let path = dir.join("valid.case");
    std::fs::write(&path, VALID).expect("write");
    let (r, _) = run(&path);
    let _ = std::fs::remove_dir_all(&dir);
    assert!(r.warnings.is_empty(), "{:?}", r.warnings);
}
