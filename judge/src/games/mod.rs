//! The game seam: what the referee, the schedule and the views ask of a game's rules.
//!
//! A [`Game`] draws the starting setup of a board from a seed (both games of a pair share
//! it), says whose turn it is, judges and applies moves, and says when and how the game
//! ended. It also turns positions into a plain [`Grid`] of cells, which is all the views
//! draw. Gravity Connect-4 under the course's rules ([`connect4::Connect4`]) and Reversi
//! ([`reversi::Reversi`], standard or `no-adjacent`) are its implementations; nothing
//! outside `connect4` knows about columns or `top`, nothing outside `reversi` about flips.

pub mod connect4;
pub mod reversi;

use std::fmt::Debug;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

/// The rules of a two-player game, as the judge plays it.
///
/// The types are the game's own: `Setup` is what a paired board is drawn as (and what the
/// game log records as `board`), `Move` what players propose, `LoggedMove` what the game
/// log records per move.
pub trait Game: Debug + Clone + PartialEq + Send + Sync + 'static {
    /// A board's starting parameters (size, blocked cell, opening...), drawn per pair.
    type Setup: Copy + Debug + PartialEq + Serialize + DeserializeOwned + Send + Sync;
    /// A position during play.
    type Position: Clone + Debug;
    /// A move as a player proposes it (not yet checked).
    type Move: Copy + Debug + PartialEq;
    /// A move as the game log records it.
    type LoggedMove: Copy + Debug + PartialEq + Serialize + DeserializeOwned + Send + Sync;

    /// Whether a move may be a pass (a player with no other legal move must pass, as in
    /// Reversi); players and protocols that cannot say "pass" check this.
    const PASSES: bool;

    /// Whether stones already on the board can change owner (Reversi's flips): a viewer
    /// then needs every position, not just the cells played.
    const STONES_FLIP: bool;

    /// Which game this is, as `--game` and run.json name it.
    fn kind(&self) -> GameKind;

    /// The setup of one board, drawn from `board_seed` as the game's rules draw boards.
    fn setup(&self, board_seed: u64) -> Self::Setup;

    /// The starting position on `setup`.
    fn start(&self, setup: &Self::Setup) -> Self::Position;

    /// Whose turn it is in `position`.
    fn to_move(&self, position: &Self::Position) -> Side;

    /// Whether the side to move may play `mv`.
    fn is_legal(&self, position: &Self::Position, mv: Self::Move) -> bool;

    /// Plays a legal `mv` for the side to move; returns it as the log records it.
    fn play(&self, position: &mut Self::Position, mv: Self::Move) -> Self::LoggedMove;

    /// How the game ended, or `None` while it goes on.
    fn end(&self, position: &Self::Position) -> Option<GameEnd>;

    /// Why `mv` was illegal, for the log's `detail`, and the point it named, if any.
    fn describe_illegal(&self, mv: Self::Move) -> (String, Option<[i32; 2]>);

    /// A logged move as a move in `position`, if it is legal there (a damaged or foreign
    /// log must never break a view).
    fn read_move(&self, position: &Self::Position, logged: Self::LoggedMove) -> Option<Self::Move>;

    /// Every legal move for the side to move, empty once the game is over (a game with
    /// passes lists exactly its pass when that is all the mover may do). Boards for people
    /// mark these.
    fn legal_moves(&self, position: &Self::Position) -> Vec<Self::Move>;

    /// The legal move a person means by pointing at cell `(x, y)` (row `x`, 0 on top):
    /// Connect-4 drops into that cell's column, Reversi plays that square. `None` when no
    /// legal move is meant there.
    fn move_at(&self, position: &Self::Position, x: i32, y: i32) -> Option<Self::Move>;

    /// The cell of the move that led to `position`, for highlighting it: after an opening
    /// (Reversi's) that is the opening's last move; `None` at an empty start or after a pass.
    fn last_cell(&self, _position: &Self::Position) -> Option<(i32, i32)> {
        None
    }

    /// The cell a move marks (where the stone landed), for highlighting the last move.
    fn move_cell(&self, position: &Self::Position, mv: Self::Move) -> Option<(i32, i32)>;

    /// The board as the views draw it.
    fn grid(&self, position: &Self::Position) -> Grid;

    /// The cells that won the game in `position` (a line of four), empty if none.
    fn winning_line(&self, position: &Self::Position) -> Vec<(i32, i32)>;

    /// Replays `moves` from `setup`: the positions after 0, 1, ... moves and the cell each
    /// move marked (`None` for a pass). Stops before the first move that is not legal.
    fn replay(
        &self,
        setup: &Self::Setup,
        moves: &[Self::LoggedMove],
    ) -> (Vec<Self::Position>, Vec<MoveCell>) {
        let mut position = self.start(setup);
        let mut positions = vec![position.clone()];
        let mut cells = Vec::with_capacity(moves.len());
        for &logged in moves {
            let Some(mv) = self.read_move(&position, logged) else {
                break;
            };
            cells.push(self.move_cell(&position, mv));
            self.play(&mut position, mv);
            positions.push(position.clone());
        }
        (positions, cells)
    }
}

/// The cell a move marked, `None` for a pass.
pub type MoveCell = Option<(i32, i32)>;

/// The games the judge plays, as the command line (`--game`, `--rule`) and `run.json`
/// (`game`, `rule`; absent in runs written before Reversi: Connect-4) name them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum GameKind {
    /// The course's gravity Connect-4 ([`connect4::Connect4`]).
    #[default]
    Connect4,
    /// Reversi under a rule set ([`reversi::Reversi`]).
    Reversi(reversi::Rule),
}

impl GameKind {
    /// The game named `game` (`connect4`, `reversi`) under `rule`, which only Reversi
    /// takes (Reversi without one: `standard`). `Err` is a one-line usage error.
    pub fn new(game: &str, rule: Option<reversi::Rule>) -> Result<GameKind, String> {
        match (game, rule) {
            ("connect4", None) => Ok(GameKind::Connect4),
            ("connect4", Some(r)) => Err(format!(
                "--rule {r} is a Reversi rule: give --game reversi, or no --rule for Connect-4"
            )),
            ("reversi", r) => Ok(GameKind::Reversi(r.unwrap_or_default())),
            (other, _) => Err(format!("unknown game {other:?} (known: connect4, reversi)")),
        }
    }

    /// `connect4` or `reversi`.
    pub fn name(self) -> &'static str {
        match self {
            GameKind::Connect4 => "connect4",
            GameKind::Reversi(_) => "reversi",
        }
    }

    /// The Reversi rule, `None` for Connect-4.
    pub fn rule(self) -> Option<reversi::Rule> {
        match self {
            GameKind::Connect4 => None,
            GameKind::Reversi(rule) => Some(rule),
        }
    }

    /// The default per-move wall-clock limit, ms ([`CONNECT4_MOVE_LIMIT_MS`],
    /// [`REVERSI_MOVE_LIMIT_MS`]); `--move-limit-ms` overrides it.
    pub fn default_move_limit_ms(self) -> u64 {
        match self {
            GameKind::Connect4 => CONNECT4_MOVE_LIMIT_MS,
            GameKind::Reversi(_) => REVERSI_MOVE_LIMIT_MS,
        }
    }

    /// "Connect-4" or "Reversi (no-adjacent)", for messages.
    pub fn title(self) -> String {
        match self {
            GameKind::Connect4 => "Connect-4".into(),
            GameKind::Reversi(rule) => format!("Reversi ({rule})"),
        }
    }
}

/// Connect-4's per-move limit, ms: the course's runner allows 3000 for its 2000 ms budget.
pub const CONNECT4_MOVE_LIMIT_MS: u64 = 3000;

/// The judge's allowance over a game's thinking budget (Connect-4: 3000 - 2000), for
/// process start-up, pipes and a loaded machine.
pub const MOVE_LIMIT_MARGIN_MS: u64 = CONNECT4_MOVE_LIMIT_MS - 2000;

/// Reversi's per-move limit, ms: the course's 5 s budget plus the same margin.
pub const REVERSI_MOVE_LIMIT_MS: u64 = 5000 + MOVE_LIMIT_MARGIN_MS;

/// First or second mover.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    /// Moved first.
    First,
    /// Moved second.
    Second,
}

impl Side {
    /// The opponent.
    pub fn other(self) -> Side {
        match self {
            Side::First => Side::Second,
            Side::Second => Side::First,
        }
    }

    /// 0 for the first mover, 1 for the second (an index into per-side arrays).
    pub fn index(self) -> usize {
        match self {
            Side::First => 0,
            Side::Second => 1,
        }
    }

    /// The name the game log uses (`first`, `second`).
    pub fn name(self) -> &'static str {
        match self {
            Side::First => "first",
            Side::Second => "second",
        }
    }
}

/// Why a game ended: by the rules (`four`, `full`, `discs`) or by a verdict on the player at
/// fault. The names are the game log's `termination`; terminations sort by name, so maps
/// keyed by them (summary.json's `losses_by`) list them alphabetically.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Termination {
    /// Four (or more) in a row.
    Four,
    /// Full board, a tie.
    Full,
    /// Neither side could move (Reversi): scored by disc count, a tie when equal.
    Discs,
    /// The mover exceeded the time limit.
    Timeout,
    /// The mover's process died (signal or exit).
    Crash,
    /// The mover returned an illegal move.
    Illegal,
    /// The mover returned no move (`getPoint` returned NULL).
    Null,
    /// The player could not be loaded or lacks a symbol.
    Load,
    /// The mover's program wrote something that is not a framed answer (unframed text,
    /// a malformed frame, output nobody asked for, a flood of output).
    Garbage,
}

impl Termination {
    /// All terminations, in report order.
    pub const ALL: [Termination; 9] = [
        Termination::Four,
        Termination::Full,
        Termination::Discs,
        Termination::Timeout,
        Termination::Crash,
        Termination::Illegal,
        Termination::Null,
        Termination::Load,
        Termination::Garbage,
    ];

    /// The name used in games.jsonl.
    pub fn name(self) -> &'static str {
        match self {
            Termination::Four => "four",
            Termination::Full => "full",
            Termination::Discs => "discs",
            Termination::Timeout => "timeout",
            Termination::Crash => "crash",
            Termination::Illegal => "illegal",
            Termination::Null => "null",
            Termination::Load => "load",
            Termination::Garbage => "garbage",
        }
    }
}

impl Ord for Termination {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.name().cmp(other.name())
    }
}

impl PartialOrd for Termination {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

/// How a game ended by its rules.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GameEnd {
    /// The winner, `None` for a tie.
    pub winner: Option<Side>,
    /// The rule that ended it.
    pub termination: Termination,
    /// The winner's margin for games that score one (Reversi's disc difference).
    pub margin: Option<i32>,
}

/// What occupies a cell, for drawing: stones by mover, independent of any side's view.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cell {
    /// Nothing there.
    Empty,
    /// A cell no stone may occupy (Connect-4's blocked cell).
    Blocked,
    /// The first mover's stone.
    First,
    /// The second mover's stone.
    Second,
}

impl Cell {
    /// The stone of `side`.
    pub fn of(side: Side) -> Cell {
        match side {
            Side::First => Cell::First,
            Side::Second => Cell::Second,
        }
    }
}

/// A board to draw: `rows` x `cols` cells, row 0 on top.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Grid {
    /// Number of rows.
    pub rows: i32,
    /// Number of columns.
    pub cols: i32,
    cells: Vec<Cell>,
}

impl Grid {
    /// An empty grid (negative sizes count as 0).
    pub fn new(rows: i32, cols: i32) -> Grid {
        Grid {
            rows,
            cols,
            cells: vec![Cell::Empty; (rows.max(0) * cols.max(0)) as usize],
        }
    }

    /// Sets a cell; cells outside the grid are ignored.
    pub fn set(&mut self, x: i32, y: i32, cell: Cell) {
        if let Some(i) = self.index(x, y) {
            self.cells[i] = cell;
        }
    }

    /// The cell at row `x`, column `y` (`Empty` outside the grid).
    pub fn get(&self, x: i32, y: i32) -> Cell {
        self.index(x, y).map_or(Cell::Empty, |i| self.cells[i])
    }

    /// Whether `(x, y)` is on the grid.
    pub fn contains(&self, x: i32, y: i32) -> bool {
        (0..self.rows).contains(&x) && (0..self.cols).contains(&y)
    }

    /// The grid as text, a string per row: `X` first mover, `O` second, `#` blocked, `.`
    /// empty (what the report's and the web board's pages draw from).
    pub fn text_rows(&self) -> Vec<String> {
        (0..self.rows)
            .map(|x| {
                (0..self.cols)
                    .map(|y| match self.get(x, y) {
                        Cell::Empty => '.',
                        Cell::Blocked => '#',
                        Cell::First => 'X',
                        Cell::Second => 'O',
                    })
                    .collect()
            })
            .collect()
    }

    fn index(&self, x: i32, y: i32) -> Option<usize> {
        self.contains(x, y).then(|| (x * self.cols + y) as usize)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grid_ignores_cells_outside() {
        let mut g = Grid::new(2, 3);
        g.set(1, 2, Cell::First);
        g.set(2, 0, Cell::Second);
        g.set(-1, 0, Cell::Second);
        assert_eq!(g.get(1, 2), Cell::First);
        assert_eq!(g.get(2, 0), Cell::Empty);
        assert!(!g.contains(0, 3));
        assert_eq!(Grid::new(-1, 3).get(0, 0), Cell::Empty);
    }

    #[test]
    fn grids_read_as_rows_of_letters() {
        let mut g = Grid::new(2, 3);
        g.set(0, 0, Cell::Blocked);
        g.set(0, 2, Cell::First);
        g.set(1, 1, Cell::Second);
        assert_eq!(g.text_rows(), ["#.X", ".O."]);
        assert!(Grid::new(0, 3).text_rows().is_empty());
    }

    #[test]
    fn terminations_key_maps_by_name() {
        let m: std::collections::BTreeMap<Termination, u64> = [
            (Termination::Timeout, 1),
            (Termination::Four, 2),
            (Termination::Crash, 3),
        ]
        .into();
        assert_eq!(
            serde_json::to_string(&m).unwrap(),
            r#"{"crash":3,"four":2,"timeout":1}"#
        );
    }

    #[test]
    fn sides_and_terminations_keep_their_log_names() {
        assert_eq!(serde_json::to_string(&Side::Second).unwrap(), "\"second\"");
        for t in Termination::ALL {
            assert_eq!(
                serde_json::to_string(&t).unwrap(),
                format!("\"{}\"", t.name())
            );
        }
    }
}
