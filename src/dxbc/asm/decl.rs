//! Declaration lines (`dcl_*`, `fcall`) → [`Instruction`]: the inverse of
//! the declaration half of the disassembler. Each declaration's payload
//! (return types, system values, counts, tables) goes where `decode` would
//! have put it.

use super::error::AsmResult;
use super::inst::{Head, blank, operands, parse_u32, return_types};
use super::operand::{Pos, Role, parse_number, parse_operand, split_top_level};
use crate::dxbc::disasm::{
    GLOBAL_FLAGS, interpolation_name, primitive_name, system_value_name, topology_name,
};
use crate::dxbc::ir::*;
use crate::dxbc::opcodes::{NumType, Op};

pub(super) fn typed_resource_decl(
    op: Op,
    dim: u32,
    flags: &str,
    head: &Head,
    pos: Pos,
) -> AsmResult<Instruction> {
    let info = op.info();
    let mut inst = blank(info);
    inst.controls = dim << 11;
    uav_flags(&mut inst, flags, pos)?;
    let mut groups = head.groups.iter();
    if dim == 4 || dim == 9 {
        let samples = groups.next().ok_or_else(|| {
            pos.err(
                head.word,
                "multisampled resources need a sample count `(N)`",
            )
        })?;
        inst.controls |= (parse_u32(samples, pos)? & 0x7f) << 16;
    }
    // The return types follow after a space: `(float,float,float,float) t0`.
    let rest = head.rest;
    let (types, after) = if let Some(r) = rest.strip_prefix('(') {
        let close = r.find(')').ok_or_else(|| pos.err(rest, "missing `)`"))?;
        (return_types(&r[..close], pos)?, r[close + 1..].trim_start())
    } else {
        return Err(pos.err(
            rest,
            "expected return types such as (float,float,float,float)",
        ));
    };
    inst.decl = DeclKind::ReturnTypes(types);
    let col = head.rest_col + (rest.len() - after.len());
    sm51_or_operand(&mut inst, after, col, pos)?;
    Ok(inst)
}

/// The declared register, with the SM5.1 `, space=N` (and constant-buffer
/// size) payload when present.
fn sm51_or_operand(
    inst: &mut Instruction,
    text: &str,
    col: usize,
    pos: Pos,
) -> AsmResult<Vec<String>> {
    let parts = split_top_level(text);
    let Some(&(off, reg)) = parts.first() else {
        return Err(pos.err(text, "expected a register"));
    };
    let p = Pos {
        line: pos.line,
        column: col + off,
    };
    let mut rest: Vec<String> = parts[1..].iter().map(|(_, s)| s.to_string()).collect();
    let mut op = parse_operand(reg, Role::Decl, NumType::Uint, true, p)?;
    let sm51 = reg.contains(':');
    if sm51 {
        // SM5.1 range declarations carry a full swizzle whatever the file.
        op.components = Components::Four;
        op.selection = Selection::Swizzle([0, 1, 2, 3]);
    }
    if sm51 && op.indices.len() == 4 {
        // `CB0[0:0][size]`: the size is payload, not an index.
        if let Some(Index::Imm32(size)) = op.indices.pop() {
            inst.trailing.push(size);
        }
    }
    inst.operands.push(op);
    if let Some(space) = rest
        .last()
        .and_then(|s| s.strip_prefix("space="))
        .filter(|_| sm51)
    {
        let space = parse_u32(space, pos)?;
        rest.pop();
        inst.trailing.push(space);
    }
    if !sm51 && rest.iter().any(|r| r.starts_with("space=")) {
        return Err(pos.err(text, "`space=` needs an SM5.1 register range"));
    }
    Ok(rest)
}

pub(super) fn declaration(
    mut inst: Instruction,
    suffix: &str,
    head: &Head,
    pos: Pos,
) -> AsmResult<Instruction> {
    let info = inst.info();
    let rest = head.rest;
    let col = head.rest_col;
    let expect_empty = |s: &str| -> AsmResult<()> {
        if s.is_empty() {
            Ok(())
        } else {
            Err(pos.err(s, format!("unknown suffix for `{}`", info.name)))
        }
    };
    let int = |s: &str| parse_u32(s, pos);
    match info.op {
        Op::DclResource | Op::DclUavTyped => {
            return Err(pos.err(
                head.word,
                format!(
                    "expected `{}_<dimension>` such as `{}_texture2d`",
                    info.name, info.name
                ),
            ));
        }
        Op::DclGlobalFlags => {
            expect_empty(suffix)?;
            for flag in rest.split('|').map(str::trim).filter(|f| !f.is_empty()) {
                let bit = GLOBAL_FLAGS
                    .iter()
                    .find(|(_, n)| *n == flag)
                    .map(|(b, _)| *b)
                    .or_else(|| {
                        flag.strip_prefix("0x")
                            .and_then(|h| u32::from_str_radix(h, 16).ok())
                    })
                    .ok_or_else(|| pos.err(flag, "unknown global flag"))?;
                inst.controls |= bit;
            }
        }
        Op::DclConstantBuffer => {
            expect_empty(suffix)?;
            let leftover = sm51_or_operand(&mut inst, rest, col, pos)?;
            let mut leftover = leftover.into_iter();
            let access = leftover.next().unwrap_or_default();
            match access.as_str() {
                "immediateIndexed" => {}
                "dynamicIndexed" => inst.controls |= 1 << 11,
                other => return Err(pos.err(other, "expected immediateIndexed or dynamicIndexed")),
            }
            // Constant buffers are declared with a four-component operand.
            let op = &mut inst.operands[0];
            op.components = Components::Four;
            op.selection = Selection::Swizzle([0, 1, 2, 3]);
        }
        Op::DclSampler => {
            expect_empty(suffix)?;
            let leftover = sm51_or_operand(&mut inst, rest, col, pos)?;
            let mode = leftover.first().map(String::as_str).unwrap_or("");
            inst.controls |= match mode {
                "mode_default" => 0,
                "mode_comparison" => 1,
                "mode_mono" => 2,
                m => return Err(pos.err(m, "expected mode_default, mode_comparison or mode_mono")),
            } << 11;
        }
        Op::DclResourceRaw | Op::DclUavRaw | Op::DclStream => {
            uav_flags(&mut inst, suffix, pos)?;
            sm51_or_operand(&mut inst, rest, col, pos)?;
        }
        Op::DclResourceStructured | Op::DclUavStructured | Op::DclTgsmRaw => {
            let mut s = suffix;
            if let Some(r) = s.strip_suffix("_opc") {
                inst.controls |= 1 << 23;
                s = r;
            }
            uav_flags(&mut inst, s, pos)?;
            let leftover = sm51_or_operand(&mut inst, rest, col, pos)?;
            let n = leftover
                .first()
                .ok_or_else(|| pos.err(rest, "expected a size"))?;
            inst.decl = DeclKind::Count(int(n)?);
        }
        Op::DclTgsmStructured => {
            expect_empty(suffix)?;
            let leftover = sm51_or_operand(&mut inst, rest, col, pos)?;
            if leftover.len() != 2 {
                return Err(pos.err(rest, "expected `gN, stride, count`"));
            }
            inst.decl = DeclKind::Pair(int(&leftover[0])?, int(&leftover[1])?);
        }
        Op::DclInputPs | Op::DclInputPsSiv | Op::DclInputPsSgv => {
            expect_empty(suffix)?;
            // Interpolation words come before the register.
            let mut words = rest;
            let mut mode = None;
            // Longest names first: `linear noperspective centroid` before
            // `linear`.
            for m in (0..16).rev() {
                let name = interpolation_name(m);
                if let Some(r) = words
                    .strip_prefix(name.as_str())
                    .filter(|r| r.starts_with([' ', '\t']))
                {
                    mode = Some(m);
                    words = r.trim_start();
                    break;
                }
            }
            // fxc encodes system-generated pixel inputs as constant-
            // interpolated, and releases before d3dcompiler_47 do not print
            // it; without a word the mode is otherwise undefined.
            let mode = mode.unwrap_or(if inst.op == Op::DclInputPsSgv { 1 } else { 0 });
            inst.controls |= mode << 11;
            let c = col + (rest.len() - words.len());
            let leftover = sm51_or_operand(&mut inst, words, c, pos)?;
            system_value(&mut inst, &leftover, pos)?;
        }
        Op::DclInput
        | Op::DclOutput
        | Op::DclInputSgv
        | Op::DclInputSiv
        | Op::DclOutputSgv
        | Op::DclOutputSiv => {
            expect_empty(suffix)?;
            let leftover = sm51_or_operand(&mut inst, rest, col, pos)?;
            system_value(&mut inst, &leftover, pos)?;
        }
        Op::DclIndexRange => {
            expect_empty(suffix)?;
            let (reg, n) = rest
                .rsplit_once([' ', '\t'])
                .ok_or_else(|| pos.err(rest, "expected `register count`"))?;
            sm51_or_operand(&mut inst, reg.trim(), col, pos)?;
            inst.decl = DeclKind::Count(int(n)?);
        }
        Op::DclTemps
        | Op::DclMaxOutputVertexCount
        | Op::DclHsForkPhaseInstanceCount
        | Op::DclHsJoinPhaseInstanceCount
        | Op::DclGsInstanceCount => {
            expect_empty(suffix)?;
            inst.decl = DeclKind::Count(int(rest)?);
        }
        Op::DclFunctionBody => {
            expect_empty(suffix)?;
            let n = rest
                .strip_prefix("fb")
                .ok_or_else(|| pos.err(rest, "expected fbN"))?;
            inst.decl = DeclKind::Count(int(n)?);
        }
        Op::DclHsMaxTessfactor => {
            expect_empty(suffix)?;
            let v = rest
                .strip_prefix("l(")
                .and_then(|r| r.strip_suffix(')'))
                .ok_or_else(|| pos.err(rest, "expected l(value)"))?;
            inst.decl = DeclKind::Count(parse_number(v, NumType::Float, 0, pos)?);
        }
        Op::DclIndexableTemp => {
            expect_empty(suffix)?;
            let parts = split_top_level(rest);
            let (reg, comps) = match parts.as_slice() {
                [(_, r), (_, c)] => (*r, *c),
                _ => return Err(pos.err(rest, "expected `xN[size], components`")),
            };
            let r = reg
                .strip_prefix('x')
                .ok_or_else(|| pos.err(reg, "expected xN[size]"))?;
            let (n, size) = r
                .split_once('[')
                .and_then(|(n, s)| s.strip_suffix(']').map(|s| (n, s)))
                .ok_or_else(|| pos.err(reg, "expected xN[size]"))?;
            inst.decl = DeclKind::IndexableTemp {
                reg: int(n)?,
                size: int(size)?,
                components: int(comps)?,
            };
        }
        Op::DclThreadGroup => {
            expect_empty(suffix)?;
            let v: Vec<&str> = rest.split(',').collect();
            if v.len() != 3 {
                return Err(pos.err(rest, "expected `x, y, z`"));
            }
            inst.decl = DeclKind::ThreadGroup([int(v[0])?, int(v[1])?, int(v[2])?]);
        }
        Op::DclFunctionTable => {
            expect_empty(suffix)?;
            let (t, list) = rest
                .split_once('=')
                .ok_or_else(|| pos.err(rest, "expected `ftN = {fb...}`"))?;
            let table = int(t
                .trim()
                .strip_prefix("ft")
                .ok_or_else(|| pos.err(t, "expected ftN"))?)?;
            let bodies = brace_list(list, "fb", pos)?;
            inst.decl = DeclKind::FunctionTable { table, bodies };
        }
        Op::DclInterface => {
            match suffix {
                "" => {}
                "_dynamicindexed" => inst.controls |= 1 << 11,
                s => return Err(pos.err(s, "unknown suffix for dcl_interface")),
            }
            let (head_text, list) = rest
                .split_once('=')
                .ok_or_else(|| pos.err(rest, "expected `fpN[a][b] = {ft...}`"))?;
            let h = head_text
                .trim()
                .strip_prefix("fp")
                .ok_or_else(|| pos.err(head_text, "expected fpN"))?;
            let nums: Vec<&str> = h.split(['[', ']']).filter(|s| !s.is_empty()).collect();
            if nums.len() != 3 {
                return Err(pos.err(head_text, "expected fpN[array][calls]"));
            }
            inst.decl = DeclKind::Interface {
                index: int(nums[0])?,
                array_length: int(nums[1])?,
                table_length: int(nums[2])?,
                tables: brace_list(list, "ft", pos)?,
            };
        }
        Op::InterfaceCall => {
            expect_empty(suffix)?;
            let mut op = parse_operand(
                rest,
                Role::Src,
                NumType::Uint,
                false,
                Pos {
                    line: pos.line,
                    column: col,
                },
            )?;
            let function = match op.indices.pop() {
                Some(Index::Imm32(f)) => f,
                _ => return Err(pos.err(rest, "expected fpN[i][function]")),
            };
            inst.operands.push(op);
            inst.decl = DeclKind::InterfaceCall { function };
        }
        Op::DclGsInputPrimitive => {
            expect_empty(suffix)?;
            let v = (0..64)
                .find(|&v| primitive_name(v) == rest)
                .ok_or_else(|| pos.err(rest, "unknown input primitive"))?;
            inst.controls |= v << 11;
        }
        Op::DclGsOutputPrimitiveTopology => {
            expect_empty(suffix)?;
            let v = (0..128)
                .find(|&v| topology_name(v) == rest)
                .ok_or_else(|| pos.err(rest, "unknown output topology"))?;
            inst.controls |= v << 11;
        }
        Op::DclInputControlPointCount | Op::DclOutputControlPointCount => {
            expect_empty(suffix)?;
            inst.controls |= (int(rest)? & 0x3f) << 11;
        }
        Op::DclTessDomain | Op::DclTessPartitioning | Op::DclTessOutputPrimitive => {
            expect_empty(suffix)?;
            let names: &[&str] = match info.op {
                Op::DclTessDomain => &[
                    "domain_undefined",
                    "domain_isoline",
                    "domain_tri",
                    "domain_quad",
                ],
                Op::DclTessPartitioning => &[
                    "partitioning_undefined",
                    "partitioning_integer",
                    "partitioning_pow2",
                    "partitioning_fractional_odd",
                    "partitioning_fractional_even",
                ],
                _ => &[
                    "output_undefined",
                    "output_point",
                    "output_line",
                    "output_triangle_cw",
                    "output_triangle_ccw",
                ],
            };
            let v = names
                .iter()
                .position(|n| *n == rest)
                .ok_or_else(|| pos.err(rest, "unknown tessellator setting"))?;
            inst.controls |= (v as u32) << 11;
        }
        _ => {
            expect_empty(suffix)?;
            if !rest.is_empty() {
                operands(&mut inst, rest, col, pos, true)?;
            }
        }
    }
    Ok(inst)
}

/// A UAV declaration's `_glc` (globally coherent) and `_rov` (rasterizer
/// ordered) suffixes.
fn uav_flags(inst: &mut Instruction, suffix: &str, pos: Pos) -> AsmResult<()> {
    match suffix {
        "" => {}
        "_glc" => inst.controls |= 1 << 16,
        "_rov" => inst.controls |= 1 << 17,
        "_glc_rov" => inst.controls |= 3 << 16,
        s => return Err(pos.err(s, "unknown UAV flag")),
    }
    Ok(())
}

fn system_value(inst: &mut Instruction, leftover: &[String], pos: Pos) -> AsmResult<()> {
    let takes = matches!(
        inst.op,
        Op::DclInputSgv
            | Op::DclInputSiv
            | Op::DclInputPsSgv
            | Op::DclInputPsSiv
            | Op::DclOutputSgv
            | Op::DclOutputSiv
    );
    match (takes, leftover.first()) {
        (false, None) => Ok(()),
        (true, Some(name)) => {
            let v = (0..=22)
                .find(|&v| system_value_name(v) == *name)
                .or_else(|| {
                    name.strip_prefix("system_value_")
                        .and_then(|n| n.parse().ok())
                })
                .ok_or_else(|| pos.err(name, "unknown system value"))?;
            inst.decl = DeclKind::SystemValue(SystemValue::from_code(v));
            Ok(())
        }
        (true, None) => Err(pos.err(inst.name(), "expected `, system_value_name`")),
        (false, Some(extra)) => Err(pos.err(extra, "unexpected text after the register")),
    }
}

fn brace_list(text: &str, prefix: &str, pos: Pos) -> AsmResult<Vec<u32>> {
    let inner = text
        .trim()
        .strip_prefix('{')
        .and_then(|t| t.strip_suffix('}'))
        .ok_or_else(|| pos.err(text, "expected `{...}`"))?;
    inner
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(|s| {
            s.strip_prefix(prefix)
                .ok_or_else(|| pos.err(s, format!("expected {prefix}N")))
                .and_then(|n| parse_u32(n, pos))
        })
        .collect()
}
