//! The GLSL emitter: the reader's IR lowered to GLSL ES 3.00 (`es300`, what
//! WebGL2 runs) or to Vulkan GLSL 4.50 (`vk450`, what the harness renders
//! through naga). Both dialects come out of one lowering; they differ only
//! in the few places naga or Vulkan require (see [`Dialect`]).
//!
//! The register file is a set of float `vec4`s; every typed read or write
//! bitcasts at its use site (`floatBitsToInt`, `uintBitsToFloat`, …), so no
//! type analysis is needed and bits survive untouched. Inputs are copied
//! into `v` registers before the body runs and outputs copied out of `o`
//! registers after it, so every instruction reads and writes plain
//! registers whatever stage it is in.
//!
//! Layout of the emitted text, in order: version and precision lines,
//! declarations (one group per DXBC declaration, in bytecode order), helper
//! functions (only those used), the register file, the body as
//! `void dxbc_main()` (plus one function per subroutine label), and `main()`
//! with the input copies, the call and the output copies. The source map
//! gives, per DXBC instruction index, the lines it produced; each
//! instruction starts with a comment repeating it.

mod alu;
pub mod capture;
mod decl;
mod double;
mod emit;
mod faults;
mod flow;
mod helpers;
mod interfaces;
mod link;
mod manifest;
mod memory;
pub mod names;
pub mod support;
mod texture;
mod types;
mod writer;

use std::fmt;

use crate::dxbc::ir::ProgramType;
use crate::dxbc::shader::Shader;

pub use capture::{CaptureFile, CapturePixel};
pub use link::{ComponentType, Interpolation, Link, LinkedInput};
pub use manifest::{
    CombinedEntry, ConstantBufferEntry, CounterEntry, InterpolationQualifier, Manifest,
    SamplerEntry, SamplerKind, StorageBufferEntry, StorageImageEntry, StorageLayout, TextureEntry,
    TypedBufferEntry, UniformEntry, UniformRole, VaryingEntry,
};
pub use texture::Dim;
pub use types::{Opaque, OpaqueType, Scalar, TextureShape, Ty, ValueType};

/// Which GLSL the emitter writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Dialect {
    /// `#version 300 es`: the product, for WebGL2. Combined sampler
    /// uniforms, no explicit bindings, name-matched varyings.
    Es300,
    /// `#version 450` for wgpu through naga's GLSL front end: separate
    /// `texture*`/`sampler` objects with set/binding, UBO bindings,
    /// explicit varying locations, `gl_VertexIndex`/`gl_InstanceIndex`,
    /// array layers rounded explicitly (naga truncates).
    Vk450,
}

impl Dialect {
    pub fn name(self) -> &'static str {
        match self {
            Dialect::Es300 => "es300",
            Dialect::Vk450 => "vk450",
        }
    }

    /// The language's own name, for messages.
    pub fn title(self) -> &'static str {
        match self {
            Dialect::Es300 => "GLSL ES 3.00",
            Dialect::Vk450 => "Vulkan GLSL 4.50",
        }
    }

    pub fn parse(s: &str) -> Option<Dialect> {
        match s {
            "es300" => Some(Dialect::Es300),
            "vk450" => Some(Dialect::Vk450),
            _ => None,
        }
    }
}

#[derive(Debug, Clone)]
pub struct Options {
    pub dialect: Dialect,
    /// vk450 varying locations: position in this list (semantic name,
    /// index) is the location; elements missing from it take the locations
    /// after it. The pixel shader's input order, passed to both stages,
    /// makes them agree; without it each stage numbers its own
    /// non-system-value elements in signature order. [`Options::link`],
    /// when set, decides a vertex shader's locations instead.
    pub varying_locations: Option<Vec<(String, u32)>>,
    /// A vertex shader translated for this pixel shader: each output takes
    /// the qualifiers of the input it feeds (`flat`, `centroid`,
    /// noperspective) and, in vk450, its location, so the two stages link.
    /// Without it a vertex output is `flat` only when integer. Ignored for
    /// a pixel shader.
    pub link: Option<Link>,
    /// Test-only fault injection: emits gather4's texels in the wrong
    /// order, so the differential suite can show it catches the mistake.
    pub flip_gather_order: bool,
    /// Test-only fault injection: leaves out the emulated sampling path
    /// taken for border addressing (and mirror once with offsets), so only
    /// the hardware call runs and border taps read the clamped edge; the
    /// differential suite uses it to show its border cases catch that.
    pub skip_border_emulation: bool,
    /// Record the registers of one pixel's invocation, instruction by
    /// instruction (`capture`, docs/glsl.md "Register capture"): vk450
    /// into a storage buffer, es300 a window of records per draw into
    /// integer outputs. Ignored for vertex shaders.
    pub capture: Option<CapturePixel>,
    /// es300 capture: the draw buffers the context has
    /// (`MAX_DRAW_BUFFERS`, at least 4 in WebGL2): one holds the header,
    /// two each record a draw keeps. Fewer than 3 is refused
    /// (`Reason::Capture`).
    pub capture_outputs: u32,
    /// Test-only fault injection: the instruction at this index reads its
    /// first register source with every swizzle component moved on by one
    /// (`.xyzw` becomes `.yzwx`, `.xxxx` becomes `.yyyy`), so `bisect` can
    /// be shown to name it.
    pub wrong_swizzle_at: Option<usize>,
    /// Test-only fault injection: `hlslcc_FragCoord.w` takes
    /// `gl_FragCoord.w` itself (1 / clip w) instead of its reciprocal.
    pub drop_frag_coord_reciprocal: bool,
    /// Test-only fault injection: `sample_c`/`sample_c_lz` return one
    /// minus the filtered comparison, which is every tap compared by the
    /// complement of the sampler's function (less by greater-equal, …).
    pub reverse_pcf_compare: bool,
}

impl Options {
    pub fn new(dialect: Dialect) -> Options {
        Options {
            dialect,
            varying_locations: None,
            link: None,
            flip_gather_order: false,
            skip_border_emulation: false,
            capture: None,
            capture_outputs: 4,
            wrong_swizzle_at: None,
            drop_frag_coord_reciprocal: false,
            reverse_pcf_compare: false,
        }
    }
}

/// For each DXBC instruction index, the 1-based, inclusive range of GLSL
/// lines it produced.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct SourceMap {
    pub ranges: Vec<Option<(u32, u32)>>,
}

impl SourceMap {
    /// The line range of instruction `index`.
    pub fn lines(&self, index: usize) -> Option<(u32, u32)> {
        self.ranges.get(index).copied().flatten()
    }

    /// The instruction whose range holds `line`.
    pub fn instruction_at(&self, line: u32) -> Option<usize> {
        self.ranges
            .iter()
            .position(|r| matches!(r, Some((a, b)) if (*a..=*b).contains(&line)))
    }

    /// `--map` text: one line per instruction, `index: first-last`.
    pub fn to_text(&self) -> String {
        let mut s = String::new();
        for (i, r) in self.ranges.iter().enumerate() {
            if let Some((a, b)) = r {
                s.push_str(&format!("{i}: {a}-{b}\n"));
            }
        }
        s
    }
}

/// A translated shader.
#[derive(Debug, Clone)]
pub struct Translation {
    pub dialect: Dialect,
    pub stage: ProgramType,
    pub source: String,
    pub map: SourceMap,
    pub manifest: Manifest,
}

/// Why an instruction cannot be expressed in the target.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Reason {
    /// Only vertex and pixel shaders exist in WebGL2.
    Stage,
    /// UAVs (`u#`), their declarations and atomics: ES 3.00 has no images
    /// or storage buffers.
    Uav,
    /// Raw and structured buffers (`t#` declared raw/structured): no
    /// storage buffers in ES 3.00.
    RawStructuredBuffer,
    /// Typed buffers (`Buffer<T>`): ES 3.00 has no texel buffers; vk450
    /// lowers `ld` and `bufinfo` of them (`memory::typed_srv`) and refuses
    /// any other use (a tiled `ld_s`, `resinfo`).
    TypedBuffer,
    /// Double-precision arithmetic: ES 3.00 has no `double`.
    Double,
    /// Cube map arrays: an optional extension, not core ES 3.00.
    CubeArray,
    /// vk450: a cube-array comparison (`sample_c*`) outside the pixel
    /// shader: naga reads `samplerCubeArrayShadow` only through the
    /// implicit-LOD `texture(s, P, ref)`.
    CubeArrayShadowLod,
    /// vk450: a gather from an integer cube texture. The gather emulation
    /// reads the four texel centres with `textureLod`, which naga (like
    /// WGSL) refuses on integer textures; GLSL ES 3.00 allows it.
    IntegerCubeGather,
    /// vk450: an atomic on a float typed 2D UAV (an `r32f` image): D3D11
    /// allows typed UAV atomics only on R32_UINT and R32_SINT views, so
    /// the lowering has no form for it (`imageAtomic*` on `r32ui`/`r32i`
    /// covers the rest).
    ImageAtomic,
    /// vk450: a typed UAV other than a buffer or a 2D texture (1D, arrays,
    /// 3D): the lowering (like the emulator and the case syntax) stops at
    /// R32 buffers and 2D textures.
    UavDimension,
    /// vk450: a typed 2D UAV whose declared return type is not one of the
    /// R32 ones (`uint`, `sint`, `float`): storage images are declared
    /// `r32ui`/`r32i`/`r32f` only.
    UavFormat,
    /// vk450: an instruction that does not fit the view it names: `resinfo`
    /// on a buffer (D3D11 sizes buffers with `bufinfo`), `bufinfo` on a
    /// texture, a raw or structured access to a typed view (or the
    /// reverse), a `t#` declared as a texture read by a buffer
    /// instruction, a UAV where a texture or a value is taken. D3D11
    /// leaves these invalid and fxc does not emit them.
    ViewMismatch,
    /// vk450: a buffer view or UAV named through an SM5.1 register space
    /// or range, which the storage lowering does not bind.
    ViewIndex,
    /// vk450: the tiled-resource forms of the buffer and UAV loads
    /// (`ld_raw_s`, `ld_structured_s`, `ld_uav_typed_s`), whose residency
    /// status the storage lowering does not give.
    TiledMemory,
    /// Multisampled textures: ES 3.00 has no `sampler2DMS`.
    Multisample,
    /// Pull-model interpolation (`eval_*`): no `interpolateAt*` in ES 3.00.
    Interpolation,
    /// A system value with no ES 3.00 built-in (`SV_PrimitiveID` in a pixel
    /// shader, `SV_SampleIndex`, `SV_Coverage`, clip/cull distances, …).
    SystemValue,
    /// vk450: `SV_Coverage` read by a shader that runs at pixel frequency.
    /// Its value is the covered samples' mask, `gl_SampleMaskIn`, which
    /// naga's GLSL front end does not know (at sample frequency the mask
    /// is the sample's own bit, `1 << gl_SampleID`, and is lowered).
    CoverageInput,
    /// Thread-group shared memory, barriers, compute-only operands.
    Compute,
    /// Geometry-shader streams (`emit`, `cut`).
    Stream,
    /// An operand or register file this emitter does not lower.
    Operand,
    /// A count or register number past D3D11's limits (malformed bytecode).
    Limit,
    /// Fewer operands than the opcode takes (malformed bytecode).
    Malformed,
    /// Unbalanced blocks (an `endif` without its `if`, a loop never
    /// closed) or `break`/`continue`/`case` outside their block: the
    /// analysis pass rejects the program before any text is written.
    Structure,
    /// A register past its declaration (`r5` under `dcl_temps 2`, a
    /// constant-buffer row past its size, an undeclared `v#`/`o#`/`x#`) or
    /// a texture, sampler, constant buffer or UAV never declared: the
    /// analysis pass rejects the program before any text is written.
    Undeclared,
    /// A class-interface declaration or `fcall` naming a function body,
    /// table or interface that is not declared (or declaring one twice):
    /// the analysis pass rejects the program before any text is written.
    Linkage,
    /// A texture chosen by a register (`t[r0.x]`): ES 3.00 indexes sampler
    /// arrays only with constant expressions.
    ResourceIndex,
    /// A `_cl` instruction's per-sample minimum-LOD clamp (other than the
    /// literal 0, which means no clamp) on a cube: the clamp is applied by
    /// the emulated sampling path, which cubes do not have.
    LodClamp,
    /// Debug-layer instructions (`abort`, `debug_break`).
    Debug,
    /// es300: the register capture (`Options::capture`) asked with fewer
    /// than three outputs (`Options::capture_outputs`): a header and one
    /// record need three draw buffers.
    Capture,
    /// Two signature elements (or registers) whose names become the same
    /// GLSL variable: semantic names from the file keep only ASCII letters
    /// and digits, and varyings are matched without regard to case.
    NameClash,
}

impl Reason {
    /// Short name, for counts.
    pub fn name(self) -> &'static str {
        match self {
            Reason::Stage => "stage",
            Reason::Uav => "uav",
            Reason::RawStructuredBuffer => "raw/structured buffer",
            Reason::TypedBuffer => "typed buffer",
            Reason::Double => "double",
            Reason::CubeArray => "cube array",
            Reason::CubeArrayShadowLod => "cube array comparison LOD",
            Reason::IntegerCubeGather => "integer cube gather",
            Reason::ImageAtomic => "image atomic",
            Reason::UavDimension => "typed uav dimension",
            Reason::UavFormat => "typed uav format",
            Reason::ViewMismatch => "view mismatch",
            Reason::ViewIndex => "view register space",
            Reason::TiledMemory => "tiled memory load",
            Reason::Multisample => "multisample texture",
            Reason::Interpolation => "eval interpolation",
            Reason::SystemValue => "system value",
            Reason::CoverageInput => "coverage input",
            Reason::Compute => "compute-only",
            Reason::Stream => "gs stream",
            Reason::Operand => "operand",
            Reason::Limit => "limit",
            Reason::ResourceIndex => "dynamic resource index",
            Reason::LodClamp => "lod clamp",
            Reason::Debug => "debug",
            Reason::Capture => "register capture",
            Reason::Malformed => "malformed",
            Reason::Structure => "block structure",
            Reason::Undeclared => "undeclared register",
            Reason::Linkage => "class linkage",
            Reason::NameClash => "name clash",
        }
    }

    /// Why GLSL ES 3.00 cannot express it.
    pub fn why(self) -> &'static str {
        match self {
            Reason::Stage => "GLSL ES 3.00 has only vertex and fragment shaders",
            Reason::Uav => "GLSL ES 3.00 has no images or storage buffers (UAVs)",
            Reason::RawStructuredBuffer => {
                "GLSL ES 3.00 has no storage buffers for raw or structured buffers"
            }
            Reason::TypedBuffer => {
                "typed buffers (`Buffer<T>`) need a samplerBuffer, which GLSL ES 3.00 lacks; vk450 \
                 reads them as storage buffers, through ld and bufinfo only"
            }
            Reason::Double => "GLSL ES 3.00 has no double-precision type",
            Reason::CubeArray => {
                "cube map arrays need OES_texture_cube_map_array, not core GLSL ES 3.00"
            }
            Reason::CubeArrayShadowLod => {
                "naga compares a cube array only with texture(samplerCubeArrayShadow, P, ref), whose implicit LOD exists only in pixel shaders"
            }
            Reason::IntegerCubeGather => {
                "the cube gather emulation reads texel centres with textureLod, which naga refuses on integer textures"
            }
            Reason::ImageAtomic => {
                "an atomic on a float typed 2D UAV: D3D11 allows typed UAV atomics only on R32_UINT and R32_SINT views, and the lowering (imageAtomic* on r32ui/r32i images) has no float form"
            }
            Reason::UavDimension => {
                "typed UAVs are lowered as buffers and 2D textures only, not 1D, array or 3D ones"
            }
            Reason::UavFormat => {
                "typed 2D UAVs are lowered as r32ui, r32i or r32f storage images only, after an R32 return type"
            }
            Reason::ViewMismatch => {
                "the instruction does not fit the view it names (resinfo on a buffer, bufinfo on a texture, a raw or structured access to a typed view or the reverse, a UAV where a texture or value is taken): D3D11 leaves it invalid and the storage lowering has no form for it"
            }
            Reason::ViewIndex => {
                "buffer views and UAVs in SM5.1 register spaces or ranges are not bound by the storage lowering"
            }
            Reason::TiledMemory => {
                "the tiled-resource forms of the buffer and UAV loads (ld_raw_s, ld_structured_s, ld_uav_typed_s) are not lowered: the storage lowering gives no residency status"
            }
            Reason::Multisample => "GLSL ES 3.00 has no multisampled samplers (sampler2DMS)",
            Reason::Interpolation => {
                "GLSL ES 3.00 has no interpolateAt* functions for eval_* instructions"
            }
            Reason::SystemValue => "this system value has no GLSL ES 3.00 built-in",
            Reason::CoverageInput => {
                "SV_Coverage read at pixel frequency needs gl_SampleMaskIn, which naga's GLSL front end does not accept"
            }
            Reason::Compute => "shared memory and barriers exist only in compute shaders",
            Reason::Stream => "geometry-shader streams do not exist in GLSL ES 3.00",
            Reason::Operand => "this register file has no GLSL ES 3.00 equivalent",
            Reason::Limit => "a count or register number is past D3D11's limits",
            Reason::Malformed => "the instruction has fewer operands than its opcode takes",
            Reason::Structure => {
                "the block structure is broken here: an opener without its closer, a closer without its opener, or a jump outside its block"
            }
            Reason::Undeclared => {
                "the instruction uses a register or resource its declarations do not give"
            }
            Reason::Linkage => {
                "a class-interface declaration or call names a function body, table or interface that is not declared, or declares one twice"
            }
            Reason::ResourceIndex => {
                "a texture or sampler slot picked by a register: each slot is its own GLSL sampler, GLSL ES 3.00 indexes sampler arrays only with constant expressions, and the translation does not yet select among the declared slots on either dialect"
            }
            Reason::LodClamp => {
                "neither GLSL ES 3.00 nor naga's GLSL has a per-sample minimum-LOD clamp (textureClampARB), and cubes have no emulated sampling path to apply one"
            }
            Reason::Debug => "GLSL ES 3.00 has no abort or debugger break",
            Reason::Capture => {
                "the register capture in GLSL ES 3.00 writes its records to integer outputs and needs three draw buffers at least (a header and one record)"
            }
            Reason::NameClash => {
                "its semantic name gives the same GLSL variable as another element's (names keep only ASCII letters and digits, without regard to case)"
            }
        }
    }
}

/// One refused instruction.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    /// Instruction index in the program.
    pub index: usize,
    /// Byte offset of the opcode token in the container.
    pub offset: usize,
    /// The instruction as the disassembler prints it.
    pub text: String,
    pub reason: Reason,
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "instruction {} (offset {:#x}) `{}`: {} ({})",
            self.index,
            self.offset,
            self.text,
            self.reason.why(),
            self.reason.name()
        )
    }
}

/// The shader cannot be translated; every offending instruction is listed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refused {
    /// The dialect that was asked for (the refusal names it).
    pub dialect: Dialect,
    pub diagnostics: Vec<Diagnostic>,
}

impl Refused {
    /// The distinct reasons, in order.
    pub fn reasons(&self) -> Vec<Reason> {
        let mut r: Vec<Reason> = self.diagnostics.iter().map(|d| d.reason).collect();
        r.sort();
        r.dedup();
        r
    }
}

impl fmt::Display for Refused {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // The first line is the error; each refused instruction follows
        // on a line of its own, indented, with no newline after the last
        // (whoever prints the error ends the line).
        write!(
            f,
            "cannot translate to {}: {} instruction(s) refused",
            self.dialect.title(),
            self.diagnostics.len()
        )?;
        for d in &self.diagnostics {
            write!(f, "\n  {d}")?;
        }
        Ok(())
    }
}

impl std::error::Error for Refused {}

/// Translates a parsed shader.
pub fn translate(shader: &Shader, options: &Options) -> Result<Translation, Refused> {
    emit::translate(shader, options)
}

#[cfg(test)]
mod tests {
    use super::SourceMap;
    use super::writer::{Section, join};

    fn map() -> SourceMap {
        SourceMap {
            ranges: vec![Some((3, 4)), None, Some((5, 5)), Some((8, 10))],
        }
    }

    #[test]
    fn lines_gives_each_instructions_range() {
        let m = map();
        assert_eq!(m.lines(0), Some((3, 4)));
        assert_eq!(m.lines(1), None, "an instruction without lines");
        assert_eq!(m.lines(2), Some((5, 5)));
        assert_eq!(m.lines(3), Some((8, 10)));
        assert_eq!(m.lines(4), None, "past the end");
    }

    #[test]
    fn instruction_at_finds_the_range_holding_a_line() {
        let m = map();
        assert_eq!(m.instruction_at(1), None, "header lines belong to none");
        assert_eq!(m.instruction_at(3), Some(0));
        assert_eq!(m.instruction_at(4), Some(0));
        assert_eq!(m.instruction_at(5), Some(2));
        assert_eq!(m.instruction_at(6), None, "gap between ranges");
        assert_eq!(m.instruction_at(8), Some(3));
        assert_eq!(m.instruction_at(10), Some(3));
        assert_eq!(m.instruction_at(11), None);
        assert_eq!(SourceMap::default().instruction_at(1), None);
    }

    #[test]
    fn text_lists_mapped_instructions_only() {
        assert_eq!(map().to_text(), "0: 3-4\n2: 5-5\n3: 8-10\n");
        assert_eq!(SourceMap::default().to_text(), "");
    }

    #[test]
    fn join_numbers_lines_across_sections_from_one() {
        let mut head = Section::new();
        head.line(None, "#version 300 es");
        let mut body = Section::new();
        body.line(Some(0), "// mov r0, v0");
        body.indent();
        body.line(Some(0), "r0 = v0;");
        body.dedent();
        body.line(None, "");
        body.line(Some(2), "// ret");
        let (text, m) = join(vec![head, body], 3);
        assert_eq!(
            text,
            "#version 300 es\n// mov r0, v0\n    r0 = v0;\n\n// ret\n"
        );
        assert_eq!(m.ranges, vec![Some((2, 3)), None, Some((5, 5))]);
        assert_eq!(m.instruction_at(4), None);
        // Tags past the instruction count are dropped, not a panic.
        let mut extra = Section::new();
        extra.line(Some(7), "x");
        let (_, m) = join(vec![extra], 1);
        assert_eq!(m.ranges, vec![None]);
    }

    fn refusal(text: &str) -> super::Refused {
        let shader = crate::dxbc::asm::test_shader(text);
        let r = super::translate(&shader, &super::Options::new(super::Dialect::Es300))
            .expect_err("malformed programs are refused");
        // The offset is the named instruction's own, so the bytes can be found.
        for d in &r.diagnostics {
            assert_eq!(d.offset, shader.program.instructions[d.index].offset);
        }
        r
    }

    #[test]
    fn a_stray_endif_is_refused_naming_it() {
        // 0 dcl_output, 1 dcl_temps, 2 mov, 3 endif: the `endif` closes
        // nothing, so instruction 3 is the one named.
        let r = refusal(
            "ps_4_0\ndcl_output o0.xyzw\ndcl_temps 1\nmov o0.xyzw, l(1.0,1.0,1.0,1.0)\nendif\nret\n",
        );
        assert_eq!(r.diagnostics.len(), 1);
        let d = &r.diagnostics[0];
        assert_eq!((d.index, d.reason), (3, super::Reason::Structure));
        assert_eq!(d.text, "endif");
        assert!(r.to_string().contains("`endif`"), "{r}");
    }

    #[test]
    fn a_block_left_open_is_refused_at_its_opener() {
        // 0 dcl_output, 1 dcl_temps, 2 loop: never closed, even by `ret`.
        let r =
            refusal("ps_4_0\ndcl_output o0.xyzw\ndcl_temps 1\nloop\nmov o0.xyzw, r0.xyzw\nret\n");
        assert_eq!(r.reasons(), vec![super::Reason::Structure]);
        assert_eq!(
            (r.diagnostics[0].index, r.diagnostics[0].text.as_str()),
            (2, "loop")
        );
    }

    #[test]
    fn an_undeclared_register_or_resource_is_refused_naming_it() {
        // 0 dcl_output, 1 dcl_temps 1, 2 mov reading r1: past the one temp.
        let r = refusal("ps_4_0\ndcl_output o0.xyzw\ndcl_temps 1\nmov o0.xyzw, r1.xyzw\nret\n");
        assert_eq!(r.reasons(), vec![super::Reason::Undeclared]);
        assert_eq!(
            (r.diagnostics[0].index, r.diagnostics[0].text.as_str()),
            (2, "mov o0.xyzw, r1.xyzw")
        );
        // 0 dcl_input_ps, 1 dcl_output, 2 dcl_temps, 3 sample from t0,
        // which nothing declares.
        let r = refusal(
            "ps_4_0\ndcl_input_ps linear v0.xy\ndcl_output o0.xyzw\ndcl_temps 1\n\
             sample r0.xyzw, v0.xyxx, t0.xyzw, s0\nmov o0.xyzw, r0.xyzw\nret\n",
        );
        assert_eq!(r.reasons(), vec![super::Reason::Undeclared]);
        assert_eq!(r.diagnostics[0].index, 3);
    }

    #[test]
    fn a_call_through_an_undeclared_interface_is_refused_at_the_call() {
        // 0-2 declarations, 3 fcall fp1: only fp0 is declared.
        let r = refusal(
            "ps_5_0
dcl_function_body fb0
dcl_function_table ft0 = {fb0}
             dcl_interface fp0[1][1] = {ft0}
fcall fp1[0][0]
ret
label fb0
ret
",
        );
        assert_eq!(r.reasons(), vec![super::Reason::Linkage]);
        assert_eq!(r.diagnostics[0].index, 3);
    }
}
