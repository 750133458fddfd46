//! The FFO endgame test suite (Gunnar Andersson's positions #40-#59): reading its text form
//! and solving one position against the clock, for the benchmark (`examples/ffo.rs`) and the
//! test that solves #40.
//!
//! The file holds one position a line: a number, the 64 squares a1..h1, a2..h2, ..., a8..h8
//! (`X` black, `O` white, `-` empty), the side to move (`X` or `O`), the exact final disc
//! difference for the side to move under perfect play (empties to the winner, as the World
//! Othello Federation counts), and every move that reaches it, comma-separated. `#` starts a
//! comment; blank lines are skipped.

use std::time::{Duration, Instant};

use super::{Scoring, Solver};
use crate::bitboard::Square;
use crate::position::{Color, Move, Position, Rule};

/// One position of the suite, with its published answer.
#[derive(Clone, Debug)]
pub struct FfoPosition {
    /// The suite's number (40..=59).
    pub number: u32,
    /// The position, standard rules, no last move.
    pub position: Position,
    /// The exact score for the side to move (final disc difference, empties to the winner).
    pub score: i32,
    /// Every move that reaches `score`.
    pub best: Vec<Move>,
}

/// What one timed solve found.
#[derive(Clone, Copy, Debug)]
pub struct FfoRun {
    /// The exact score and a move reaching it, `None` when the time limit came first.
    pub answer: Option<(i32, Move)>,
    /// Nodes searched (up to the limit when unfinished).
    pub nodes: u64,
    /// Wall time spent.
    pub elapsed: Duration,
}

impl FfoPosition {
    /// Solves the position exactly with `solver` (switched to the suite's scoring, empties to
    /// the winner), stopping at `limit` if one is given.
    pub fn solve(&self, solver: &mut Solver, limit: Option<Duration>) -> FfoRun {
        solver.set_scoring(Scoring::EmptiesToWinner);
        let start = Instant::now();
        let answer = solver.solve(&self.position, -64, 64, limit.map(|l| start + l));
        FfoRun {
            answer,
            nodes: solver.nodes(),
            elapsed: start.elapsed(),
        }
    }

    /// Whether `answer` is the published one: the same score and one of the listed moves.
    pub fn is_right(&self, answer: (i32, Move)) -> bool {
        answer.0 == self.score && self.best.contains(&answer.1)
    }
}

/// Parses the suite's text; an error names the line and what was wrong with it.
pub fn parse_suite(text: &str) -> Result<Vec<FfoPosition>, String> {
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        out.push(parse_line(line).map_err(|e| format!("line {}: {e}: {raw:?}", i + 1))?);
    }
    Ok(out)
}

/// One line without its comment: `number board side score moves`.
fn parse_line(line: &str) -> Result<FfoPosition, String> {
    let fields: Vec<&str> = line.split_whitespace().collect();
    let [number, board, side, score, moves] = fields[..] else {
        return Err(format!("expected 5 fields, found {}", fields.len()));
    };
    let number = number.parse().map_err(|_| "bad number".to_string())?;
    let (black, white) = parse_board(board)?;
    let to_move = match side {
        "X" => Color::Black,
        "O" => Color::White,
        _ => return Err(format!("side {side:?} is neither X nor O")),
    };
    let position = Position::from_parts(black, white, to_move, None, Rule::Standard)
        .map_err(|e| e.to_string())?;
    let score = score.parse().map_err(|_| format!("bad score {score:?}"))?;
    let best = moves
        .split(',')
        .map(|m| Move::parse(m).ok_or_else(|| format!("bad move {m:?}")))
        .collect::<Result<Vec<_>, _>>()?;
    if let Some(&bad) = best.iter().find(|&&m| !position.is_legal(m)) {
        return Err(format!("listed move {bad} is not legal"));
    }
    Ok(FfoPosition {
        number,
        position,
        score,
        best,
    })
}

/// The 64 squares, a1 first, as (black, white) masks.
fn parse_board(board: &str) -> Result<(u64, u64), String> {
    if board.len() != 64 {
        return Err(format!("board has {} squares, not 64", board.len()));
    }
    let (mut black, mut white) = (0u64, 0u64);
    for (i, c) in board.bytes().enumerate() {
        let bit = Square::new(i as u8).expect("64 squares").bit();
        match c {
            b'X' => black |= bit,
            b'O' => white |= bit,
            b'-' => {}
            _ => return Err(format!("square {i} is {:?}", c as char)),
        }
    }
    Ok((black, white))
}

#[cfg(test)]
mod tests {
    use super::*;

    const LINE_40: &str = "40 O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- \
                           X +38 A2  # 20 empties";

    #[test]
    fn a_suite_line_parses_into_its_position_and_answer() {
        let suite = parse_suite(LINE_40).unwrap();
        let p = &suite[0];
        assert_eq!(p.number, 40);
        assert_eq!(p.position.empties(), 20);
        assert_eq!(p.position.to_move(), Color::Black);
        assert_eq!(p.score, 38);
        assert_eq!(p.best, vec![Move::parse("a2").unwrap()]);
        assert!(p.is_right((38, Move::parse("a2").unwrap())));
        assert!(!p.is_right((36, Move::parse("a2").unwrap())));
    }

    #[test]
    fn malformed_lines_say_what_is_wrong() {
        for (bad, says) in [
            ("40 O--O X +38 A2", "squares"),
            (
                "40 O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- Y +38 A2",
                "side",
            ),
            (
                "40 O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X +38 H8",
                "legal",
            ),
            ("40 X +38", "fields"),
        ] {
            let e = parse_suite(bad).unwrap_err();
            assert!(e.contains(says) && e.starts_with("line 1"), "{e}");
        }
    }
}
