//! A Go game of the judge as SGF FF\[4\], written by `go_engine::sgf` (the engine's SGF
//! writer, whose reader and GNU Go's `loadsgf` read it back): `SZ`, `KM`, `HA` with the
//! handicap stones as `AB` and `PL[W]`, `PB`/`PW`, `RU`, `RE`, the opening and every move
//! (passes as `[]`), and a root comment saying where the game came from and, when it
//! ended by a verdict, which.

use go_engine::point::{Color, Move as EngineMove, Point};
use go_engine::sgf::record::{GameRecord, RecordedMove};

use super::{Move, Setup};
use crate::games::{Played, Side, Termination};

/// A vertex as go_engine's point (`x` from the left, `y` from the top); `None` for a pass,
/// a resignation or a vertex off the board.
fn point(size: usize, mv: Move) -> Option<Point> {
    match mv {
        Move::Play { col, row } if mv.index(size).is_some() => {
            Some(Point::new(col as usize, size - 1 - row as usize))
        }
        _ => None,
    }
}

/// SGF's colour letter of a side (Black is the first).
fn letter(side: Side) -> char {
    match side {
        Side::First => 'B',
        Side::Second => 'W',
    }
}

/// `RE`: the rules' result as the game's detail gives it (`B+3.5`, `W+R`, `Draw`); a loss
/// on time `B+T`/`W+T`; any other verdict a forfeit, `B+F`/`W+F`.
fn result(played: &Played) -> Option<String> {
    match (played.termination, played.winner) {
        (Termination::Score | Termination::Resign, _) => played.detail.map(str::to_string),
        (_, None) => Some("Draw".into()),
        (Termination::Timeout, Some(w)) => Some(format!("{}+T", letter(w))),
        (_, Some(w)) => Some(format!("{}+F", letter(w))),
    }
}

/// The SGF of a game on `setup` with `moves` (legal moves only, as the log keeps them; a
/// resignation is written as the result only, SGF having no move for it).
pub fn write(setup: &Setup, moves: &[Move], played: &Played) -> String {
    let rules = setup.rules();
    let size = rules.size() as usize;
    let mut record = GameRecord::new(size);
    record.komi = Some(rules.komi());
    record.handicap = rules.handicap() as usize;
    record.setup = setup
        .handicap_stones()
        .into_iter()
        .filter_map(|mv| point(size, mv))
        .map(|p| (Color::Black, p))
        .collect();
    if record.handicap > 0 {
        record.to_play = Some(Color::White);
    }
    let mut colour = match setup.opening_starts() {
        Side::First => Color::Black,
        Side::Second => Color::White,
    };
    for &mv in setup.opening().iter().chain(moves) {
        let engine_move = match mv {
            Move::Pass => EngineMove::Pass,
            Move::Resign => continue,
            Move::Play { .. } => match point(size, mv) {
                Some(p) => EngineMove::Play(p),
                None => continue,
            },
        };
        record.moves.push(RecordedMove {
            color: colour,
            mv: engine_move,
            comment: None,
        });
        colour = colour.opponent();
    }
    record.black_player = Some(played.first.to_string());
    record.white_player = Some(played.second.to_string());
    record.result = result(played);
    record.rules = Some("Chinese".into());
    let verdict = match (played.termination, played.winner) {
        (Termination::Score | Termination::Resign, _) | (_, None) => String::new(),
        (t, Some(w)) => format!(
            " {} lost by {}{}.",
            if w == Side::First { "White" } else { "Black" },
            t.name(),
            played.detail.map(|d| format!(": {d}")).unwrap_or_default()
        ),
    };
    record.comment = Some(format!(
        "gravity4 judge, game {}: Tromp-Taylor area scoring, positional superko; the first {} moves are the judge's opening.{verdict}",
        played.id,
        setup.opening().len(),
    ));
    record.to_sgf()
}
