//! Where in which file something is wrong.

use std::fmt;
use std::path::{Path, PathBuf};

/// A malformed case, recording or snapshot file: the path, the 1-based line
/// and column of the offending part, the part (`ops[17]`) and what is wrong.
///
/// `Display` gives `cases/x.json:12:5: ops[17]: unknown op `sett``, the form
/// editors and terminals turn into a link.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    /// The file.
    pub path: PathBuf,
    /// 1-based line.
    pub line: usize,
    /// 1-based column, in characters.
    pub column: usize,
    /// The part of the document, such as `ops[17]` or `subject`; may be empty.
    pub context: String,
    /// What is wrong.
    pub message: String,
}

impl ParseError {
    /// An error at byte `offset` of `text`.
    pub fn at(
        path: &Path,
        text: &str,
        offset: usize,
        context: impl Into<String>,
        message: impl Into<String>,
    ) -> ParseError {
        let (line, column) = line_column(text, offset);
        ParseError {
            path: path.to_path_buf(),
            line,
            column,
            context: context.into(),
            message: message.into(),
        }
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}:{}: ", self.path.display(), self.line, self.column)?;
        if !self.context.is_empty() {
            write!(f, "{}: ", self.context)?;
        }
        f.write_str(&self.message)
    }
}

impl std::error::Error for ParseError {}

/// The 1-based line and column of byte `offset` in `text` (clamped to its end).
pub(crate) fn line_column(text: &str, offset: usize) -> (usize, usize) {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    let before = &text[..offset];
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let column = before[line_start..].chars().count() + 1;
    (line, column)
}

/// The byte offset of 1-based `line` and `column` in `text`, as serde_json
/// reports them (its column counts bytes).
pub(crate) fn offset_of(text: &str, line: usize, column: usize) -> usize {
    let mut start = 0;
    for _ in 1..line {
        match text[start..].find('\n') {
            Some(i) => start += i + 1,
            None => return text.len(),
        }
    }
    (start + column.saturating_sub(1)).min(text.len())
}

/// Turns a serde_json error on `slice` (a part of `text` starting at byte
/// `base`) into a [`ParseError`] at the right place in `text`.
pub(crate) fn from_json(
    path: &Path,
    text: &str,
    base: usize,
    slice: &str,
    context: &str,
    err: &serde_json::Error,
) -> ParseError {
    let offset = if err.line() == 0 {
        base
    } else {
        base + offset_of(slice, err.line(), err.column())
    };
    // serde_json appends " at line L column C" to its messages; the location
    // is ours to give.
    let message = err.to_string();
    let message = match message.rfind(" at line ") {
        Some(i) => message[..i].to_string(),
        None => message,
    };
    ParseError::at(path, text, offset, context, message)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_and_columns_are_one_based() {
        let text = "ab\ncd\n";
        assert_eq!(line_column(text, 0), (1, 1));
        assert_eq!(line_column(text, 4), (2, 2));
        assert_eq!(offset_of(text, 2, 2), 4);
    }
}
