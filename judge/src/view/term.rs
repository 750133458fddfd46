//! The terminal: single keys in raw mode when stdin is a terminal, whole lines otherwise
//! (so the views are scriptable through a pipe), and the board drawn with ANSI colours
//! when stdout is a terminal.
//!
//! Plain termios and ANSI escapes instead of a terminal crate: the views need only
//! "no echo, no line buffering", a handful of keys and colours.

use std::io::{BufRead, Write};

use super::{Cell, Grid, column_key};

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

/// The terminal for one view; restores the terminal's settings when dropped.
pub struct Term {
    /// The settings to restore, when stdin is a terminal switched to raw mode.
    saved: Option<libc::termios>,
    /// Draw with colours and clear the screen between frames.
    pub color: bool,
}

fn isatty(fd: i32) -> bool {
    // SAFETY: isatty only inspects the descriptor.
    unsafe { libc::isatty(fd) == 1 }
}

impl Term {
    /// Raw keys if stdin is a terminal, colours if stdout is one (and `NO_COLOR` is unset).
    pub fn open() -> Term {
        let color = isatty(1) && std::env::var_os("NO_COLOR").is_none();
        let mut saved = None;
        if isatty(0) {
            // SAFETY: tcgetattr/tcsetattr read and write the termios struct we own.
            unsafe {
                let mut t: libc::termios = std::mem::zeroed();
                if libc::tcgetattr(0, &mut t) == 0 {
                    let old = t;
                    // No echo, no line buffering, and Ctrl-C arrives as a key (so the
                    // terminal is always restored by Drop). Output processing stays on.
                    t.c_lflag &= !(libc::ICANON | libc::ECHO | libc::ISIG);
                    t.c_cc[libc::VMIN] = 1;
                    t.c_cc[libc::VTIME] = 0;
                    if libc::tcsetattr(0, libc::TCSANOW, &t) == 0 {
                        saved = Some(old);
                    }
                }
            }
        }
        Term { saved, color }
    }

    /// True when keys arrive one at a time (stdin is a terminal).
    pub fn raw(&self) -> bool {
        self.saved.is_some()
    }

    /// Drops keys typed ahead (e.g. while the library was thinking), so a stray key
    /// cannot become the next move.
    pub fn discard_typeahead(&self) {
        if self.raw() {
            // SAFETY: tcflush only affects the terminal's input queue.
            unsafe { libc::tcflush(0, libc::TCIFLUSH) };
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

    /// Writes and flushes.
    pub fn show(&self, text: &str) {
        let mut o = std::io::stdout().lock();
        let _ = o.write_all(text.as_bytes());
        let _ = o.flush();
    }

    /// Waits for the next key (raw mode) or line (line mode).
    pub fn read_key(&mut self) -> Key {
        if !self.raw() {
            let mut line = String::new();
            return match std::io::stdin().lock().read_line(&mut line) {
                Ok(0) | Err(_) => Key::Quit,
                Ok(_) => Key::Line(line.trim().to_string()),
            };
        }
        let Some(b) = read_byte(None) else {
            return Key::Quit;
        };
        match b {
            3 | 4 => Key::Quit,
            0x1b => self.escape_sequence(),
            b'\r' | b'\n' => Key::Line(String::new()),
            0x20..=0x7e => Key::Char(b as char),
            _ => {
                // A UTF-8 sequence: read its continuation bytes so they do not become keys.
                let extra = match b {
                    0xc0..=0xdf => 1,
                    0xe0..=0xef => 2,
                    0xf0..=0xf7 => 3,
                    _ => 0,
                };
                let mut bytes = vec![b];
                for _ in 0..extra {
                    bytes.extend(read_byte(Some(50)));
                }
                Key::Other(String::from_utf8_lossy(&bytes).into_owned())
            }
        }
    }

    /// After ESC: an arrow/Home/End sequence, or a lone Escape.
    fn escape_sequence(&self) -> Key {
        let Some(intro) = read_byte(Some(30)) else {
            return Key::Other("Esc".into());
        };
        if intro != b'[' && intro != b'O' {
            return Key::Other("Esc".into());
        }
        let mut seq = Vec::new();
        while let Some(b) = read_byte(Some(30)) {
            seq.push(b);
            if (0x40..=0x7e).contains(&b) || seq.len() > 8 {
                break;
            }
        }
        match seq.as_slice() {
            b"D" => Key::Left,
            b"C" => Key::Right,
            b"H" | b"1~" | b"7~" => Key::Home,
            b"F" | b"4~" | b"8~" => Key::End,
            _ => Key::Other("Esc".into()),
        }
    }
}

impl Drop for Term {
    fn drop(&mut self) {
        if let Some(t) = self.saved.take() {
            // SAFETY: restores the settings read in `open` on the same descriptor.
            unsafe { libc::tcsetattr(0, libc::TCSANOW, &t) };
        }
    }
}

/// One byte from stdin, waiting at most `timeout_ms` (forever when `None`).
fn read_byte(timeout_ms: Option<i32>) -> Option<u8> {
    if let Some(ms) = timeout_ms {
        let mut p = libc::pollfd {
            fd: 0,
            events: libc::POLLIN,
            revents: 0,
        };
        // SAFETY: poll reads and writes the one pollfd we own.
        if unsafe { libc::poll(&mut p, 1, ms) } <= 0 {
            return None;
        }
    }
    // Straight from the descriptor: std's stdin is buffered, and bytes sitting in its
    // buffer would be invisible to poll (an arrow key's `[C` would look like a lone Esc).
    let mut b = [0u8; 1];
    loop {
        // SAFETY: read writes at most one byte into the buffer we own.
        let n = unsafe { libc::read(0, b.as_mut_ptr().cast(), 1) };
        match n {
            1 => return Some(b[0]),
            -1 if std::io::Error::last_os_error().kind() == std::io::ErrorKind::Interrupted => {}
            _ => return None,
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

/// The stone of a mover, as the views name it in text ("● red" / "X").
pub fn stone_label(color: bool, who: Cell) -> String {
    let s = Style { color };
    match (who, color) {
        (Cell::First, true) => s.paint("1;31", "● red"),
        (Cell::Second, true) => s.paint("1;33", "● yellow"),
        (Cell::First, false) => "X".into(),
        (Cell::Second, false) => "O".into(),
        (Cell::Empty, _) => String::new(),
    }
}

/// Draws the board: column keys on top and bottom, the blocked cell as `#`, the last
/// move highlighted (reverse video, or `[ ]` without colours), a winning line in green.
pub fn draw_board(
    grid: &Grid,
    last: Option<(i32, i32)>,
    line: &[(i32, i32)],
    color: bool,
) -> String {
    let s = Style { color };
    let spec = grid.spec;
    let mut out = String::new();
    let keys: String = (0..spec.n)
        .map(|y| format!(" {} ", column_key(y)))
        .collect();
    out.push_str(&format!("   {}\n", s.paint("1", &keys)));
    for x in 0..spec.m {
        out.push_str(&format!("{x:>2} "));
        for y in 0..spec.n {
            let blocked = (x, y) == (spec.no_x, spec.no_y);
            let is_last = last == Some((x, y));
            let in_line = line.contains(&(x, y));
            let cell = match (grid.get(x, y), color) {
                _ if blocked => s.paint("90", "###"),
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
    use crate::referee::BoardSpec;

    #[test]
    fn plain_board_marks_blocked_cell_last_move_and_keys() {
        let spec = BoardSpec {
            m: 4,
            n: 11,
            no_x: 3,
            no_y: 2,
        };
        let g = Grid::from_moves(spec, &[(3, 0), (3, 10)]);
        let text = draw_board(&g, Some((3, 10)), &[], false);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "    0  1  2  3  4  5  6  7  8  9  a ");
        assert_eq!(lines[4], " 3  X  · ### ·  ·  ·  ·  ·  ·  · [O]");
        assert_eq!(lines.len(), 6);
    }
}
