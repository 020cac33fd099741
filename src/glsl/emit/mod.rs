//! The emitter's state and the walk over the program: one pass in
//! instruction order, dispatching each instruction to the module that owns
//! its family. Operand reading and destination writing, which every family
//! shares, are in `operands.rs`; joining the sections into the final text
//! is `finish.rs`.

use super::helpers::{Helpers, Scalar};
use super::manifest::Manifest;
use super::support::{Support, support};
use super::texture::Textures;
use super::writer::{LineText, Scratch, Section, cat};
use super::{Diagnostic, Dialect, Options, Reason, Refused, Translation};
use super::{alu, decl, flow, texture};
use crate::dxbc::analysis::{Analysis, Check};
use crate::dxbc::disasm::{self, Style};
use crate::dxbc::ir::{Index, Instruction, Operand, OperandType, Program, ProgramType};
use crate::dxbc::opcodes::{Class, Layout, Op};
use crate::dxbc::shader::Shader;

mod finish;
mod operands;

pub use operands::{Base, conversion, convert, push_converted};

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
    /// The declared buffer views and used UAV counters (`memory`).
    pub memory: super::memory::Memory,
    pub manifest: Manifest,
    pub diagnostics: Vec<Diagnostic>,
    /// Input and output register numbers declared so far.
    pub input_regs: RegSet,
    pub output_regs: RegSet,
    /// Whether some operand indexes the input / output file by a register,
    /// in which case it is declared as an array.
    pub inputs_indexed: bool,
    pub outputs_indexed: bool,
    /// Declared component count of each indexable temp `xN`.
    pub indexable_widths: std::collections::BTreeMap<u32, usize>,
    /// Output registers some instruction writes.
    pub outputs_written: RegSet,
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
    /// Expression buffers given back for reuse ([`Emitter::take_buf`]).
    bufs: Scratch,
    /// Whether the body function has been opened.
    in_function: bool,
}

pub fn translate(shader: &Shader, options: &Options) -> Result<Translation, Refused> {
    let program = &shader.program;
    // A refusal of the whole program, named at its profile.
    let whole = |reason| {
        Err(Refused {
            dialect: options.dialect,
            diagnostics: vec![Diagnostic {
                index: 0,
                offset: program.instructions.first().map_or(0, |i| i.offset),
                text: program.profile(),
                reason,
            }],
        })
    };
    if !matches!(program.kind, ProgramType::Pixel | ProgramType::Vertex) {
        return whole(Reason::Stage);
    }
    if options.capture.is_some()
        && options.dialect == Dialect::Es300
        && program.kind == ProgramType::Pixel
        && super::capture::es300_records_per_draw(options.capture_outputs) == 0
    {
        return whole(Reason::Capture);
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
                        Check::Linkage => Reason::Linkage,
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
        memory: Default::default(),
        manifest: Manifest::new(shader, options.dialect),
        diagnostics: Vec::new(),
        input_regs: RegSet::default(),
        output_regs: RegSet::default(),
        inputs_indexed: false,
        outputs_indexed: false,
        indexable_widths: Default::default(),
        outputs_written: RegSet::default(),
        labels: Vec::new(),
        interfaces: Default::default(),
        uses_depth_output: false,
        uses_coverage_output: false,
        frag_coord: false,
        // Every es300 vertex shader gets the uniform, even one without
        // SV_Position, so a runtime can set it on every program alike.
        // An es300 capture's pixel test reads it too.
        y_flip: options.dialect == Dialect::Es300
            && (program.kind == ProgramType::Vertex || options.capture.is_some()),
        next_tmp: 0,
        bufs: Scratch::new(),
        in_function: false,
    };
    // Sized from the instruction count (a comment line and a statement or
    // two each), so the buffers are not reallocated line after line.
    let n = program.instructions.len();
    let (room, lines) = (96 * n + 256, 2 * n + 8);
    e.decls.reserve(room, lines);
    e.body.reserve(room, lines);
    // The copies in and out of `main()`: a few lines per declared
    // register, which a small shader's cost is mostly made of.
    for s in [&mut e.prologue, &mut e.epilogue, &mut e.position] {
        s.reserve(512, 8);
    }
    e.prescan();
    texture::scan(&mut e);
    super::memory::scan(&mut e);
    // A shader reading only the rasterizer's sample count has no texture
    // or sampler declaration to declare the levels block at.
    texture::declare_rasterizer_block(&mut e);
    for (i, inst) in program.instructions.iter().enumerate() {
        e.cur = Some(i);
        // Test-only: the instruction lowered with a wrong swizzle.
        if options.wrong_swizzle_at == Some(i) {
            e.instruction(&super::faults::wrong_swizzle(inst));
        } else {
            e.instruction(inst);
        }
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

/// `// ` and the instruction's text as [`one_line`] gives it, written
/// straight into `out` as a line tagged `tag`: the disassembler writes
/// into the section's buffer and a multi-line text (an immediate constant
/// buffer) is cut there, so no copy of the text is made.
fn comment_line(out: &mut Section, tag: Option<usize>, inst: &Instruction, style: Style) {
    out.open(tag);
    let buf = out.buf();
    buf.push_str("// ");
    let start = buf.len();
    disasm::write_instruction(buf, inst, style);
    // Only custom data spans lines (an immediate constant buffer's rows,
    // a message's text); the IR holds no other text, so the newline
    // search is skipped for every other instruction.
    if inst.custom.is_some()
        && let Some(nl) = buf[start..].find('\n')
    {
        let first = buf[start..start + nl].trim_end().len();
        buf.truncate(start + first);
        buf.push_str(" …");
    }
    buf.push('\n');
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
                        _ => e.outputs_written.fill(),
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
            comment_line(&mut self.decls, self.cur, inst, self.style);
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
            comment_line(&mut self.body, self.cur, inst, self.style);
            self.body.line(self.cur, ("void ", &name, "() {"));
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
                    Class::Memory => memory_reason(self.dialect, inst),
                    Class::Texture => texture::refusal(self, inst).unwrap_or(reason),
                    _ => reason,
                };
                self.refuse(inst, reason);
            }
            Support::Lowered => self.lowered(inst),
        }
        if info.class != Class::Flow {
            super::capture::after(self, inst);
        }
    }

    /// Dispatches an instruction the support table lowers to its family.
    fn lowered(&mut self, inst: &Instruction) {
        match inst.info().class {
            // Flow writes its own comment: block closers dedent first.
            Class::Flow => flow::emit(self, inst),
            // bufinfo of a raw/structured view or a UAV is memory's.
            Class::Texture if inst.op == Op::Bufinfo && super::memory::bufinfo(self, inst) => {}
            // ld of a typed buffer SRV (vk450) too.
            Class::Texture if inst.op == Op::Ld && super::memory::typed_srv::ld(self, inst, 2) => {}
            // resinfo of a UAV too.
            Class::Texture if inst.op == Op::Resinfo && super::memory::resinfo(self, inst) => {}
            Class::Texture => texture::emit(self, inst),
            Class::Memory => super::memory::emit(self, inst),
            Class::Double => super::double::emit(self, inst),
            _ => alu::emit(self, inst),
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
        comment_line(&mut self.body, self.cur, inst, self.style);
    }

    /// Writes a body line tagged with the current instruction.
    pub fn line(&mut self, text: impl LineText) {
        self.body.line(self.cur, text);
    }

    /// Writes a body line made of `parts` ([`Section::line_cat`]), tagged
    /// with the current instruction.
    pub fn line_cat(&mut self, parts: &[&str]) {
        self.body.line_cat(self.cur, parts);
    }

    /// Writes a declaration line tagged with the current instruction.
    pub fn decl_line(&mut self, text: impl LineText) {
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
        let mut s = String::with_capacity(16);
        s.push_str("dx_t");
        crate::dxbc::numfmt::push_u64(&mut s, n.into());
        s
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
}

/// `l3` for a subroutine label, `fb2` for a class function body.
fn label_name(op: &Operand) -> String {
    let n = op.reg().unwrap_or(0);
    let file = if op.ty == OperandType::FUNCTION_BODY {
        "fb"
    } else {
        "l"
    };
    cat!(file, n)
}

/// A set of `v` or `o` register numbers, one bit each: D3D11 has 32 of
/// either (`decl::MAX_IO_REGISTERS` refuses past 64), and every shader
/// inserts a few, which a `BTreeSet` allocated nodes for.
#[derive(Debug, Clone, Copy, Default)]
pub struct RegSet(u64);

impl RegSet {
    /// Adds `r`. Numbers past 63 are left out: no declaration gives one
    /// (they are refused first), so no lookup asks for one.
    pub fn insert(&mut self, r: u32) {
        if r < 64 {
            self.0 |= 1 << r;
        }
    }

    /// Every register: a relative write may reach any output.
    pub fn fill(&mut self) {
        self.0 = u64::MAX;
    }

    pub fn contains(&self, r: u32) -> bool {
        r < 64 && self.0 & (1 << r) != 0
    }

    /// How many registers the set holds.
    pub fn count(&self) -> usize {
        self.0.count_ones() as usize
    }

    /// The largest register in the set.
    pub fn last(&self) -> Option<u32> {
        (self.0 != 0).then(|| 63 - self.0.leading_zeros())
    }

    /// The registers in increasing order.
    pub fn iter(&self) -> impl Iterator<Item = u32> + use<> {
        let mut bits = self.0;
        std::iter::from_fn(move || {
            (bits != 0).then(|| {
                let r = bits.trailing_zeros();
                bits &= bits - 1;
                r
            })
        })
    }
}

/// Which refusal a memory-class instruction the support table refuses
/// gets: on vk450, which lowers buffers and UAVs, the tiled-resource loads
/// for what they are; on es300, what ES 3.00 lacks.
fn memory_reason(dialect: Dialect, inst: &Instruction) -> Reason {
    if dialect == Dialect::Vk450
        && matches!(inst.op, Op::LdUavTypedS | Op::LdRawS | Op::LdStructuredS)
    {
        Reason::TiledMemory
    } else if inst
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
