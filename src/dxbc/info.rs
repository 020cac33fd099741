//! The `info` report: what a container holds, in a form a person reads
//! before opening the listing — chunks, target, resources, constant-buffer
//! layout, signatures and instruction counts by class.

use std::collections::BTreeMap;
use std::fmt::Write;

use super::checksum::format_checksum;
use super::opcodes::Class;
use super::rdef::{Rdef, Variable};
use super::shader::Shader;
use super::shown::shown;
use super::signature::{Signature, SignatureKind};

/// Instruction counts by opcode class, declarations included.
pub fn class_counts(shader: &Shader) -> BTreeMap<Class, usize> {
    let mut counts = BTreeMap::new();
    for inst in &shader.program.instructions {
        *counts.entry(inst.info().class).or_insert(0) += 1;
    }
    counts
}

fn mask(m: u8) -> String {
    let s: String = (0..4)
        .filter(|i| m & (1 << i) != 0)
        .map(|i| ['x', 'y', 'z', 'w'][i])
        .collect();
    if s.is_empty() { "-".into() } else { s }
}

fn component_type(t: u32) -> &'static str {
    match t {
        1 => "uint",
        2 => "int",
        3 => "float",
        _ => "unknown",
    }
}

fn write_signature(out: &mut String, sig: &Signature) {
    let title = match sig.kind {
        SignatureKind::Input => "input signature",
        SignatureKind::Output => "output signature",
        SignatureKind::PatchConstant => "patch constant signature",
    };
    let is_output = sig.kind != SignatureKind::Input;
    let _ = writeln!(
        out,
        "\n{title} ({}, {} elements):",
        String::from_utf8_lossy(&sig.fourcc),
        sig.elements.len()
    );
    if sig.elements.is_empty() {
        return;
    }
    let _ = writeln!(
        out,
        "  {:<24} {:>5} {:>4} {:>8} {:>14} {:<8} {:>6} {:>6}",
        "semantic", "index", "mask", "register", "sv", "type", "used", "stream"
    );
    for e in &sig.elements {
        let reg = if e.register == u32::MAX {
            "n/a".to_string()
        } else {
            e.register.to_string()
        };
        let _ = writeln!(
            out,
            "  {:<24} {:>5} {:>4} {:>8} {:>14} {:<8} {:>6} {:>6}",
            shown(&e.semantic_name),
            e.semantic_index,
            mask(e.mask),
            reg,
            super::signature::system_value_name(e.system_value),
            component_type(e.component_type),
            mask(e.used_mask(is_output)),
            e.stream
        );
    }
}

fn write_variable(out: &mut String, v: &Variable) {
    let elements = if v.ty.elements > 0 {
        format!("[{}]", v.ty.elements)
    } else {
        String::new()
    };
    let _ = writeln!(
        out,
        "    {:>6} {:>6}  {} {}{}{}",
        v.offset,
        v.size,
        shown(&v.ty.hlsl_name()),
        shown(&v.name),
        elements,
        if v.is_used() { "" } else { "  (unused)" }
    );
}

fn write_rdef(out: &mut String, rdef: &Rdef) {
    let _ = writeln!(out, "creator:    {}", shown(&rdef.creator));
    let _ = writeln!(
        out,
        "rdef target: {} (flags {:#x})",
        rdef.target.profile(),
        rdef.flags
    );
    let _ = writeln!(out, "\nresource bindings ({}):", rdef.bindings.len());
    if !rdef.bindings.is_empty() {
        let _ = writeln!(
            out,
            "  {:<32} {:<24} {:>5} {:>5}",
            "name", "type", "slot", "count"
        );
        for b in &rdef.bindings {
            let _ = writeln!(
                out,
                "  {:<32} {:<24} {:>5} {:>5}",
                shown(&b.name),
                format!("{:?}", b.input_type),
                b.bind_point,
                b.bind_count
            );
        }
    }
    let _ = writeln!(out, "\nconstant buffers ({}):", rdef.constant_buffers.len());
    for cb in &rdef.constant_buffers {
        let _ = writeln!(
            out,
            "  {} ({:?}, {} bytes, {} variables)",
            shown(&cb.name),
            cb.kind,
            cb.size,
            cb.variables.len()
        );
        if !cb.variables.is_empty() {
            let _ = writeln!(out, "    {:>6} {:>6}  declaration", "offset", "size");
        }
        for v in &cb.variables {
            write_variable(out, v);
        }
    }
}

/// The whole report.
pub fn report(name: &str, shader: &Shader) -> String {
    let mut out = String::new();
    let p = &shader.program;
    let _ = writeln!(out, "file:       {name}");
    let _ = writeln!(out, "size:       {} bytes", shader.size);
    let _ = writeln!(
        out,
        "checksum:   {} ({})",
        format_checksum(&shader.stored_checksum),
        match shader.checksum_ok {
            Some(true) => "verified",
            Some(false) => "MISMATCH",
            None => "not checked",
        }
    );
    let _ = writeln!(
        out,
        "program:    {} in {}",
        p.profile(),
        if p.shex { "SHEX" } else { "SHDR" }
    );
    let _ = writeln!(out, "\nchunks ({}):", shader.chunks.len());
    for c in &shader.chunks {
        let _ = writeln!(
            out,
            "  {:<6} at {:>6}  {:>6} bytes{}",
            c.name(),
            c.offset,
            c.size,
            if c.known { "" } else { "  (not interpreted)" }
        );
    }
    if let Some(rdef) = &shader.rdef {
        out.push('\n');
        write_rdef(&mut out, rdef);
    } else {
        let _ = writeln!(
            out,
            "\nno RDEF chunk: names and constant-buffer layout are unknown"
        );
    }
    for sig in &shader.signatures {
        write_signature(&mut out, sig);
    }
    let counts = class_counts(shader);
    let total: usize = counts.values().sum();
    let decls = counts.get(&Class::Decl).copied().unwrap_or(0);
    let _ = writeln!(
        out,
        "\ninstructions: {total} ({decls} declarations, {} executable)",
        total - decls
    );
    for (class, n) in &counts {
        let _ = writeln!(out, "  {:<14} {n:>6}", class.name());
    }
    if let Some(stat) = &shader.stat {
        let _ = writeln!(
            out,
            "\nSTAT: {} instruction slots, {} temps, {} texture samples, {} flow control",
            stat.instruction_count(),
            stat.temp_register_count(),
            stat.texture_sample_total(),
            stat.flow_control_total()
        );
    }
    if let Some(f) = &shader.features {
        let names = f.names();
        if !names.is_empty() {
            let _ = writeln!(out, "\nrequires: {}", names.join("; "));
        }
    }
    out
}
