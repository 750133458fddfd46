//! GTP's simple entities (section 4.1, "Simple Entities"): vertex, color, move, int and
//! float.
//!
//! - vertex: a letter `A`..`Z` without `I` for the column from the left, and a number for
//!   the row, up to 25x25; or `pass`. Case does not matter on input; [`Vertex`] writes
//!   upper case (games that answer in lower case, as Othello engines do, ask for
//!   [`Vertex::lowercase`]). GTP counts Go's rows from the BOTTOM (`A1` is the lower left
//!   corner) and Othello engines count them from the top: a [`Vertex`] keeps the row as
//!   written, and the game turns it into its own coordinates.
//! - color: `b`, `w`, `black`, `white`, any case.
//! - move: a color and a vertex.
//! - int: an unsigned integer below 2^31; float: a decimal number.

use std::fmt;

use crate::command::GtpError;

/// The largest board side a vertex can name: `A`..`Z` without `I` is 25 letters.
pub const MAX_SIZE: usize = 25;

/// The column letters, `I` left out.
const LETTERS: &[u8; MAX_SIZE] = b"ABCDEFGHJKLMNOPQRSTUVWXYZ";

/// The letter of column `x` (0 = `A`, 8 = `J`); `?` beyond `Z`.
pub fn column_letter(x: usize) -> char {
    LETTERS.get(x).map_or('?', |&b| b as char)
}

/// A vertex: a point of the board, or `pass`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Vertex {
    /// A point.
    Point {
        /// The column, 0 for `A` (so 8 for `J`: `I` is skipped).
        column: usize,
        /// The row as written, minus one: 0 for row `1` (the bottom in Go, the top in
        /// Othello).
        row: usize,
    },
    /// `pass`.
    Pass,
}

impl Vertex {
    /// The vertex as Othello engines write it: lower case (`d3`, `pass`).
    pub fn lowercase(self) -> String {
        self.to_string().to_ascii_lowercase()
    }
}

impl fmt::Display for Vertex {
    /// `D4`-style (a column beyond `Z` is `?`), or `pass`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Vertex::Point { column, row } => write!(f, "{}{}", column_letter(column), row + 1),
            Vertex::Pass => f.write_str("pass"),
        }
    }
}

/// A vertex on a `size` x `size` board (`size` at most [`MAX_SIZE`]): a letter and one to
/// three digits (`A1`, `j10`, `A01`), or `pass`, in any case.
pub fn parse_vertex(text: &str, size: usize) -> Result<Vertex, GtpError> {
    let invalid = || GtpError::InvalidVertex(text.to_string());
    if text.eq_ignore_ascii_case("pass") {
        return Ok(Vertex::Pass);
    }
    let mut chars = text.chars();
    let letter = chars.next().ok_or_else(invalid)?.to_ascii_uppercase();
    let column = LETTERS
        .iter()
        .position(|&b| char::from(b) == letter)
        .ok_or_else(invalid)?;
    let digits = chars.as_str();
    if digits.is_empty() || digits.len() > 3 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(invalid());
    }
    let row: usize = digits.parse().map_err(|_| invalid())?;
    if size > MAX_SIZE || column >= size || row == 0 || row > size {
        return Err(invalid());
    }
    Ok(Vertex::Point {
        column,
        row: row - 1,
    })
}

/// A colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Color {
    /// `black` (`b`).
    Black,
    /// `white` (`w`).
    White,
}

impl fmt::Display for Color {
    /// `black` or `white`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Color::Black => "black",
            Color::White => "white",
        })
    }
}

/// A colour: `b`, `w`, `black` or `white`, in any case.
pub fn parse_color(text: &str) -> Result<Color, GtpError> {
    match text.to_ascii_lowercase().as_str() {
        "b" | "black" => Ok(Color::Black),
        "w" | "white" => Ok(Color::White),
        _ => Err(GtpError::InvalidColor(text.to_string())),
    }
}

/// A move: a colour and a vertex (`play`'s arguments).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    /// Who moves.
    pub color: Color,
    /// Where (or `pass`).
    pub vertex: Vertex,
}

impl fmt::Display for Move {
    /// `black D4`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.color, self.vertex)
    }
}

/// A move on a `size` board from its two words; the colour is checked first.
pub fn parse_move(color: &str, vertex: &str, size: usize) -> Result<Move, GtpError> {
    Ok(Move {
        color: parse_color(color)?,
        vertex: parse_vertex(vertex, size)?,
    })
}

/// An int: 0 to 2^31 - 1, digits only.
pub fn parse_int(text: &str) -> Result<u32, GtpError> {
    text.bytes()
        .all(|b| b.is_ascii_digit())
        .then(|| text.parse::<u32>().ok())
        .flatten()
        .filter(|&n| n < 1 << 31)
        .ok_or_else(|| GtpError::InvalidInt(text.to_string()))
}

/// A float: a finite decimal number (`6.5`, `-3`, `0.5`, `7.`).
pub fn parse_float(text: &str) -> Result<f64, GtpError> {
    let unsigned = text.strip_prefix(['+', '-']).unwrap_or(text);
    let decimal = !unsigned.is_empty()
        && unsigned != "."
        && unsigned.bytes().all(|b| b.is_ascii_digit() || b == b'.')
        && unsigned.bytes().filter(|&b| b == b'.').count() <= 1;
    decimal
        .then(|| text.parse::<f64>().ok())
        .flatten()
        .filter(|x| x.is_finite())
        .ok_or_else(|| GtpError::InvalidFloat(text.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(column: usize, row: usize) -> Vertex {
        Vertex::Point { column, row }
    }

    #[test]
    fn vertices_keep_the_row_as_written_and_skip_i() {
        assert_eq!(parse_vertex("A1", 19), Ok(at(0, 0)));
        assert_eq!(parse_vertex("a1", 19), Ok(at(0, 0)));
        assert_eq!(parse_vertex("T19", 19), Ok(at(18, 18)));
        assert_eq!(parse_vertex("J10", 19), Ok(at(8, 9)));
        assert_eq!(parse_vertex("H9", 9), Ok(at(7, 8)));
        assert_eq!(parse_vertex("j1", 9), Ok(at(8, 0)));
        assert_eq!(parse_vertex("Z25", 25), Ok(at(24, 24)));
        assert_eq!(parse_vertex("A01", 9), Ok(at(0, 0)));
        assert_eq!(parse_vertex("d3", 8), Ok(at(3, 2)));
        assert_eq!(parse_vertex("PASS", 9), Ok(Vertex::Pass));
        assert_eq!(parse_vertex("Pass", 9), Ok(Vertex::Pass));
        for bad in [
            "I5",
            "i5",
            "K1",
            "A10",
            "A0",
            "A",
            "",
            "11",
            "A-1",
            "A+1",
            "A 1",
            "A1x",
            "resign",
            "\u{e9}1",
            "A1000000000000000000000",
        ] {
            assert_eq!(
                parse_vertex(bad, 9),
                Err(GtpError::InvalidVertex(bad.into())),
                "{bad:?}"
            );
        }
        assert!(parse_vertex("A1", 26).is_err());
        assert!(parse_vertex("i1", 8).is_err());
    }

    #[test]
    fn vertices_write_back() {
        for size in [2, 8, 9, 13, 19, 25] {
            for row in 0..size {
                for column in 0..size {
                    let text = at(column, row).to_string();
                    assert!(!text.contains('I'));
                    assert_eq!(parse_vertex(&text, size), Ok(at(column, row)), "{text}");
                    let lower = at(column, row).lowercase();
                    assert_eq!(parse_vertex(&lower, size), Ok(at(column, row)), "{lower}");
                }
            }
        }
        assert_eq!(at(3, 3).to_string(), "D4");
        assert_eq!(at(8, 8).to_string(), "J9");
        assert_eq!(at(3, 2).lowercase(), "d3");
        assert_eq!(at(25, 0).to_string(), "?1");
        assert_eq!(Vertex::Pass.to_string(), "pass");
        assert_eq!(Vertex::Pass.lowercase(), "pass");
        assert_eq!(column_letter(8), 'J');
    }

    #[test]
    fn colors_and_moves() {
        for (text, color) in [
            ("b", Color::Black),
            ("B", Color::Black),
            ("black", Color::Black),
            ("BLACK", Color::Black),
            ("w", Color::White),
            ("White", Color::White),
        ] {
            assert_eq!(parse_color(text), Ok(color));
        }
        for bad in ["", "x", "bl", "blacks", "empty"] {
            assert_eq!(parse_color(bad), Err(GtpError::InvalidColor(bad.into())));
        }
        let mv = parse_move("w", "c3", 9).unwrap();
        assert_eq!(
            mv,
            Move {
                color: Color::White,
                vertex: at(2, 2)
            }
        );
        assert_eq!(mv.to_string(), "white C3");
        assert_eq!(
            parse_move("x", "z99", 9),
            Err(GtpError::InvalidColor("x".into()))
        );
        assert_eq!(
            parse_move("b", "z3", 9),
            Err(GtpError::InvalidVertex("z3".into()))
        );
    }

    #[test]
    fn ints_and_floats() {
        assert_eq!(parse_int("19"), Ok(19));
        assert_eq!(parse_int("0"), Ok(0));
        assert_eq!(parse_int("2147483647"), Ok(2147483647));
        for bad in ["2147483648", "-1", "+1", "", "1.0", "x"] {
            assert_eq!(parse_int(bad), Err(GtpError::InvalidInt(bad.into())));
        }
        assert_eq!(parse_float("6.5"), Ok(6.5));
        assert_eq!(parse_float("-3"), Ok(-3.0));
        assert_eq!(parse_float("7."), Ok(7.0));
        assert_eq!(parse_float(".5"), Ok(0.5));
        for bad in ["", ".", "inf", "NaN", "1e3", "1.2.3", "six", "--1"] {
            assert_eq!(parse_float(bad), Err(GtpError::InvalidFloat(bad.into())));
        }
    }
}
