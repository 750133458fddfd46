//! Views of games for people: `judge play` (a person against a library, in the
//! terminal) and `judge replay` (step through a logged game), drawn by `term`
//! (crossterm for raw keys, ANSI colours).
//!
//! Views sit at the end of the judge's data flow: they take plain options and read game
//! logs, draw the [`Grid`](crate::games::Grid) a game gives them, and play through the
//! same referee and players as tournaments. Nothing upstream knows about them.

pub mod play;
pub mod replay;
mod term;

/// The key of column `y` (columns 0..11: `0`-`9`, then `a`, `b`).
fn column_key(y: i32) -> char {
    std::char::from_digit(y as u32, 36).unwrap_or('?')
}

/// The column a key names, if any (`0`-`9`, `a`-`z` for 10 and up).
fn key_column(c: char) -> Option<i32> {
    c.to_digit(36).map(|d| d as i32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_and_columns_round_trip() {
        for y in 0..12 {
            assert_eq!(key_column(column_key(y)), Some(y));
        }
        assert_eq!(column_key(10), 'a');
        assert_eq!(key_column('B'), Some(11));
        assert_eq!(key_column('!'), None);
    }
}
