//! The judge's wire protocol with a library's host process, and the course-ABI answers it
//! relays (judge/src/players/process/protocol.rs, judge/src/players/course_abi.rs).
//!
//! Input: 9 bytes that pick a Connect-4 game (the board's seed, then the plies played on
//! it), then the bytes a host writes into its pipe. The frames are read one after another
//! with [`read_message`] (what the judge reads from a host that runs foreign code) until
//! the end or the first error, and the same bytes again with [`read_request`] (what a host
//! reads from the judge). The promise: every byte string is a message or an error, never
//! a panic; a message read is written back to the same bytes' meaning (it reads back
//! equal); a request has `N` tops and `M * N` cells; a point the host relays is judged by
//! the referee on the game (played when legal, described when not).

use gravity4_judge::games::Game;
use gravity4_judge::games::connect4::{Connect4, Point};
use gravity4_judge::players::protocol::{
    ChildMessage, MAX_TEXT, read_message, read_request, write_message, write_request,
};

use crate::referee;

/// The target.
pub fn run(data: &[u8]) {
    let (head, frames) = data.split_at(data.len().min(9));
    let mut seed = [0u8; 8];
    seed[..head.len().min(8)].copy_from_slice(&head[..head.len().min(8)]);
    let mut state = u64::from_le_bytes(seed) | 1;
    let plies = head.get(8).copied().unwrap_or(0) % 64;

    let game = Connect4;
    let mut position = game.start(&game.setup(state));
    for _ in 0..plies {
        let moves = game.legal_moves(&position);
        if moves.is_empty() || game.end(&position).is_some() {
            break;
        }
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        game.play(&mut position, moves[state as usize % moves.len()]);
    }

    let mut input = frames;
    while let Ok(Some(message)) = read_message(&mut input) {
        let mut bytes = Vec::new();
        write_message(&mut bytes, &message).expect("writing to a Vec");
        let back = read_message(&mut bytes.as_slice()).expect("a message written reads back");
        match &message {
            // Longer texts are cut when written (a replaced byte reads as 3).
            ChildMessage::LoadError(text) if text.len() > MAX_TEXT => {}
            _ => assert_eq!(
                back.as_ref(),
                Some(&message),
                "{message:?} read back as {back:?}"
            ),
        }
        if let ChildMessage::Point { x, y, .. } = message
            && game.end(&position).is_none()
        {
            referee::judge(&game, &mut position, Point { x, y });
        }
    }

    let mut input = frames;
    while let Ok(Some(request)) = read_request(&mut input) {
        assert_eq!(request.top.len(), request.n as usize, "{request:?}");
        assert_eq!(
            request.board.len(),
            (request.m * request.n) as usize,
            "{request:?}"
        );
        let mut bytes = Vec::new();
        write_request(&mut bytes, &request).expect("writing to a Vec");
        let back = read_request(&mut bytes.as_slice()).expect("a request written reads back");
        assert_eq!(back.as_ref(), Some(&request));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use gravity4_judge::players::protocol::MoveRequest;

    #[test]
    fn frames_of_every_kind_keep_the_promise() {
        let mut data = vec![7, 0, 0, 0, 0, 0, 0, 0, 3];
        for message in [
            ChildMessage::Ready,
            ChildMessage::Point {
                x: 8,
                y: 0,
                cpu_ns: 5,
            },
            ChildMessage::Point {
                x: i32::MIN,
                y: i32::MAX,
                cpu_ns: 5,
            },
            ChildMessage::Null { cpu_ns: 1 },
            ChildMessage::LoadError("x".repeat(10)),
        ] {
            write_message(&mut data, &message).unwrap();
        }
        let request = MoveRequest {
            m: 4,
            n: 4,
            top: vec![4; 4],
            board: vec![0; 16],
            last_x: -1,
            last_y: -1,
            no_x: 0,
            no_y: 0,
        };
        write_request(&mut data, &request).unwrap();
        run(&data);
        run(&[]);
    }
}
