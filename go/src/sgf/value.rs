//! Property values, kept as written and decoded by type (FF\[4\] section 3, "Property Value
//! Types").
//!
//! A [`Value`] holds the text between `[` and `]` exactly as the file has it, escapes and
//! line breaks included: what the value means depends on the property's type, which the
//! reader does not know, and keeping the text lets a tree be written back unchanged. The
//! decoders apply the type's rules:
//! - Text: `\` escapes the next character; `\` before a line break is a soft line break
//!   (removed); line breaks (`\n`, `\r`, `\r\n`, `\n\r`) are kept as `\n`; other white space
//!   becomes a space.
//! - SimpleText: as Text, but line breaks become spaces too.
//! - Compose: two values separated by the first `:` not escaped.
//! - Number: `[+|-] digits`; Real: a Number with an optional `.digits`.
//!
//! The constructors escape `\` and `]` (and `:` in the parts of a composed value), so every
//! [`Value`] can be written between brackets and read back as itself.

use std::fmt;

/// One property value as written in the file (without the brackets).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Value(String);

impl Value {
    /// The empty value `[]` (a pass in Go).
    pub fn empty() -> Value {
        Value(String::new())
    }

    /// A value whose text is `raw` as it is, when it can stand between brackets: every `]`
    /// escaped, no lone `\` at the end. `None` otherwise.
    pub fn from_raw(raw: &str) -> Option<Value> {
        let bytes = raw.as_bytes();
        let mut i = 0;
        while i < bytes.len() {
            match bytes[i] {
                b'\\' if i + 1 == bytes.len() => return None,
                b'\\' => i += 2,
                b']' => return None,
                _ => i += 1,
            }
        }
        Some(Value(raw.to_string()))
    }

    /// Used by the reader, which has found the closing bracket already.
    pub(crate) fn from_raw_unchecked(raw: String) -> Value {
        Value(raw)
    }

    /// A Text (or SimpleText) value holding `text`: `\` and `]` are escaped, line breaks
    /// are kept as they are.
    pub fn from_text(text: &str) -> Value {
        Value(escape(text, false))
    }

    /// A composed value `left:right`, each part a SimpleText or Text with `:` escaped as
    /// well.
    pub fn from_compose(left: &str, right: &str) -> Value {
        Value(format!("{}:{}", escape(left, true), escape(right, true)))
    }

    /// A Number value.
    pub fn from_number(n: i64) -> Value {
        Value(n.to_string())
    }

    /// A Real value (a non-finite number is written as 0).
    pub fn from_real(x: f64) -> Value {
        if x.is_finite() {
            Value(x.to_string())
        } else {
            Value("0".to_string())
        }
    }

    /// The text as written between the brackets.
    pub fn raw(&self) -> &str {
        &self.0
    }

    /// True for `[]`.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The value decoded as Text.
    pub fn text(&self) -> String {
        decode(&self.0, false)
    }

    /// The value decoded as SimpleText.
    pub fn simple_text(&self) -> String {
        decode(&self.0, true)
    }

    /// The two parts of a composed value (split at the first unescaped `:`), or `None` when
    /// the value has no such `:`.
    pub fn compose(&self) -> Option<(Value, Value)> {
        let bytes = self.0.as_bytes();
        let mut i = 0;
        while i < bytes.len() {
            match bytes[i] {
                b'\\' => i += 2,
                b':' => {
                    return Some((
                        Value(self.0[..i].to_string()),
                        Value(self.0[i + 1..].to_string()),
                    ));
                }
                _ => i += 1,
            }
        }
        None
    }

    /// The value as a Number (surrounding white space allowed).
    pub fn number(&self) -> Option<i64> {
        let s = self.0.trim();
        let digits = s.strip_prefix(['+', '-']).unwrap_or(s);
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        s.parse().ok()
    }

    /// The value as a Real (surrounding white space allowed).
    pub fn real(&self) -> Option<f64> {
        let s = self.0.trim();
        let unsigned = s.strip_prefix(['+', '-']).unwrap_or(s);
        let (int, frac) = unsigned.split_once('.').unwrap_or((unsigned, ""));
        let all_digits = |t: &str| t.bytes().all(|b| b.is_ascii_digit());
        if (int.is_empty() && frac.is_empty()) || !all_digits(int) || !all_digits(frac) {
            return None;
        }
        s.parse().ok()
    }
}

impl fmt::Display for Value {
    /// The raw text (what goes between the brackets).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// Escapes `\` and `]`, and `:` too when `colon`.
fn escape(text: &str, colon: bool) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c == '\\' || c == ']' || (colon && c == ':') {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// Decodes Text (`simple` false) or SimpleText (`simple` true).
fn decode(raw: &str, simple: bool) -> String {
    let line_break = if simple { ' ' } else { '\n' };
    let mut out = String::with_capacity(raw.len());
    let mut chars = raw.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' => match chars.next() {
                // A soft line break: the break and its escape vanish.
                Some(first @ ('\n' | '\r')) => {
                    let second = if first == '\n' { '\r' } else { '\n' };
                    chars.next_if_eq(&second);
                }
                Some(escaped) => out.push(white_to_space(escaped)),
                None => {}
            },
            '\n' | '\r' => {
                let second = if c == '\n' { '\r' } else { '\n' };
                chars.next_if_eq(&second);
                out.push(line_break);
            }
            c => out.push(white_to_space(c)),
        }
    }
    out
}

/// White space other than line breaks reads as a space.
fn white_to_space(c: char) -> char {
    match c {
        '\t' | '\x0b' | '\x0c' => ' ',
        c => c,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_escapes_and_line_breaks_decode_as_the_spec_says() {
        let v = Value::from_raw("a\\]b\\\\c\\:d").unwrap();
        assert_eq!(v.text(), "a]b\\c:d");
        // A soft line break vanishes; hard ones are kept (normalised to \n) in Text and
        // become spaces in SimpleText; tabs become spaces in both.
        let v = Value::from_raw("one\\\r\ntwo\r\nthree\n\rfour\rfive\tsix").unwrap();
        assert_eq!(v.text(), "onetwo\nthree\nfour\nfive six");
        assert_eq!(v.simple_text(), "onetwo three four five six");
        let v = Value::from_raw("x\\\ny\\\n\rz").unwrap();
        assert_eq!(v.text(), "xyz");
    }

    #[test]
    fn constructors_escape_what_must_be_escaped() {
        let v = Value::from_text("a]b\\c:d\nline");
        assert_eq!(v.raw(), "a\\]b\\\\c:d\nline");
        assert_eq!(v.text(), "a]b\\c:d\nline");
        let v = Value::from_compose("go:engine", "1]2");
        assert_eq!(v.raw(), "go\\:engine:1\\]2");
        let (l, r) = v.compose().unwrap();
        assert_eq!(
            (l.simple_text().as_str(), r.simple_text().as_str()),
            ("go:engine", "1]2")
        );
        assert_eq!(Value::from_raw("aa").unwrap().compose(), None);
        let (l, r) = Value::from_raw("aa:cc").unwrap().compose().unwrap();
        assert_eq!((l.raw(), r.raw()), ("aa", "cc"));
    }

    #[test]
    fn raw_values_must_survive_the_brackets() {
        assert!(Value::from_raw("a]").is_none());
        assert!(Value::from_raw("a\\").is_none());
        assert!(Value::from_raw("a\\]").is_some());
        assert!(Value::from_raw("").is_some());
    }

    #[test]
    fn numbers_and_reals() {
        let v = |s: &str| Value::from_raw(s).unwrap();
        assert_eq!(v("19").number(), Some(19));
        assert_eq!(v(" -3 ").number(), Some(-3));
        assert_eq!(v("+4").number(), Some(4));
        assert_eq!(v("1.5").number(), None);
        assert_eq!(v("").number(), None);
        assert_eq!(v("99999999999999999999").number(), None);
        assert_eq!(v("7.5").real(), Some(7.5));
        assert_eq!(v("-0.5").real(), Some(-0.5));
        assert_eq!(v("6").real(), Some(6.0));
        assert_eq!(v(".5").real(), Some(0.5));
        assert_eq!(v("inf").real(), None);
        assert_eq!(v("1e3").real(), None);
        assert_eq!(v(".").real(), None);
        assert_eq!(Value::from_real(6.5).raw(), "6.5");
        assert_eq!(Value::from_real(7.0).raw(), "7");
        assert_eq!(Value::from_real(f64::NAN).raw(), "0");
    }
}
