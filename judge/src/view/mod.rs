//! Views of games for people: `judge play` (a person against an AI, in the terminal,
//! drawn by `term` with crossterm for raw keys and ANSI colours, or in the browser with
//! `--web`, served by `web`), and `judge replay` (step through a logged game). What both
//! boards to play on share is `versus`.
//!
//! Views sit at the end of the judge's data flow: they take plain options and read game
//! logs, draw the [`Grid`](crate::games::Grid) a game gives them, and play through the
//! same referee and players as tournaments. Nothing upstream knows about them. What
//! differs between games on screen (labels, how a move is typed and named) is [`Shown`].

pub mod play;
pub mod replay;
mod term;
mod versus;
pub mod web;

use crate::games::Game;
use crate::games::connect4::{BoardSpec, Connect4, Point};
use crate::games::go::{self, Go};
use crate::games::reversi::{self, Reversi};

/// The key of column `y` (columns 0..11: `0`-`9`, then `a`, `b`).
fn column_key(y: i32) -> char {
    std::char::from_digit(y as u32, 36).unwrap_or('?')
}

/// The column a key names, if any (`0`-`9`, `a`-`z` for 10 and up).
fn key_column(c: char) -> Option<i32> {
    c.to_digit(36).map(|d| d as i32)
}

/// What the person typed, read as a move.
#[derive(Debug, Clone, PartialEq)]
enum Typed<M> {
    /// A legal move.
    Move(M),
    /// The start of a move (a Reversi file letter in raw mode): wait for the next key.
    More,
    /// Not a legal move: the hint that says why.
    Bad(String),
}

/// How a game looks and is typed in the terminal views.
trait Shown: Game {
    /// The label over column `y` and the one before row `x`.
    fn labels(&self) -> term::Labels;
    /// The stones' names (`red`/`yellow`, `black`/`white`).
    const STONES: [&'static str; 2];
    /// The setup in one line (`board 9x9, blocked cell row 3 column 5`).
    fn setup_line(&self, setup: &Self::Setup) -> String;
    /// A move that marked `cell` (`None`: a pass), after "played" (`column 3`, `d3`).
    fn played(&self, cell: Option<(i32, i32)>) -> String;
    /// What a player's answer was, legal or not (`played column 3`, `answered the point
    /// (9, 1)`, `played d3`, `passed`).
    fn answered(&self, position: &Self::Position, mv: Self::Move) -> String;
    /// What keys a move takes, for the prompt (`a column key 0-6`, `a square like d3`).
    fn prompt(&self, position: &Self::Position, raw: bool) -> String;
    /// `typed` (the keys so far in raw mode, or a line) as a move in `position`.
    fn read(&self, position: &Self::Position, typed: &str) -> Typed<Self::Move>;

    /// `typed` ended by Enter (the keys so far in raw mode, or a line): a move that
    /// [`Shown::read`] would wait on (Go's `D1` on a board with a row 10) is complete.
    /// By default what [`Shown::read`] makes of it.
    fn read_entered(&self, position: &Self::Position, typed: &str) -> Typed<Self::Move> {
        self.read(position, typed)
    }
}

/// The column keys of a board `n` wide, as the prompt lists them (`0-6`, `0-9, a`).
fn column_keys(n: i32) -> String {
    match n {
        n if n <= 10 => format!("0-{}", n - 1),
        11 => "0-9, a".to_string(),
        n => format!("0-9, a-{}", column_key(n - 1)),
    }
}

impl Shown for Connect4 {
    const STONES: [&'static str; 2] = ["red", "yellow"];

    fn labels(&self) -> term::Labels {
        term::Labels {
            col: column_key,
            row: |x, _| x,
        }
    }

    fn setup_line(&self, spec: &BoardSpec) -> String {
        format!(
            "board {}x{}, blocked cell row {} column {}",
            spec.m,
            spec.n,
            spec.no_x,
            column_key(spec.no_y)
        )
    }

    fn played(&self, cell: Option<(i32, i32)>) -> String {
        cell.map_or("passed".into(), |(_, y)| {
            format!("column {}", column_key(y))
        })
    }

    fn answered(&self, position: &Self::Position, p: Point) -> String {
        if (0..position.spec().n).contains(&p.y) {
            format!("played column {}", column_key(p.y))
        } else {
            format!("answered the point ({}, {})", p.x, p.y)
        }
    }

    fn prompt(&self, position: &Self::Position, raw: bool) -> String {
        let keys = column_keys(position.spec().n);
        if raw {
            format!("Your move: press a column key {keys} (q quits).")
        } else {
            format!("Your move: type a column {keys} and Enter (q quits).")
        }
    }

    fn read(&self, position: &Self::Position, typed: &str) -> Typed<Point> {
        let n = position.spec().n;
        let keys = column_keys(n);
        let column = match typed.chars().count() {
            1 => typed.chars().next().and_then(key_column),
            _ => typed.parse::<i32>().ok(),
        };
        match column {
            Some(y) if (0..n).contains(&y) => match position.drop_point(y) {
                Some(p) => Typed::Move(p),
                None => Typed::Bad(format!("Column {} is full: choose another.", column_key(y))),
            },
            _ if typed.is_empty() => Typed::Bad(format!("Type a column ({keys}).")),
            _ => Typed::Bad(format!(
                "{typed:?} is not a column: use {keys}, or q to quit."
            )),
        }
    }
}

impl Shown for Reversi {
    const STONES: [&'static str; 2] = ["black", "white"];

    fn labels(&self) -> term::Labels {
        term::Labels {
            col: |y| (b'a' + y as u8) as char,
            row: |x, _| x + 1,
        }
    }

    fn setup_line(&self, setup: &reversi::Setup) -> String {
        let moves: Vec<String> = setup
            .opening_moves()
            .iter()
            .map(|m| m.to_string())
            .collect();
        format!(
            "Reversi 8x8, rule {}, opening {} ({})",
            setup.rule(),
            setup.index(),
            moves.join(" ")
        )
    }

    fn played(&self, cell: Option<(i32, i32)>) -> String {
        match cell {
            Some((row, col)) => reversi::Move::Square { row, col }.to_string(),
            None => "pass".into(),
        }
    }

    fn answered(&self, _: &Self::Position, mv: reversi::Move) -> String {
        match mv {
            reversi::Move::Pass => "passed".into(),
            mv => format!("played {mv}"),
        }
    }

    fn prompt(&self, position: &Self::Position, raw: bool) -> String {
        let pass = self.legal_moves(position) == [reversi::Move::Pass];
        match (pass, raw) {
            (true, true) => "You have no move: press p to pass (q quits).".into(),
            (true, false) => "You have no move: type pass and Enter (q quits).".into(),
            (false, true) => "Your move: type a square like d3 (q quits).".into(),
            (false, false) => "Your move: type a square like d3 and Enter (q quits).".into(),
        }
    }

    fn read(&self, position: &Self::Position, typed: &str) -> Typed<reversi::Move> {
        let t = typed.trim().to_ascii_lowercase();
        let mv = match t.as_str() {
            "p" | "pass" => reversi::Move::Pass,
            // A file letter alone: the row key comes next.
            f if f.len() == 1 && ("a"..="h").contains(&f) => return Typed::More,
            _ => match t.parse::<reversi::Move>() {
                Ok(mv) => mv,
                Err(_) if t.is_empty() => {
                    return Typed::Bad("Type a square like d3 (or pass).".into());
                }
                Err(_) => {
                    return Typed::Bad(format!(
                        "{typed:?} is not a square: use a1..h8 (or pass), or q to quit."
                    ));
                }
            },
        };
        if self.is_legal(position, mv) {
            return Typed::Move(mv);
        }
        let legal: Vec<String> = self
            .legal_moves(position)
            .iter()
            .map(|m| m.to_string())
            .collect();
        Typed::Bad(match mv {
            reversi::Move::Pass => format!("You cannot pass: you can play {}.", legal.join(" ")),
            mv => format!("{mv} is not a legal move here: try {}.", legal.join(" ")),
        })
    }
}

impl Shown for Go {
    const STONES: [&'static str; 2] = ["black", "white"];

    fn labels(&self) -> term::Labels {
        term::Labels {
            col: |y| {
                go::Move::Play { col: y, row: 0 }
                    .to_string()
                    .chars()
                    .next()
                    .unwrap_or('?')
            },
            row: |x, rows| rows - x,
        }
    }

    fn setup_line(&self, setup: &go::Setup) -> String {
        let opening: Vec<String> = setup.opening().iter().map(|m| m.to_string()).collect();
        format!(
            "Go {}, opening {}",
            setup.rules(),
            if opening.is_empty() {
                "none".to_string()
            } else {
                opening.join(" ")
            }
        )
    }

    fn played(&self, cell: Option<(i32, i32)>) -> String {
        match cell {
            Some((row, col)) => {
                let size = self.rules.size() as i32;
                go::Move::Play {
                    col,
                    row: size - 1 - row,
                }
                .to_string()
            }
            None => "pass".into(),
        }
    }

    fn answered(&self, _: &Self::Position, mv: go::Move) -> String {
        match mv {
            go::Move::Pass => "passed".into(),
            go::Move::Resign => "resigned".into(),
            mv => format!("played {mv}"),
        }
    }

    fn prompt(&self, _: &Self::Position, raw: bool) -> String {
        if raw {
            "Your move: type a vertex like D4 (Enter ends D1 on big boards), pass or resign (q quits).".into()
        } else {
            "Your move: type a vertex like D4, pass or resign, and Enter (q quits).".into()
        }
    }

    /// Waits while the keys could still grow into a move: a letter, `D1` where a row 10
    /// or more exists, a beginning of `pass` or `resign`.
    fn read(&self, position: &Self::Position, typed: &str) -> Typed<go::Move> {
        let t = typed.trim().to_ascii_lowercase();
        let size = self.rules.size();
        let digits = t.get(1..).unwrap_or("");
        let partial_word = ["pass", "resign"]
            .iter()
            .any(|w| w.starts_with(t.as_str()) && *w != t);
        let growing_row = t.len() == 2
            && digits.bytes().all(|b| b.is_ascii_digit())
            && digits.parse::<u32>().is_ok_and(|n| n > 0 && n * 10 <= size);
        if !t.is_empty() && (t.len() == 1 || partial_word || growing_row) {
            return Typed::More;
        }
        self.read_entered(position, typed)
    }

    fn read_entered(&self, position: &Self::Position, typed: &str) -> Typed<go::Move> {
        let t = typed.trim();
        if t.is_empty() {
            return Typed::Bad("Type a vertex like D4, pass or resign.".into());
        }
        let mv: go::Move = match t.parse() {
            Ok(mv)
                if matches!(mv, go::Move::Pass | go::Move::Resign)
                    || self.move_cell(position, mv).is_some() =>
            {
                mv
            }
            _ => {
                return Typed::Bad(format!(
                    "{typed:?} is not a vertex of this board: use a letter and a number like D4 (no I), pass or resign, or q to quit."
                ));
            }
        };
        if self.is_legal(position, mv) {
            return Typed::Move(mv);
        }
        let (why, _) = self.describe_illegal(position, mv);
        Typed::Bad(format!("{why}: choose another point, pass or resign."))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::reversi::Move;

    #[test]
    fn keys_and_columns_round_trip() {
        for y in 0..12 {
            assert_eq!(key_column(column_key(y)), Some(y));
        }
        assert_eq!(column_key(10), 'a');
        assert_eq!(key_column('B'), Some(11));
        assert_eq!(key_column('!'), None);
    }

    #[test]
    fn reversi_squares_are_typed_in_two_keys_or_one_line() {
        let g = Reversi::default();
        let start = g.start(&g.setup(3));
        let legal = g.legal_moves(&start)[0];
        assert_eq!(g.read(&start, &legal.to_string()), Typed::Move(legal));
        assert_eq!(
            g.read(&start, &legal.to_string().to_uppercase()),
            Typed::Move(legal)
        );
        assert_eq!(g.read(&start, "d"), Typed::More);
        assert!(matches!(g.read(&start, "z9"), Typed::Bad(h) if h.contains("not a square")));
        assert!(matches!(g.read(&start, "p"), Typed::Bad(h) if h.contains("cannot pass")));
        assert!(matches!(g.read(&start, "a1"), Typed::Bad(h) if h.contains("not a legal move")));
        assert_eq!(g.played(None), "pass");
        assert_eq!(g.played(Some((2, 3))), "d3");
        assert_eq!(g.answered(&start, Move::Pass), "passed");
    }
}
