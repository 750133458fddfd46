//! GMP's message format: 4-byte packets with sequence bits and a checksum.
//!
//! From the Standard Go Modem Protocol, revision 1.0 (Bruce Wilcox and David Fotland; e.g.
//! <https://www.britgo.org/tech/gmp.html>), as GNU Go's `interface/gmp.c` implements it:
//!
//! | byte | bits                    | meaning                                           |
//! |------|-------------------------|---------------------------------------------------|
//! | 0    | `0 0 0 0 0 0 h s`       | `s` the sender's sequence bit, `h` the last sequence bit it received |
//! | 1    | `1 c c c c c c c`       | checksum: low 7 bits of byte 0 + byte 2 + byte 3   |
//! | 2    | `1 k k k 0 v v v`       | command `k`, value bits 9..7                      |
//! | 3    | `1 v v v v v v v`       | value bits 6..0                                   |
//!
//! Only the first byte of a packet has its top bit clear (and its six high bits zero), so a
//! reader finds packets in any byte stream; bytes outside packets are "talk" text, which is
//! ignored. The commands are OK (0), DENY (1), NEWGAME (2), QUERY (3), ANSWER (4), MOVE (5),
//! UNDO (6) and EXTENDED (7), each with a 10-bit value.
//!
//! A MOVE's value has the mover's colour in bit 9 (set for White) and the location in bits
//! 8..0: 0 is a pass, `1 + x + size * row` a point, with `row` counted from the BOTTOM (so 1
//! is the lower left corner), as GNU Go sends and reads it. Nine bits address at most 511
//! points: boards up to 22x22.

use std::fmt;

use crate::point::{Color, Move, Point};

/// The largest board GMP's 9-bit locations can address (GNU Go's `gmp.c` asserts it too).
pub const GMP_MAX_SIZE: usize = 22;

/// The queries of GMP (the value of a QUERY command).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Query {
    /// Which game (1 = Go).
    Game,
    /// Input buffer size.
    BufferSize,
    /// Protocol version.
    Protocol,
    /// Number of stones on the board.
    Stones,
    /// Black's time.
    BlackTime,
    /// White's time.
    WhiteTime,
    /// Character set.
    CharSet,
    /// Rules: 1 Japanese, 2 Chinese (0 unknown).
    Rules,
    /// Handicap: 1 none, 2.. stones (0 unknown).
    Handicap,
    /// Board size (0 unknown).
    BoardSize,
    /// Time limit.
    TimeLimit,
    /// The answerer's colour: 1 white, 2 black (0 unknown).
    Color,
    /// Who the answerer is.
    Who,
    /// Any other value (extended queries have bit 9 set).
    Other(u16),
}

impl Query {
    /// The query's number.
    pub fn code(self) -> u16 {
        match self {
            Query::Game => 0,
            Query::BufferSize => 1,
            Query::Protocol => 2,
            Query::Stones => 3,
            Query::BlackTime => 4,
            Query::WhiteTime => 5,
            Query::CharSet => 6,
            Query::Rules => 7,
            Query::Handicap => 8,
            Query::BoardSize => 9,
            Query::TimeLimit => 10,
            Query::Color => 11,
            Query::Who => 12,
            Query::Other(code) => code,
        }
    }

    /// The query with number `code`.
    pub fn from_code(code: u16) -> Query {
        const ALL: [Query; 13] = [
            Query::Game,
            Query::BufferSize,
            Query::Protocol,
            Query::Stones,
            Query::BlackTime,
            Query::WhiteTime,
            Query::CharSet,
            Query::Rules,
            Query::Handicap,
            Query::BoardSize,
            Query::TimeLimit,
            Query::Color,
            Query::Who,
        ];
        ALL.get(usize::from(code))
            .copied()
            .unwrap_or(Query::Other(code))
    }
}

/// A command and its value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Command {
    /// Acknowledges the other side's last command.
    Ok,
    /// Refuses the other side's last command.
    Deny,
    /// Starts a new game (the value is 0).
    NewGame,
    /// Asks a question.
    Query(Query),
    /// Answers the other side's query.
    Answer(u16),
    /// A move (see [`encode_move`]).
    Move(u16),
    /// Takes back this many moves.
    Undo(u16),
    /// An extended command (none is defined).
    Extended(u16),
}

impl Command {
    /// The command's number and value.
    pub fn code_and_value(self) -> (u8, u16) {
        match self {
            Command::Ok => (0, 0),
            Command::Deny => (1, 0),
            Command::NewGame => (2, 0),
            Command::Query(q) => (3, q.code()),
            Command::Answer(v) => (4, v),
            Command::Move(v) => (5, v),
            Command::Undo(v) => (6, v),
            Command::Extended(v) => (7, v),
        }
    }

    /// The command with number `code` (0..=7) and `value`.
    pub fn from_code(code: u8, value: u16) -> Command {
        match code & 7 {
            0 => Command::Ok,
            1 => Command::Deny,
            2 => Command::NewGame,
            3 => Command::Query(Query::from_code(value)),
            4 => Command::Answer(value),
            5 => Command::Move(value),
            6 => Command::Undo(value),
            _ => Command::Extended(value),
        }
    }
}

/// One packet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Packet {
    /// The sender's sequence bit (toggled for every command but OK).
    pub seq: bool,
    /// The last sequence bit the sender received from the other side.
    pub ack: bool,
    /// The command.
    pub command: Command,
}

/// The checksum byte of a packet's bytes 0, 2 and 3.
pub fn checksum(b0: u8, b2: u8, b3: u8) -> u8 {
    b0.wrapping_add(b2).wrapping_add(b3) | 0x80
}

impl Packet {
    /// The packet's four bytes (a value is cut to its 10 bits).
    pub fn encode(&self) -> [u8; 4] {
        let (code, value) = self.command.code_and_value();
        let b0 = u8::from(self.seq) | (u8::from(self.ack) << 1);
        let b2 = 0x80 | (code << 4) | ((value >> 7) & 7) as u8;
        let b3 = 0x80 | (value & 0x7f) as u8;
        [b0, checksum(b0, b2, b3), b2, b3]
    }
}

impl fmt::Display for Packet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{:?} (seq {}, ack {})",
            self.command,
            u8::from(self.seq),
            u8::from(self.ack)
        )
    }
}

/// Why four bytes were not a packet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DecodeError {
    /// A byte with the top bit clear inside a packet: the packet was cut short.
    Truncated,
    /// The checksum does not match.
    Checksum,
    /// Bit 3 of the command byte is set (reserved; GNU Go ignores such packets too).
    Reserved,
}

/// Finds packets in a byte stream.
#[derive(Clone, Debug, Default)]
pub struct Decoder {
    bytes: [u8; 4],
    len: usize,
}

impl Decoder {
    /// A decoder waiting for the start of a packet.
    pub fn new() -> Decoder {
        Decoder::default()
    }

    /// Takes one byte; returns a packet when this byte completes one, or why the bytes so far
    /// were no packet. Bytes between packets give `None`.
    pub fn push(&mut self, byte: u8) -> Option<Result<Packet, DecodeError>> {
        let starts_packet = byte & 0xfc == 0;
        if self.len == 0 {
            if starts_packet {
                self.bytes[0] = byte;
                self.len = 1;
            }
            return None;
        }
        if byte & 0x80 == 0 {
            self.len = 0;
            if starts_packet {
                self.bytes[0] = byte;
                self.len = 1;
            }
            return Some(Err(DecodeError::Truncated));
        }
        self.bytes[self.len] = byte;
        self.len += 1;
        if self.len < 4 {
            return None;
        }
        self.len = 0;
        let [b0, b1, b2, b3] = self.bytes;
        if checksum(b0, b2, b3) != b1 {
            return Some(Err(DecodeError::Checksum));
        }
        if b2 & 0x08 != 0 {
            return Some(Err(DecodeError::Reserved));
        }
        let value = (u16::from(b2 & 7) << 7) | u16::from(b3 & 0x7f);
        Some(Ok(Packet {
            seq: b0 & 1 == 1,
            ack: b0 & 2 == 2,
            command: Command::from_code((b2 >> 4) & 7, value),
        }))
    }
}

/// The colour bit of a MOVE value.
const WHITE_BIT: u16 = 0x200;

/// A MOVE value for `color` playing `mv` on a `size` board; `None` for a resignation (GMP
/// has none), a point off the board or a board GMP cannot address.
pub fn encode_move(color: Color, mv: Move, size: usize) -> Option<u16> {
    if size > GMP_MAX_SIZE {
        return None;
    }
    let location = match mv {
        Move::Pass => 0,
        Move::Play(p) if p.on_board(size) => {
            let (x, y) = (usize::from(p.x), usize::from(p.y));
            1 + x + size * (size - 1 - y)
        }
        Move::Play(_) | Move::Resign => return None,
    };
    let colour = if color == Color::White { WHITE_BIT } else { 0 };
    Some(location as u16 | colour)
}

/// The colour and move of a MOVE value on a `size` board; `None` when the location is off
/// the board.
pub fn decode_move(value: u16, size: usize) -> Option<(Color, Move)> {
    let color = if value & WHITE_BIT != 0 {
        Color::White
    } else {
        Color::Black
    };
    let location = usize::from(value & 0x1ff);
    if location == 0 {
        return Some((color, Move::Pass));
    }
    if size == 0 || size > GMP_MAX_SIZE || location > size * size {
        return None;
    }
    let index = location - 1;
    let (x, row) = (index % size, index / size);
    Some((color, Move::Play(Point::new(x, size - 1 - row))))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn packet(seq: bool, ack: bool, command: Command) -> Packet {
        Packet { seq, ack, command }
    }

    fn decode_all(bytes: &[u8]) -> Vec<Result<Packet, DecodeError>> {
        let mut d = Decoder::new();
        bytes.iter().filter_map(|&b| d.push(b)).collect()
    }

    #[test]
    fn packets_are_the_bytes_the_spec_lays_out() {
        // The first command of a fresh side: NEWGAME with sequence bit 1, having seen 0.
        // byte 0 = 000000 h=0 s=1; byte 2 = 1 010 0 000; byte 3 = 1 0000000;
        // checksum = (0x01 + 0xa0 + 0x80) mod 256 = 0x21, top bit set: 0xa1.
        // These are also the first four bytes `gnugo --mode gmp --color black` writes.
        assert_eq!(
            packet(true, false, Command::NewGame).encode(),
            [0x01, 0xa1, 0xa0, 0x80]
        );
        // OK carrying sequence 0, acknowledging 1: byte 0 = 0b10.
        assert_eq!(
            packet(false, true, Command::Ok).encode(),
            [0x02, 0x82, 0x80, 0x80]
        );
        // QUERY board size (9): byte 2 = 1 011 0 000, byte 3 = 1 0001001.
        assert_eq!(
            packet(true, true, Command::Query(Query::BoardSize)).encode(),
            [0x03, 0xbc, 0xb0, 0x89]
        );
        // A value with high bits: MOVE 0x2d5 (white, location 213): byte 2 = 1 101 0 101,
        // byte 3 = 1 1010101; checksum 0x00 + 0xd5 + 0xd5 = 0x1aa -> 0xaa.
        assert_eq!(
            packet(false, false, Command::Move(0x2d5)).encode(),
            [0x00, 0xaa, 0xd5, 0xd5]
        );
    }

    #[test]
    fn every_command_round_trips_through_the_decoder() {
        let commands = [
            Command::Ok,
            Command::Deny,
            Command::NewGame,
            Command::Query(Query::Rules),
            Command::Query(Query::Other(0x200)),
            Command::Answer(19),
            Command::Move(0x3ff),
            Command::Undo(2),
            Command::Extended(5),
        ];
        for (i, &command) in commands.iter().enumerate() {
            let p = packet(i % 2 == 0, i % 3 == 0, command);
            assert_eq!(decode_all(&p.encode()), [Ok(p)], "{command:?}");
        }
        for code in 0..13 {
            assert_eq!(Query::from_code(code).code(), code);
        }
    }

    #[test]
    fn the_decoder_finds_packets_among_other_bytes() {
        let a = packet(true, false, Command::NewGame).encode();
        let b = packet(false, true, Command::Answer(9)).encode();
        let mut stream = b"talk text\r\n".to_vec();
        stream.extend(a);
        stream.extend([0x41, 0x42]); // more talk between packets
        // A packet cut short by the start of the next one.
        stream.extend(&b[..2]);
        stream.extend(b);
        let got = decode_all(&stream);
        assert_eq!(
            got,
            [
                Ok(packet(true, false, Command::NewGame)),
                Err(DecodeError::Truncated),
                Ok(packet(false, true, Command::Answer(9))),
            ]
        );
        let mut bad = a;
        bad[1] ^= 0x01;
        assert_eq!(decode_all(&bad), [Err(DecodeError::Checksum)]);
        let mut reserved = a;
        reserved[2] |= 0x08;
        reserved[1] = checksum(reserved[0], reserved[2], reserved[3]);
        assert_eq!(decode_all(&reserved), [Err(DecodeError::Reserved)]);
    }

    #[test]
    fn moves_count_from_the_lower_left_corner() {
        let at = |x, y| Move::Play(Point::new(x, y));
        // 9x9: the lower left corner (A1, x 0, y 8 from the top) is location 1; B1 is 2;
        // A2 is 10; the upper right corner (J9) is 81.
        assert_eq!(encode_move(Color::Black, at(0, 8), 9), Some(1));
        assert_eq!(encode_move(Color::Black, at(1, 8), 9), Some(2));
        assert_eq!(encode_move(Color::Black, at(0, 7), 9), Some(10));
        assert_eq!(encode_move(Color::Black, at(8, 0), 9), Some(81));
        assert_eq!(encode_move(Color::White, at(0, 8), 9), Some(0x201));
        assert_eq!(encode_move(Color::White, Move::Pass, 9), Some(0x200));
        assert_eq!(encode_move(Color::Black, Move::Pass, 19), Some(0));
        assert_eq!(encode_move(Color::Black, Move::Resign, 9), None);
        assert_eq!(encode_move(Color::Black, at(9, 0), 9), None);
        assert_eq!(encode_move(Color::Black, at(0, 0), 23), None);
        for size in [2, 9, 13, 19, 22] {
            for y in 0..size {
                for x in 0..size {
                    for color in [Color::Black, Color::White] {
                        let v = encode_move(color, at(x, y), size).unwrap();
                        assert_eq!(decode_move(v, size), Some((color, at(x, y))));
                    }
                }
            }
        }
        assert_eq!(decode_move(0x200, 9), Some((Color::White, Move::Pass)));
        assert_eq!(decode_move(82, 9), None);
        assert_eq!(decode_move(0x1ff, 22), None);
        assert_eq!(decode_move(1, 0), None);
    }
}
