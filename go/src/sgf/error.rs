//! What the SGF reader could not read, and where.

use std::fmt;

/// A syntax error in an SGF text, at a byte offset into the input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SgfError {
    /// Byte offset into the input where the problem was found.
    pub offset: usize,
    /// What is wrong there.
    pub kind: SgfErrorKind,
}

/// The kinds of SGF syntax error.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SgfErrorKind {
    /// No `(` followed by `;` anywhere: the input holds no game tree.
    NoGameTree,
    /// A byte that cannot stand here; `expected` says what could.
    Unexpected {
        /// The byte found.
        found: u8,
        /// What the grammar allows at this point.
        expected: &'static str,
    },
    /// The input ends inside a game tree opened at `offset`.
    UnclosedTree,
    /// The input ends inside a property value opened (`[`) at `offset`.
    UnterminatedValue,
    /// A property identifier with no upper-case letter (FF\[3\] allowed lower-case letters
    /// only beside upper-case ones, which are the identifier).
    LowercaseIdent,
    /// A property identifier not followed by a value.
    MissingValue,
    /// A game tree (variation) opened at `offset` with no node before its end or its first
    /// variation: the EBNF requires a non-empty sequence.
    EmptySequence,
    /// A node after a variation of the same game tree (`(;A(;B);C)`).
    NodeAfterVariation,
}

impl fmt::Display for SgfErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SgfErrorKind::NoGameTree => f.write_str("no game tree (\"(;\") in the input"),
            SgfErrorKind::Unexpected { found, expected } => {
                write!(f, "expected {expected}, found {}", show_byte(*found))
            }
            SgfErrorKind::UnclosedTree => f.write_str("game tree opened here is never closed"),
            SgfErrorKind::UnterminatedValue => {
                f.write_str("property value opened here is never closed")
            }
            SgfErrorKind::LowercaseIdent => {
                f.write_str("property identifier without an upper-case letter")
            }
            SgfErrorKind::MissingValue => f.write_str("property without a value"),
            SgfErrorKind::EmptySequence => f.write_str("game tree without a node"),
            SgfErrorKind::NodeAfterVariation => f.write_str("node after a variation"),
        }
    }
}

/// A byte for a message: printable ASCII as itself, anything else in hex.
fn show_byte(b: u8) -> String {
    if b.is_ascii_graphic() {
        format!("'{}'", b as char)
    } else {
        format!("byte 0x{b:02x}")
    }
}

impl fmt::Display for SgfError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "SGF error at byte {}: {}", self.offset, self.kind)
    }
}

impl std::error::Error for SgfError {}
