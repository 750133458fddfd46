//! The Go engine's GMP packets and its GMP session (go/src/gmp).
//!
//! Input: the other side's bytes. Every packet the decoder finds in them re-encodes to
//! four bytes that decode to the same packet, and a MOVE's value that decodes to a move
//! encodes back to the same value. Then a whole session reads them: the first byte picks
//! our colour, the board size (2..=22) and a handicap, the engine plays
//! [`PLAYOUTS`](crate::go_engine::PLAYOUTS) playouts a move with a fixed seed, and no wait
//! depends on the clock (we send NEWGAME at once as Black; resends an hour apart; no
//! lingering). The promise: no panic (not even a caught one); what we send is whole
//! packets with good checksums; an error says what went wrong; the game the engine keeps
//! replays legally from its setup.

use std::io::Cursor;
use std::time::Duration;

use go_engine::gmp::packet::DecodeError;
use go_engine::gmp::{Command, Decoder, GmpConfig, Packet, decode_move, encode_move, play_game};
use go_engine::player::Player;
use go_engine::point::Color;

use crate::go_engine::{assert_replays, settings};
use crate::panics;

/// The packets and errors `bytes` decode to.
fn decode(bytes: &[u8]) -> Vec<Result<Packet, DecodeError>> {
    let mut decoder = Decoder::new();
    bytes.iter().filter_map(|&b| decoder.push(b)).collect()
}

/// Board sizes the first byte picks from (small ones mostly: a game is cheaper).
const SIZES: [usize; 8] = [9, 5, 7, 2, 3, 13, 19, 22];

/// The target.
pub fn run(data: &[u8]) {
    for packet in decode(data).into_iter().flatten() {
        let bytes = packet.encode();
        assert_eq!(
            decode(&bytes),
            [Ok(packet)],
            "{packet} re-encoded as {bytes:?}"
        );
        if let Command::Move(value) = packet.command {
            for size in SIZES {
                if let Some((color, mv)) = decode_move(value, size) {
                    assert_eq!(
                        encode_move(color, mv, size),
                        Some(value),
                        "{color:?} {mv:?} on {size}"
                    );
                }
            }
        }
    }

    let Some((&head, rest)) = data.split_first() else {
        return;
    };
    let color = if head & 1 == 0 {
        Color::Black
    } else {
        Color::White
    };
    let size = SIZES[usize::from(head >> 1) & 7];
    let mut config = GmpConfig::new(size, color);
    config.handicap = match head >> 4 {
        h @ 2..=9 => usize::from(h),
        _ => 0,
    };
    config.newgame_wait = Duration::ZERO;
    config.retry = Duration::from_secs(3600);
    config.linger = Duration::ZERO;
    let mut player = Player::new(&settings(), size, config.komi).expect("GMP sizes are Go's");
    let mut out = Vec::new();
    let (result, panicked) =
        panics::watch(|| play_game(Cursor::new(rest.to_vec()), &mut out, &config, &mut player));
    assert!(
        !panicked,
        "a panic, caught or not (above); the end: {result:?}"
    );
    if let Err(error) = &result {
        assert!(!error.to_string().is_empty(), "an error saying nothing");
    }
    assert_eq!(out.len() % 4, 0, "a packet cut short: {out:?}");
    for (chunk, packet) in out.chunks(4).zip(decode(&out)) {
        let packet = packet.unwrap_or_else(|e| panic!("we sent {chunk:?}: {e:?}"));
        assert_eq!(packet.encode(), chunk, "we sent {chunk:?}");
    }
    assert_eq!(
        decode(&out).len(),
        out.len() / 4,
        "we sent bytes that are no packets"
    );
    assert_replays(player.engine().game());
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn other_sides_keep_the_promise() {
        // White on 9x9: their NEWGAME, then their first move; then silence.
        let newgame = Packet {
            seq: true,
            ack: false,
            command: Command::NewGame,
        };
        let mut input = vec![1];
        input.extend(newgame.encode());
        run(&input);
        run(&[0]);
        run(b"\x00\x01\x02\x03garbage");
    }
}
