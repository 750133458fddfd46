//! The terminal: single keys in raw mode when stdin is a terminal, whole lines otherwise
//! (so the views are scriptable through a pipe), and the board drawn with ANSI colours
//! when stdout is a terminal.
//!
//! Raw mode and key events come from crossterm; colours are a handful of ANSI escapes.

use std::io::{BufRead, IsTerminal, Write};
use std::time::Duration;

use crossterm::event::{self, Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers};
use crossterm::terminal;

use crate::games::{Cell, Grid};

/// How a board's columns and rows are labelled.
#[derive(Debug, Clone, Copy)]
pub struct Labels {
    /// The label of column `y` (Connect-4's keys `0`-`9`, `a`, `b`; Reversi's files; Go's
    /// letters without `I`).
    pub col: fn(i32) -> char,
    /// The number of row `x` (0 on top) of a board of `rows` rows: Connect-4's `x`,
    /// Othello's `x + 1`, Go's `rows - x` (counted from the bottom).
    pub row: fn(i32, i32) -> i32,
}

/// One thing the user typed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Key {
    /// A printable key (raw mode).
    Char(char),
    /// A whole line, trimmed (line mode).
    Line(String),
    /// Arrow left.
    Left,
    /// Arrow right.
    Right,
    /// Home.
    Home,
    /// End.
    End,
    /// Ctrl-C, Ctrl-D or the end of input: leave.
    Quit,
    /// Anything else (Escape, other control keys): worth a hint, nothing more.
    Other(String),
}

/// The terminal for one view; leaves raw mode when dropped.
pub struct Term {
    /// Stdin is a terminal switched to raw mode.
    raw: bool,
    /// Draw with colours and clear the screen between frames.
    pub color: bool,
}

impl Term {
    /// Raw keys if stdin is a terminal, colours if stdout is one (and `NO_COLOR` is unset).
    pub fn open() -> Term {
        let color = std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none();
        // Raw mode: no echo, no line buffering, and Ctrl-C arrives as a key (so the
        // terminal is always restored by Drop).
        let raw = std::io::stdin().is_terminal() && terminal::enable_raw_mode().is_ok();
        Term { raw, color }
    }

    /// True when keys arrive one at a time (stdin is a terminal).
    pub fn raw(&self) -> bool {
        self.raw
    }

    /// Drops keys typed ahead (e.g. while the library was thinking), so a stray key
    /// cannot become the next move.
    pub fn discard_typeahead(&self) {
        if self.raw {
            while event::poll(Duration::ZERO).unwrap_or(false) {
                if event::read().is_err() {
                    break;
                }
            }
        }
    }

    /// Starts a frame: clears the screen in colour mode, else separates frames by a line.
    pub fn begin_frame(&self, out: &mut String) {
        if self.color {
            out.push_str("\x1b[H\x1b[2J");
        } else {
            out.push('\n');
        }
    }

    /// Writes and flushes. Raw mode also turns off the terminal's output processing, so
    /// line ends go out as `\r\n`, as the terminal itself would have sent them.
    pub fn show(&self, text: &str) {
        let mut o = std::io::stdout().lock();
        let text = if self.raw {
            std::borrow::Cow::Owned(text.replace('\n', "\r\n"))
        } else {
            std::borrow::Cow::Borrowed(text)
        };
        let _ = o.write_all(text.as_bytes());
        let _ = o.flush();
    }

    /// Waits for the next key (raw mode) or line (line mode).
    pub fn read_key(&mut self) -> Key {
        if !self.raw {
            let mut line = String::new();
            return match std::io::stdin().lock().read_line(&mut line) {
                Ok(0) | Err(_) => Key::Quit,
                Ok(_) => Key::Line(line.trim().to_string()),
            };
        }
        loop {
            match event::read() {
                Ok(Event::Key(k)) if k.kind != KeyEventKind::Release => return key_of(k),
                Ok(_) => {}
                Err(_) => return Key::Quit,
            }
        }
    }
}

/// What a key event means to the views.
fn key_of(k: KeyEvent) -> Key {
    let ctrl = k.modifiers.contains(KeyModifiers::CONTROL);
    match k.code {
        KeyCode::Char('c' | 'd') if ctrl => Key::Quit,
        KeyCode::Char(c) if ctrl => Key::Other(format!("Ctrl-{c}")),
        KeyCode::Char(c) if c.is_ascii() && !c.is_ascii_control() => Key::Char(c),
        KeyCode::Char(c) => Key::Other(c.to_string()),
        KeyCode::Enter => Key::Line(String::new()),
        KeyCode::Left => Key::Left,
        KeyCode::Right => Key::Right,
        KeyCode::Home => Key::Home,
        KeyCode::End => Key::End,
        _ => Key::Other("Esc".into()),
    }
}

impl Drop for Term {
    fn drop(&mut self) {
        if self.raw {
            let _ = terminal::disable_raw_mode();
        }
    }
}

/// ANSI styles; empty strings when colours are off.
struct Style {
    color: bool,
}

impl Style {
    fn paint(&self, code: &str, text: &str) -> String {
        if self.color {
            format!("\x1b[{code}m{text}\x1b[0m")
        } else {
            text.to_string()
        }
    }
}

/// The stone of a mover, as the views name it in text ("● red" / "X"), `names` being the
/// game's names of the first and second mover's stones.
pub fn stone_label(color: bool, who: Cell, names: [&str; 2]) -> String {
    let s = Style { color };
    match (who, color) {
        (Cell::First, true) => s.paint("1;31", &format!("● {}", names[0])),
        (Cell::Second, true) => s.paint("1;33", &format!("● {}", names[1])),
        (Cell::First, false) => "X".into(),
        (Cell::Second, false) => "O".into(),
        (Cell::Empty | Cell::Blocked, _) => String::new(),
    }
}

/// Draws the board: column labels on top and bottom, row labels on the left, the blocked
/// cell as `#`, the last move highlighted (reverse video, or `[ ]` without colours), a
/// winning line in green.
pub fn draw_board(
    grid: &Grid,
    last: Option<(i32, i32)>,
    line: &[(i32, i32)],
    color: bool,
    labels: Labels,
) -> String {
    let s = Style { color };
    let mut out = String::new();
    let keys: String = (0..grid.cols)
        .map(|y| format!(" {} ", (labels.col)(y)))
        .collect();
    out.push_str(&format!("   {}\n", s.paint("1", &keys)));
    for x in 0..grid.rows {
        out.push_str(&format!("{:>2} ", (labels.row)(x, grid.rows)));
        for y in 0..grid.cols {
            let is_last = last == Some((x, y));
            let in_line = line.contains(&(x, y));
            let cell = match (grid.get(x, y), color) {
                (Cell::Blocked, _) => s.paint("90", "###"),
                (Cell::Empty, _) => s.paint("2", " · "),
                (who, true) => {
                    let fg = if who == Cell::First { "31" } else { "33" };
                    let bg = if in_line {
                        ";42"
                    } else if is_last {
                        ";7"
                    } else {
                        ""
                    };
                    s.paint(&format!("1;{fg}{bg}"), " ● ")
                }
                (who, false) => {
                    let c = if who == Cell::First { 'X' } else { 'O' };
                    if is_last {
                        format!("[{c}]")
                    } else if in_line {
                        format!("*{c}*")
                    } else {
                        format!(" {c} ")
                    }
                }
            };
            out.push_str(&cell);
        }
        out.push('\n');
    }
    out.push_str(&format!("   {}\n", s.paint("1", &keys)));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_board_marks_blocked_cell_last_move_and_keys() {
        let mut g = Grid::new(4, 11);
        g.set(3, 2, Cell::Blocked);
        g.set(3, 0, Cell::First);
        g.set(3, 10, Cell::Second);
        let labels = Labels {
            col: super::super::column_key,
            row: |x, _| x,
        };
        let text = draw_board(&g, Some((3, 10)), &[], false, labels);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "    0  1  2  3  4  5  6  7  8  9  a ");
        assert_eq!(lines[4], " 3  X  · ### ·  ·  ·  ·  ·  ·  · [O]");
        assert_eq!(lines.len(), 6);
        // Othello's labels: files a..h, rows from 1.
        let labels = Labels {
            col: |y| (b'a' + y as u8) as char,
            row: |x, _| x + 1,
        };
        let text = draw_board(&Grid::new(8, 8), None, &[], false, labels);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "    a  b  c  d  e  f  g  h ");
        assert_eq!(lines[8], " 8  ·  ·  ·  ·  ·  ·  ·  · ");
    }
}
