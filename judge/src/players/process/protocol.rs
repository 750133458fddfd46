//! Framed messages between the judge (parent) and a library host (child).
//!
//! A frame is a little-endian `u32` payload length followed by the payload; the payload's
//! first byte is a tag. Everything the child sends is validated here: a child runs foreign
//! code and may write garbage into the pipe.

use std::io::{self, Read, Write};

/// Largest payload either side accepts; a board is at most 12*12 cells.
const MAX_PAYLOAD: usize = 64 * 1024;
/// Load-error texts are cut to this many bytes before they are sent.
pub const MAX_TEXT: usize = 4096;

const TAG_MOVE: u8 = 1;
const TAG_READY: u8 = 1;
const TAG_LOAD_ERROR: u8 = 2;
const TAG_POINT: u8 = 3;
const TAG_NULL: u8 = 4;
const TAG_WROTE: u8 = 5;

/// A `getPoint` call, parent to child: the course ABI's arguments by value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MoveRequest {
    /// Rows.
    pub m: i32,
    /// Columns.
    pub n: i32,
    /// `top[y]`, `n` entries.
    pub top: Vec<i32>,
    /// `board[x * n + y]` from the mover's point of view, `m * n` entries.
    pub board: Vec<i32>,
    /// Opponent's last move, or -1.
    pub last_x: i32,
    /// Opponent's last move, or -1.
    pub last_y: i32,
    /// Blocked cell row.
    pub no_x: i32,
    /// Blocked cell column.
    pub no_y: i32,
}

/// What the child says, child to parent.
#[derive(Debug, Clone, PartialEq)]
pub enum ChildMessage {
    /// The library loaded and both symbols resolved.
    Ready,
    /// `dlopen` or `dlsym` failed; the text is `dlerror`'s.
    LoadError(String),
    /// `getPoint` returned a point.
    Point {
        /// The point's row, as the library gave it (the referee judges it).
        x: i32,
        /// The point's column.
        y: i32,
        /// CPU time of the calling thread, nanoseconds.
        cpu_ns: u64,
    },
    /// `getPoint` returned NULL.
    Null {
        /// CPU time of the calling thread, nanoseconds.
        cpu_ns: u64,
    },
    /// `getPoint` changed the arrays it was given (sent just before its answer): the
    /// runner's arrays are live and must not be written.
    Wrote(Written),
}

/// The first entry of each array that a call changed: its index and its value after the
/// call.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Written {
    /// In `top`.
    pub top: Option<(u32, i32)>,
    /// In the board.
    pub board: Option<(u32, i32)>,
}

impl Written {
    /// What `after` differs in from `req`'s arrays; `None` when nothing changed.
    pub fn compare(req: &MoveRequest, top: &[i32], board: &[i32]) -> Option<Written> {
        let first = |before: &[i32], after: &[i32]| {
            let k = before.iter().zip(after).position(|(b, a)| b != a)?;
            Some((k as u32, after[k]))
        };
        let w = Written {
            top: first(&req.top, top),
            board: first(&req.board, board),
        };
        (w != Written::default()).then_some(w)
    }
}

/// A frame that breaks the protocol.
#[derive(Debug, thiserror::Error)]
pub enum ProtocolError {
    /// The pipe closed or failed.
    #[error("pipe: {0}")]
    Io(#[from] io::Error),
    /// The bytes do not form a valid message.
    #[error("malformed frame: {0}")]
    Malformed(String),
}

fn write_frame(w: &mut impl Write, payload: &[u8]) -> io::Result<()> {
    let mut buf = Vec::with_capacity(4 + payload.len());
    buf.extend_from_slice(&(payload.len() as u32).to_le_bytes());
    buf.extend_from_slice(payload);
    w.write_all(&buf)?;
    w.flush()
}

/// Reads one frame; `Ok(None)` on a clean end of file before the frame starts.
fn read_frame(r: &mut impl Read) -> Result<Option<Vec<u8>>, ProtocolError> {
    let mut len = [0u8; 4];
    match r.read_exact(&mut len) {
        Ok(()) => {}
        Err(e) if e.kind() == io::ErrorKind::UnexpectedEof => return Ok(None),
        Err(e) => return Err(e.into()),
    }
    let len = u32::from_le_bytes(len) as usize;
    if len == 0 || len > MAX_PAYLOAD {
        return Err(ProtocolError::Malformed(format!("frame length {len}")));
    }
    let mut payload = vec![0u8; len];
    r.read_exact(&mut payload)?;
    Ok(Some(payload))
}

fn i32_at(p: &[u8], i: usize) -> i32 {
    i32::from_le_bytes(p[i..i + 4].try_into().expect("4 bytes"))
}

/// Sends a move request (parent side).
pub fn write_request(w: &mut impl Write, req: &MoveRequest) -> io::Result<()> {
    let mut p = Vec::with_capacity(1 + 4 * (6 + req.top.len() + req.board.len()));
    p.push(TAG_MOVE);
    for v in [req.m, req.n, req.last_x, req.last_y, req.no_x, req.no_y] {
        p.extend_from_slice(&v.to_le_bytes());
    }
    for v in req.top.iter().chain(&req.board) {
        p.extend_from_slice(&v.to_le_bytes());
    }
    write_frame(w, &p)
}

/// Reads a move request (child side); `Ok(None)` when the parent closed the pipe.
pub fn read_request(r: &mut impl Read) -> Result<Option<MoveRequest>, ProtocolError> {
    let Some(p) = read_frame(r)? else {
        return Ok(None);
    };
    if p[0] != TAG_MOVE || p.len() < 1 + 24 {
        return Err(ProtocolError::Malformed("not a move request".into()));
    }
    let field = |k: usize| i32_at(&p, 1 + 4 * k);
    let (m, n) = (field(0), field(1));
    if !(1..=64).contains(&m) || !(1..=64).contains(&n) {
        return Err(ProtocolError::Malformed(format!("board {m}x{n}")));
    }
    let (mu, nu) = (m as usize, n as usize);
    if p.len() != 1 + 4 * (6 + nu + mu * nu) {
        return Err(ProtocolError::Malformed("move request length".into()));
    }
    let top = (0..nu).map(|k| field(6 + k)).collect();
    let board = (0..mu * nu).map(|k| field(6 + nu + k)).collect();
    Ok(Some(MoveRequest {
        m,
        n,
        top,
        board,
        last_x: field(2),
        last_y: field(3),
        no_x: field(4),
        no_y: field(5),
    }))
}

/// Sends a message to the parent (child side).
pub fn write_message(w: &mut impl Write, msg: &ChildMessage) -> io::Result<()> {
    let mut p = Vec::new();
    match msg {
        ChildMessage::Ready => p.push(TAG_READY),
        ChildMessage::LoadError(text) => {
            p.push(TAG_LOAD_ERROR);
            let mut end = text.len().min(MAX_TEXT);
            while !text.is_char_boundary(end) {
                end -= 1;
            }
            p.extend_from_slice(&text.as_bytes()[..end]);
        }
        ChildMessage::Point { x, y, cpu_ns } => {
            p.push(TAG_POINT);
            p.extend_from_slice(&x.to_le_bytes());
            p.extend_from_slice(&y.to_le_bytes());
            p.extend_from_slice(&cpu_ns.to_le_bytes());
        }
        ChildMessage::Null { cpu_ns } => {
            p.push(TAG_NULL);
            p.extend_from_slice(&cpu_ns.to_le_bytes());
        }
        ChildMessage::Wrote(w) => {
            p.push(TAG_WROTE);
            for entry in [w.top, w.board] {
                let (k, v) = entry.map_or((-1, 0), |(k, v)| (k as i32, v));
                p.extend_from_slice(&k.to_le_bytes());
                p.extend_from_slice(&v.to_le_bytes());
            }
        }
    }
    write_frame(w, &p)
}

/// Reads and validates a message from the child (parent side); `Ok(None)` on end of file.
pub fn read_message(r: &mut impl Read) -> Result<Option<ChildMessage>, ProtocolError> {
    let Some(p) = read_frame(r)? else {
        return Ok(None);
    };
    let u64_at = |i: usize| u64::from_le_bytes(p[i..i + 8].try_into().expect("8 bytes"));
    let msg = match (p[0], p.len()) {
        (TAG_READY, 1) => ChildMessage::Ready,
        (TAG_LOAD_ERROR, len) if len <= 1 + MAX_TEXT => {
            ChildMessage::LoadError(String::from_utf8_lossy(&p[1..]).into_owned())
        }
        (TAG_POINT, 17) => ChildMessage::Point {
            x: i32_at(&p, 1),
            y: i32_at(&p, 5),
            cpu_ns: u64_at(9),
        },
        (TAG_NULL, 9) => ChildMessage::Null { cpu_ns: u64_at(1) },
        (TAG_WROTE, 17) => {
            let entry = |i: usize| match i32_at(&p, i) {
                -1 => Ok(None),
                k if k >= 0 => Ok(Some((k as u32, i32_at(&p, i + 4)))),
                k => Err(ProtocolError::Malformed(format!("written index {k}"))),
            };
            ChildMessage::Wrote(Written {
                top: entry(1)?,
                board: entry(9)?,
            })
        }
        (tag, len) => {
            return Err(ProtocolError::Malformed(format!(
                "tag {tag} with {len} bytes"
            )));
        }
    };
    Ok(Some(msg))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn request_round_trip() {
        let req = MoveRequest {
            m: 2,
            n: 3,
            top: vec![2, 1, 2],
            board: vec![0, 0, 0, 0, 1, 0],
            last_x: 1,
            last_y: 1,
            no_x: 0,
            no_y: 1,
        };
        let mut buf = Vec::new();
        write_request(&mut buf, &req).unwrap();
        assert_eq!(read_request(&mut buf.as_slice()).unwrap(), Some(req));
    }

    #[test]
    fn written_names_the_first_change_of_each_array() {
        let req = MoveRequest {
            m: 2,
            n: 2,
            top: vec![2, 2],
            board: vec![0; 4],
            last_x: -1,
            last_y: -1,
            no_x: 0,
            no_y: 0,
        };
        assert_eq!(Written::compare(&req, &[2, 2], &[0; 4]), None);
        let w = Written::compare(&req, &[2, 1], &[0, 0, 0, 2]).unwrap();
        assert_eq!((w.top, w.board), (Some((1, 1)), Some((3, 2))));
    }

    #[test]
    fn message_round_trip_and_garbage() {
        for msg in [
            ChildMessage::Ready,
            ChildMessage::LoadError("nope".into()),
            ChildMessage::Point {
                x: -3,
                y: 7,
                cpu_ns: 12,
            },
            ChildMessage::Null { cpu_ns: 5 },
            ChildMessage::Wrote(Written {
                top: Some((3, 7)),
                board: None,
            }),
            ChildMessage::Wrote(Written {
                top: None,
                board: Some((143, 2)),
            }),
        ] {
            let mut buf = Vec::new();
            write_message(&mut buf, &msg).unwrap();
            assert_eq!(read_message(&mut buf.as_slice()).unwrap(), Some(msg));
        }
        let garbage = b"hello world, this is not a frame";
        assert!(read_message(&mut garbage.as_slice()).is_err());
        let wrong_len = [2u8, 0, 0, 0, TAG_POINT, 1];
        assert!(read_message(&mut wrong_len.as_slice()).is_err());
        assert_eq!(read_message(&mut [].as_slice()).unwrap(), None);
    }

    #[test]
    fn random_bytes_never_panic() {
        // A child may write anything into the pipe: every byte string must decode to a
        // message or an error, never a panic.
        let mut state = 0x2545_F491_4F6C_DD1Du64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for _ in 0..20_000 {
            let len = (next() % 40) as usize;
            let mut bytes: Vec<u8> = (0..len).map(|_| next() as u8).collect();
            if len >= 4 && next() % 2 == 0 {
                // Plausible length prefix, so the tag/length checks are reached too.
                let body = (len - 4) as u32;
                bytes[..4].copy_from_slice(&body.to_le_bytes());
            }
            let _ = read_message(&mut bytes.as_slice());
            let _ = read_request(&mut bytes.as_slice());
        }
    }
}
