//! Assembler errors: where (`file:line:column`), the offending token and
//! what was expected there.

use thiserror::Error;

#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("{line}:{column}: {message}{}", found_suffix(.found))]
pub struct AsmError {
    /// 1-based line in the source text.
    pub line: usize,
    /// 1-based column (in characters) of the offending token.
    pub column: usize,
    /// The offending token, if there is one.
    pub found: Option<String>,
    /// What went wrong, phrased as what was expected.
    pub message: String,
}

fn found_suffix(found: &Option<String>) -> String {
    match found {
        Some(t) => format!(" (found `{t}`)"),
        None => String::new(),
    }
}

impl AsmError {
    pub fn new(line: usize, column: usize, message: impl Into<String>) -> Self {
        AsmError {
            line,
            column,
            found: None,
            message: message.into(),
        }
    }

    pub fn at(line: usize, column: usize, found: &str, message: impl Into<String>) -> Self {
        AsmError {
            line,
            column,
            found: Some(found.to_string()),
            message: message.into(),
        }
    }

    /// The error with a file name in front: `file:line:column: ...`.
    pub fn in_file(&self, file: &str) -> String {
        format!("{file}:{self}")
    }
}

pub type AsmResult<T> = std::result::Result<T, AsmError>;
