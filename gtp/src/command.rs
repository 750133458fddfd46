//! Reading GTP commands: preprocessing (section 3.1, "Preprocessing") and the command
//! structure (section 3.2, "Commands").
//!
//! Section 3.1, applied to every line before anything else:
//! 1. remove CR and the other control characters but HT and LF;
//! 2. remove everything from a hash sign (`#`) to the end of the line;
//! 3. turn HT into SPACE;
//! 4. discard empty and white-space-only lines (no response is sent for them).
//!
//! A command is then `[id] command_name [arguments]`: an optional id (an int, echoed in the
//! response), the name, and arguments separated by white space. The work is done on bytes,
//! so a comment in any encoding is harmless; what remains must be UTF-8.

use std::fmt;
use std::io::{self, BufRead};

/// The longest line kept (the rest of a longer line is read and dropped).
pub const MAX_LINE: usize = 64 * 1024;

/// One command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Command {
    /// The id, to echo in the response.
    pub id: Option<u32>,
    /// The command name, as sent (GTP names are case-sensitive).
    pub name: String,
    /// The arguments.
    pub args: Vec<String>,
}

/// A line that is no command, or an argument that is not the entity it should be.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GtpError {
    /// An empty line or a comment: ignored, not answered (section 3.1, step 4).
    Blank,
    /// An id that is not an int (0 to 2^31 - 1).
    InvalidId,
    /// An id and no command name.
    MissingCommand {
        /// The id.
        id: u32,
    },
    /// The line (after preprocessing) is not UTF-8.
    InvalidUtf8 {
        /// The id, when the line starts with one.
        id: Option<u32>,
    },
    /// The line is longer than [`MAX_LINE`].
    LineTooLong {
        /// The id, when the line starts with one.
        id: Option<u32>,
    },
    /// Not a vertex on this board.
    InvalidVertex(String),
    /// Not a colour.
    InvalidColor(String),
    /// Not an int.
    InvalidInt(String),
    /// Not a float.
    InvalidFloat(String),
}

impl GtpError {
    /// The id to echo in the error response.
    pub fn id(&self) -> Option<u32> {
        match *self {
            GtpError::MissingCommand { id } => Some(id),
            GtpError::InvalidUtf8 { id } | GtpError::LineTooLong { id } => id,
            _ => None,
        }
    }

    /// True for a line that gets no response.
    pub fn is_blank(&self) -> bool {
        *self == GtpError::Blank
    }
}

impl fmt::Display for GtpError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GtpError::Blank => f.write_str("empty line"),
            GtpError::InvalidId => f.write_str("syntax error: invalid id"),
            GtpError::MissingCommand { .. } => f.write_str("syntax error: no command"),
            GtpError::InvalidUtf8 { .. } => f.write_str("syntax error: invalid UTF-8"),
            GtpError::LineTooLong { .. } => f.write_str("syntax error: line too long"),
            GtpError::InvalidVertex(s) => write!(f, "invalid coordinate {s}"),
            GtpError::InvalidColor(s) => write!(f, "invalid color {s}"),
            GtpError::InvalidInt(s) => write!(f, "invalid int {s}"),
            GtpError::InvalidFloat(s) => write!(f, "invalid float {s}"),
        }
    }
}

impl std::error::Error for GtpError {}

/// Section 3.1's steps 1 to 3 on one line (without its LF): control characters but HT
/// removed, the comment cut, HT made SPACE.
pub fn preprocess(line: &[u8]) -> Vec<u8> {
    line.iter()
        .copied()
        .take_while(|&b| b != b'#')
        .filter(|&b| b == b'\t' || !(b < b' ' || b == 0x7f))
        .map(|b| if b == b'\t' { b' ' } else { b })
        .collect()
}

/// The largest id: ints are 0 to 2^31 - 1.
const MAX_ID: u32 = (1 << 31) - 1;

/// Parses one line (without its LF) into a command.
pub fn parse_command(line: &[u8]) -> Result<Command, GtpError> {
    let clean = preprocess(line);
    let mut words = clean.split(|&b| b == b' ').filter(|w| !w.is_empty());
    let Some(first) = words.next() else {
        return Err(GtpError::Blank);
    };
    let (id, name) = if first.iter().all(u8::is_ascii_digit) {
        let id = std::str::from_utf8(first)
            .ok()
            .and_then(|s| s.parse::<u32>().ok())
            .filter(|&n| n <= MAX_ID)
            .ok_or(GtpError::InvalidId)?;
        let name = words.next().ok_or(GtpError::MissingCommand { id })?;
        (Some(id), name)
    } else {
        (None, first)
    };
    let text = |w: &[u8]| {
        std::str::from_utf8(w)
            .map(str::to_string)
            .map_err(|_| GtpError::InvalidUtf8 { id })
    };
    Ok(Command {
        id,
        name: text(name)?,
        args: words.map(text).collect::<Result<_, _>>()?,
    })
}

/// The id at the start of a line, if it has one (for errors about the whole line).
fn leading_id(line: &[u8]) -> Option<u32> {
    match parse_command(line) {
        Ok(command) => command.id,
        Err(e) => e.id(),
    }
}

/// Reads commands from a byte stream, one line each, skipping blank lines.
pub struct CommandReader<R> {
    inner: R,
    line: Vec<u8>,
}

impl<R: BufRead> CommandReader<R> {
    /// A reader of `inner`.
    pub fn new(inner: R) -> CommandReader<R> {
        CommandReader {
            inner,
            line: Vec::new(),
        }
    }

    /// The next command (or the error to answer for its line); `None` at the end of the
    /// input. A last line without LF counts as a line.
    pub fn read_command(&mut self) -> io::Result<Option<Result<Command, GtpError>>> {
        loop {
            let Some(too_long) = self.read_line()? else {
                return Ok(None);
            };
            if too_long {
                return Ok(Some(Err(GtpError::LineTooLong {
                    id: leading_id(&self.line),
                })));
            }
            match parse_command(&self.line) {
                Err(GtpError::Blank) => continue,
                result => return Ok(Some(result)),
            }
        }
    }

    /// Reads up to the next LF into `self.line` (at most [`MAX_LINE`] bytes kept). Returns
    /// whether the line was too long, or `None` at the end of the input.
    fn read_line(&mut self) -> io::Result<Option<bool>> {
        self.line.clear();
        let mut too_long = false;
        let mut any = false;
        loop {
            let buf = match self.inner.fill_buf() {
                Ok(buf) => buf,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if buf.is_empty() {
                return Ok(any.then_some(too_long));
            }
            any = true;
            let (chunk, used, done) = match buf.iter().position(|&b| b == b'\n') {
                Some(i) => (&buf[..i], i + 1, true),
                None => (buf, buf.len(), false),
            };
            let room = MAX_LINE - self.line.len();
            if chunk.len() > room {
                too_long = true;
            }
            self.line.extend_from_slice(&chunk[..chunk.len().min(room)]);
            self.inner.consume(used);
            if done {
                return Ok(Some(too_long));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cmd(id: Option<u32>, name: &str, args: &[&str]) -> Command {
        Command {
            id,
            name: name.into(),
            args: args.iter().map(|s| s.to_string()).collect(),
        }
    }

    #[test]
    fn preprocessing_follows_section_3_1() {
        assert_eq!(preprocess(b"play\tblack\r d4 # comment"), b"play black d4 ");
        assert_eq!(preprocess(b"\x01\x02gen\x7fmove\x1b b"), b"genmove b");
        assert_eq!(preprocess(b"# only a comment"), b"");
        assert_eq!(
            parse_command(b"   \t  # a comment line"),
            Err(GtpError::Blank)
        );
        assert_eq!(parse_command(b""), Err(GtpError::Blank));
        assert_eq!(parse_command(b"\r"), Err(GtpError::Blank));
    }

    #[test]
    fn commands_with_and_without_ids() {
        // Examples in the manner of the specification's.
        assert_eq!(
            parse_command(b"1 boardsize 19"),
            Ok(cmd(Some(1), "boardsize", &["19"]))
        );
        assert_eq!(
            parse_command(b"play white D4"),
            Ok(cmd(None, "play", &["white", "D4"]))
        );
        assert_eq!(parse_command(b"42 quit\r"), Ok(cmd(Some(42), "quit", &[])));
        assert_eq!(
            parse_command(b"  7\t\tkomi   6.5  "),
            Ok(cmd(Some(7), "komi", &["6.5"]))
        );
        assert_eq!(parse_command(b"0 name"), Ok(cmd(Some(0), "name", &[])));
        assert_eq!(
            parse_command(b"2147483647 name"),
            Ok(cmd(Some(2147483647), "name", &[]))
        );
        // A name that starts with a digit but is not all digits is a (unknown) name.
        assert_eq!(parse_command(b"3d4 x"), Ok(cmd(None, "3d4", &["x"])));
    }

    #[test]
    fn malformed_lines_are_errors_with_the_id_when_there_is_one() {
        assert_eq!(parse_command(b"2147483648 name"), Err(GtpError::InvalidId));
        assert_eq!(
            parse_command(b"99999999999999999999 name"),
            Err(GtpError::InvalidId)
        );
        assert_eq!(
            parse_command(b"12"),
            Err(GtpError::MissingCommand { id: 12 })
        );
        assert_eq!(
            parse_command(b"12 # nothing"),
            Err(GtpError::MissingCommand { id: 12 })
        );
        let e = parse_command(b"5 play black \xff\xfe").unwrap_err();
        assert_eq!(e, GtpError::InvalidUtf8 { id: Some(5) });
        assert_eq!(e.id(), Some(5));
        assert_eq!(
            parse_command(b"n\xc3me"),
            Err(GtpError::InvalidUtf8 { id: None })
        );
        // Non-UTF-8 bytes in a comment are harmless.
        assert_eq!(parse_command(b"name # caf\xe9"), Ok(cmd(None, "name", &[])));
        assert_eq!(
            parse_command("play b d4 \u{e9}".as_bytes()),
            Ok(cmd(None, "play", &["b", "d4", "\u{e9}"]))
        );
    }

    #[test]
    fn the_reader_skips_blank_lines_and_survives_long_ones() {
        let mut input = b"\n# comment\n  \n1 name\r\n".to_vec();
        input.extend(std::iter::repeat_n(b'x', MAX_LINE + 10));
        input.extend(b"\n2 version\n\xff\nlast".iter());
        let mut reader = CommandReader::new(&input[..]);
        let mut got = Vec::new();
        while let Some(result) = reader.read_command().unwrap() {
            got.push(result);
        }
        assert_eq!(
            got,
            [
                Ok(cmd(Some(1), "name", &[])),
                Err(GtpError::LineTooLong { id: None }),
                Ok(cmd(Some(2), "version", &[])),
                Err(GtpError::InvalidUtf8 { id: None }),
                Ok(cmd(None, "last", &[])),
            ]
        );
        let mut long = b"77 play ".to_vec();
        long.extend(std::iter::repeat_n(b'y', MAX_LINE));
        let mut reader = CommandReader::new(&long[..]);
        assert_eq!(
            reader.read_command().unwrap(),
            Some(Err(GtpError::LineTooLong { id: Some(77) }))
        );
        assert_eq!(reader.read_command().unwrap(), None);
    }

    #[test]
    fn any_bytes_parse_without_panicking() {
        const ALPHABET: &[u8] = b" 0123#\t\r\n\xff\xc3abplay";
        let mut state = 0x2545_f491_4f6c_dd1du64;
        for _ in 0..20_000 {
            let len = (state % 24) as usize;
            let line: Vec<u8> = (0..len)
                .map(|_| {
                    state ^= state << 13;
                    state ^= state >> 7;
                    state ^= state << 17;
                    ALPHABET[(state % ALPHABET.len() as u64) as usize]
                })
                .collect();
            if let Ok(c) = parse_command(&line) {
                assert!(!c.name.is_empty() && !c.name.contains(' '));
            }
            state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        }
    }
}
