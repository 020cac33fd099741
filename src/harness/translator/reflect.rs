//! The top-level declarations of a GLSL ES 3.00 text: its `in`, `out`
//! and `uniform` variables (qualifiers, type, array size, location) and
//! the members of its uniform blocks, read from the text itself. The text
//! is a translator's output, so it is untrusted: the reader never panics,
//! reads at most [`MAX_TEXT`] bytes and lists at most [`MAX_DECLS`]
//! declarations, and a text it cannot read is an error naming the line.
//!
//! Enough of the preprocessor is followed for translators' headers:
//! object-like `#define`s, `#if`/`#ifdef`/`#ifndef`/`#elif`/`#else`/
//! `#endif` on defined names and numbers, and function-like macros (a
//! qualifier like `UNITY_LOCATION(0)` expands to what its body says, with
//! its one parameter replaced).

use std::collections::HashMap;

/// The longest text read.
pub const MAX_TEXT: usize = 8 << 20;
/// The most declarations listed.
pub const MAX_DECLS: usize = 4096;

/// Where a variable lives.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Storage {
    In,
    Out,
    Uniform,
}

/// One declared variable.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Decl {
    pub storage: Storage,
    pub name: String,
    /// The type's name as written (`vec4`, `sampler2DShadow`, `mat4x4`).
    pub ty: String,
    pub precision: Option<String>,
    pub array: Option<u32>,
    pub location: Option<u32>,
    pub flat: bool,
    pub centroid: bool,
    /// The uniform block holding it (its block name, not its instance).
    pub block: Option<String>,
    /// The line it is declared on (1-based).
    pub line: usize,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {why}")]
pub struct ReflectError {
    pub line: usize,
    pub why: String,
}

#[derive(Debug, Clone, PartialEq)]
struct Tok {
    text: String,
    line: usize,
}

/// The declarations of `text`, in order.
pub fn declarations(text: &str) -> Result<Vec<Decl>, ReflectError> {
    if text.len() > MAX_TEXT {
        return Err(ReflectError {
            line: 0,
            why: format!(
                "the text is {} bytes, more than {MAX_TEXT} are not read",
                text.len()
            ),
        });
    }
    let toks = preprocess(&strip_comments(text))?;
    Parser { toks, at: 0 }.all()
}

/// The text with comments replaced by spaces (newlines kept, so lines
/// still count).
fn strip_comments(text: &str) -> String {
    let b = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    let mut start = 0;
    while i < b.len() {
        if b[i] == b'/' && b.get(i + 1) == Some(&b'/') {
            out.push_str(&text[start..i]);
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
            start = i;
        } else if b[i] == b'/' && b.get(i + 1) == Some(&b'*') {
            out.push_str(&text[start..i]);
            i += 2;
            while i < b.len() && !(b[i] == b'*' && b.get(i + 1) == Some(&b'/')) {
                if b[i] == b'\n' {
                    out.push('\n');
                }
                i += 1;
            }
            i = (i + 2).min(b.len());
            out.push(' ');
            start = i;
        } else {
            i += 1;
        }
    }
    out.push_str(&text[start.min(text.len())..]);
    out
}

fn tokenize(line: &str, n: usize, out: &mut Vec<Tok>) {
    let b = line.as_bytes();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c.is_ascii_whitespace() {
            i += 1;
        } else if c.is_ascii_alphanumeric() || c == b'_' {
            let s = i;
            while i < b.len()
                && (b[i].is_ascii_alphanumeric()
                    || b[i] == b'_'
                    || b[i] == b'.' && b[s].is_ascii_digit())
            {
                i += 1;
            }
            out.push(Tok {
                text: line[s..i].to_string(),
                line: n,
            });
        } else {
            // One character, kept whole if it is not ASCII.
            let len = line[i..].chars().next().map_or(1, char::len_utf8);
            out.push(Tok {
                text: line[i..i + len].to_string(),
                line: n,
            });
            i += len;
        }
    }
}

#[derive(Clone)]
enum Macro {
    Object(Vec<String>),
    Function(Vec<String>, Vec<String>),
}

/// Follows the directives and expands macros, giving the tokens of the
/// lines that are in.
fn preprocess(text: &str) -> Result<Vec<Tok>, ReflectError> {
    let mut macros: HashMap<String, Macro> = HashMap::new();
    // Per open `#if`: whether its current branch is in, whether one of
    // its branches was taken, whether the enclosing one is in.
    let mut stack: Vec<(bool, bool, bool)> = Vec::new();
    let mut out = Vec::new();
    let live = |stack: &[(bool, bool, bool)]| stack.last().is_none_or(|s| s.0);
    for (k, line) in text.lines().enumerate() {
        let n = k + 1;
        let t = line.trim_start();
        if let Some(d) = t.strip_prefix('#') {
            let d = d.trim_start();
            let (word, rest) = d.split_once(char::is_whitespace).unwrap_or((d, ""));
            let rest = rest.trim();
            let outer = live(&stack);
            let truth = |e: &str, m: &HashMap<String, Macro>| eval(e, m);
            match word {
                "if" => {
                    let v = outer && truth(rest, &macros);
                    stack.push((v, v, outer));
                }
                "ifdef" | "ifndef" => {
                    let def = macros.contains_key(rest);
                    let v = outer && (def == (word == "ifdef"));
                    stack.push((v, v, outer));
                }
                "elif" => {
                    let Some(top) = stack.last_mut() else {
                        return Err(ReflectError {
                            line: n,
                            why: "#elif without #if".into(),
                        });
                    };
                    let v = top.2 && !top.1 && eval(rest, &macros);
                    top.0 = v;
                    top.1 |= v;
                }
                "else" => {
                    let Some(top) = stack.last_mut() else {
                        return Err(ReflectError {
                            line: n,
                            why: "#else without #if".into(),
                        });
                    };
                    top.0 = top.2 && !top.1;
                    top.1 = true;
                }
                // The guard pops the closed `#if`; only an `#endif`
                // with none open gets here.
                "endif" if stack.pop().is_none() => {
                    return Err(ReflectError {
                        line: n,
                        why: "#endif without #if".into(),
                    });
                }
                "define" if outer => {
                    let name_end = rest
                        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                        .unwrap_or(rest.len());
                    let name = &rest[..name_end];
                    let after = &rest[name_end..];
                    let mut body = Vec::new();
                    if let Some(p) = after.strip_prefix('(') {
                        let close = p.find(')').unwrap_or(p.len());
                        let params = p[..close]
                            .split(',')
                            .map(|s| s.trim().to_string())
                            .filter(|s| !s.is_empty())
                            .collect();
                        tokenize(p.get(close + 1..).unwrap_or(""), n, &mut body);
                        macros.insert(
                            name.to_string(),
                            Macro::Function(params, body.into_iter().map(|t| t.text).collect()),
                        );
                    } else {
                        tokenize(after, n, &mut body);
                        macros.insert(
                            name.to_string(),
                            Macro::Object(body.into_iter().map(|t| t.text).collect()),
                        );
                    }
                }
                "undef" if outer => {
                    macros.remove(rest);
                }
                _ => {}
            }
            continue;
        }
        if !live(&stack) {
            continue;
        }
        let mut toks = Vec::new();
        tokenize(line, n, &mut toks);
        expand(toks, &macros, &mut out, 0);
        if out.len() > MAX_TEXT / 2 {
            return Err(ReflectError {
                line: n,
                why: "the text expands past the bound read".into(),
            });
        }
    }
    Ok(out)
}

/// Macros expanded into `out`, nested at most a few levels (a recursive
/// macro stops there instead of looping).
fn expand(toks: Vec<Tok>, macros: &HashMap<String, Macro>, out: &mut Vec<Tok>, depth: u32) {
    let mut i = 0;
    while i < toks.len() {
        let t = &toks[i];
        match macros.get(&t.text) {
            Some(Macro::Object(body)) if depth < 8 => {
                let inner = body
                    .iter()
                    .map(|b| Tok {
                        text: b.clone(),
                        line: t.line,
                    })
                    .collect();
                expand(inner, macros, out, depth + 1);
                i += 1;
            }
            Some(Macro::Function(params, body))
                if depth < 8 && toks.get(i + 1).is_some_and(|x| x.text == "(") =>
            {
                // Arguments up to the matching parenthesis.
                let mut args: Vec<Vec<String>> = vec![Vec::new()];
                let mut level = 0;
                let mut j = i + 2;
                while j < toks.len() {
                    let x = &toks[j].text;
                    if x == "(" {
                        level += 1;
                    } else if x == ")" {
                        if level == 0 {
                            break;
                        }
                        level -= 1;
                    } else if x == "," && level == 0 {
                        args.push(Vec::new());
                        j += 1;
                        continue;
                    }
                    if let Some(a) = args.last_mut() {
                        a.push(x.clone());
                    }
                    j += 1;
                }
                let line = t.line;
                let mut inner = Vec::new();
                for b in body {
                    match params.iter().position(|p| p == b) {
                        Some(k) => {
                            for a in args.get(k).map(Vec::as_slice).unwrap_or(&[]) {
                                inner.push(Tok {
                                    text: a.clone(),
                                    line,
                                });
                            }
                        }
                        None => inner.push(Tok {
                            text: b.clone(),
                            line,
                        }),
                    }
                }
                expand(inner, macros, out, depth + 1);
                i = j + 1;
            }
            _ => {
                out.push(t.clone());
                i += 1;
            }
        }
    }
}

/// An `#if` condition: a number, a defined name's value, `defined(X)` or
/// `defined X`, negated with `!`. Anything else is false.
fn eval(e: &str, macros: &HashMap<String, Macro>) -> bool {
    let e = e.trim();
    if let Some(rest) = e.strip_prefix('!') {
        return !eval(rest, macros);
    }
    if let Some(rest) = e.strip_prefix("defined") {
        let name = rest
            .trim()
            .trim_start_matches('(')
            .trim_end_matches(')')
            .trim();
        return macros.contains_key(name);
    }
    if let Ok(v) = e.parse::<i64>() {
        return v != 0;
    }
    match macros.get(e) {
        Some(Macro::Object(body)) if body.len() == 1 => eval(&body[0], macros),
        _ => false,
    }
}

struct Parser {
    toks: Vec<Tok>,
    at: usize,
}

const PRECISIONS: [&str; 3] = ["highp", "mediump", "lowp"];

impl Parser {
    fn peek(&self) -> Option<&str> {
        self.toks.get(self.at).map(|t| t.text.as_str())
    }

    fn line(&self) -> usize {
        self.toks
            .get(self.at)
            .or(self.toks.last())
            .map_or(0, |t| t.line)
    }

    fn fail<T>(&self, why: impl Into<String>) -> Result<T, ReflectError> {
        Err(ReflectError {
            line: self.line(),
            why: why.into(),
        })
    }

    /// Skips to the token after the `}` closing the `{` at `self.at`.
    fn skip_braces(&mut self) -> Result<(), ReflectError> {
        let start = self.line();
        let mut level = 0usize;
        while let Some(t) = self.peek() {
            match t {
                "{" => level += 1,
                "}" => {
                    level = level.saturating_sub(1);
                    if level == 0 {
                        self.at += 1;
                        return Ok(());
                    }
                }
                _ => {}
            }
            self.at += 1;
        }
        Err(ReflectError {
            line: start,
            why: "a `{` is never closed".into(),
        })
    }

    /// The tokens of one statement at the top level: up to `;` (eaten) or
    /// `{` (left).
    fn statement(&mut self) -> Vec<Tok> {
        let mut s = Vec::new();
        while let Some(t) = self.toks.get(self.at) {
            if t.text == ";" {
                self.at += 1;
                break;
            }
            if t.text == "{" {
                break;
            }
            s.push(t.clone());
            self.at += 1;
        }
        s
    }

    fn all(mut self) -> Result<Vec<Decl>, ReflectError> {
        let mut out = Vec::new();
        while self.at < self.toks.len() {
            let s = self.statement();
            let opens = self.peek() == Some("{");
            if opens {
                let is_block = s.iter().any(|t| t.text == "uniform")
                    && s.last().is_some_and(|t| is_ident(&t.text));
                if is_block {
                    let name = s.last().map(|t| t.text.clone()).unwrap_or_default();
                    let (location, _, _, _) = qualifiers(&s);
                    let _ = location;
                    self.at += 1;
                    self.members(&name, &mut out)?;
                    // The instance name, if any, and the `;`.
                    let _ = self.statement();
                } else {
                    // A function body or a struct: nothing of it is a
                    // top-level interface (a struct-typed uniform is
                    // refused by the binding as an unknown type).
                    self.skip_braces()?;
                    if self.peek() == Some(";") {
                        self.at += 1;
                    }
                }
            } else if !s.is_empty() {
                declare(&s, None, &mut out)?;
            }
            if out.len() > MAX_DECLS {
                return self.fail(format!("more than {MAX_DECLS} declarations"));
            }
        }
        Ok(out)
    }

    fn members(&mut self, block: &str, out: &mut Vec<Decl>) -> Result<(), ReflectError> {
        loop {
            match self.peek() {
                None => return self.fail(format!("uniform block {block} is never closed")),
                Some("}") => {
                    self.at += 1;
                    return Ok(());
                }
                Some(_) => {
                    let mut s = self.statement();
                    if self.peek() == Some("{") {
                        return self.fail(format!("a struct member in uniform block {block}"));
                    }
                    s.insert(
                        0,
                        Tok {
                            text: "uniform".into(),
                            line: s.first().map_or(0, |t| t.line),
                        },
                    );
                    declare(&s, Some(block), out)?;
                    if out.len() > MAX_DECLS {
                        return self.fail(format!("more than {MAX_DECLS} declarations"));
                    }
                }
            }
        }
    }
}

fn is_ident(s: &str) -> bool {
    s.chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// A statement's `layout(location = N)`, storage and interpolation.
fn qualifiers(s: &[Tok]) -> (Option<u32>, Option<Storage>, bool, bool) {
    let mut location = None;
    let mut storage = None;
    let (mut flat, mut centroid) = (false, false);
    let mut i = 0;
    while i < s.len() {
        match s[i].text.as_str() {
            "location" if s.get(i + 1).is_some_and(|t| t.text == "=") => {
                location = s.get(i + 2).and_then(|t| t.text.parse().ok());
            }
            "in" => storage = Some(Storage::In),
            "out" => storage = Some(Storage::Out),
            "uniform" => storage = Some(Storage::Uniform),
            "flat" => flat = true,
            "centroid" => centroid = true,
            _ => {}
        }
        i += 1;
    }
    (location, storage, flat, centroid)
}

/// Adds the variables one `in`/`out`/`uniform` statement declares (others
/// — `precision`, globals, prototypes — declare nothing a runtime binds).
fn declare(s: &[Tok], block: Option<&str>, out: &mut Vec<Decl>) -> Result<(), ReflectError> {
    let (location, storage, flat, centroid) = qualifiers(s);
    let Some(storage) = storage else {
        return Ok(());
    };
    let line = s.first().map_or(0, |t| t.line);
    if s.iter().any(|t| t.text == "(") && !s.iter().any(|t| t.text == "layout") {
        // A prototype taking an `in` parameter, not a declaration.
        return Ok(());
    }
    // Past the qualifiers (and the layout's parentheses): precision, type,
    // then declarators separated by commas.
    let mut i = 0;
    let mut precision = None;
    let quals = [
        "in",
        "out",
        "uniform",
        "flat",
        "centroid",
        "smooth",
        "invariant",
        "const",
        "highp",
        "mediump",
        "lowp",
    ];
    while i < s.len() {
        let t = s[i].text.as_str();
        if t == "layout" {
            // Skip the parenthesised list.
            let mut level = 0;
            i += 1;
            while i < s.len() {
                match s[i].text.as_str() {
                    "(" => level += 1,
                    ")" => {
                        level -= 1;
                        if level == 0 {
                            i += 1;
                            break;
                        }
                    }
                    _ => {}
                }
                i += 1;
            }
            continue;
        }
        if PRECISIONS.contains(&t) {
            precision = Some(t.to_string());
        }
        if !quals.contains(&t) {
            break;
        }
        i += 1;
    }
    let Some(ty) = s.get(i).filter(|t| is_ident(&t.text)) else {
        return Err(ReflectError {
            line,
            why: "a declaration without a type".into(),
        });
    };
    let ty = ty.text.clone();
    i += 1;
    loop {
        let Some(name) = s.get(i).filter(|t| is_ident(&t.text)) else {
            return Err(ReflectError {
                line,
                why: format!("a declaration of type {ty} without a name"),
            });
        };
        let mut d = Decl {
            storage,
            name: name.text.clone(),
            ty: ty.clone(),
            precision: precision.clone(),
            array: None,
            location,
            flat,
            centroid,
            block: block.map(str::to_string),
            line: name.line,
        };
        i += 1;
        if s.get(i).is_some_and(|t| t.text == "[") {
            let n = s.get(i + 1).and_then(|t| t.text.parse::<u32>().ok());
            if n.is_none() || s.get(i + 2).is_none_or(|t| t.text != "]") {
                return Err(ReflectError {
                    line,
                    why: format!("{}: an array size that is not a number", d.name),
                });
            }
            d.array = n;
            i += 3;
        }
        // An initialiser (`uniform float x = 1.0;`) ends the list.
        let more = s.get(i).is_some_and(|t| t.text == ",");
        out.push(d);
        if !more {
            return Ok(());
        }
        i += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comments_and_prototypes_declare_nothing() {
        let d = declarations(
            "#version 300 es\n// uniform vec4 no;\n/* in vec4 no2;\n*/ uniform vec4 a, b[3];\nvec4 f(in vec4 x);\nvoid main() { uniform_like(); }\n",
        )
        .unwrap();
        let names: Vec<_> = d
            .iter()
            .map(|d| (d.name.as_str(), d.array, d.line))
            .collect();
        assert_eq!(names, [("a", None, 4), ("b", Some(3), 4)]);
    }

    #[test]
    fn an_unclosed_block_is_an_error_with_its_line() {
        let e = declarations("\nuniform B {\n vec4 x;\n").unwrap_err();
        assert_eq!(e.line, 3, "{e}");
        let e = declarations("uniform vec4 x[n];").unwrap_err();
        assert!(e.why.contains("array size"), "{e}");
    }
}

#[cfg(test)]
mod text_tests {
    use super::*;

    /// HLSLcc's header and declarations as it writes them (uniform
    /// buffers off and on): its macros are followed, so `UNITY_UNIFORM`
    /// and `UNITY_LOCATION(0)` expand as the compiler would read them.
    #[test]
    fn hlslcc_style_text() {
        let text = "#version 300 es
#ifdef GL_EXT_shader_texture_lod
#extension GL_EXT_shader_texture_lod : enable
#endif
precision highp float;
#define HLSLCC_ENABLE_UNIFORM_BUFFERS 1
#if HLSLCC_ENABLE_UNIFORM_BUFFERS
#define UNITY_UNIFORM
#else
#define UNITY_UNIFORM uniform
#endif
#define UNITY_SUPPORTS_UNIFORM_LOCATION 1
#if UNITY_SUPPORTS_UNIFORM_LOCATION
#define UNITY_LOCATION(x) layout(location = x)
#else
#define UNITY_LOCATION(x)
#endif
uniform \tvec4 rcpFrame;
uniform \tvec4 hlslcc_mtx4x4World[4];
UNITY_LOCATION(0) uniform mediump sampler2D inputTexture;
uniform mediump sampler2DShadow hlslcc_zcmpshadowMap;
#if HLSLCC_ENABLE_UNIFORM_BUFFERS
layout(std140) uniform PGlobals {
#endif
\tUNITY_UNIFORM vec4 cb0[3];
\tUNITY_UNIFORM float gain;
#if HLSLCC_ENABLE_UNIFORM_BUFFERS
};
#endif
in highp vec2 vs_TEXCOORD0;
flat in highp uvec4 vs_TEXCOORD1;
layout(location = 0) out highp vec4 SV_TARGET0;
vec4 u_xlat0;
struct S { vec4 a; };
void main()
{
    u_xlat0 = texture(inputTexture, vs_TEXCOORD0.xy);
    SV_TARGET0 = u_xlat0 * rcpFrame;
    return;
}
";
        let d = declarations(text).unwrap();
        type Row<'a> = (&'a str, Storage, &'a str, Option<u32>, Option<&'a str>);
        let got: Vec<Row> = d
            .iter()
            .map(|d| {
                (
                    d.name.as_str(),
                    d.storage,
                    d.ty.as_str(),
                    d.array,
                    d.block.as_deref(),
                )
            })
            .collect();
        use Storage::*;
        assert_eq!(
            got,
            [
                ("rcpFrame", Uniform, "vec4", None, None),
                ("hlslcc_mtx4x4World", Uniform, "vec4", Some(4), None),
                ("inputTexture", Uniform, "sampler2D", None, None),
                (
                    "hlslcc_zcmpshadowMap",
                    Uniform,
                    "sampler2DShadow",
                    None,
                    None
                ),
                ("cb0", Uniform, "vec4", Some(3), Some("PGlobals")),
                ("gain", Uniform, "float", None, Some("PGlobals")),
                ("vs_TEXCOORD0", In, "vec2", None, None),
                ("vs_TEXCOORD1", In, "uvec4", None, None),
                ("SV_TARGET0", Out, "vec4", None, None),
            ]
        );
        assert_eq!(d[2].location, Some(0), "UNITY_LOCATION(0) expanded");
        assert_eq!(d[2].precision.as_deref(), Some("mediump"));
        assert!(d[7].flat && !d[6].flat);
        assert_eq!(d[8].location, Some(0));
        assert_eq!(d[0].line, 18);
    }

    /// dxbc-dbg's own es300 text, as the emitter writes it.
    #[test]
    fn dxbc_dbg_style_text() {
        let shader = crate::dxbc::asm::test_shader(
            "ps_5_0
dcl_constantbuffer cb0[2], immediateIndexed
dcl_sampler s0, mode_default
dcl_resource_texture2d (float,float,float,float) t0
dcl_input_ps constant v1.xy
dcl_output o0.xyzw
dcl_output o1.xyzw
.semantic v1 TEXCOORD 0
sample_l o0.xyzw, v1.xyxx, t0.xyzw, s0, cb0[1].x
ld o1.xyzw, l(0, 0, 0, 0), t0.xyzw
ret
",
        );
        let t = crate::glsl::translate(
            &shader,
            &crate::glsl::Options::new(crate::glsl::Dialect::Es300),
        )
        .unwrap();
        let d = declarations(&t.source).unwrap();
        let find = |n: &str| {
            d.iter()
                .find(|d| d.name == n)
                .unwrap_or_else(|| panic!("{n} in {d:#?}"))
        };
        let data = find("data");
        assert_eq!(
            (data.block.as_deref(), data.array),
            (Some("ConstantBuffer0"), Some(2))
        );
        assert_eq!(find("t0TEX_with_SMPs0").ty, "sampler2D");
        assert_eq!(find("t0").ty, "sampler2D");
        let mode = find("hlslcc_samplerMode_s0");
        assert_eq!(
            (mode.ty.as_str(), mode.block.as_deref()),
            ("ivec4", Some("hlslcc_SamplerState"))
        );
        let input = find("vs_TEXCOORD0");
        assert!(input.flat && input.storage == Storage::In);
        assert_eq!(find("SV_Target1").location, Some(1));
        // Nothing of the bodies is listed: every name is an interface.
        assert!(d.iter().all(|d| d.name != "r0" && d.name != "o0"), "{d:#?}");
    }

    /// Hostile text: unbalanced directives and braces, a runaway macro,
    /// stray bytes — an error or a list, never a panic.
    #[test]
    fn hostile_text_never_panics() {
        for text in [
            "#endif\n",
            "#else\n",
            "#define A A B\nuniform A x;\n",
            "#define F(x) F(x)\nF(1) uniform vec4 y;\n",
            "uniform vec4 x[99999999999];",
            "uniform { vec4 a; }",
            "layout(location = ) out vec4",
            "in",
            "\u{0}\u{ff}é uniform é;",
            "uniform vec4 a,",
            "void main() { { }",
            "/* unterminated",
        ] {
            let _ = declarations(text);
        }
        let big = "uniform vec4 a;\n".repeat(MAX_DECLS + 2);
        assert!(declarations(&big).is_err());
    }
}
