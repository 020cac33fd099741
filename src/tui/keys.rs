//! The one table of key bindings. The event loop looks keys up here and the
//! help overlay prints it, so the two cannot disagree.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::app::Action;
use super::gpu::Backend;
use super::layout::Adjust;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Key {
    pub code: KeyCode,
    pub mods: KeyModifiers,
}

const fn k(c: char) -> Key {
    Key {
        code: KeyCode::Char(c),
        mods: KeyModifiers::NONE,
    }
}

const fn code(code: KeyCode) -> Key {
    Key {
        code,
        mods: KeyModifiers::NONE,
    }
}

const fn shift(code: KeyCode) -> Key {
    Key {
        code,
        mods: KeyModifiers::SHIFT,
    }
}

const fn ctrl(c: char) -> Key {
    Key {
        code: KeyCode::Char(c),
        mods: KeyModifiers::CONTROL,
    }
}

pub struct Binding {
    pub keys: &'static [Key],
    pub action: Action,
    pub help: &'static str,
}

const fn b(keys: &'static [Key], action: Action, help: &'static str) -> Binding {
    Binding { keys, action, help }
}

/// Every binding, in the order the help overlay lists them.
pub const BINDINGS: &[Binding] = &[
    b(
        &[k('n'), code(KeyCode::Right), code(KeyCode::F(10))],
        Action::Step,
        "step one instruction",
    ),
    b(
        &[k('p'), code(KeyCode::Left), shift(KeyCode::F(10))],
        Action::StepBack,
        "step back one instruction",
    ),
    b(
        &[k('c'), code(KeyCode::F(5))],
        Action::Continue,
        "continue to the next breakpoint",
    ),
    b(
        &[k('b'), code(KeyCode::F(9))],
        Action::ToggleBreakpoint,
        "toggle a breakpoint at the cursor",
    ),
    b(&[k('t')], Action::RunToCursor, "run to the cursor"),
    b(&[k('r')], Action::RunToEnd, "run to the end"),
    b(&[k('g')], Action::Restart, "go back to the start"),
    b(
        &[k('w')],
        Action::Watch,
        "run until a component changes (empty: any watched)",
    ),
    b(
        &[k('a')],
        Action::AddWatch,
        "add to the watch list (r0.x, o0, v1.y, x0[2].z)",
    ),
    b(
        &[k('A')],
        Action::RemoveWatch,
        "remove from the watch list (number; empty: last)",
    ),
    b(
        &[k('f')],
        Action::RunToNan,
        "run to the first NaN/Inf produced",
    ),
    b(
        &[k('k'), code(KeyCode::Up)],
        Action::CursorUp,
        "move the listing cursor up",
    ),
    b(
        &[k('j'), code(KeyCode::Down)],
        Action::CursorDown,
        "move the listing cursor down",
    ),
    b(
        &[code(KeyCode::PageUp)],
        Action::PageUp,
        "cursor one page up",
    ),
    b(
        &[code(KeyCode::PageDown)],
        Action::PageDown,
        "cursor one page down",
    ),
    b(&[k('/')], Action::Search, "search the listing"),
    b(&[k('l')], Action::NextLane, "next lane of the quad"),
    b(&[k('1')], Action::Lane(0), "lane 0 (top left)"),
    b(&[k('2')], Action::Lane(1), "lane 1 (top right)"),
    b(&[k('3')], Action::Lane(2), "lane 2 (bottom left)"),
    b(&[k('4')], Action::Lane(3), "lane 3 (bottom right)"),
    b(&[k('P')], Action::PickPixel, "pick a pixel (re-runs)"),
    b(
        &[k('v')],
        Action::CycleView,
        "values: typed/float/hex/int/uint (each pane its own)",
    ),
    b(
        &[k('m')],
        Action::ToggleMemory,
        "bottom pane: registers / buffers and UAVs",
    ),
    b(
        &[code(KeyCode::Tab)],
        Action::Layout(Adjust::NextFocus),
        "focus: listing / GLSL / bottom pane (thick border)",
    ),
    b(
        &[k('[')],
        Action::PaneUp,
        "scroll the focused pane up a page",
    ),
    b(
        &[k(']')],
        Action::PaneDown,
        "scroll the focused pane down a page",
    ),
    b(
        &[code(KeyCode::Home)],
        Action::Layout(Adjust::Home),
        "scroll the focused pane to its top",
    ),
    b(
        &[code(KeyCode::End)],
        Action::Layout(Adjust::End),
        "scroll the focused pane to its end",
    ),
    b(
        &[k('>')],
        Action::Layout(Adjust::WiderListing),
        "widen the listing (narrow the GLSL)",
    ),
    b(
        &[k('<')],
        Action::Layout(Adjust::NarrowerListing),
        "narrow the listing (widen the GLSL)",
    ),
    b(
        &[k('+')],
        Action::Layout(Adjust::TallerBottom),
        "bottom pane one row taller",
    ),
    b(
        &[k('-')],
        Action::Layout(Adjust::ShorterBottom),
        "bottom pane one row shorter",
    ),
    b(
        &[k('d')],
        Action::SwitchDialect,
        "GLSL dialect: es300/vk450",
    ),
    b(
        &[k('L')],
        Action::GlslLine,
        "move the cursor to the instruction of a GLSL line",
    ),
    b(
        &[k('H')],
        Action::ToggleHlsl,
        "right pane: GLSL / HLSL source (--hlsl or NAME.hlsl)",
    ),
    b(
        &[k('x')],
        Action::ToggleExtra,
        "show cbuffers, indexable temps, ICB",
    ),
    b(
        &[k('e')],
        Action::ToggleFetch,
        "show/hide what the last texture read did",
    ),
    b(
        &[k('G')],
        Action::LoadGpu(Backend::Vulkan),
        "load the GPU's values (vulkan) of the lane",
    ),
    b(
        &[k('W')],
        Action::LoadGpu(Backend::WebGl2),
        "load the GPU's values (webgl2) of the lane",
    ),
    b(
        &[k('D')],
        Action::JumpToDivergence,
        "jump to the first divergence from the GPU",
    ),
    b(&[k('?')], Action::Help, "show/hide this help"),
    b(
        &[code(KeyCode::Esc)],
        Action::Close,
        "close a prompt or help",
    ),
    b(&[k('q'), ctrl('c')], Action::Quit, "quit"),
];

/// The action bound to a key. Shift is ignored for characters (terminals
/// report `P` and `?` with or without it); other modifiers must match.
pub fn action_for(ev: &KeyEvent) -> Option<Action> {
    let norm = |code: KeyCode, mods: KeyModifiers| match code {
        KeyCode::Char(_) => mods - KeyModifiers::SHIFT,
        _ => mods,
    };
    let mods = norm(ev.code, ev.modifiers);
    BINDINGS
        .iter()
        .find(|b| {
            b.keys
                .iter()
                .any(|key| key.code == ev.code && norm(key.code, key.mods) == mods)
        })
        .map(|b| b.action)
}

/// How the help overlay writes a key.
pub fn key_name(key: &Key) -> String {
    let base = match key.code {
        KeyCode::Char(c) => c.to_string(),
        KeyCode::Left => "←".into(),
        KeyCode::Right => "→".into(),
        KeyCode::Up => "↑".into(),
        KeyCode::Down => "↓".into(),
        KeyCode::PageUp => "PgUp".into(),
        KeyCode::PageDown => "PgDn".into(),
        KeyCode::Esc => "Esc".into(),
        KeyCode::Enter => "Enter".into(),
        KeyCode::Tab => "Tab".into(),
        KeyCode::F(n) => format!("F{n}"),
        other => format!("{other:?}"),
    };
    let mut name = String::new();
    if key.mods.contains(KeyModifiers::CONTROL) {
        name.push_str("Ctrl-");
    }
    if key.mods.contains(KeyModifiers::SHIFT) {
        name.push_str("Shift-");
    }
    name.push_str(&base);
    name
}

/// A binding's keys as the help overlay lists them: `n / → / F10`.
pub fn keys_text(binding: &Binding) -> String {
    let names: Vec<String> = binding.keys.iter().map(key_name).collect();
    names.join(" / ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ev(code: KeyCode, mods: KeyModifiers) -> KeyEvent {
        KeyEvent::new(code, mods)
    }

    #[test]
    fn both_key_sets_work() {
        let none = KeyModifiers::NONE;
        assert_eq!(
            action_for(&ev(KeyCode::Char('n'), none)),
            Some(Action::Step)
        );
        assert_eq!(action_for(&ev(KeyCode::F(10), none)), Some(Action::Step));
        assert_eq!(
            action_for(&ev(KeyCode::F(10), KeyModifiers::SHIFT)),
            Some(Action::StepBack)
        );
        assert_eq!(action_for(&ev(KeyCode::F(5), none)), Some(Action::Continue));
        assert_eq!(
            action_for(&ev(KeyCode::F(9), none)),
            Some(Action::ToggleBreakpoint)
        );
        assert_eq!(
            action_for(&ev(KeyCode::Char('P'), KeyModifiers::SHIFT)),
            Some(Action::PickPixel)
        );
        assert_eq!(
            action_for(&ev(KeyCode::Char('c'), KeyModifiers::CONTROL)),
            Some(Action::Quit)
        );
        assert_eq!(
            action_for(&ev(KeyCode::Char('c'), none)),
            Some(Action::Continue)
        );
        assert_eq!(action_for(&ev(KeyCode::Char('z'), none)), None);
    }

    #[test]
    fn no_key_is_bound_twice() {
        let all: Vec<&Key> = BINDINGS.iter().flat_map(|b| b.keys.iter()).collect();
        for (i, a) in all.iter().enumerate() {
            assert!(!all[i + 1..].contains(a), "{} bound twice", key_name(a));
        }
    }
}
