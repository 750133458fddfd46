//! Go over GTP version 2: vertices as GTP writes them (`D4`, row 1 at the bottom), the
//! komi and the handicap in the set-up, the referee's game clock in GTP's time commands.
//!
//! - Set-up: `boardsize N`, `clear_board`, `komi K`; with a handicap `fixed_handicap H`,
//!   whose answer must name the referee's points (GTP's fixed placement), else (a `?`, or
//!   other points) `clear_board` and `set_free_handicap` with the referee's points; then
//!   the opening as `play black E5`, `play white C3`, ...
//! - Time: on a game clock, on the first turn of a game `time_settings M B S` (main time,
//!   byo-yomi period, stones per period: Canadian, as GTP defines it), and before each
//!   `genmove` `time_left <own colour> T S` (main time left and 0, or the period's time and
//!   stones left). Without a clock the judge says nothing of time: the engine thinks as it
//!   was told on its command line (`--move-ms`, GNU Go's `--level`), and the per-move limit
//!   is the judge's alone.
//! - A `?` to `play` means the engine refused the opponent's legal move: it loses by
//!   `garbage`, the detail saying `refused ...`.
//! - `genmove`'s answer is a vertex in any case (`D4`, `d4`), `pass` or `resign`; the
//!   referee judges it (an occupied point, suicide or a superko repetition is `illegal`).

use std::time::{Duration, Instant};

use super::{GtpGame, GtpPlayer, Kind, seconds};
use crate::clock::Clock;
use crate::games::Game;
use crate::games::go::{Go, Move, Setup};
use crate::players::Fault;

/// The move in a `genmove` answer's text (a vertex in any case, `pass`, `resign`).
pub fn parse_genmove(text: &str) -> Option<Move> {
    text.trim().parse().ok()
}

/// The vertices of a `fixed_handicap` answer (`D4 Q16 ...`), if every word is one.
fn parse_vertices(text: &str) -> Option<Vec<Move>> {
    text.split_whitespace()
        .map(|w| match w.parse() {
            Ok(mv @ Move::Play { .. }) => Some(mv),
            _ => None,
        })
        .collect()
}

/// Whether two lists name the same points, in any order.
fn same_points(a: &[Move], b: &[Move]) -> bool {
    let key = |m: &Move| match *m {
        Move::Play { col, row } => (col, row),
        _ => (-1, -1),
    };
    let mut a: Vec<_> = a.iter().map(key).collect();
    let mut b: Vec<_> = b.iter().map(key).collect();
    a.sort_unstable();
    b.sort_unstable();
    a == b
}

/// The handicap stones of `setup`: GTP's fixed placement when the engine's points are the
/// referee's, else the referee's points as free handicap.
fn handicap(player: &mut GtpPlayer<Go>, setup: &Setup, deadline: Instant) -> Result<(), Fault> {
    let stones = setup.handicap_stones();
    if stones.is_empty() {
        return Ok(());
    }
    let fixed = format!("fixed_handicap {}", stones.len());
    let placed = match player.exchange(&[(fixed, Kind::Last)], deadline) {
        Ok(reply) if reply.ok => parse_vertices(&reply.text),
        Ok(_) => None,
        Err(e) => return Err(player.setup_fault(e)),
    };
    if placed.is_some_and(|p| same_points(&p, &stones)) {
        return Ok(());
    }
    let vertices: Vec<String> = stones.iter().map(Move::to_string).collect();
    let commands = [
        ("clear_board".to_string(), Kind::Required),
        (
            format!("set_free_handicap {}", vertices.join(" ")),
            Kind::Last,
        ),
    ];
    player.run_setup(&commands, deadline)
}

impl GtpGame for Go {
    const MOVES: &'static str = "a vertex like D4, pass or resign";

    fn parse_genmove(text: &str) -> Option<Move> {
        parse_genmove(text)
    }

    fn play_kind(_mv: Move) -> Kind {
        Kind::Play
    }

    fn set_up(player: &mut GtpPlayer<Go>, setup: &Setup, deadline: Instant) -> Result<(), Fault> {
        let rules = setup.rules();
        let commands = [
            (format!("boardsize {}", rules.size()), Kind::Required),
            ("clear_board".to_string(), Kind::Required),
            (format!("komi {}", rules.komi_text()), Kind::Last),
        ];
        player.run_setup(&commands, deadline)?;
        handicap(player, setup, deadline)?;
        // The opening has whole pairs of plies: its first mover also moves first after it.
        player.begin(Go::first_mover(setup), setup.opening().to_vec());
        let plays: Vec<(String, Kind)> = player
            .catch_up()
            .into_iter()
            .map(|(c, _)| (c, Kind::Required))
            .collect();
        if !plays.is_empty() {
            player.run_setup(&plays, deadline)?;
        }
        // The game's own moves are counted from after the opening.
        player.caught_up(true);
        Ok(())
    }

    fn time_settings(_limit: Duration, clock: Option<&Clock>) -> Option<String> {
        let s = clock?.settings();
        Some(format!(
            "time_settings {} {} {}",
            seconds(Duration::from_millis(s.main_ms)),
            seconds(Duration::from_millis(s.byoyomi_ms)),
            s.byoyomi_stones
        ))
    }

    fn time_left(colour: &str, _limit: Duration, clock: Option<&Clock>) -> Option<String> {
        let left = clock?.time_left();
        Some(format!(
            "time_left {colour} {} {}",
            seconds(left.time),
            left.stones
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn genmove_answers_are_vertices_passes_and_resignations_in_any_case() {
        assert_eq!(parse_genmove("D4"), Some(Move::Play { col: 3, row: 3 }));
        assert_eq!(parse_genmove("j10"), Some(Move::Play { col: 8, row: 9 }));
        assert_eq!(parse_genmove(" PASS "), Some(Move::Pass));
        assert_eq!(parse_genmove("Resign"), Some(Move::Resign));
        for bad in [
            "",
            "I5",
            "D0",
            "D26",
            "D04",
            "4D",
            "D4 E5",
            "pass pass",
            "?",
        ] {
            assert_eq!(parse_genmove(bad), None, "{bad}");
        }
    }

    #[test]
    fn fixed_handicap_answers_are_compared_as_sets() {
        let ours = crate::games::go::handicap_points(9, 3);
        let theirs = parse_vertices("C7 G7 C3").unwrap();
        assert!(same_points(&ours, &theirs), "{ours:?}");
        assert!(!same_points(&ours, &parse_vertices("C7 G3 G7").unwrap()));
        assert!(!same_points(&ours, &parse_vertices("C7 G7").unwrap()));
        assert_eq!(parse_vertices("C7 pass"), None);
        assert_eq!(parse_vertices(""), Some(vec![]));
    }
}
