//! SHDR/SHEX token stream → [`Program`]. Token layouts follow
//! `d3d11TokenizedProgramFormat.hpp`. Every count and length is checked
//! against the instruction's declared length before it is used, so any input
//! yields a program or a typed error naming the byte offset.

use super::error::{DxbcError, Result};
use super::ir::*;
use super::opcodes::{self, Layout, Op};

/// Relative indices nest (`cb0[r0.x + icb[r1.y].x]` is legal), but only a
/// little; anything deeper is a corrupt file, not a shader.
const MAX_OPERAND_DEPTH: u32 = 4;

/// Decodes a program chunk. `base` is the absolute offset of `data` in the
/// container; `shex` records which chunk name held it.
pub fn decode_program(data: &[u8], base: usize, shex: bool) -> Result<Program> {
    if data.len() < 8 {
        return Err(DxbcError::Truncated {
            offset: base,
            what: "program header",
            need: 8,
            have: data.len(),
        });
    }
    let word = |i: usize| -> u32 {
        let b = &data[i * 4..i * 4 + 4];
        u32::from_le_bytes([b[0], b[1], b[2], b[3]])
    };
    let version = word(0);
    let kind = ProgramType::from_code((version >> 16) as u16);
    if !kind.is_known() {
        return Err(DxbcError::malformed(
            base,
            format!("unknown program type {}", version >> 16),
        ));
    }
    let major = ((version >> 4) & 0xf) as u8;
    let minor = (version & 0xf) as u8;
    let declared = word(1) as usize;
    let available = data.len() / 4;
    if declared < 2 || declared > available {
        return Err(DxbcError::malformed(
            base + 4,
            format!("program length {declared} dwords does not fit the chunk's {available} dwords"),
        ));
    }
    // Read in place: copying the program into a `Vec<u32>` first cost an
    // allocation and a pass over every dword.
    let words = Words(&data[..declared * 4]);
    // Reserving the exact count avoids re-copying the (large, inline-operand)
    // instructions as the Vec grows, and over-reserving (a guess from the
    // dword count) allocated about twice the memory the program needs.
    let mut instructions = super::ir::instruction_storage(count_instructions(words, declared));
    let mut pos = 2;
    while pos < declared {
        pos += decode_instruction(words, pos, base, &mut instructions)?;
    }
    Ok(Program {
        kind,
        major,
        minor,
        shex,
        instructions,
    })
}

/// How many instructions the program's length fields mark out, read from
/// the length fields alone; a cheap pass next to decoding. A corrupt length
/// ends the count early (decoding then reports it), so the count is never
/// more than the dwords there are.
fn count_instructions(words: Words, declared: usize) -> usize {
    let mut pos = 2;
    let mut count = 0;
    while pos < declared {
        let token = words.at(pos);
        let custom = opcodes::lookup(token & 0x7ff).is_some_and(|i| i.layout == Layout::CustomData);
        let len = if custom {
            words.get(pos + 1).unwrap_or(0) as usize
        } else {
            ((token >> 24) & 0x7f) as usize
        };
        if len == 0 {
            break;
        }
        pos = pos.saturating_add(len);
        count += 1;
    }
    count
}

/// Decodes the instruction starting at dword `pos` onto the end of `out`;
/// returns its length. Instructions are built in place: they carry their
/// operands inline and are large enough that moving each one shows up in
/// decode throughput.
fn decode_instruction(
    words: Words,
    pos: usize,
    base: usize,
    out: &mut Vec<Instruction>,
) -> Result<usize> {
    let offset = base + pos * 4;
    let token = words.at(pos);
    let opcode = token & 0x7ff;
    let info = opcodes::lookup(opcode).ok_or(DxbcError::UnknownOpcode {
        offset,
        opcode,
        token,
    })?;
    let remaining = words.len() - pos;

    if info.layout == Layout::CustomData {
        let len = words.get(pos + 1).ok_or(DxbcError::Truncated {
            offset: offset + 4,
            what: "customdata length",
            need: 4,
            have: 0,
        })? as usize;
        if len < 2 || len > remaining {
            return Err(DxbcError::malformed(
                offset + 4,
                format!("customdata length {len} dwords does not fit the {remaining} dwords left"),
            ));
        }
        let class = token >> 11;
        let data = words.slice(pos + 2..pos + len).iter().collect();
        let custom = match class {
            4 => decode_shader_message(data, offset + 8)?,
            0 => CustomData::Comment(data),
            1 => CustomData::DebugInfo(data),
            2 => CustomData::Opaque(data),
            3 => CustomData::ImmediateConstantBuffer(data),
            _ => CustomData::Other { class, data },
        };
        out.push(Instruction {
            op: info.op,
            controls: token & 0x00ff_f800,
            extended: Vec::new(),
            operands: Operands::new(),
            decl: DeclKind::Plain,
            custom: Some(Box::new(custom)),
            trailing: Vec::new(),
            offset,
            length: len as u32,
        });
        return Ok(len);
    }

    let len = ((token >> 24) & 0x7f) as usize;
    if len == 0 || len > remaining {
        return Err(DxbcError::malformed(
            offset,
            format!(
                "{} instruction length {len} dwords does not fit the {remaining} dwords left",
                info.name
            ),
        ));
    }
    let mut cur = Cursor {
        words: words.slice(pos..pos + len),
        pos: 1,
        base: offset,
    };

    // Written straight into reserved room: `extend(once_with(..))` did the
    // same through an iterator whose machinery cost more than the store
    // (about a tenth of decoding, measured).
    out.reserve(1);
    let n = out.len();
    out.spare_capacity_mut()[0].write(Instruction {
        op: info.op,
        controls: token & 0x00ff_f800,
        // Filled below, in place: a vector built first and moved in was
        // read back from the stack wider than it was written, a stall on
        // every instruction.
        extended: Vec::new(),
        operands: Operands::new(),
        decl: DeclKind::Plain,
        custom: None,
        trailing: Vec::new(),
        offset,
        length: len as u32,
    });
    // SAFETY: the slot at `n` was reserved and has just been written.
    unsafe { out.set_len(n + 1) };
    let Some(inst) = out.last_mut() else {
        unreachable!("an instruction was just pushed")
    };

    let mut more = token & 0x8000_0000 != 0;
    while more {
        let ext = cur.next("extended opcode token")?;
        more = ext & 0x8000_0000 != 0;
        // The continuation bit is layout, not content: the encoder sets it.
        inst.extended
            .push(decode_extended_opcode(ext & 0x7fff_ffff));
    }

    if info.layout == Layout::Decl {
        decode_decl(inst, &mut cur)?;
    } else {
        // The table's operand count, not the instruction length, decides how
        // many operands there are: fxc sometimes pads an instruction with
        // zero dwords (a `samplepos` in the corpus has one), which must not
        // turn into a phantom operand.
        // Instructions with more operands than fit inline (`sample_l`,
        // `sample_d`, …) go to the heap once, at their final size, rather
        // than moving the inline ones there when the fifth arrives.
        let count = info.operand_count();
        if count > inst.operands.inline_size() {
            inst.operands.reserve_exact(count);
        }
        for _ in 0..count {
            if cur.done() {
                break;
            }
            push_operand(&mut cur, &mut inst.operands)?;
        }
    }
    while !cur.done() {
        inst.trailing.push(cur.next("declaration payload")?);
    }
    Ok(len)
}

fn decode_extended_opcode(ext: u32) -> ExtendedOpcode {
    // 4-bit two's-complement offsets at bits 9, 13 and 17.
    let nibble = |shift: u32| -> i8 { (((ext >> shift) & 0xf) as i8) << 4 >> 4 };
    let rt = |shift: u32| ReturnType::from_code(((ext >> shift) & 0xf) as u8);
    match ext & 0x3f {
        1 => ExtendedOpcode::SampleControls {
            offsets: [nibble(9), nibble(13), nibble(17)],
            raw: ext,
        },
        2 => ExtendedOpcode::ResourceDimension {
            dim: ResourceDimension::from_code(((ext >> 6) & 0x1f) as u8),
            stride: (ext >> 11) & 0xfff,
            raw: ext,
        },
        3 => ExtendedOpcode::ReturnType {
            types: [rt(6), rt(10), rt(14), rt(18)],
            raw: ext,
        },
        _ => ExtendedOpcode::Unknown(ext),
    }
}

fn return_types(word: u32) -> [ReturnType; 4] {
    let rt = |shift: u32| ReturnType::from_code(((word >> shift) & 0xf) as u8);
    [rt(0), rt(4), rt(8), rt(12)]
}

fn decode_decl(inst: &mut Instruction, cur: &mut Cursor) -> Result<()> {
    let op = inst.op;
    let operand = |cur: &mut Cursor, inst: &mut Instruction| -> Result<()> {
        push_operand(cur, &mut inst.operands)?;
        Ok(())
    };
    inst.decl = match op {
        Op::DclResource | Op::DclUavTyped => {
            operand(cur, inst)?;
            DeclKind::ReturnTypes(return_types(cur.next("resource return type")?))
        }
        Op::DclInputSgv
        | Op::DclInputSiv
        | Op::DclInputPsSgv
        | Op::DclInputPsSiv
        | Op::DclOutputSgv
        | Op::DclOutputSiv => {
            operand(cur, inst)?;
            DeclKind::SystemValue(SystemValue::from_code(cur.next("system value name")?))
        }
        Op::DclIndexRange | Op::DclUavStructured | Op::DclResourceStructured | Op::DclTgsmRaw => {
            operand(cur, inst)?;
            DeclKind::Count(cur.next("declaration count")?)
        }
        Op::DclTgsmStructured => {
            operand(cur, inst)?;
            let stride = cur.next("structure stride")?;
            DeclKind::Pair(stride, cur.next("structure count")?)
        }
        Op::DclTemps
        | Op::DclMaxOutputVertexCount
        | Op::DclFunctionBody
        | Op::DclHsMaxTessfactor
        | Op::DclHsForkPhaseInstanceCount
        | Op::DclHsJoinPhaseInstanceCount
        | Op::DclGsInstanceCount => DeclKind::Count(cur.next("declaration count")?),
        Op::DclIndexableTemp => DeclKind::IndexableTemp {
            reg: cur.next("indexable temp register")?,
            size: cur.next("indexable temp size")?,
            components: cur.next("indexable temp components")?,
        },
        Op::DclThreadGroup => DeclKind::ThreadGroup([
            cur.next("thread group x")?,
            cur.next("thread group y")?,
            cur.next("thread group z")?,
        ]),
        Op::DclFunctionTable => {
            let table = cur.next("function table index")?;
            let count = cur.next("function table length")? as usize;
            cur.need(count, "function table bodies")?;
            let bodies = (0..count)
                .map(|_| cur.next("function body"))
                .collect::<Result<_>>()?;
            DeclKind::FunctionTable { table, bodies }
        }
        Op::DclInterface => {
            let index = cur.next("interface index")?;
            let table_length = cur.next("interface table length")?;
            let lengths = cur.next("interface array length")?;
            let count = (lengths & 0xffff) as usize;
            cur.need(count, "interface function tables")?;
            let tables = (0..count)
                .map(|_| cur.next("function table"))
                .collect::<Result<_>>()?;
            DeclKind::Interface {
                index,
                table_length,
                array_length: lengths >> 16,
                tables,
            }
        }
        Op::InterfaceCall => {
            let function = cur.next("interface call function index")?;
            operand(cur, inst)?;
            DeclKind::InterfaceCall { function }
        }
        _ => {
            // Declarations that are an optional operand plus opcode controls.
            if !cur.done() && inst.info().src > 0 {
                operand(cur, inst)?;
            }
            DeclKind::Plain
        }
    };
    Ok(())
}

/// Little-endian dwords read in place from a chunk's bytes (whose length
/// is a multiple of four).
#[derive(Clone, Copy)]
struct Words<'a>(&'a [u8]);

impl<'a> Words<'a> {
    fn len(self) -> usize {
        self.0.len() / 4
    }

    #[inline]
    fn at(self, i: usize) -> u32 {
        let b = &self.0[i * 4..i * 4 + 4];
        u32::from_le_bytes([b[0], b[1], b[2], b[3]])
    }

    fn get(self, i: usize) -> Option<u32> {
        (i < self.len()).then(|| self.at(i))
    }

    fn slice(self, r: std::ops::Range<usize>) -> Words<'a> {
        Words(&self.0[r.start * 4..r.end * 4])
    }

    fn iter(self) -> impl Iterator<Item = u32> + 'a {
        self.0
            .chunks_exact(4)
            .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }
}

/// A window on one instruction's dwords; `pos` 0 is the opcode token.
struct Cursor<'a> {
    words: Words<'a>,
    pos: usize,
    base: usize,
}

impl Cursor<'_> {
    fn done(&self) -> bool {
        self.pos >= self.words.len()
    }

    fn offset(&self) -> usize {
        self.base + self.pos * 4
    }

    fn need(&self, n: usize, what: &'static str) -> Result<()> {
        let have = self.words.len() - self.pos;
        if n > have {
            Err(DxbcError::Truncated {
                offset: self.offset(),
                what,
                need: n.saturating_mul(4),
                have: have * 4,
            })
        } else {
            Ok(())
        }
    }

    /// The next `n` dwords, checked as [`Cursor::need`] checks them.
    fn take(&mut self, n: usize, what: &'static str) -> Result<Words<'_>> {
        self.need(n, what)?;
        let s = self.words.slice(self.pos..self.pos + n);
        self.pos += n;
        Ok(s)
    }

    #[inline]
    fn next(&mut self, what: &'static str) -> Result<u32> {
        self.need(1, what)?;
        let w = self.words.at(self.pos);
        self.pos += 1;
        Ok(w)
    }
}

fn decode_operand(cur: &mut Cursor, depth: u32) -> Result<Operand> {
    let mut op = Operand::default();
    decode_operand_into(cur, depth, &mut op)?;
    Ok(op)
}

/// Appends one decoded operand to `ops`, built in place (see
/// `decode_instruction` for why).
fn push_operand(cur: &mut Cursor, ops: &mut Operands) -> Result<()> {
    let result = decode_operand_into(cur, 0, ops.push_blank());
    // Also after an error: the operand stays, and what it holds is freed.
    ops.settle_last();
    result
}

fn decode_operand_into(cur: &mut Cursor, depth: u32, op: &mut Operand) -> Result<()> {
    let offset = cur.offset();
    if depth > MAX_OPERAND_DEPTH {
        return Err(DxbcError::malformed(
            offset,
            "relative addressing nested too deeply",
        ));
    }
    let tok = cur.next("operand token")?;
    let ty = OperandType(((tok >> 12) & 0xff) as u8);
    let components = match tok & 3 {
        0 => Components::Zero,
        1 => Components::One,
        2 => Components::Four,
        _ => Components::N(((tok >> 4) & 0xff) as u8),
    };
    let selection = match components {
        Components::Four => match (tok >> 2) & 3 {
            0 => Selection::Mask(((tok >> 4) & 0xf) as u8),
            1 => Selection::Swizzle([
                ((tok >> 4) & 3) as u8,
                ((tok >> 6) & 3) as u8,
                ((tok >> 8) & 3) as u8,
                ((tok >> 10) & 3) as u8,
            ]),
            2 => Selection::Select1(((tok >> 4) & 3) as u8),
            _ => {
                return Err(DxbcError::malformed(
                    offset,
                    format!("operand token {tok:#010x}: invalid component selection mode 3"),
                ));
            }
        },
        _ => Selection::None,
    };

    op.ty = ty;
    op.components = components;
    op.selection = selection;

    let mut more = tok & 0x8000_0000 != 0;
    while more {
        let ext = cur.next("extended operand token")?;
        more = ext & 0x8000_0000 != 0;
        op.extended = true;
        match ext & 0x3f {
            1 => {
                op.modifier = match (ext >> 6) & 0xff {
                    0 => Modifier::None,
                    1 => Modifier::Neg,
                    2 => Modifier::Abs,
                    3 => Modifier::AbsNeg,
                    m => {
                        return Err(DxbcError::malformed(
                            cur.offset() - 4,
                            format!("unknown operand modifier {m}"),
                        ));
                    }
                };
                op.min_precision = MinPrecision::from_bits((ext >> 14) & 7);
                op.nonuniform = (ext >> 17) & 1 != 0;
            }
            0 => {}
            t => {
                return Err(DxbcError::malformed(
                    cur.offset() - 4,
                    format!("unknown extended operand type {t}"),
                ));
            }
        }
    }

    let dims = ((tok >> 20) & 3) as usize;
    for d in 0..dims {
        let repr = (tok >> (22 + 3 * d)) & 7;
        // Each arm pushes its own value, so it is stored straight into the
        // operand rather than staged as one `Index` and copied.
        let indices = &mut op.indices;
        if repr == 0 {
            // The common form, on its own path: shared with the others, the
            // index was staged on the stack and copied into place, read back
            // wider than it was written (a stall per index).
            let v = cur.next("operand index")?;
            indices.push_imm32(v);
            continue;
        }
        match repr {
            1 => {
                let hi = cur.next("operand index")? as u64;
                let lo = cur.next("operand index")? as u64;
                indices.push(Index::Imm64(hi << 32 | lo));
            }
            2 => indices.push(Index::Relative(Box::new(decode_operand(cur, depth + 1)?))),
            3 => {
                let imm = cur.next("operand index")?;
                let rel = Box::new(decode_operand(cur, depth + 1)?);
                indices.push(Index::Imm32Relative(imm, rel));
            }
            4 => {
                let hi = cur.next("operand index")? as u64;
                let lo = cur.next("operand index")? as u64;
                let rel = Box::new(decode_operand(cur, depth + 1)?);
                indices.push(Index::Imm64Relative(hi << 32 | lo, rel));
            }
            r => {
                return Err(DxbcError::malformed(
                    offset,
                    format!("operand token {tok:#010x}: unknown index representation {r}"),
                ));
            }
        }
    }

    if ty == OperandType::IMMEDIATE32 {
        let words = match components {
            Components::Zero => 0,
            Components::One => 1,
            Components::Four => 4,
            // An immediate fills at most a register's four components;
            // fxc never writes the N-component form, and more lanes than
            // four would be no register's value.
            Components::N(n) if n as usize <= Lanes::CAPACITY => n as usize,
            Components::N(n) => {
                return Err(DxbcError::malformed(
                    offset,
                    format!(
                        "operand token {tok:#010x}: an immediate holds at most four values, not {n}"
                    ),
                ));
            }
        };
        push_lanes(&mut op.imm, cur.take(words, "immediate value")?);
    } else if ty == OperandType::IMMEDIATE64 {
        // A 64-bit immediate fills the same four 32-bit components a 32-bit
        // one does: one component is one double (two dwords), four
        // components are two doubles (four dwords), low dword first — the
        // layout double instructions read through `.xy`/`.zw`.
        let (words, what) = match components {
            Components::Zero => (0, "64-bit immediate"),
            Components::One => (2, "64-bit immediate (one double)"),
            Components::Four => (4, "64-bit immediate (two doubles)"),
            Components::N(n) => {
                return Err(DxbcError::malformed(
                    offset,
                    format!(
                        "operand token {tok:#010x}: a 64-bit immediate has one or four components, not an {n}-component selection"
                    ),
                ));
            }
        };
        push_lanes(&mut op.imm, cur.take(words, what)?);
    }
    Ok(())
}

/// Appends an immediate's dwords; the callers have capped them at four.
fn push_lanes(lanes: &mut Lanes, words: Words) {
    for w in words.iter() {
        lanes.push(w);
    }
}

/// Class-4 customdata: a `printf`/`errorf` message with operands and a format
/// string (`D3D11_SB_CUSTOMDATA_SHADER_MESSAGE`).
fn decode_shader_message(data: Vec<u32>, offset: usize) -> Result<CustomData> {
    let header = |i: usize, what: &'static str| -> Result<u32> {
        data.get(i).copied().ok_or(DxbcError::Truncated {
            offset: offset + i * 4,
            what,
            need: 4,
            have: 0,
        })
    };
    let id = header(0, "shader message id")?;
    let format = header(1, "shader message format")?;
    let text_len = header(2, "shader message text length")? as usize;
    let operand_count = header(3, "shader message operand count")? as usize;
    let operand_words = header(4, "shader message operand length")? as usize;
    let after_ops = 5usize.saturating_add(operand_words);
    if after_ops > data.len() || operand_count > operand_words {
        return Err(DxbcError::malformed(
            offset,
            "shader message operands overrun the customdata block",
        ));
    }
    let op_bytes: Vec<u8> = data[..after_ops]
        .iter()
        .flat_map(|w| w.to_le_bytes())
        .collect();
    let mut cur = Cursor {
        words: Words(&op_bytes),
        pos: 5,
        base: offset,
    };
    let mut operands = Vec::new();
    for _ in 0..operand_count {
        operands.push(decode_operand(&mut cur, 0)?);
    }
    let bytes: Vec<u8> = data[after_ops..]
        .iter()
        .flat_map(|w| w.to_le_bytes())
        .collect();
    if text_len > bytes.len() {
        return Err(DxbcError::malformed(
            offset + 8,
            format!("shader message text of {text_len} bytes overruns the customdata block"),
        ));
    }
    let text = String::from_utf8_lossy(&bytes[..text_len])
        .trim_end_matches('\0')
        .to_string();
    Ok(CustomData::ShaderMessage {
        id,
        format,
        text,
        operands,
        raw: data,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dxbc::opcodes::Op;

    /// `ps_5_0` with `rets` `ret` instructions (opcode 62, length 1).
    fn rets(n: usize) -> Vec<u8> {
        let mut words = vec![0x0000_0050u32, n as u32 + 2];
        words.extend(std::iter::repeat_n(0x0100_003e, n));
        words.iter().flat_map(|w| w.to_le_bytes()).collect()
    }

    /// A program decoded into the storage a dropped one left holds only
    /// its own instructions, whether the storage was larger or smaller.
    #[test]
    fn reused_storage_holds_only_the_new_program() {
        for (first, second) in [(3, 1), (1, 3), (2, 2), (0, 5)] {
            let a = decode_program(&rets(first), 0, true).expect("decodes");
            assert_eq!(a.instructions.len(), first);
            drop(a);
            let b = decode_program(&rets(second), 0, true).expect("decodes");
            assert_eq!(b.instructions.len(), second, "{first} then {second}");
            for (i, inst) in b.instructions.iter().enumerate() {
                assert_eq!(inst.op, Op::Ret);
                // Dword 2 onward, one dword each, in bytes.
                assert_eq!(inst.offset, 8 + 4 * i);
            }
        }
    }
}
