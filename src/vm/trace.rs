//! `dxbc-dbg trace`: the non-interactive twin of the debugger. Runs a
//! machine to the end and reports, per executed instruction, the register
//! components it changed, then the outputs of every lane.

use std::fmt::Write;

use super::VmError;
use super::machine::{Change, Event, Machine};
use super::state::{LANES, Loc};
use crate::dxbc::disasm::{Style, format_instruction};

/// One executed instruction and what it changed.
#[derive(Debug, Clone)]
pub struct Step {
    pub index: usize,
    pub text: String,
    pub mask: [bool; LANES],
    pub changes: Vec<Change>,
}

#[derive(Debug, Clone)]
pub struct Trace {
    pub steps: Vec<Step>,
    /// Ok, or the error that stopped the run (the steps before it stand).
    pub outcome: Result<(), VmError>,
}

/// Runs `machine` to the end, recording every step.
pub fn record(machine: &mut Machine, style: Style) -> Trace {
    let mut steps = Vec::new();
    let outcome = loop {
        let mask = machine.execution_mask();
        match machine.step() {
            Ok(Event::Finished) => break Ok(()),
            Ok(Event::Executed { index }) => {
                let text = format_instruction(&machine.program().instructions[index], style);
                steps.push(Step {
                    index,
                    text: text.lines().next().unwrap_or("").to_string(),
                    mask,
                    changes: machine.changes().to_vec(),
                });
            }
            Err(e) => break Err(e),
        }
    };
    Trace { steps, outcome }
}

fn component(c: usize) -> char {
    ['x', 'y', 'z', 'w'][c & 3]
}

/// `1.000000 (0x3f800000)` or `4 (0x00000004)`: the float view when the
/// bits look like a float, the integer view otherwise, and the exact bits.
pub fn value(bits: u32) -> String {
    use crate::dxbc::numfmt;
    let view = if numfmt::looks_like_float(bits) || bits == 0 {
        numfmt::format_float(bits, Default::default())
    } else {
        (bits as i32).to_string()
    };
    format!("{view} (0x{bits:08x})")
}

fn lanes_text(lanes: &[usize]) -> String {
    if lanes.len() == LANES {
        "all lanes".to_string()
    } else {
        let l: Vec<String> = lanes.iter().map(usize::to_string).collect();
        format!(
            "lane{} {}",
            if lanes.len() == 1 { "" } else { "s" },
            l.join(",")
        )
    }
}

/// Human-readable trace.
pub fn text(trace: &Trace, machine: &Machine) -> String {
    let mut out = String::new();
    for s in &trace.steps {
        let _ = writeln!(out, "[{:4}] {}", s.index, s.text);
        // Group identical changes across lanes.
        let mut seen: Vec<(Loc, usize, u32, Vec<usize>)> = Vec::new();
        for c in &s.changes {
            match seen
                .iter_mut()
                .find(|(l, comp, v, _)| *l == c.loc && *comp == c.component && *v == c.new)
            {
                Some(entry) => entry.3.push(c.lane),
                None => seen.push((c.loc, c.component, c.new, vec![c.lane])),
            }
        }
        for (loc, comp, v, lanes) in seen {
            let _ = writeln!(
                out,
                "         {loc}.{} = {}  [{}]",
                component(comp),
                value(v),
                lanes_text(&lanes)
            );
        }
    }
    if let Err(e) = &trace.outcome {
        let _ = writeln!(out, "stopped: {e}");
    }
    let _ = writeln!(out, "outputs:");
    for lane in 0..LANES {
        let regs = &machine.state.lanes[lane];
        let mut parts = Vec::new();
        for (i, r) in regs.outputs.iter().enumerate() {
            let v: Vec<String> = r
                .iter()
                .map(|b| crate::dxbc::numfmt::format_float(*b, Default::default()))
                .collect();
            parts.push(format!("o{i} = ({})", v.join(", ")));
        }
        let mut note = String::new();
        if machine.helper()[lane] {
            note.push_str(" (helper)");
        }
        if machine.discarded()[lane] {
            note.push_str(" (discarded)");
        }
        let _ = writeln!(out, "  lane {lane}{note}: {}", parts.join("  "));
    }
    out
}

fn json_str(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// Machine-readable trace: `{"steps": [...], "outputs": [...], "error": ...}`.
pub fn json(trace: &Trace, machine: &Machine) -> String {
    let mut out = String::from("{\"steps\":[");
    for (i, s) in trace.steps.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        let mask: Vec<&str> = s
            .mask
            .iter()
            .map(|b| if *b { "true" } else { "false" })
            .collect();
        let _ = write!(
            out,
            "{{\"index\":{},\"text\":{},\"mask\":[{}],\"changes\":[",
            s.index,
            json_str(&s.text),
            mask.join(",")
        );
        for (j, c) in s.changes.iter().enumerate() {
            if j > 0 {
                out.push(',');
            }
            let _ = write!(
                out,
                "{{\"register\":{},\"component\":\"{}\",\"lane\":{},\"old\":{},\"new\":{}}}",
                json_str(&c.loc.to_string()),
                component(c.component),
                c.lane,
                c.old,
                c.new
            );
        }
        out.push_str("]}");
    }
    out.push_str("],\"outputs\":[");
    for lane in 0..LANES {
        if lane > 0 {
            out.push(',');
        }
        let regs: Vec<String> = machine.state.lanes[lane]
            .outputs
            .iter()
            .map(|r| format!("[{},{},{},{}]", r[0], r[1], r[2], r[3]))
            .collect();
        let _ = write!(
            out,
            "{{\"lane\":{lane},\"helper\":{},\"discarded\":{},\"registers\":[{}]}}",
            machine.helper()[lane],
            machine.discarded()[lane],
            regs.join(",")
        );
    }
    out.push_str("],\"error\":");
    match &trace.outcome {
        Ok(()) => out.push_str("null"),
        Err(e) => out.push_str(&json_str(&e.to_string())),
    }
    out.push_str("}\n");
    out
}
