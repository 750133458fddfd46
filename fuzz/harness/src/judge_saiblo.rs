//! The judge's reader of a Saiblo program's framed answers (judge/src/players/saiblo.rs).
//!
//! Input: what a program writes to its stdout, read as the judge reads it between moves:
//! a framed `ok` taken while no answer has come yet, then frame after frame with
//! [`parse_frame`]. The promise: a whole frame is taken, more bytes awaited only while
//! the frame is incomplete, anything else refused with a message, never a panic; a frame
//! taken is a length of 1..=[`MAX_FRAME`] and exactly `x y` (two decimal integers, a
//! `-` allowed, ASCII blanks around them), read independently here to the same point,
//! and the point written back as a frame reads back equal; the referee judges it on a game
//! of the course's board.

use gravity4_judge::games::Game;
use gravity4_judge::games::connect4::{Connect4, Point};
use gravity4_judge::players::saiblo::{HELLO, MAX_FRAME, parse_frame};

use crate::referee;

/// `x y` read independently: two words of ASCII blanks apart, each `-`? and digits that fit
/// an `i32`.
fn read_answer(payload: &[u8]) -> Option<Point> {
    let words: Vec<&[u8]> = payload
        .split(|b| b.is_ascii_whitespace())
        .filter(|w| !w.is_empty())
        .collect();
    let number = |w: &[u8]| {
        let digits = w.strip_prefix(b"-").unwrap_or(w);
        if digits.is_empty() || !digits.iter().all(u8::is_ascii_digit) {
            return None;
        }
        std::str::from_utf8(w).ok()?.parse::<i32>().ok()
    };
    match words[..] {
        [x, y] => Some(Point {
            x: number(x)?,
            y: number(y)?,
        }),
        _ => None,
    }
}

/// The target.
pub fn run(data: &[u8]) {
    let game = Connect4;
    let mut position = game.start(&game.setup(u64::from(data.len() as u32)));
    let mut inbox = data;
    let mut hello_allowed = true;
    while !inbox.is_empty() {
        if hello_allowed && inbox.starts_with(HELLO) {
            inbox = &inbox[HELLO.len()..];
            hello_allowed = false;
            continue;
        }
        let length = inbox
            .first_chunk::<4>()
            .map(|l| u32::from_be_bytes(*l) as usize);
        match parse_frame(inbox) {
            Ok(Some((point, size))) => {
                let length = length.expect("a frame without its length");
                assert!(
                    (1..=MAX_FRAME).contains(&length) && size == 4 + length && size <= inbox.len(),
                    "frame of {size} bytes taken from {inbox:?}"
                );
                assert_eq!(
                    read_answer(&inbox[4..size]),
                    Some(point),
                    "{inbox:?} read as {point:?}"
                );
                let written = format!("{} {}", point.x, point.y);
                let mut frame = (written.len() as u32).to_be_bytes().to_vec();
                frame.extend_from_slice(written.as_bytes());
                assert_eq!(
                    parse_frame(&frame),
                    Ok(Some((point, frame.len()))),
                    "{written} does not read back"
                );
                referee::judge(&game, &mut position, point);
                inbox = &inbox[size..];
                hello_allowed = false;
            }
            Ok(None) => {
                assert!(
                    length.is_none_or(|n| inbox.len() < 4 + n),
                    "a whole frame awaits more bytes: {inbox:?}"
                );
                return;
            }
            Err(text) => {
                assert!(!text.is_empty(), "refused without a reason: {inbox:?}");
                let length = length.expect("a frame refused before its length");
                let payload = inbox.get(4..4 + length);
                assert!(
                    !(1..=MAX_FRAME).contains(&length)
                        || payload.is_some_and(|p| read_answer(p).is_none()),
                    "{inbox:?} refused ({text}), though it is a frame of `x y`"
                );
                // The judge stops here (the program loses by garbage); read on past the
                // length to reach more frames.
                inbox = &inbox[4.min(inbox.len())..];
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_independent_reading_is_the_protocols() {
        assert_eq!(read_answer(b" -1 12\n"), Some(Point { x: -1, y: 12 }));
        for bad in [
            &b"3"[..],
            b"+3 4",
            b"3 4 5",
            b"- 4",
            b"3 99999999999",
            b"3\x004",
        ] {
            assert_eq!(read_answer(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn program_output_keeps_the_promise() {
        run(b"\0\0\0\x02ok\0\0\0\x0411 3\0\0\0\x02ok\0\0\0\x07 -1 12\nhello\0\0\0\x04");
    }
}
