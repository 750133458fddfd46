//! The environment-settings reader the workspace's programs share: the strategy library
//! (`GRAVITY4_*`), the Reversi engine (`REVERSI_*`) and the Go engine (`GO_*`). Each keeps
//! its own list of variables and defaults in its `settings.rs`; this crate is the mechanism.
//!
//! A variable is read once ([`Vars::get`] calls the source once), its text trimmed and
//! parsed by a [`Kind`], and a bad value is an [`Error`] that names the variable, the value
//! and what was expected, on one line: `GO_MOVE_MS="soon": expected a positive integer`.
//! An unset variable, or one set to blanks only, is `None`: its default applies. What to do
//! with an error is the caller's: the programs stop with it, the library reports it and
//! keeps the default.
//!
//! ```
//! use envset::{Kind, Vars};
//!
//! const MOVE_MS: Kind<u64> = Kind {
//!     expected: "a positive integer",
//!     parse: |t| t.parse().ok().filter(|&ms| ms > 0),
//! };
//! let vars = Vars::new(|name| (name == "MOVE_MS").then(|| " 250 ".to_string()));
//! assert_eq!(vars.get("MOVE_MS", MOVE_MS), Ok(Some(250)));
//! assert_eq!(vars.get("OTHER", MOVE_MS), Ok(None));
//! let vars = Vars::new(|_| Some("soon".to_string()));
//! let error = vars.get("MOVE_MS", MOVE_MS).unwrap_err();
//! assert_eq!(error.to_string(), r#"MOVE_MS="soon": expected a positive integer"#);
//! ```

#![forbid(unsafe_code)]
#![warn(missing_docs)]

use std::fmt;

/// The kind of value a setting takes: how its (trimmed) text is read, and what it expects,
/// for the error. A program's flag that takes the same value reads it with the same kind
/// ([`Kind::read`]).
pub struct Kind<T> {
    /// What a good value is, as the error says it (`a positive integer`).
    pub expected: &'static str,
    /// The value of a (trimmed) text; `None` when the text is not one.
    pub parse: fn(&str) -> Option<T>,
}

impl<T> Clone for Kind<T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for Kind<T> {}

impl<T> fmt::Debug for Kind<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Kind")
            .field("expected", &self.expected)
            .finish()
    }
}

impl<T> Kind<T> {
    /// The value of `text` (trimmed), or `expected ...` (the words for a flag's error).
    pub fn read(&self, text: &str) -> Result<T, String> {
        (self.parse)(text.trim()).ok_or_else(|| format!("expected {}", self.expected))
    }
}

/// A switch: `0` (off) or `1` (on).
pub const SWITCH: Kind<bool> = Kind {
    expected: "0 or 1",
    parse: |t| match t {
        "0" => Some(false),
        "1" => Some(true),
        _ => None,
    },
};

/// A bad value: the variable, its value as set, and what was expected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    /// The variable.
    pub name: String,
    /// Its value, untrimmed.
    pub value: String,
    /// What a good value is ([`Kind::expected`]).
    pub expected: String,
}

impl fmt::Display for Error {
    /// `NAME="value": expected ...`, one line (the value quoted and escaped).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}={:?}: expected {}",
            self.name, self.value, self.expected
        )
    }
}

impl std::error::Error for Error {}

/// Where the variables come from: the process environment ([`Vars::env`]) or, in tests, a
/// table ([`Vars::new`]).
pub struct Vars<F> {
    source: F,
}

impl Vars<fn(&str) -> Option<String>> {
    /// The process environment (a value that is not UTF-8 is read lossily, so that it is
    /// reported as a bad value rather than taken for unset).
    pub fn env() -> Self {
        Vars {
            source: |name| std::env::var_os(name).map(|v| v.to_string_lossy().into_owned()),
        }
    }
}

impl<F: Fn(&str) -> Option<String>> Vars<F> {
    /// The variables `source` gives (`source(name)`: the variable's value, `None` if unset).
    pub fn new(source: F) -> Self {
        Vars { source }
    }

    /// The text of `name`, read once; `None` when it is unset or blank.
    pub fn text(&self, name: &str) -> Option<String> {
        (self.source)(name).filter(|v| !v.trim().is_empty())
    }

    /// The text of `name` exactly as set (blank included), read once; `None` when unset.
    pub fn raw(&self, name: &str) -> Option<String> {
        (self.source)(name)
    }

    /// The value of `name` as a `kind`: `Ok(None)` when it is unset or blank, the error
    /// naming the variable and the value when its text is not one.
    pub fn get<T>(&self, name: &str, kind: Kind<T>) -> Result<Option<T>, Error> {
        let Some(value) = self.text(name) else {
            return Ok(None);
        };
        match (kind.parse)(value.trim()) {
            Some(v) => Ok(Some(v)),
            None => Err(Error {
                name: name.to_string(),
                value,
                expected: kind.expected.to_string(),
            }),
        }
    }

    /// Sets `slot` to the value of `name` as a `kind` when it is set; unchanged when it is
    /// unset or blank (its default stays).
    pub fn set<T>(&self, slot: &mut T, name: &str, kind: Kind<T>) -> Result<(), Error> {
        if let Some(value) = self.get(name, kind)? {
            *slot = value;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const EVEN: Kind<u32> = Kind {
        expected: "an even number",
        parse: |t| t.parse().ok().filter(|n| n % 2 == 0),
    };

    fn table(
        pairs: &'static [(&'static str, &'static str)],
    ) -> Vars<impl Fn(&str) -> Option<String>> {
        Vars::new(move |name| {
            pairs
                .iter()
                .find(|(k, _)| *k == name)
                .map(|(_, v)| v.to_string())
        })
    }

    #[test]
    fn unset_and_blank_are_none_and_keep_the_default() {
        let vars = table(&[("BLANK", "  "), ("EMPTY", "")]);
        for name in ["UNSET", "BLANK", "EMPTY"] {
            assert_eq!(vars.get(name, EVEN), Ok(None), "{name}");
            let mut slot = 7;
            vars.set(&mut slot, name, EVEN).unwrap();
            assert_eq!(slot, 7);
        }
        assert_eq!(vars.raw("BLANK").as_deref(), Some("  "));
        assert_eq!(vars.text("BLANK"), None);
    }

    #[test]
    fn a_good_value_is_read_trimmed() {
        let vars = table(&[("N", " 12\t"), ("ON", "1"), ("OFF", " 0 ")]);
        assert_eq!(vars.get("N", EVEN), Ok(Some(12)));
        let mut slot = 0;
        vars.set(&mut slot, "N", EVEN).unwrap();
        assert_eq!(slot, 12);
        assert_eq!(vars.get("ON", SWITCH), Ok(Some(true)));
        assert_eq!(vars.get("OFF", SWITCH), Ok(Some(false)));
    }

    #[test]
    fn a_bad_value_names_the_variable_the_value_and_what_was_expected() {
        let vars = table(&[("N", " 7 "), ("LOG", "yes\n")]);
        let e = vars.get("N", EVEN).unwrap_err();
        assert_eq!(e.to_string(), r#"N=" 7 ": expected an even number"#);
        let mut slot = 0;
        assert_eq!(vars.set(&mut slot, "N", EVEN), Err(e));
        assert_eq!(slot, 0);
        let e = vars.get("LOG", SWITCH).unwrap_err();
        assert_eq!(e.to_string(), r#"LOG="yes\n": expected 0 or 1"#);
        assert!(!e.to_string().contains('\n'));
        assert_eq!(EVEN.read(" 3"), Err("expected an even number".to_string()));
        assert_eq!(EVEN.read(" 4"), Ok(4));
    }

    #[test]
    fn each_get_reads_the_variable_once() {
        let reads = std::cell::Cell::new(0);
        let vars = Vars::new(|_| {
            reads.set(reads.get() + 1);
            Some("4".to_string())
        });
        vars.get("N", EVEN).unwrap();
        assert_eq!(reads.get(), 1);
    }
}
