//! `dxbc-dbg trace`: the non-interactive twin of the debugger. Runs a
//! machine to the end and reports, per executed instruction, the register
//! components it changed, then the outputs of every lane.
//!
//! Output is written step by step as the machine runs and the undo log is
//! dropped after each step, so memory stays flat however long the run. A
//! line budget bounds what is printed: a shader that loops until the
//! instruction budget would otherwise print tens of megabytes. Past the
//! budget the run goes on unprinted, so the outputs and the outcome (the
//! instruction budget's error, say) are still those of the whole run.

use std::fmt::Write as _;
use std::io;

use super::VmError;
use super::machine::{Change, Event, Machine};
use super::state::{LANES, Loc};
use crate::dxbc::disasm::{Style, format_instruction};
use crate::dxbc::value_type::ValueType;

/// Lines of steps `trace` prints unless told otherwise (`--max-lines`).
pub const DEFAULT_MAX_LINES: usize = 100_000;

/// Text (grouped, for reading) or JSON (one step record a line).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Text,
    Json,
}

/// How a traced run went.
#[derive(Debug)]
pub struct Summary {
    /// Steps the machine executed.
    pub steps: usize,
    /// Steps printed (fewer than `steps` when the line budget ran out).
    pub printed: usize,
    /// Ok, or the error that stopped the run (the steps before it stand).
    pub outcome: Result<(), VmError>,
}

impl Summary {
    pub fn truncated(&self) -> bool {
        self.printed < self.steps
    }
}

/// The line that says output stopped at the budget and how to get more.
fn truncation_note(summary: &Summary, max_lines: usize) -> String {
    format!(
        "output stopped at the line budget of {max_lines} after {} of {} steps; \
         rerun with --max-lines N to print more",
        summary.printed, summary.steps
    )
}

/// Runs `machine` to the end, writing each step to `out` while the step
/// lines written stay within `max_lines` (a step is printed whole or not
/// at all), then the outcome and every lane's outputs. Text ends, when
/// steps were left out, with a line saying so; JSON carries `truncated`
/// and `truncation` fields. Errors are `out`'s.
pub fn write(
    machine: &mut Machine,
    style: Style,
    format: Format,
    max_lines: usize,
    out: &mut dyn io::Write,
) -> io::Result<Summary> {
    if format == Format::Json {
        out.write_all(b"{\"steps\":[")?;
    }
    let mut summary = Summary {
        steps: 0,
        printed: 0,
        outcome: Ok(()),
    };
    let mut lines = 0usize;
    let mut full = false;
    let mut buf = String::new();
    summary.outcome = loop {
        let mask = machine.execution_mask();
        match machine.step() {
            Ok(Event::Finished) => break Ok(()),
            Ok(Event::Executed { index }) => {
                summary.steps += 1;
                if !full {
                    buf.clear();
                    let inst = format_instruction(&machine.program().instructions[index], style);
                    let text = inst.lines().next().unwrap_or("");
                    let n = match format {
                        Format::Text => text_step(&mut buf, index, text, machine),
                        Format::Json => {
                            json_step(&mut buf, summary.printed > 0, index, text, mask, machine)
                        }
                    };
                    if lines + n <= max_lines {
                        out.write_all(buf.as_bytes())?;
                        lines += n;
                        summary.printed += 1;
                    } else {
                        full = true;
                    }
                }
                machine.forget_history();
            }
            Err(e) => break Err(e),
        }
    };
    match format {
        Format::Text => write_text_end(&summary, machine, max_lines, out)?,
        Format::Json => write_json_end(&summary, machine, max_lines, out)?,
    }
    out.flush()?;
    Ok(summary)
}

fn component(c: usize) -> char {
    ['x', 'y', 'z', 'w'][c & 3]
}

/// A component as its type reads it, and its exact bits:
/// `1.000000 (0x3f800000)`, `-inf (0xff800000)`, `-5 (0xfffffffb)`,
/// `true (0xffffffff)`.
pub fn typed_value(bits: u32, ty: ValueType) -> String {
    format!("{} (0x{bits:08x})", typed_view(bits, ty))
}

/// A component as its type reads it (`1.000000`, `-inf`, `-5`, `true`).
pub fn typed_view(bits: u32, ty: ValueType) -> String {
    use crate::dxbc::numfmt;
    match ty {
        ValueType::Float => numfmt::format_float(bits, Default::default()),
        ValueType::Int => (bits as i32).to_string(),
        ValueType::Uint => bits.to_string(),
        ValueType::Mask => match bits {
            0 => "false".to_string(),
            u32::MAX => "true".to_string(),
            // Bits a comparison cannot make (a mask changed by `or` with
            // something else was typed uint): shown as a number.
            b => b.to_string(),
        },
        ValueType::Double => "double half".to_string(),
    }
}

/// `1.000000 (0x3f800000)` or `4 (0x00000004)`: the float view when the
/// bits look like a float, the integer view otherwise, and the exact bits.
/// NaN and the infinities are floats whatever else they could be read as
/// (0xff800000 is also -8388608), so every text output says `-inf` where
/// the JSON and the debugger do. For values whose writer is not known (a
/// `bisect` report's sources); a traced run knows its types and prints
/// [`typed_value`].
pub fn value(bits: u32) -> String {
    use crate::dxbc::numfmt;
    let f = f32::from_bits(bits);
    let view = if f.is_nan() {
        "NaN".to_string()
    } else if f.is_infinite() {
        if f > 0.0 { "inf" } else { "-inf" }.to_string()
    } else if numfmt::looks_like_float(bits) || bits == 0 {
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

/// The type the step just taken gave a changed component.
fn change_type(machine: &Machine, c: &Change) -> ValueType {
    machine.value_type(c.lane, c.loc, c.component)
}

/// Appends one step as text (its instruction line, then the components it
/// changed, each by its type, grouped across lanes); returns the number
/// of lines.
fn text_step(out: &mut String, index: usize, text: &str, machine: &Machine) -> usize {
    let _ = writeln!(out, "[{index:4}] {text}");
    // Group identical changes across lanes.
    let mut seen: Vec<(Loc, usize, u32, ValueType, Vec<usize>)> = Vec::new();
    for c in machine.changes() {
        let ty = change_type(machine, c);
        match seen.iter_mut().find(|(l, comp, v, t, _)| {
            *l == c.loc && *comp == c.component && *v == c.new && *t == ty
        }) {
            Some(entry) => entry.4.push(c.lane),
            None => seen.push((c.loc, c.component, c.new, ty, vec![c.lane])),
        }
    }
    let lines = 1 + seen.len();
    for (loc, comp, v, ty, lanes) in seen {
        let _ = writeln!(
            out,
            "         {loc}.{} = {}  [{}]",
            component(comp),
            typed_value(v, ty),
            lanes_text(&lanes)
        );
    }
    lines
}

/// The text trace's end: the error, every lane's outputs and, when steps
/// were left out, the line saying so (last, where a reader of a long
/// output looks).
fn write_text_end(
    summary: &Summary,
    machine: &Machine,
    max_lines: usize,
    out: &mut dyn io::Write,
) -> io::Result<()> {
    if let Err(e) = &summary.outcome {
        writeln!(out, "stopped: {e}")?;
    }
    writeln!(out, "outputs:")?;
    for lane in 0..LANES {
        let regs = &machine.state.lanes[lane];
        let mut parts = Vec::new();
        for (i, r) in regs.outputs.iter().enumerate() {
            let v: Vec<String> = (r.iter().enumerate())
                .map(|(c, b)| typed_view(*b, machine.value_type(lane, Loc::Output(i as u32), c)))
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
        writeln!(out, "  lane {lane}{note}: {}", parts.join("  "))?;
    }
    if summary.truncated() {
        writeln!(out, "{}", truncation_note(summary, max_lines))?;
    }
    Ok(())
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

/// Appends one step as a JSON record on a line of its own (after a comma
/// when it is not the first); returns 1, the lines it takes.
fn json_step(
    out: &mut String,
    after_another: bool,
    index: usize,
    text: &str,
    mask: [bool; LANES],
    machine: &Machine,
) -> usize {
    if after_another {
        out.push(',');
    }
    out.push('\n');
    let mask: Vec<&str> = mask
        .iter()
        .map(|b| if *b { "true" } else { "false" })
        .collect();
    let _ = write!(
        out,
        "{{\"index\":{index},\"text\":{},\"mask\":[{}],\"changes\":[",
        json_str(text),
        mask.join(",")
    );
    for (j, c) in machine.changes().iter().enumerate() {
        if j > 0 {
            out.push(',');
        }
        let _ = write!(
            out,
            "{{\"register\":{},\"component\":\"{}\",\"lane\":{},\"old\":{},\"new\":{},\"type\":\"{}\"}}",
            json_str(&c.loc.to_string()),
            component(c.component),
            c.lane,
            c.old,
            c.new,
            change_type(machine, c).name()
        );
    }
    out.push_str("]}");
    1
}

/// The JSON trace's end, closing the document `write` opened:
/// `{"steps": [...], "truncated": bool, "truncation": null or why,
/// "steps_run": n, "outputs": [...], "error": null or the message}`.
fn write_json_end(
    summary: &Summary,
    machine: &Machine,
    max_lines: usize,
    out: &mut dyn io::Write,
) -> io::Result<()> {
    let mut end = String::from("\n],\"truncated\":");
    if summary.truncated() {
        let _ = write!(
            end,
            "true,\"truncation\":{}",
            json_str(&truncation_note(summary, max_lines))
        );
    } else {
        end.push_str("false,\"truncation\":null");
    }
    let _ = write!(end, ",\"steps_run\":{},\"outputs\":[", summary.steps);
    for lane in 0..LANES {
        if lane > 0 {
            end.push(',');
        }
        let outputs = &machine.state.lanes[lane].outputs;
        let regs: Vec<String> = outputs
            .iter()
            .map(|r| format!("[{},{},{},{}]", r[0], r[1], r[2], r[3]))
            .collect();
        let types: Vec<String> = (0..outputs.len())
            .map(|i| {
                let t: Vec<String> = (0..4)
                    .map(|c| {
                        let ty = machine.value_type(lane, Loc::Output(i as u32), c);
                        format!("\"{}\"", ty.name())
                    })
                    .collect();
                format!("[{}]", t.join(","))
            })
            .collect();
        let _ = write!(
            end,
            "{{\"lane\":{lane},\"helper\":{},\"discarded\":{},\"registers\":[{}],\"types\":[{}]}}",
            machine.helper()[lane],
            machine.discarded()[lane],
            regs.join(","),
            types.join(",")
        );
    }
    end.push_str("],\"error\":");
    match &summary.outcome {
        Ok(()) => end.push_str("null"),
        Err(e) => end.push_str(&json_str(&e.to_string())),
    }
    end.push_str("}\n");
    out.write_all(end.as_bytes())
}
