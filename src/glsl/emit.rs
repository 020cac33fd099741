//! The emitter's state and the walk over the program: one pass in
//! instruction order, dispatching each instruction to the module that owns
//! its family, plus operand reading and destination writing, which every
//! family shares.

use std::collections::BTreeSet;

use super::helpers::{Helpers, Scalar};
use super::manifest::{Manifest, UniformEntry, UniformRole};
use super::support::{Support, support};
use super::texture::Textures;
use super::types::{Ty, ValueType, mask_components, mask_count, swizzle};
use super::writer::{Section, join};
use super::{Diagnostic, Dialect, Options, Reason, Refused, Translation};
use super::{alu, decl, flow, texture};
use crate::dxbc::analysis::{Analysis, Check};
use crate::dxbc::disasm::{self, Style};
use crate::dxbc::ir::{
    Components, Index, Instruction, Modifier, Operand, OperandType, Program, ProgramType, Selection,
};
use crate::dxbc::opcodes::{Class, Layout, Op};
use crate::dxbc::shader::Shader;

/// Where an operand's base value lives and what type its bits are stored as.
pub struct Base {
    pub expr: String,
    pub ty: Ty,
    /// Components the base has (indexable temps may have fewer than four).
    pub width: usize,
}

pub struct Emitter<'a> {
    pub shader: &'a Shader,
    pub program: &'a Program,
    /// The analysis pass's result: block structure, register sizes,
    /// declared and used resources, the input/output layout.
    pub analysis: &'a Analysis,
    pub options: Options,
    pub dialect: Dialect,
    pub stage: ProgramType,
    pub style: Style,
    /// Index of the instruction being lowered (tags every line written).
    pub cur: Option<usize>,
    /// Declarations, in bytecode order.
    pub decls: Section,
    /// The function being written (`dxbc_main` or a subroutine).
    pub body: Section,
    /// Finished functions.
    pub functions: Vec<Section>,
    /// Statements run before the body (input copies) and after it (output
    /// copies), in `main()`.
    pub prologue: Section,
    pub epilogue: Section,
    /// The `gl_Position` copy and its fix-up, run before the other output
    /// copies so they may read the final clip w.
    pub position: Section,
    pub helpers: Helpers,
    pub textures: Textures,
    pub manifest: Manifest,
    pub diagnostics: Vec<Diagnostic>,
    /// Input and output register numbers declared so far.
    pub input_regs: BTreeSet<u32>,
    pub output_regs: BTreeSet<u32>,
    /// Whether some operand indexes the input / output file by a register,
    /// in which case it is declared as an array.
    pub inputs_indexed: bool,
    pub outputs_indexed: bool,
    /// Declared component count of each indexable temp `xN`.
    pub indexable_widths: std::collections::BTreeMap<u32, usize>,
    /// Output registers some instruction writes.
    pub outputs_written: BTreeSet<u32>,
    /// Subroutine and function-body names (`l0`, `fb2`), to declare
    /// prototypes.
    pub labels: Vec<String>,
    pub interfaces: super::interfaces::Interfaces,
    pub uses_depth_output: bool,
    /// vk450: the shader writes `oMask` (kept in `uint oMask`).
    pub uses_coverage_output: bool,
    /// Whether `hlslcc_FragCoord` is declared.
    pub frag_coord: bool,
    /// es300: whether the text reads `hlslcc_YFlip` (declared in the
    /// header, listed in the manifest).
    pub y_flip: bool,
    next_tmp: u32,
    /// Whether the body function has been opened.
    in_function: bool,
}

pub fn translate(shader: &Shader, options: &Options) -> Result<Translation, Refused> {
    let program = &shader.program;
    if !matches!(program.kind, ProgramType::Pixel | ProgramType::Vertex) {
        return Err(Refused {
            dialect: options.dialect,
            diagnostics: vec![Diagnostic {
                index: 0,
                offset: program.instructions.first().map_or(0, |i| i.offset),
                text: program.profile(),
                reason: Reason::Stage,
            }],
        });
    }
    // The program is checked before any text is written: the walk below
    // then opens and closes braces knowing every block is balanced, and
    // reads no register or resource its declarations do not give.
    let analysis = match shader.analysis() {
        Ok(a) => a,
        Err(err) => {
            let inst = &program.instructions[err.index];
            return Err(Refused {
                dialect: options.dialect,
                diagnostics: vec![Diagnostic {
                    index: err.index,
                    offset: err.offset,
                    text: one_line(disasm::format_instruction(inst, shader.style())),
                    reason: match err.check {
                        Check::Structure => Reason::Structure,
                        Check::Range | Check::Undeclared => Reason::Undeclared,
                    },
                }],
            });
        }
    };
    let mut e = Emitter {
        shader,
        program,
        analysis,
        options: options.clone(),
        dialect: options.dialect,
        stage: program.kind,
        style: shader.style(),
        cur: None,
        decls: Section::new(),
        body: Section::new(),
        functions: Vec::new(),
        prologue: Section::indented(1),
        epilogue: Section::indented(1),
        position: Section::indented(1),
        helpers: Helpers::default(),
        textures: Textures::default(),
        manifest: Manifest::new(shader, options.dialect),
        diagnostics: Vec::new(),
        input_regs: BTreeSet::new(),
        output_regs: BTreeSet::new(),
        inputs_indexed: false,
        outputs_indexed: false,
        indexable_widths: Default::default(),
        outputs_written: BTreeSet::new(),
        labels: Vec::new(),
        interfaces: Default::default(),
        uses_depth_output: false,
        uses_coverage_output: false,
        frag_coord: false,
        // Every es300 vertex shader gets the uniform, even one without
        // SV_Position, so a runtime can set it on every program alike.
        y_flip: options.dialect == Dialect::Es300 && program.kind == ProgramType::Vertex,
        next_tmp: 0,
        in_function: false,
    };
    e.prescan();
    texture::scan(&mut e);
    super::interfaces::scan(&mut e);
    // A shader reading only the rasterizer's sample count has no texture
    // or sampler declaration to declare the levels block at.
    texture::declare_rasterizer_block(&mut e);
    for (i, inst) in program.instructions.iter().enumerate() {
        e.cur = Some(i);
        e.instruction(inst);
    }
    e.cur = None;
    if !e.diagnostics.is_empty() {
        return Err(Refused {
            dialect: options.dialect,
            diagnostics: e.diagnostics,
        });
    }
    Ok(e.finish())
}

/// The first line of an instruction's text, marked when more followed.
fn one_line(t: String) -> String {
    match t.split_once('\n') {
        Some((first, _)) => format!("{} …", first.trim_end()),
        None => t,
    }
}

impl<'a> Emitter<'a> {
    /// Facts needed before the walk: indexed register files, written
    /// outputs, subroutine labels.
    fn prescan(&mut self) {
        let visit = |op: &Operand, is_dst: bool, e: &mut Emitter| {
            let relative = op.indices.iter().any(|i| i.relative().is_some());
            if op.ty == OperandType::INPUT && relative {
                e.inputs_indexed = true;
            }
            if op.ty == OperandType::OUTPUT {
                if relative {
                    e.outputs_indexed = true;
                }
                if is_dst {
                    match op.indices.first() {
                        Some(Index::Imm32(r)) => {
                            e.outputs_written.insert(*r);
                        }
                        // A relative write may reach any output.
                        _ => e.outputs_written.extend(0..64),
                    }
                }
            }
        };
        for (&reg, x) in &self.analysis.registers.indexable {
            self.indexable_widths
                .insert(reg, x.components.clamp(1, 4) as usize);
        }
        for inst in &self.program.instructions {
            let info = inst.info();
            if info.class == Class::Decl {
                if inst.op == Op::DclIndexRange
                    && let Some(op) = inst.operands.first()
                {
                    if op.ty == OperandType::INPUT {
                        self.inputs_indexed = true;
                    } else if op.ty == OperandType::OUTPUT {
                        self.outputs_indexed = true;
                    }
                }
                continue;
            }
            if inst.op == Op::Label
                && let Some(op) = inst.operands.first()
            {
                self.labels.push(label_name(op));
            }
            for (k, op) in inst.operands.iter().enumerate() {
                visit(op, k < info.dst as usize, self);
                for idx in &op.indices {
                    if let Some(r) = idx.relative() {
                        visit(r, false, self);
                    }
                }
            }
        }
    }

    fn instruction(&mut self, inst: &Instruction) {
        let info = inst.info();
        if info.class == Class::Decl || inst.op == Op::Customdata {
            let text = self.inst_text(inst);
            self.decl_line(format!("// {text}"));
            decl::emit(self, inst);
            return;
        }
        if inst.op == Op::Label {
            self.close_function();
            let name = inst
                .operands
                .first()
                .map(label_name)
                .unwrap_or_else(|| "l0".into());
            let text = self.inst_text(inst);
            self.body.line(self.cur, format!("// {text}"));
            self.body.line(self.cur, format!("void {name}() {{"));
            self.body.indent();
            self.in_function = true;
            return;
        }
        if !self.in_function {
            self.body.line(None, "void dxbc_main() {");
            self.body.indent();
            self.in_function = true;
        }
        if info.class != Class::Flow {
            self.comment(inst);
        }
        if inst.operands.len() < info.operand_count() && info.layout == Layout::Operands {
            self.refuse(inst, Reason::Malformed);
            return;
        }
        match support(inst.op) {
            Support::Nothing => {}
            Support::Refused(reason) => {
                // Operands say which kind of resource is missing.
                let reason = match info.class {
                    Class::Memory => memory_reason(inst),
                    Class::Texture => texture::refusal(self, inst).unwrap_or(reason),
                    _ => reason,
                };
                self.refuse(inst, reason);
            }
            Support::Lowered => match info.class {
                // Flow writes its own comment: block closers dedent first.
                Class::Flow => flow::emit(self, inst),
                Class::Texture => texture::emit(self, inst),
                Class::Double => super::double::emit(self, inst),
                _ => alu::emit(self, inst),
            },
        }
    }

    /// Closes the function being written, if any.
    fn close_function(&mut self) {
        if self.in_function {
            // Balanced blocks (checked by the analysis pass) leave only
            // the function's own level open.
            debug_assert_eq!(self.body.depth(), 1, "a block is left open");
            self.body.dedent();
            self.body.line(None, "}");
            self.body.line(None, "");
            let f = std::mem::take(&mut self.body);
            self.functions.push(f);
            self.in_function = false;
        }
    }

    /// The instruction as the disassembler prints it, on one line.
    pub fn inst_text(&self, inst: &Instruction) -> String {
        one_line(disasm::format_instruction(inst, self.style))
    }

    /// The comment line repeating the instruction, first of its lines.
    pub fn comment(&mut self, inst: &Instruction) {
        let text = self.inst_text(inst);
        self.line(format!("// {text}"));
    }

    /// Writes a body line tagged with the current instruction.
    pub fn line(&mut self, text: impl AsRef<str>) {
        self.body.line(self.cur, text);
    }

    /// Writes a declaration line tagged with the current instruction.
    pub fn decl_line(&mut self, text: impl AsRef<str>) {
        self.decls.line(self.cur, text);
    }

    pub fn indent(&mut self) {
        self.body.indent();
    }

    pub fn dedent(&mut self) {
        self.body.dedent();
    }

    /// A fresh local name (`dx_t3`).
    pub fn tmp(&mut self) -> String {
        let n = self.next_tmp;
        self.next_tmp += 1;
        format!("dx_t{n}")
    }

    /// Records that `inst` cannot be expressed.
    pub fn refuse(&mut self, inst: &Instruction, reason: Reason) {
        let index = self.cur.unwrap_or(0);
        if self
            .diagnostics
            .iter()
            .any(|d| d.index == index && d.reason == reason)
        {
            return;
        }
        self.diagnostics.push(Diagnostic {
            index,
            offset: inst.offset,
            text: self.inst_text(inst),
            reason,
        });
    }

    /// Requests a component-wise helper; returns its name.
    pub fn helper(&mut self, h: &'static Scalar, width: usize) -> &'static str {
        self.helpers.use_scalar(h, width)
    }

    // ---- operands -------------------------------------------------------

    /// The name of input register `r` (array element when indexed).
    pub fn input_name(&self, r: u32) -> String {
        if self.inputs_indexed {
            format!("v[{r}]")
        } else {
            format!("v{r}")
        }
    }

    pub fn output_name(&self, r: u32) -> String {
        if self.outputs_indexed {
            format!("o[{r}]")
        } else {
            format!("o{r}")
        }
    }

    /// An index expression (`int`), relative parts read as integers.
    pub fn index_expr(&mut self, inst: &Instruction, idx: &Index) -> String {
        match idx {
            Index::Imm32(v) => v.to_string(),
            Index::Imm64(v) => v.to_string(),
            Index::Relative(r) => self.read_scalar(inst, r, Ty::Int),
            Index::Imm32Relative(v, r) => {
                let rel = self.read_scalar(inst, r, Ty::Int);
                if *v == 0 { rel } else { format!("{rel} + {v}") }
            }
            Index::Imm64Relative(v, r) => {
                let rel = self.read_scalar(inst, r, Ty::Int);
                format!("{rel} + {v}")
            }
        }
    }

    /// Where the register named by `op` lives. None for immediates and for
    /// register files that cannot be lowered (recorded as refusals).
    pub fn base(&mut self, inst: &Instruction, op: &Operand) -> Option<Base> {
        let vec4 = |expr: String| {
            Some(Base {
                expr,
                ty: Ty::Float,
                width: 4,
            })
        };
        let first = op.indices.first();
        match op.ty {
            OperandType::TEMP => vec4(format!("r{}", op.reg().unwrap_or(0))),
            OperandType::INPUT | OperandType::OUTPUT => {
                let input = op.ty == OperandType::INPUT;
                let file = if input { "v" } else { "o" };
                match first {
                    Some(Index::Imm32(r)) if input => vec4(self.input_name(*r)),
                    Some(Index::Imm32(r)) => vec4(self.output_name(*r)),
                    // A relative index reads the register file array.
                    Some(i) => {
                        let i = i.clone();
                        let e = self.index_expr(inst, &i);
                        vec4(format!("{file}[{e}]"))
                    }
                    None => vec4(format!("{file}0")),
                }
            }
            OperandType::INDEXABLE_TEMP => {
                let reg = op.reg().unwrap_or(0);
                let idx = op.indices.get(1).cloned().unwrap_or(Index::Imm32(0));
                let e = self.index_expr(inst, &idx);
                let width = self.indexable_widths.get(&reg).copied().unwrap_or(4);
                Some(Base {
                    expr: format!("x{reg}[{e}]"),
                    ty: Ty::Float,
                    width,
                })
            }
            OperandType::CONSTANT_BUFFER => {
                // SM5.0: cb#[index]; SM5.1: cb#[range id][index].
                let (slot, idx) = if self.program.is_sm51() {
                    (op.indices.first(), op.indices.get(2))
                } else {
                    (op.indices.first(), op.indices.get(1))
                };
                let idx = idx.cloned().unwrap_or(Index::Imm32(0));
                let e = self.index_expr(inst, &idx);
                match slot {
                    // `cb[r1.x + 0][…]`: fxc picks a class instance's buffer
                    // by `this[].x` so; GLSL has no array of blocks to
                    // index, so the declared buffers are chosen between
                    // (any other reads zeros, as D3D's unbound buffer).
                    Some(i) if !self.program.is_sm51() && i.relative().is_some() => {
                        let i = i.clone();
                        let s = self.index_expr(inst, &i);
                        let mut slots: Vec<u32> = self
                            .manifest
                            .constant_buffers
                            .iter()
                            .map(|c| c.slot)
                            .collect();
                        slots.sort_unstable();
                        slots.dedup();
                        let mut expr = "vec4(0.0)".to_string();
                        for n in slots.iter().rev() {
                            expr = format!("({s}) == {n} ? cb{n}.data[{e}] : {expr}");
                        }
                        // Nested conditionals associate to the right, so the
                        // chain needs no inner parentheses.
                        vec4(format!("({expr})"))
                    }
                    _ => {
                        let slot = slot.and_then(|i| i.imm()).unwrap_or(0);
                        vec4(format!("cb{slot}.data[{e}]"))
                    }
                }
            }
            OperandType::IMMEDIATE_CONSTANT_BUFFER => {
                let idx = op.indices.first().cloned().unwrap_or(Index::Imm32(0));
                let e = self.index_expr(inst, &idx);
                Some(Base {
                    expr: format!("ImmCB_0[{e}]"),
                    ty: Ty::Uint,
                    width: 4,
                })
            }
            OperandType::OUTPUT_DEPTH
            | OperandType::OUTPUT_DEPTH_GREATER_EQUAL
            | OperandType::OUTPUT_DEPTH_LESS_EQUAL => {
                self.uses_depth_output = true;
                Some(Base {
                    expr: "oDepth".into(),
                    ty: Ty::Float,
                    width: 1,
                })
            }
            OperandType::OUTPUT_COVERAGE_MASK if self.dialect == Dialect::Vk450 => {
                self.uses_coverage_output = true;
                Some(Base {
                    expr: "oMask".into(),
                    ty: Ty::Uint,
                    width: 1,
                })
            }
            // Declared only at sample frequency (decl.rs refuses the rest):
            // a sample's invocation covers its own sample.
            OperandType::INPUT_COVERAGE_MASK
                if self.dialect == Dialect::Vk450 && super::decl::runs_per_sample(self) =>
            {
                Some(Base {
                    expr: "(1u << uint(gl_SampleID))".into(),
                    ty: Ty::Uint,
                    width: 1,
                })
            }
            OperandType::THIS_POINTER => Some(super::interfaces::this_base(self, inst, op)),
            other => {
                let reason = match other {
                    // vk450 lowers vCoverage at sample frequency only.
                    OperandType::INPUT_COVERAGE_MASK if self.dialect == Dialect::Vk450 => {
                        Reason::CoverageInput
                    }
                    _ => operand_refusal(other),
                };
                self.refuse(inst, reason);
                None
            }
        }
    }

    /// Source component index for each destination position in `positions`
    /// (0..4), after the operand's swizzle.
    pub fn source_components(op: &Operand, positions: &[u8]) -> Vec<u8> {
        positions
            .iter()
            .map(|&p| match op.selection {
                Selection::Swizzle(s) => s[p as usize & 3],
                Selection::Select1(c) => c,
                Selection::Mask(_) | Selection::None => {
                    if op.components == Components::One {
                        0
                    } else {
                        p
                    }
                }
            })
            .collect()
    }

    /// Reads `op` as `ty` for the destination positions `positions`: a
    /// scalar for one position, otherwise a vector of that many components.
    /// Modifiers are applied in `ty`'s arithmetic.
    pub fn read(&mut self, inst: &Instruction, op: &Operand, positions: &[u8], ty: Ty) -> String {
        let n = positions.len().max(1);
        let raw = if op.is_immediate() {
            let value = op.immediate_lanes().unwrap_or([0; 4]);
            let lanes: Vec<u32> = positions.iter().map(|&p| value[p as usize & 3]).collect();
            return apply_modifier(op.modifier, ty.literal_vec(&lanes), ty, n);
        } else {
            let Some(base) = self.base(inst, op) else {
                return ty.literal_vec(&vec![0; n]);
            };
            let comps: Vec<u8> = Self::source_components(op, positions)
                .into_iter()
                .map(|c| c.min(base.width as u8 - 1))
                .collect();
            let sw = if base.width == 1 {
                if n == 1 {
                    String::new()
                } else {
                    // Widen a scalar register to the destination's width.
                    return apply_modifier(
                        op.modifier,
                        format!("{}({})", ty.vec(n), convert(&base.expr, base.ty, ty, 1)),
                        ty,
                        n,
                    );
                }
            } else if base.width == 4 && comps == [0, 1, 2, 3] {
                String::new()
            } else {
                swizzle(&comps)
            };
            convert(&format!("{}{}", base.expr, sw), base.ty, ty, n)
        };
        apply_modifier(op.modifier, raw, ty, n)
    }

    /// Reads a scalar (a one-component selection, or the first component).
    pub fn read_scalar(&mut self, inst: &Instruction, op: &Operand, ty: Ty) -> String {
        self.read(inst, op, &[0], ty)
    }

    /// Reads the first `n` components of `op` (coordinates, offsets).
    pub fn read_n(&mut self, inst: &Instruction, op: &Operand, n: usize, ty: Ty) -> String {
        let positions: Vec<u8> = (0..n as u8).collect();
        self.read(inst, op, &positions, ty)
    }

    /// Reads `op` as `ty` for the components `mask` writes.
    pub fn read_masked(&mut self, inst: &Instruction, op: &Operand, mask: u8, ty: Ty) -> String {
        self.read(inst, op, &mask_components(mask), ty)
    }

    /// The destination's write mask (a full mask for one-component
    /// destinations).
    pub fn dst_mask(op: &Operand) -> u8 {
        match op.selection {
            Selection::Mask(m) => m & 0xf,
            _ => {
                if op.components == Components::One {
                    1
                } else {
                    0xf
                }
            }
        }
    }

    /// Writes `expr`, a `ty` value with one component per bit of the
    /// destination's mask, to `dst`: bitcast to float bits, clamped when
    /// `sat`. A null destination writes nothing.
    pub fn assign(&mut self, inst: &Instruction, dst: &Operand, expr: &str, ty: Ty, sat: bool) {
        if dst.ty == OperandType::NULL {
            return;
        }
        let mask = Self::dst_mask(dst);
        let n = mask_count(mask);
        let Some(base) = self.base(inst, dst) else {
            return;
        };
        if dst.ty == OperandType::OUTPUT
            && let Some(Index::Imm32(r)) = dst.indices.first()
        {
            self.outputs_written.insert(*r);
        }
        let mut value = convert(expr, ty, base.ty, n);
        if sat {
            value = if n == 1 {
                format!("clamp({value}, 0.0, 1.0)")
            } else {
                format!(
                    "clamp({value}, {}(0.0), {}(1.0))",
                    Ty::Float.vec(n),
                    Ty::Float.vec(n)
                )
            };
        }
        let target = if base.width == 1 {
            base.expr
        } else {
            let comps: Vec<u8> = mask_components(mask)
                .into_iter()
                .filter(|&c| (c as usize) < base.width)
                .collect();
            if comps.len() == base.width && base.width == 4 {
                base.expr
            } else {
                format!("{}{}", base.expr, swizzle(&comps))
            }
        };
        self.line(format!("{target} = {value};"));
    }

    /// Joins everything into the final text.
    fn finish(mut self) -> Translation {
        self.close_function();
        let mut head = Section::new();
        match self.dialect {
            Dialect::Es300 => head.line(None, "#version 300 es"),
            Dialect::Vk450 => head.line(None, "#version 450"),
        }
        head.line(
            None,
            format!(
                "// {} translated by dxbc-dbg ({})",
                self.program.profile(),
                self.dialect.name()
            ),
        );
        if self.dialect == Dialect::Es300 {
            head.line(None, "precision highp float;");
            head.line(None, "precision highp int;");
            if self.y_flip {
                y_flip_uniform(&mut self, &mut head);
            }
        }
        head.line(None, "");

        let mut globals = Section::new();
        decl::register_file(&mut self, &mut globals);

        let mut helper_section = Section::new();
        if !self.helpers.is_empty() {
            for l in self.helpers.render() {
                helper_section.line(None, l);
            }
        }
        let mut protos = Section::new();
        for l in &self.labels {
            protos.line(None, format!("void {l}();"));
        }
        if !self.labels.is_empty() {
            protos.line(None, "");
        }

        // naga (and Vulkan) want a position from every vertex shader; one
        // without SV_Position (stream output only) gets a constant one.
        if self.dialect == Dialect::Vk450
            && self.stage == ProgramType::Vertex
            && !self
                .manifest
                .outputs
                .iter()
                .any(|o| o.glsl_name == "gl_Position")
        {
            self.epilogue.line(
                None,
                "gl_Position = vec4(0.0); // no SV_Position output: position unused",
            );
        }
        let mut main = Section::new();
        main.line(None, "void main() {");
        main.indent();
        let prologue = std::mem::take(&mut self.prologue);
        main.append(prologue);
        main.line(None, "dxbc_main();");
        let position = std::mem::take(&mut self.position);
        main.append(position);
        let epilogue = std::mem::take(&mut self.epilogue);
        main.append(epilogue);
        main.dedent();
        main.line(None, "}");

        let mut sections = vec![head, std::mem::take(&mut self.decls)];
        sections.push(globals);
        sections.push(helper_section);
        sections.push(protos);
        // `dxbc_main` may not have been opened (a program of declarations
        // only): give it an empty body.
        if self.functions.is_empty() {
            let mut f = Section::new();
            f.line(None, "void dxbc_main() {");
            f.line(None, "}");
            f.line(None, "");
            sections.push(f);
        }
        sections.extend(std::mem::take(&mut self.functions));
        sections.push(main);
        let (source, map) = join(sections, self.program.instructions.len());
        Translation {
            dialect: self.dialect,
            stage: self.stage,
            source,
            map,
            manifest: self.manifest,
        }
    }
}

/// `hlslcc_YFlip`: what the runtime sets so the es300 text gives D3D's
/// window conventions (docs/glsl.md, "D3D's window conventions in es300").
fn y_flip_uniform(e: &mut Emitter, head: &mut Section) {
    head.line(
        None,
        "// (-1, 0) drawing into a framebuffer object, (1, height) drawing to the canvas",
    );
    head.line(None, "uniform highp vec2 hlslcc_YFlip;");
    e.manifest.uniforms.push(UniformEntry {
        name: "hlslcc_YFlip".into(),
        glsl_type: ValueType::vec(Ty::Float, 2),
        role: UniformRole::YFlip,
        meaning: "y direction of the render target: (-1, 0) when drawing into a \
                  framebuffer object, (1, height in pixels) when drawing to the default \
                  framebuffer (canvas)"
            .into(),
        block: String::new(),
        offset: 0,
        binding: None,
    });
}

/// `l3` for a subroutine label, `fb2` for a class function body.
fn label_name(op: &Operand) -> String {
    let n = op.reg().unwrap_or(0);
    if op.ty == OperandType::FUNCTION_BODY {
        format!("fb{n}")
    } else {
        format!("l{n}")
    }
}

/// Converts a value of `from` bits to `to`: bitcasts between float and the
/// integer types, `int()`/`uint()` (bit-preserving) between the two.
pub fn convert(expr: &str, from: Ty, to: Ty, n: usize) -> String {
    if from == to {
        return expr.to_string();
    }
    match (from, to) {
        (Ty::Float, _) => format!("{}({expr})", to.from_float_bits().unwrap_or("")),
        (_, Ty::Float) => format!("{}({expr})", from.to_float_bits().unwrap_or("")),
        _ => format!("{}({expr})", to.vec(n)),
    }
}

/// `-x`, `abs(x)`, `-abs(x)` in `ty`'s arithmetic. GLSL has no unary minus
/// or `abs` on unsigned values, so those go through `int` (two's
/// complement, as D3D's integer modifiers are).
fn apply_modifier(m: Modifier, expr: String, ty: Ty, n: usize) -> String {
    if ty == Ty::Uint && m != Modifier::None {
        let signed = format!("{}({expr})", Ty::Int.vec(n));
        let inner = apply_modifier(m, signed, Ty::Int, n);
        return format!("{}({inner})", Ty::Uint.vec(n));
    }
    match m {
        Modifier::None => expr,
        Modifier::Neg => format!("-({expr})"),
        Modifier::Abs => format!("abs({expr})"),
        Modifier::AbsNeg => format!("-abs({expr})"),
    }
}

/// Which refusal a memory-class instruction gets.
/// Why a register file with no ES 3.00 value is refused.
fn operand_refusal(ty: OperandType) -> Reason {
    match ty {
        OperandType::UNORDERED_ACCESS_VIEW => Reason::Uav,
        OperandType::THREAD_GROUP_SHARED_MEMORY
        | OperandType::INPUT_THREAD_ID
        | OperandType::INPUT_THREAD_GROUP_ID
        | OperandType::INPUT_THREAD_ID_IN_GROUP
        | OperandType::INPUT_THREAD_ID_IN_GROUP_FLATTENED => Reason::Compute,
        OperandType::INPUT_PRIMITIVEID
        | OperandType::INPUT_COVERAGE_MASK
        | OperandType::OUTPUT_COVERAGE_MASK
        | OperandType::OUTPUT_STENCIL_REF
        | OperandType::INNER_COVERAGE => Reason::SystemValue,
        OperandType::RASTERIZER => Reason::Multisample,
        // Function bodies, tables and interfaces are not values.
        OperandType::FUNCTION_BODY | OperandType::FUNCTION_TABLE | OperandType::INTERFACE => {
            Reason::Malformed
        }
        _ => Reason::Operand,
    }
}

fn memory_reason(inst: &Instruction) -> Reason {
    if inst
        .operands
        .iter()
        .any(|o| o.ty == OperandType::UNORDERED_ACCESS_VIEW)
    {
        Reason::Uav
    } else if inst.operands.iter().any(|o| o.ty == OperandType::RESOURCE) {
        Reason::RawStructuredBuffer
    } else {
        Reason::Compute
    }
}
