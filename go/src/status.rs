//! The end of a game as GTP reports it: the status of every stone (alive, dead, or in seki)
//! and the score as a result string.
//!
//! Dead stones are the engine's ([`Engine::dead_stones`]: owned by the opponent at the end
//! of most playouts). Seki is read off the same kind of playouts: the heavy playouts never
//! fill a shared liberty that would put a big group in atari, so a seki's shared liberties
//! stay empty and nobody's. A seki point is an empty point that neither colour owns in most
//! playouts and that touches living stones of both colours; the living groups on such
//! points are in seki. (A dame between two living groups would pass the same test if the
//! playouts left it, but they fill it: it is nobody's only in seki.)
//!
//! Both judge the position on a copy of the game without its trailing passes ([`scorer`]):
//! the engine's playouts start from the game's count of passes and stop at two, so on the
//! final position of a game ended by two passes they would play nothing and find nothing
//! dead.

use crate::board::stone_color;
use crate::engine::Engine;
use crate::point::Point;

/// A stone status of `final_status_list`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// Alive (and not in seki).
    Alive,
    /// Dead: to be removed before scoring.
    Dead,
    /// Alive in seki.
    Seki,
}

impl Status {
    /// GTP's name of a status: `alive`, `dead`, `seki`.
    pub fn parse(text: &str) -> Option<Status> {
        match text.to_ascii_lowercase().as_str() {
            "alive" => Some(Status::Alive),
            "dead" => Some(Status::Dead),
            "seki" => Some(Status::Seki),
            _ => None,
        }
    }
}

/// A score (Black's points minus White's, komi included) as GTP and SGF write results:
/// `B+3.5`, `W+0.5`, `0`.
pub fn score_text(score: f64) -> String {
    if score > 0.0 {
        format!("B+{score}")
    } else if score < 0.0 {
        format!("W+{}", -score)
    } else {
        "0".to_string()
    }
}

/// An engine (same configuration) on the position of `engine`'s game with its trailing
/// passes taken back, to judge the stones on the board.
pub fn scorer(engine: &Engine) -> Engine {
    engine.without_trailing_passes()
}

/// The score with the dead stones removed ([`Engine::final_score`] on the [`scorer`]).
pub fn final_score(engine: &Engine) -> f64 {
    scorer(engine).final_score()
}

/// The groups (chains) of stones with `status`, each a list of points row by row from the
/// top; the groups in the order of their first stone.
pub fn stones_with_status(engine: &Engine, status: Status) -> Vec<Vec<Point>> {
    let mut scorer = scorer(engine);
    let dead = scorer.dead_stones();
    let playouts = scorer.config().score_playouts;
    let owners = scorer.ownership(playouts);
    let board = scorer.board();
    let mut is_dead = vec![false; board.len()];
    for &p in &dead {
        is_dead[board.index(p)] = true;
    }
    let living = |i: usize| stone_color(board.at(i)).is_some() && !is_dead[i];
    // Groups that touch a seki point.
    let mut in_seki = vec![false; board.len()];
    for i in board.points() {
        let [b, w] = owners[i];
        if stone_color(board.at(i)).is_some() || 2 * (b + w) > playouts {
            continue;
        }
        let neighbours = board.neighbors(i);
        let touches = |want| {
            neighbours
                .iter()
                .any(|&n| living(n) && stone_color(board.at(n)) == Some(want))
        };
        if touches(crate::point::Color::Black) && touches(crate::point::Color::White) {
            for &n in &neighbours {
                if living(n) {
                    in_seki[board.group(n)] = true;
                }
            }
        }
    }
    let mut groups: Vec<(usize, Vec<Point>)> = Vec::new();
    for i in board.points() {
        if stone_color(board.at(i)).is_none() {
            continue;
        }
        let head = board.group(i);
        let this = if is_dead[i] {
            Status::Dead
        } else if in_seki[head] {
            Status::Seki
        } else {
            Status::Alive
        };
        if this != status {
            continue;
        }
        match groups.iter_mut().find(|(h, _)| *h == head) {
            Some((_, points)) => points.push(board.point(i)),
            None => groups.push((head, vec![board.point(i)])),
        }
    }
    groups.into_iter().map(|(_, points)| points).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::point::{Color, Move};
    use crate::search::Config;

    fn engine(rows: &[&str], seed: u64) -> Engine {
        let config = Config {
            seed: Some(seed),
            ..Config::default()
        };
        let mut e = Engine::with_config(rows.len(), 7.5, config).unwrap();
        let mut stones = Vec::new();
        for (y, row) in rows.iter().enumerate() {
            for (x, ch) in row.chars().filter(|c| !c.is_whitespace()).enumerate() {
                match ch {
                    'X' => stones.push((Color::Black, Point::new(x, y))),
                    'O' => stones.push((Color::White, Point::new(x, y))),
                    _ => {}
                }
            }
        }
        let mut game = e.game().clone();
        game.set_stones(&stones, Color::Black).unwrap();
        e.set_game(game);
        e
    }

    #[test]
    fn results_are_written_as_gtp_and_sgf_write_them() {
        assert_eq!(score_text(3.5), "B+3.5");
        assert_eq!(score_text(-0.5), "W+0.5");
        assert_eq!(score_text(-12.0), "W+12");
        assert_eq!(score_text(0.0), "0");
        assert_eq!(Status::parse("SEKI"), Some(Status::Seki));
        assert_eq!(Status::parse("unknown"), None);
    }

    #[test]
    fn a_lone_invader_is_dead_and_the_walls_alive() {
        let mut e = engine(
            &[
                "..XO...", //
                "..XO...", "..XO...", "O.XO...", "..XO...", "..XO...", "..XO...",
            ],
            1,
        );
        assert_eq!(
            stones_with_status(&e, Status::Dead),
            vec![vec![Point::new(0, 3)]]
        );
        let alive = stones_with_status(&e, Status::Alive);
        assert_eq!(alive.len(), 2, "two walls: {alive:?}");
        assert!(alive.iter().all(|g| g.len() == 7));
        assert!(stones_with_status(&e, Status::Seki).is_empty());
        // Still dead after the game's two passes, and scored so.
        e.play(Color::Black, Move::Pass).unwrap();
        e.play(Color::White, Move::Pass).unwrap();
        assert_eq!(
            stones_with_status(&e, Status::Dead),
            vec![vec![Point::new(0, 3)]]
        );
        assert_eq!(final_score(&e), 21.0 - 28.0 - 7.5);
        assert_eq!(e.moves().len(), 2, "the game itself is unchanged");
    }

    #[test]
    fn a_seki_is_neither_dead_nor_plainly_alive() {
        // The search's own seki position: Black's five stones at the top left and White's
        // three share the liberties (0,0) and (2,1).
        let e = engine(
            &[
                ".OOOX.X..", //
                "XO.OXXXXX",
                "XXXXOOOOO",
                "OOOOOOOOO",
                ".........",
                ".........",
                ".........",
                ".........",
                ".........",
            ],
            2,
        );
        assert!(stones_with_status(&e, Status::Dead).is_empty());
        let seki: Vec<Point> = stones_with_status(&e, Status::Seki)
            .into_iter()
            .flatten()
            .collect();
        for (x, y) in [(1, 0), (2, 0), (3, 0), (1, 1), (3, 1), (0, 1), (0, 2)] {
            assert!(seki.contains(&Point::new(x, y)), "({x},{y}) in {seki:?}");
        }
        // The living groups around it that do not touch its liberties are plainly alive.
        let alive: Vec<Point> = stones_with_status(&e, Status::Alive)
            .into_iter()
            .flatten()
            .collect();
        assert!(alive.contains(&Point::new(0, 3)));
        assert!(alive.contains(&Point::new(6, 0)));
    }
}
