//! GTP's simple entities: vertex, color, move, int and float.
//!
//! - vertex: a letter `A`..`Z` without `I` for the column from the left, and a number for
//!   the row from the BOTTOM (`A1` is the lower left corner), up to 25x25; or `pass`. Case
//!   does not matter on input; output is upper case (and `pass`, and `resign` from
//!   `genmove`). [`Point`] counts rows from the top, so the conversion needs the board size.
//! - color: `b`, `w`, `black`, `white`, any case.
//! - move: a color and a vertex.
//! - int: an unsigned integer below 2^31; float: a decimal number.

use super::command::GtpError;
use crate::point::{Color, MAX_SIZE, Move, Point};

/// The column letters, `I` left out.
const LETTERS: &[u8; 25] = b"ABCDEFGHJKLMNOPQRSTUVWXYZ";

/// The letter of column `x` (0 = `A`); `?` beyond `Z`.
pub fn vertex_letter(x: usize) -> char {
    LETTERS.get(x).map_or('?', |&b| b as char)
}

/// A vertex on a `size` board: `Move::Pass` or `Move::Play`.
pub fn parse_vertex(text: &str, size: usize) -> Result<Move, GtpError> {
    let invalid = || GtpError::InvalidVertex(text.to_string());
    if text.eq_ignore_ascii_case("pass") {
        return Ok(Move::Pass);
    }
    let mut chars = text.chars();
    let letter = chars.next().ok_or_else(invalid)?.to_ascii_uppercase();
    let x = LETTERS
        .iter()
        .position(|&b| char::from(b) == letter)
        .ok_or_else(invalid)?;
    let digits = chars.as_str();
    if digits.is_empty() || digits.len() > 3 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(invalid());
    }
    let row: usize = digits.parse().map_err(|_| invalid())?;
    if size > MAX_SIZE || x >= size || row == 0 || row > size {
        return Err(invalid());
    }
    Ok(Move::Play(Point::new(x, size - row)))
}

/// A move as GTP writes it on a `size` board: `D4`, `pass`, `resign`.
pub fn format_vertex(mv: Move, size: usize) -> String {
    match mv {
        Move::Pass => "pass".to_string(),
        Move::Resign => "resign".to_string(),
        Move::Play(p) => format!(
            "{}{}",
            vertex_letter(usize::from(p.x)),
            size.saturating_sub(usize::from(p.y))
        ),
    }
}

/// A color.
pub fn parse_color(text: &str) -> Result<Color, GtpError> {
    match text.to_ascii_lowercase().as_str() {
        "b" | "black" => Ok(Color::Black),
        "w" | "white" => Ok(Color::White),
        _ => Err(GtpError::InvalidColor(text.to_string())),
    }
}

/// A move: its color and its vertex (`play`'s arguments).
pub fn parse_move(color: &str, vertex: &str, size: usize) -> Result<(Color, Move), GtpError> {
    Ok((parse_color(color)?, parse_vertex(vertex, size)?))
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

    fn play(x: usize, y: usize) -> Move {
        Move::Play(Point::new(x, y))
    }

    #[test]
    fn vertices_count_rows_from_the_bottom_and_skip_i() {
        assert_eq!(parse_vertex("A1", 19), Ok(play(0, 18)));
        assert_eq!(parse_vertex("a1", 19), Ok(play(0, 18)));
        assert_eq!(parse_vertex("T19", 19), Ok(play(18, 0)));
        assert_eq!(parse_vertex("J10", 19), Ok(play(8, 9)));
        assert_eq!(parse_vertex("H9", 9), Ok(play(7, 0)));
        assert_eq!(parse_vertex("j1", 9), Ok(play(8, 8)));
        assert_eq!(parse_vertex("Z25", 25), Ok(play(24, 0)));
        assert_eq!(parse_vertex("E5", 9), Ok(play(4, 4)));
        assert_eq!(parse_vertex("PASS", 9), Ok(Move::Pass));
        assert_eq!(parse_vertex("Pass", 9), Ok(Move::Pass));
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
    }

    #[test]
    fn vertices_format_back() {
        for size in [2, 9, 13, 19, 25] {
            for y in 0..size {
                for x in 0..size {
                    let text = format_vertex(play(x, y), size);
                    assert!(!text.contains('I'));
                    assert_eq!(parse_vertex(&text, size), Ok(play(x, y)), "{text}");
                }
            }
        }
        assert_eq!(format_vertex(play(3, 15), 19), "D4");
        assert_eq!(format_vertex(play(8, 0), 9), "J9");
        assert_eq!(format_vertex(Move::Pass, 9), "pass");
        assert_eq!(format_vertex(Move::Resign, 9), "resign");
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
        assert_eq!(parse_move("w", "c3", 9), Ok((Color::White, play(2, 6))));
        assert_eq!(
            parse_move("x", "c3", 9),
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
