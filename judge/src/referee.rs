//! One game under the course's rules, with a plain array board exactly like the course's
//! C++ judge (the referee must not trust, or share code with, the libraries it judges).
//!
//! Conventions (see SPEC.md): `board[x * N + y]`, row 0 is the TOP row; each side sees
//! its own stones as 2 and the opponent's as 1; `top[y] - 1` is the row of the next
//! stone in column `y` and skips the blocked cell `(noX, noY)`.

use serde::{Deserialize, Serialize};

/// The board of one pairing: size and blocked cell.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct BoardSpec {
    /// Rows.
    #[serde(rename = "M")]
    pub m: i32,
    /// Columns.
    #[serde(rename = "N")]
    pub n: i32,
    /// Row of the blocked cell.
    #[serde(rename = "noX")]
    pub no_x: i32,
    /// Column of the blocked cell.
    #[serde(rename = "noY")]
    pub no_y: i32,
}

/// The position as the mover is shown it (the course ABI's arguments).
#[derive(Debug)]
pub struct View<'a> {
    /// The board.
    pub spec: BoardSpec,
    /// `top[y]`.
    pub top: &'a [i32],
    /// Mover's point of view: 0 empty, 1 opponent, 2 mover.
    pub board: &'a [i32],
    /// Opponent's last move or -1.
    pub last_x: i32,
    /// Opponent's last move or -1.
    pub last_y: i32,
}

/// A player's answer to one move, as the referee needs it.
#[derive(Debug, Clone, PartialEq)]
pub enum Reply {
    /// A point, to be checked.
    Point(i32, i32),
    /// NULL.
    Null,
    /// Over the time limit.
    Timeout,
    /// Died; the text names the signal or exit status.
    Crash(String),
}

/// A reply with its timing.
#[derive(Debug, Clone)]
pub struct TimedReply {
    /// The answer.
    pub reply: Reply,
    /// Wall time, ms.
    pub wall_ms: f64,
    /// The mover's CPU time, ms, when known.
    pub cpu_ms: Option<f64>,
}

/// Something that answers `getPoint`.
pub trait Player {
    /// Chooses a move in `view`.
    fn get_point(&mut self, view: &View) -> TimedReply;
}

/// Why a game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Termination {
    /// Four (or more) in a row.
    Four,
    /// Full board, a tie.
    Full,
    /// The mover exceeded the time limit.
    Timeout,
    /// The mover's process died (signal or exit).
    Crash,
    /// The mover returned an illegal point.
    Illegal,
    /// The mover returned NULL.
    Null,
    /// The player's library could not be loaded or lacks a symbol.
    Load,
}

impl Termination {
    /// All terminations, in report order.
    pub const ALL: [Termination; 7] = [
        Termination::Four,
        Termination::Full,
        Termination::Timeout,
        Termination::Crash,
        Termination::Illegal,
        Termination::Null,
        Termination::Load,
    ];

    /// The name used in games.jsonl.
    pub fn name(self) -> &'static str {
        match self {
            Termination::Four => "four",
            Termination::Full => "full",
            Termination::Timeout => "timeout",
            Termination::Crash => "crash",
            Termination::Illegal => "illegal",
            Termination::Null => "null",
            Termination::Load => "load",
        }
    }
}

/// First or second mover.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    /// Moved first.
    First,
    /// Moved second.
    Second,
}

/// How a game ended.
#[derive(Debug, Clone)]
pub struct Outcome {
    /// The winner, `None` for a tie.
    pub winner: Option<Side>,
    /// Why it ended.
    pub termination: Termination,
    /// Signal name, exit status or load error text.
    pub detail: Option<String>,
    /// The offending point for `illegal`.
    pub illegal_point: Option<(i32, i32)>,
    /// Columns played, in order (legal moves only).
    pub moves: Vec<i32>,
    /// Wall time of every answer (the last may be the losing one), ms.
    pub move_ms: Vec<f64>,
    /// CPU time of every answer, ms (`None` when the host could not say).
    pub cpu_ms: Vec<Option<f64>>,
}

impl Outcome {
    /// The game a player loses without playing, because its library did not load.
    pub fn load_failure(loser: Side, text: String) -> Outcome {
        Outcome {
            winner: Some(loser.other()),
            termination: Termination::Load,
            detail: Some(text),
            illegal_point: None,
            moves: Vec::new(),
            move_ms: Vec::new(),
            cpu_ms: Vec::new(),
        }
    }
}

impl Side {
    /// The opponent.
    pub fn other(self) -> Side {
        match self {
            Side::First => Side::Second,
            Side::Second => Side::First,
        }
    }
}

/// The course's board state: one board per side plus `top`.
struct Game {
    spec: BoardSpec,
    /// `boards[0]` is the first mover's view, `boards[1]` the second's.
    boards: [Vec<i32>; 2],
    top: Vec<i32>,
}

impl Game {
    fn new(spec: BoardSpec) -> Game {
        let (m, n) = (spec.m as usize, spec.n as usize);
        let mut top = vec![spec.m; n];
        // The blocked cell on the bottom row: the column starts one higher.
        if spec.no_x == spec.m - 1 {
            top[spec.no_y as usize] = spec.m - 1;
        }
        Game {
            spec,
            boards: [vec![0; m * n], vec![0; m * n]],
            top,
        }
    }

    fn is_legal(&self, x: i32, y: i32) -> bool {
        (0..self.spec.n).contains(&y)
            && x == self.top[y as usize] - 1
            && x >= 0
            && (x, y) != (self.spec.no_x, self.spec.no_y)
    }

    /// Places the mover's stone at a legal `(x, y)` and updates `top` as the course does.
    fn play(&mut self, mover: usize, x: i32, y: i32) {
        let i = (x * self.spec.n + y) as usize;
        self.boards[mover][i] = 2;
        self.boards[1 - mover][i] = 1;
        let y = y as usize;
        self.top[y] -= 1;
        if self.top[y] - 1 == self.spec.no_x && y as i32 == self.spec.no_y {
            self.top[y] -= 1;
        }
    }

    /// Does the mover's stone at `(x, y)` make a line of 4 or more?
    fn wins(&self, mover: usize, x: i32, y: i32) -> bool {
        let b = &self.boards[mover];
        let own = |x: i32, y: i32| {
            (0..self.spec.m).contains(&x)
                && (0..self.spec.n).contains(&y)
                && b[(x * self.spec.n + y) as usize] == 2
        };
        [(0, 1), (1, 0), (1, 1), (1, -1)].iter().any(|&(dx, dy)| {
            let run = |s: i32| {
                (1..)
                    .take_while(|&k| own(x + s * k * dx, y + s * k * dy))
                    .count()
            };
            1 + run(1) + run(-1) >= 4
        })
    }

    fn is_full(&self) -> bool {
        self.top.iter().all(|&t| t == 0)
    }
}

/// Replays logged columns under the same rules as [`play`] and returns the cell `(x, y)`
/// each stone landed on, in order, and whether the last stone made a line of 4 (for the
/// views, which draw recorded games). Stops before the first column that is not a legal
/// move, so a damaged log can never index out of the board.
pub fn landing_cells(spec: BoardSpec, moves: &[i32]) -> (Vec<(i32, i32)>, bool) {
    let mut game = Game::new(spec);
    let mut cells = Vec::with_capacity(moves.len());
    let mut won = false;
    for (ply, &y) in moves.iter().enumerate() {
        let x = match usize::try_from(y).ok().and_then(|c| game.top.get(c)) {
            Some(&top) => top - 1,
            None => break,
        };
        if !game.is_legal(x, y) {
            break;
        }
        game.play(ply % 2, x, y);
        won = game.wins(ply % 2, x, y);
        cells.push((x, y));
    }
    (cells, won)
}

/// Plays one game: `players[0]` moves first.
pub fn play(spec: BoardSpec, players: [&mut dyn Player; 2]) -> Outcome {
    let mut game = Game::new(spec);
    let mut out = Outcome {
        winner: None,
        termination: Termination::Full,
        detail: None,
        illegal_point: None,
        moves: Vec::new(),
        move_ms: Vec::new(),
        cpu_ms: Vec::new(),
    };
    let (mut last_x, mut last_y) = (-1, -1);
    let side = |i: usize| if i == 0 { Side::First } else { Side::Second };
    for ply in 0.. {
        let mover = ply % 2;
        let view = View {
            spec,
            top: &game.top,
            board: &game.boards[mover],
            last_x,
            last_y,
        };
        let t = players[mover].get_point(&view);
        out.move_ms.push(t.wall_ms);
        out.cpu_ms.push(t.cpu_ms);
        let loses = |out: &mut Outcome, term: Termination| {
            out.winner = Some(side(mover).other());
            out.termination = term;
        };
        match t.reply {
            Reply::Point(x, y) if game.is_legal(x, y) => {
                game.play(mover, x, y);
                out.moves.push(y);
                if game.wins(mover, x, y) {
                    out.winner = Some(side(mover));
                    out.termination = Termination::Four;
                    return out;
                }
                if game.is_full() {
                    return out;
                }
                (last_x, last_y) = (x, y);
            }
            Reply::Point(x, y) => {
                loses(&mut out, Termination::Illegal);
                out.illegal_point = Some((x, y));
                out.detail = Some(format!("illegal point ({x}, {y})"));
                return out;
            }
            Reply::Null => {
                loses(&mut out, Termination::Null);
                return out;
            }
            Reply::Timeout => {
                loses(&mut out, Termination::Timeout);
                return out;
            }
            Reply::Crash(what) => {
                loses(&mut out, Termination::Crash);
                out.detail = Some(what);
                return out;
            }
        }
    }
    unreachable!("the loop only ends by returning")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Plays a fixed list of columns (at the legal row), then a fixed reply.
    struct Script {
        cols: Vec<i32>,
        at: usize,
        then: Reply,
        seen: Vec<(i32, i32)>,
    }

    impl Script {
        fn new(cols: &[i32]) -> Script {
            Script {
                cols: cols.to_vec(),
                at: 0,
                then: Reply::Null,
                seen: Vec::new(),
            }
        }
    }

    impl Player for Script {
        fn get_point(&mut self, v: &View) -> TimedReply {
            self.seen.push((v.last_x, v.last_y));
            let reply = match self.cols.get(self.at) {
                Some(&y) => Reply::Point(v.top[y as usize] - 1, y),
                None => self.then.clone(),
            };
            self.at += 1;
            TimedReply {
                reply,
                wall_ms: 0.0,
                cpu_ms: None,
            }
        }
    }

    /// Plays the first non-full column from the left, checking the view's invariants.
    struct Leftmost;

    impl Player for Leftmost {
        fn get_point(&mut self, v: &View) -> TimedReply {
            let y = (0..v.spec.n).find(|&y| v.top[y as usize] > 0).unwrap();
            TimedReply {
                reply: Reply::Point(v.top[y as usize] - 1, y),
                wall_ms: 0.0,
                cpu_ms: None,
            }
        }
    }

    fn spec(m: i32, n: i32, no_x: i32, no_y: i32) -> BoardSpec {
        BoardSpec { m, n, no_x, no_y }
    }

    #[test]
    fn top_starts_one_higher_when_blocked_cell_on_bottom_row() {
        let g = Game::new(spec(9, 9, 8, 3));
        assert_eq!(g.top[3], 8);
        assert_eq!(g.top[2], 9);
        assert!(g.is_legal(7, 3));
        assert!(!g.is_legal(8, 3));
    }

    #[test]
    fn top_skips_blocked_cell_in_the_middle_and_top_row() {
        let mut g = Game::new(spec(9, 9, 5, 0));
        for x in (6..9).rev() {
            g.play(0, x, 0);
        }
        assert_eq!(g.top[0], 5, "row 5 is blocked, next stone goes to row 4");
        assert!(g.is_legal(4, 0));
        // Blocked cell in the top row: the column is full one stone early.
        let mut g = Game::new(spec(9, 9, 0, 2));
        for x in (1..9).rev() {
            g.play(0, x, 2);
        }
        assert_eq!(g.top[2], 0);
        assert!(!g.is_legal(0, 2) && !g.is_legal(-1, 2));
    }

    #[test]
    fn vertical_win_and_last_move() {
        let mut a = Script::new(&[0, 0, 0, 0]);
        let mut b = Script::new(&[5, 5, 5]);
        let out = play(spec(9, 9, 0, 8), [&mut a, &mut b]);
        assert_eq!(out.winner, Some(Side::First));
        assert_eq!(out.termination, Termination::Four);
        assert_eq!(out.moves, vec![0, 5, 0, 5, 0, 5, 0]);
        assert_eq!(a.seen[0], (-1, -1));
        assert_eq!(b.seen[0], (8, 0));
        assert_eq!(a.seen[1], (8, 5));
    }

    #[test]
    fn diagonal_wins_both_ways() {
        // Up-right diagonal for the first player: (8,0) (7,1) (6,2) (5,3).
        let mut a = Script::new(&[0, 1, 3, 2, 8, 3]);
        let mut b = Script::new(&[1, 2, 2, 3, 3, 5]);
        let g = play(spec(9, 9, 0, 8), [&mut a, &mut b]);
        assert_eq!(
            (g.winner, g.termination),
            (Some(Side::First), Termination::Four)
        );
        assert_eq!(g.moves.len(), 11);
        // Mirror image: the up-left diagonal.
        let mut a = Script::new(&[8, 7, 5, 6, 0, 5]);
        let mut b = Script::new(&[7, 6, 6, 5, 5, 3]);
        let g = play(spec(9, 9, 0, 0), [&mut a, &mut b]);
        assert_eq!(
            (g.winner, g.termination),
            (Some(Side::First), Termination::Four)
        );
        assert_eq!(g.moves.len(), 11);
    }

    #[test]
    fn blocked_cell_breaks_a_line() {
        let mut g = Game::new(spec(9, 9, 8, 3));
        for y in [0, 1, 2, 4] {
            g.play(0, 8, y);
        }
        assert!(!g.wins(0, 8, 4));
        g.play(0, 8, 5);
        g.play(0, 8, 6);
        assert!(!g.wins(0, 8, 6), "4, 5, 6 is only three");
        g.play(0, 8, 7);
        assert!(g.wins(0, 8, 7));
    }

    #[test]
    fn full_board_is_a_tie() {
        // 2x3 with a blocked cell: no line of 4 fits, so the game must end on a full board.
        let g = play(spec(2, 3, 0, 0), [&mut Leftmost, &mut Leftmost]);
        assert_eq!((g.winner, g.termination), (None, Termination::Full));
        assert_eq!(g.moves.len(), 5);
        // A 9x9 board coloured so that no line of 4 exists (colour = (y/2 + x) % 2):
        // filling it must never report a win, and must end full.
        let mut game = Game::new(spec(9, 9, 4, 4));
        for y in 0..9 {
            while game.top[y] > 0 {
                let x = game.top[y] - 1;
                let who = ((y as i32 / 2 + x) % 2) as usize;
                game.play(who, x, y as i32);
                assert!(!game.wins(who, x, y as i32), "false win at ({x}, {y})");
            }
        }
        assert!(game.is_full());
    }

    #[test]
    fn landing_cells_follow_the_rules_and_stop_at_bad_columns() {
        // Blocked cell on the bottom row of column 3: the first stone lands one higher.
        let (cells, won) = landing_cells(spec(9, 9, 8, 3), &[3, 3, 0]);
        assert_eq!(cells, vec![(7, 3), (6, 3), (8, 0)]);
        assert!(!won);
        let (cells, won) = landing_cells(spec(9, 9, 0, 8), &[0, 5, 0, 5, 0, 5, 0]);
        assert_eq!((cells.len(), won), (7, true));
        let (cells, _) = landing_cells(spec(9, 9, 0, 8), &[0, 9, 0]);
        assert_eq!(cells, vec![(8, 0)], "column 9 does not exist");
        let (cells, _) = landing_cells(spec(2, 3, 0, 0), &[0, 0, -1]);
        assert_eq!(cells, vec![(1, 0)], "column 0 is full after one stone");
    }

    #[test]
    fn illegal_null_timeout_crash_lose() {
        let cases = [
            (Reply::Point(3, 3), Termination::Illegal),
            (Reply::Null, Termination::Null),
            (Reply::Timeout, Termination::Timeout),
            (Reply::Crash("SIGSEGV".into()), Termination::Crash),
        ];
        for (reply, term) in cases {
            let mut a = Script::new(&[0]);
            let mut b = Script::new(&[]);
            b.then = reply;
            let g = play(spec(9, 9, 0, 0), [&mut a, &mut b]);
            assert_eq!((g.winner, g.termination), (Some(Side::First), term));
        }
        // The blocked cell itself is illegal even if a broken top pointed at it.
        let g = Game::new(spec(9, 9, 8, 3));
        assert!(!g.is_legal(8, 3));
        assert!(!g.is_legal(8, 9) && !g.is_legal(8, -1));
    }
}
