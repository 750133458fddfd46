//! Reversi (Othello) over GTP, in the dialect Othello engines use (`gtp-rhino`, our
//! `reversi gtp`): squares in Othello notation (`d3`, row 1 at the top), answered in any
//! case.
//!
//! - Set-up: `boardsize 8`, `clear_board`, then the opening as `play black f5`,
//!   `play white d6`, ...
//! - Time: on the first turn of a game `time_settings 0 S 1` (byo-yomi: S seconds for
//!   every move, S the judge's move limit), and before each `genmove` `time_left <own
//!   colour> S 1`. A `?` to either is ignored (`gtp-rhino` takes whole seconds only).
//! - A `?` to `play <colour> pass` is ignored too (`gtp-rhino` answers `? syntax error` even
//!   to a forced pass; its board then stays as it is, and its next `genmove` for the side
//!   to move is right); a `?` to any other `play` loses by `garbage`.
//! - `genmove`'s answer is a square in any case (`d3`, `D3`) or `pass`; the referee judges
//!   it (a `pass` while moves exist is `illegal`).

use std::time::{Duration, Instant};

use super::{GtpGame, GtpPlayer, Kind, seconds};
use crate::clock::Clock;
use crate::games::Side;
use crate::games::reversi::{Move, Reversi, Setup};
use crate::players::Fault;

/// The move in a `genmove` answer's text, in any case; `None` if it is not one.
pub fn parse_genmove(text: &str) -> Option<Move> {
    text.trim().parse().ok()
}

impl GtpGame for Reversi {
    const MOVES: &'static str = "a1..h8 or pass";

    fn parse_genmove(text: &str) -> Option<Move> {
        parse_genmove(text)
    }

    fn play_kind(mv: Move) -> Kind {
        if mv == Move::Pass {
            Kind::Optional
        } else {
            Kind::Required
        }
    }

    fn set_up(
        player: &mut GtpPlayer<Reversi>,
        setup: &Setup,
        deadline: Instant,
    ) -> Result<(), Fault> {
        player.begin(Side::First, setup.opening_moves());
        let mut commands = vec![
            ("boardsize 8".to_string(), Kind::Required),
            ("clear_board".to_string(), Kind::Required),
        ];
        commands.extend(player.catch_up());
        player.run_setup(&commands, deadline)?;
        player.caught_up(false);
        Ok(())
    }

    fn time_settings(limit: Duration, _clock: Option<&Clock>) -> Option<String> {
        Some(format!("time_settings 0 {} 1", seconds(limit)))
    }

    fn time_left(colour: &str, limit: Duration, _clock: Option<&Clock>) -> Option<String> {
        Some(format!("time_left {colour} {} 1", seconds(limit)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn genmove_answers_are_moves_in_any_case() {
        assert_eq!(parse_genmove("D3"), Some(Move::Square { row: 2, col: 3 }));
        assert_eq!(parse_genmove("h8"), Some(Move::Square { row: 7, col: 7 }));
        assert_eq!(parse_genmove("PASS"), Some(Move::Pass));
        assert_eq!(parse_genmove("pass"), Some(Move::Pass));
        for bad in ["", "i1", "a9", "resign", "d3 e4", "33"] {
            assert_eq!(parse_genmove(bad), None, "{bad}");
        }
    }

    #[test]
    fn the_clock_is_the_move_limit_in_byo_yomi() {
        let limit = Duration::from_millis(5250);
        assert_eq!(
            Reversi::time_settings(limit, None).as_deref(),
            Some("time_settings 0 5 1")
        );
        assert_eq!(
            Reversi::time_left("white", limit, None).as_deref(),
            Some("time_left white 5 1")
        );
        assert_eq!(Reversi::play_kind(Move::Pass), Kind::Optional);
    }
}
