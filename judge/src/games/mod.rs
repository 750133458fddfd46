//! The game seam: what the referee, the schedule and the views ask of a game's rules.
//!
//! A [`Game`] draws the starting setup of a board from a seed (both games of a pair share
//! it), says whose turn it is, judges and applies moves, and says when and how the game
//! ended. It also turns positions into a plain [`Grid`] of cells, which is all the views
//! draw. Gravity Connect-4 under the course's rules ([`connect4::Connect4`]), Reversi
//! ([`reversi::Reversi`], standard or `no-adjacent`) and Go ([`go::Go`], any size, komi and
//! handicap) are its implementations; nothing outside `connect4` knows about columns or
//! `top`, nothing outside `reversi` about flips, nothing outside `go` about captures.

pub mod connect4;
pub mod go;
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

    /// Whether stones already on the board can change owner or leave it (Reversi's flips,
    /// Go's captures): a viewer then needs every position, not just the cells played.
    const STONES_FLIP: bool;

    /// The file format the game's own programs keep games in (Go: `sgf`), if it has one:
    /// tournaments then keep every game in it too ([`Game::record_text`]).
    const RECORD_FORMAT: Option<&'static str> = None;

    /// Which game this is, as `--game` and run.json name it.
    fn kind(&self) -> GameKind;

    /// The setup of one board, drawn from `board_seed` as the game's rules draw boards.
    fn setup(&self, board_seed: u64) -> Self::Setup;

    /// The starting position on `setup`.
    fn start(&self, setup: &Self::Setup) -> Self::Position;

    /// Who moves first on `setup`: the first side, unless the setup hands the first move
    /// to the second (Go's handicap: Black's stones are placed, White moves first). Move
    /// `k` of a game is the first mover's when `k` is even: statistics and viewers that
    /// attribute moves by their number ask this.
    fn first_mover(_setup: &Self::Setup) -> Side {
        Side::First
    }

    /// Whose turn it is in `position`.
    fn to_move(&self, position: &Self::Position) -> Side;

    /// Whether the side to move may play `mv`.
    fn is_legal(&self, position: &Self::Position, mv: Self::Move) -> bool;

    /// Plays a legal `mv` for the side to move; returns it as the log records it.
    fn play(&self, position: &mut Self::Position, mv: Self::Move) -> Self::LoggedMove;

    /// How the game ended, or `None` while it goes on.
    fn end(&self, position: &Self::Position) -> Option<GameEnd>;

    /// What the log's `detail` says of a game that ended by the rules in `position`
    /// (Go's result, `B+3.5` or `W+R`); `None` by default.
    fn end_detail(&self, _position: &Self::Position) -> Option<String> {
        None
    }

    /// Why `mv` was illegal in `position`, for the log's `detail`, and the point it named
    /// (`[row, column]`, row 0 on top), if any.
    fn describe_illegal(
        &self,
        position: &Self::Position,
        mv: Self::Move,
    ) -> (String, Option<[i32; 2]>);

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

    /// The move that gives up the game, in games where a player may resign (Go): boards
    /// for people offer it. `None` by default.
    fn resignation(&self) -> Option<Self::Move> {
        None
    }

    /// The finished game in [`Game::RECORD_FORMAT`] (`None` for games without one):
    /// `setup`, the legal `moves` as the log keeps them, and `played`, who played it and
    /// how it ended.
    fn record_text(
        &self,
        _setup: &Self::Setup,
        _moves: &[Self::LoggedMove],
        _played: &Played,
    ) -> Option<String> {
        None
    }

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

/// What a game's record format says of a finished game besides its moves (see
/// [`Game::record_text`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Played<'a> {
    /// The game's id (`pairing-pair-game`).
    pub id: &'a str,
    /// The first side's player (Black in Reversi and Go).
    pub first: &'a str,
    /// The second side's player.
    pub second: &'a str,
    /// The winner, `None` for a draw.
    pub winner: Option<Side>,
    /// How it ended.
    pub termination: Termination,
    /// The log's `detail`: the verdict's, or the rules' (Go's result).
    pub detail: Option<&'a str>,
}

/// The games the judge plays, as the command line (`--game`, `--rule`; Go's `--size`,
/// `--komi`, `--handicap`) and `run.json` (`game`, `rule`, `go`; absent in runs written
/// before Reversi: Connect-4) name them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum GameKind {
    /// The course's gravity Connect-4 ([`connect4::Connect4`]).
    #[default]
    Connect4,
    /// Reversi under a rule set ([`reversi::Reversi`]).
    Reversi(reversi::Rule),
    /// Go under its size, komi and handicap ([`go::Go`]).
    Go(go::Rules),
}

impl GameKind {
    /// The game named `game` (`connect4`, `reversi`, `go`) under `rule`, which only Reversi
    /// takes (Reversi without one: `standard`), and `go`'s rules, which only Go takes (Go
    /// without them: 9x9, komi 7.5). `Err` is a one-line usage error.
    pub fn new(
        game: &str,
        rule: Option<reversi::Rule>,
        go: Option<go::Rules>,
    ) -> Result<GameKind, String> {
        match (game, rule, go) {
            ("connect4" | "reversi" | "go", _, _) => {}
            (other, _, _) => {
                return Err(format!(
                    "unknown game {other:?} (known: connect4, reversi, go)"
                ));
            }
        }
        match (game, rule, go) {
            (_, Some(r), _) if game != "reversi" => Err(format!(
                "--rule {r} is a Reversi rule: give --game reversi, or no --rule"
            )),
            (_, _, Some(_)) if game != "go" => Err(format!(
                "--size (in tournaments), --komi and --handicap are Go's: give --game go, or none of them for {game}"
            )),
            ("connect4", _, _) => Ok(GameKind::Connect4),
            ("reversi", r, _) => Ok(GameKind::Reversi(r.unwrap_or_default())),
            (_, _, g) => Ok(GameKind::Go(g.unwrap_or_default())),
        }
    }

    /// `connect4`, `reversi` or `go`.
    pub fn name(self) -> &'static str {
        match self {
            GameKind::Connect4 => "connect4",
            GameKind::Reversi(_) => "reversi",
            GameKind::Go(_) => "go",
        }
    }

    /// The Reversi rule, `None` for the other games.
    pub fn rule(self) -> Option<reversi::Rule> {
        match self {
            GameKind::Reversi(rule) => Some(rule),
            GameKind::Connect4 | GameKind::Go(_) => None,
        }
    }

    /// Go's size, komi and handicap, `None` for the other games.
    pub fn go(self) -> Option<go::Rules> {
        match self {
            GameKind::Go(rules) => Some(rules),
            GameKind::Connect4 | GameKind::Reversi(_) => None,
        }
    }

    /// The default per-move wall-clock limit, ms ([`CONNECT4_MOVE_LIMIT_MS`],
    /// [`REVERSI_MOVE_LIMIT_MS`], [`GO_MOVE_LIMIT_MS`]); `--move-limit-ms` overrides it.
    pub fn default_move_limit_ms(self) -> u64 {
        match self {
            GameKind::Connect4 => CONNECT4_MOVE_LIMIT_MS,
            GameKind::Reversi(_) => REVERSI_MOVE_LIMIT_MS,
            GameKind::Go(_) => GO_MOVE_LIMIT_MS,
        }
    }

    /// "Connect-4", "Reversi (no-adjacent)" or "Go (9x9, komi 7.5)", for messages.
    pub fn title(self) -> String {
        match self {
            GameKind::Connect4 => "Connect-4".into(),
            GameKind::Reversi(rule) => format!("Reversi ({rule})"),
            GameKind::Go(rules) => format!("Go ({rules})"),
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

/// Go's per-move limit without a game clock, ms: the engines' default 5 s a move (ours
/// thinks `--move-ms 5000` unless told otherwise) plus the same margin.
pub const GO_MOVE_LIMIT_MS: u64 = 5000 + MOVE_LIMIT_MARGIN_MS;

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

/// Why a game ended: by the rules (`four`, `full`, `discs`, `score`, `resign`) or by a
/// verdict on the player at fault. The names are the game log's `termination`; terminations sort by name, so maps
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
    /// Two passes in a row (Go): scored by Tromp-Taylor area with komi, a draw at 0.
    Score,
    /// A player resigned (Go).
    Resign,
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
    pub const ALL: [Termination; 11] = [
        Termination::Four,
        Termination::Full,
        Termination::Discs,
        Termination::Score,
        Termination::Resign,
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
            Termination::Score => "score",
            Termination::Resign => "resign",
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
    /// The winner's margin for games that score one in whole units (Reversi's disc
    /// difference; Go's half points give theirs in [`Game::end_detail`]).
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
