//! Go on a square board of 2..=25 points a side, on plain arrays: the referee's own rules,
//! sharing no code with the engines it judges (a property test checks them against
//! `go_engine::game` on random games).
//!
//! Rules, as on CGOS: a stone with its group is captured when the group has no liberty
//! left after the opponent's move; suicide (a move whose own group is left without a
//! liberty once the opponent's captures are taken off) is illegal; positional superko: no
//! move may recreate a whole-board position that occurred before in the game (the setup's
//! and the opening's positions included; a pass repeats nothing); a pass is always legal;
//! two passes in a row end the game, and so does a resignation. The score is Tromp-Taylor
//! area: each side's stones plus the empty regions that reach its stones only, White's
//! plus komi; the players are expected to have captured the dead stones before passing
//! (nothing is removed at the end). A score of exactly 0 (integer komi) is a draw.
//!
//! Sides and colours: Black is [`Side::First`] in every game, White [`Side::Second`], as in
//! Reversi. With a handicap Black's stones are placed first and White moves first after
//! them ([`Game::first_mover`] says so); the opening has an even number of plies, so in an
//! even game Black is the first to move after it.
//!
//! Points are GTP vertices: a column letter `A`..`Z` without `I` from the left, a row
//! number from the bottom (`D4`); grid cell `(row, col)` has row 0 on top, so vertex row
//! `n` is grid row `size - n`.
//!
//! Boards: the run's [`Rules`] (`--size`, `--komi`, `--handicap`), and per pair an opening
//! of 2 or 4 stones on points off the edge, drawn from the board seed ([`Go::setup`]), so
//! that games differ and both games of a pair start alike with colours swapped.

use std::fmt;
use std::str::FromStr;
use std::sync::Arc;

use rand::seq::IndexedRandom;
use rand::{Rng, SeedableRng, rngs::StdRng};
use serde::{Deserialize, Serialize};

use super::{Cell, Game, GameEnd, GameKind, Grid, Played, Side, Termination};

/// The smallest board side: GTP's and SGF's letters reach 25.
pub const MIN_SIZE: u32 = 2;
/// The largest board side.
pub const MAX_SIZE: u32 = 25;
/// The board side without `--size`.
pub const DEFAULT_SIZE: u32 = 9;
/// Komi without `--komi`, as on CGOS (area scoring).
pub const DEFAULT_KOMI: f64 = 7.5;
/// The most plies an opening has.
pub const MAX_OPENING: usize = 4;

/// GTP's column letters (no `I`).
const LETTERS: &[u8; 25] = b"ABCDEFGHJKLMNOPQRSTUVWXYZ";

/// The rules a run plays under: board size, komi and handicap (run.json's `go`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(into = "RulesRepr", try_from = "RulesRepr")]
pub struct Rules {
    size: u8,
    /// Komi in half points (komi is a multiple of 0.5), so rules compare exactly.
    half_komi: i16,
    handicap: u8,
}

/// The JSON form of [`Rules`]: `{"size":9,"komi":7.5,"handicap":0}`.
#[derive(Serialize, Deserialize)]
struct RulesRepr {
    size: u32,
    komi: f64,
    handicap: u32,
}

impl From<Rules> for RulesRepr {
    fn from(r: Rules) -> RulesRepr {
        RulesRepr {
            size: r.size(),
            komi: r.komi(),
            handicap: r.handicap(),
        }
    }
}

impl TryFrom<RulesRepr> for Rules {
    type Error = String;

    fn try_from(r: RulesRepr) -> Result<Rules, String> {
        Rules::new(r.size, r.komi, r.handicap)
    }
}

impl Default for Rules {
    /// 9x9, komi 7.5, no handicap.
    fn default() -> Rules {
        Rules {
            size: DEFAULT_SIZE as u8,
            half_komi: (DEFAULT_KOMI * 2.0) as i16,
            handicap: 0,
        }
    }
}

impl Rules {
    /// A `size` board (2..=25) with `komi` (a multiple of 0.5, at most 1000 either way) and
    /// `handicap` stones (0, or 2 up to what GTP's fixed handicap places on the board:
    /// [`max_handicap`]). `Err` says what is wrong, for a usage error.
    pub fn new(size: u32, komi: f64, handicap: u32) -> Result<Rules, String> {
        if !(MIN_SIZE..=MAX_SIZE).contains(&size) {
            return Err(format!(
                "--size {size}: a Go board is {MIN_SIZE} to {MAX_SIZE} points a side"
            ));
        }
        let half = komi * 2.0;
        if !half.is_finite() || half.fract() != 0.0 || half.abs() > 2000.0 {
            return Err(format!(
                "--komi {komi}: komi is a multiple of 0.5 (7.5, 6, -0.5...)"
            ));
        }
        let max = max_handicap(size);
        if handicap == 1 || handicap > max {
            return Err(if max == 0 {
                format!("--handicap {handicap}: no fixed handicap on a {size}x{size} board")
            } else {
                format!(
                    "--handicap {handicap}: a {size}x{size} board takes 0 or 2 to {max} handicap stones"
                )
            });
        }
        Ok(Rules {
            size: size as u8,
            half_komi: half as i16,
            handicap: handicap as u8,
        })
    }

    /// The board side.
    pub fn size(self) -> u32 {
        u32::from(self.size)
    }

    /// Komi, White's compensation.
    pub fn komi(self) -> f64 {
        f64::from(self.half_komi) / 2.0
    }

    /// Komi as GTP's `komi` command and SGF's `KM` write it (`7.5`, `6`, `-0.5`).
    pub fn komi_text(self) -> String {
        half_points(i32::from(self.half_komi))
    }

    /// The number of handicap stones (0: an even game).
    pub fn handicap(self) -> u32 {
        u32::from(self.handicap)
    }
}

impl fmt::Display for Rules {
    /// `9x9, komi 7.5` and `, handicap 4` when there is one.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{0}x{0}, komi {1}", self.size, self.komi_text())?;
        if self.handicap > 0 {
            write!(f, ", handicap {}", self.handicap)?;
        }
        Ok(())
    }
}

/// `n` half points as a number: `15` is `7.5`, `-1` is `-0.5`, `12` is `6`.
fn half_points(n: i32) -> String {
    let sign = if n < 0 { "-" } else { "" };
    let n = n.unsigned_abs();
    if n.is_multiple_of(2) {
        format!("{sign}{}", n / 2)
    } else {
        format!("{sign}{}.5", n / 2)
    }
}

/// The most stones GTP's `fixed_handicap` places on a `size` board: none below 7x7, 4 on
/// 7x7 and on even sizes (no centre point), 9 otherwise (GTP 2, section 4.1.1).
pub fn max_handicap(size: u32) -> u32 {
    match size {
        0..=6 => 0,
        7 => 4,
        s if s % 2 == 0 => 4,
        _ => 9,
    }
}

/// GTP's fixed handicap: where `count` Black stones go on a `size` board, in GTP's order
/// (for 19x19: D4 Q16 D16 Q4, then D10 Q10, then K4 K16, the centre K10 for odd counts
/// from 5). The star points are on the third line below 13x13 and the fourth from 13x13.
/// Empty when `count` is not a fixed handicap of the board.
pub fn handicap_points(size: u32, count: u32) -> Vec<Move> {
    if count < 2 || count > max_handicap(size) {
        return Vec::new();
    }
    let edge = if size < 13 { 2 } else { 3 };
    let (lo, hi, mid) = (edge, size as i32 - 1 - edge, size as i32 / 2);
    // (column, row from the bottom), 0-based.
    let order = [
        (lo, lo),
        (hi, hi),
        (lo, hi),
        (hi, lo),
        (lo, mid),
        (hi, mid),
        (mid, lo),
        (mid, hi),
    ];
    let sides = if count % 2 == 1 && count >= 5 {
        count - 1
    } else {
        count
    };
    let mut points: Vec<(i32, i32)> = order[..sides as usize].to_vec();
    if sides != count {
        points.push((mid, mid));
    }
    points
        .into_iter()
        .map(|(col, row)| Move::Play { col, row })
        .collect()
}

/// A move: a stone on a vertex, a pass or a resignation. Written as GTP writes them (`D4`,
/// `pass`, `resign`), which is also how the game log records them. A vertex off the board
/// is representable (a player may propose one) and never legal.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Move {
    /// A stone on column `col` (0 = `A`) and row `row` counted from the bottom (0 = row 1).
    Play {
        /// Column, 0 = `A` (the leftmost).
        col: i32,
        /// Row from the bottom, 0 = GTP's row 1.
        row: i32,
    },
    /// No stone; always legal while the game is on.
    Pass,
    /// Gives up the game; always legal while the game is on.
    Resign,
}

impl Move {
    /// The vertex's index in a `size` board's cells (row-major from the top), if it is on
    /// the board.
    fn index(self, size: usize) -> Option<usize> {
        match self {
            Move::Play { col, row } if on_board(size, col, row) => {
                Some((size - 1 - row as usize) * size + col as usize)
            }
            _ => None,
        }
    }

    /// The vertex at cell index `i` of a `size` board.
    fn at(size: usize, i: usize) -> Move {
        Move::Play {
            col: (i % size) as i32,
            row: (size - 1 - i / size) as i32,
        }
    }
}

fn on_board(size: usize, col: i32, row: i32) -> bool {
    (0..size as i32).contains(&col) && (0..size as i32).contains(&row)
}

impl fmt::Display for Move {
    /// `D4`, `pass`, `resign`; a vertex no board has as `(col, row)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Move::Pass => f.write_str("pass"),
            Move::Resign => f.write_str("resign"),
            Move::Play { col, row } if on_board(MAX_SIZE as usize, col, row) => {
                write!(f, "{}{}", LETTERS[col as usize] as char, row + 1)
            }
            Move::Play { col, row } => write!(f, "({col}, {row})"),
        }
    }
}

impl FromStr for Move {
    type Err = String;

    /// `pass`, `resign` or a vertex `A1`..`Z25` (no `I`), in any case.
    fn from_str(text: &str) -> Result<Move, String> {
        let t = text.trim().to_ascii_uppercase();
        match t.as_str() {
            "PASS" => return Ok(Move::Pass),
            "RESIGN" => return Ok(Move::Resign),
            _ => {}
        }
        let bad = || format!("{text:?} is not a Go move (a vertex like D4, pass or resign)");
        let mut chars = t.chars();
        let letter = chars.next().ok_or_else(bad)?;
        let col = LETTERS
            .iter()
            .position(|&l| l as char == letter)
            .ok_or_else(bad)?;
        let digits = chars.as_str();
        if digits.is_empty() || digits.len() > 2 || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return Err(bad());
        }
        let number: i32 = digits.parse().map_err(|_| bad())?;
        if !(1..=MAX_SIZE as i32).contains(&number) || digits.starts_with('0') {
            return Err(bad());
        }
        Ok(Move::Play {
            col: col as i32,
            row: number - 1,
        })
    }
}

impl Serialize for Move {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Move {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Move, D::Error> {
        let text = String::deserialize(d)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

/// A pair's board: the run's rules and the opening (the log's `board`:
/// `{"size":9,"komi":7.5,"handicap":0,"opening":["E6","D4"]}`). Built by [`Go::setup`] or
/// from a log, whose opening is checked.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(into = "SetupRepr", try_from = "SetupRepr")]
pub struct Setup {
    rules: Rules,
    opening: [Move; MAX_OPENING],
    plies: u8,
}

impl Setup {
    /// The rules of the game.
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// The handicap stones (GTP's fixed handicap), empty in an even game.
    pub fn handicap_stones(&self) -> Vec<Move> {
        handicap_points(self.rules.size(), self.rules.handicap())
    }

    /// The opening's moves, in order, after the handicap (White's first in a handicap
    /// game, Black's in an even one).
    pub fn opening(&self) -> &[Move] {
        &self.opening[..usize::from(self.plies)]
    }

    /// Who plays the opening's first move.
    fn opening_starts(&self) -> Side {
        if self.rules.handicap > 0 {
            Side::Second
        } else {
            Side::First
        }
    }
}

/// The log's form of a [`Setup`].
#[derive(Serialize, Deserialize)]
struct SetupRepr {
    #[serde(flatten)]
    rules: Rules,
    opening: Vec<Move>,
}

impl From<Setup> for SetupRepr {
    fn from(s: Setup) -> SetupRepr {
        SetupRepr {
            rules: s.rules,
            opening: s.opening().to_vec(),
        }
    }
}

impl TryFrom<SetupRepr> for Setup {
    type Error = String;

    /// Checks that the opening has an even number of plies, at most [`MAX_OPENING`], each
    /// a stone legal in turn on the board after the handicap.
    fn try_from(r: SetupRepr) -> Result<Setup, String> {
        if r.opening.len() > MAX_OPENING || r.opening.len() % 2 == 1 {
            return Err(format!(
                "an opening has 0, 2 or 4 moves, not {}",
                r.opening.len()
            ));
        }
        let mut setup = Setup {
            rules: r.rules,
            opening: [Move::Pass; MAX_OPENING],
            plies: 0,
        };
        let mut position = Position::after_handicap(&setup);
        for (k, &mv) in r.opening.iter().enumerate() {
            if !matches!(mv, Move::Play { .. }) || position.check(mv).is_err() {
                return Err(format!(
                    "opening move {mv} is not legal on a {}x{} board after the moves before it",
                    r.rules.size(),
                    r.rules.size()
                ));
            }
            position.play(mv);
            setup.opening[k] = mv;
        }
        setup.plies = r.opening.len() as u8;
        Ok(setup)
    }
}

/// Why a stone may not go on a point.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Illegal {
    /// Off the board.
    OffBoard,
    /// A stone is there.
    Occupied,
    /// Its group would have no liberty (and it captures nothing).
    Suicide,
    /// The position after it occurred before (positional superko; a simple ko too).
    Superko,
    /// The game is over.
    Over,
}

impl fmt::Display for Illegal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Illegal::OffBoard => "off the board",
            Illegal::Occupied => "the point is occupied",
            Illegal::Suicide => "suicide",
            Illegal::Superko => "it repeats an earlier position (positional superko)",
            Illegal::Over => "the game is over",
        })
    }
}

/// A position: the board row by row from the top (0 empty, 1 black, 2 white), the side to
/// move, consecutive passes, a resignation, the last move, and every earlier board.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Position {
    size: usize,
    half_komi: i32,
    cells: Vec<u8>,
    to_move: Side,
    passes: u8,
    resigned: Option<Side>,
    last: Option<Move>,
    /// Every board so far, this one included (shared: positions are cloned for each
    /// move shown, and the boards themselves never change).
    past: Vec<Arc<[u8]>>,
}

/// The cell value of `side`'s stones.
fn stone(side: Side) -> u8 {
    match side {
        Side::First => 1,
        Side::Second => 2,
    }
}

impl Position {
    /// The board after the handicap, before the opening: the handicap's stones, White to
    /// move after them, else Black.
    fn after_handicap(setup: &Setup) -> Position {
        let size = setup.rules.size() as usize;
        let mut cells = vec![0u8; size * size];
        for mv in setup.handicap_stones() {
            cells[mv.index(size).expect("handicap points are on the board")] = 1;
        }
        Position {
            size,
            half_komi: i32::from(setup.rules.half_komi),
            past: vec![Arc::from(cells.as_slice())],
            cells,
            to_move: setup.opening_starts(),
            passes: 0,
            resigned: None,
            last: None,
        }
    }

    /// The board side.
    pub fn size(&self) -> usize {
        self.size
    }

    /// Whose stone is on grid cell `(row, col)` (row 0 on top), if any.
    pub fn stone_at(&self, row: i32, col: i32) -> Option<Side> {
        if !(on_board(self.size, col, row)) {
            return None;
        }
        match self.cells[row as usize * self.size + col as usize] {
            1 => Some(Side::First),
            2 => Some(Side::Second),
            _ => None,
        }
    }

    /// The side to move.
    pub fn to_move(&self) -> Side {
        self.to_move
    }

    /// The move that led here (the opening's last after an opening), `None` at the start.
    pub fn last(&self) -> Option<Move> {
        self.last
    }

    /// Two passes in a row, or a resignation.
    pub fn is_over(&self) -> bool {
        self.passes >= 2 || self.resigned.is_some()
    }

    /// The four neighbours of cell `i` on the board.
    fn neighbours(&self, i: usize) -> impl Iterator<Item = usize> + use<> {
        let (size, r, c) = (self.size, i / self.size, i % self.size);
        [
            (r > 0).then(|| i - size),
            (r + 1 < size).then(|| i + size),
            (c > 0).then(|| i - 1),
            (c + 1 < size).then(|| i + 1),
        ]
        .into_iter()
        .flatten()
    }

    /// The group of the stone on `i` in `cells` (a flood fill over same-coloured
    /// neighbours) and whether it has a liberty.
    fn group(&self, cells: &[u8], i: usize) -> (Vec<usize>, bool) {
        let colour = cells[i];
        let mut seen = vec![false; cells.len()];
        let mut stack = vec![i];
        let mut group = Vec::new();
        let mut free = false;
        seen[i] = true;
        while let Some(j) = stack.pop() {
            group.push(j);
            for n in self.neighbours(j) {
                if cells[n] == 0 {
                    free = true;
                } else if cells[n] == colour && !seen[n] {
                    seen[n] = true;
                    stack.push(n);
                }
            }
        }
        (group, free)
    }

    /// The board after the side to move plays `mv`, or why it may not. A pass or a
    /// resignation leaves the board as it is.
    fn check(&self, mv: Move) -> Result<Vec<u8>, Illegal> {
        if self.is_over() {
            return Err(Illegal::Over);
        }
        let Move::Play { .. } = mv else {
            return Ok(self.cells.clone());
        };
        let i = mv.index(self.size).ok_or(Illegal::OffBoard)?;
        if self.cells[i] != 0 {
            return Err(Illegal::Occupied);
        }
        let (own, theirs) = (stone(self.to_move), stone(self.to_move.other()));
        let mut cells = self.cells.clone();
        cells[i] = own;
        // The opponent's groups next to the stone that have no liberty left are taken off.
        for n in self.neighbours(i) {
            if cells[n] == theirs {
                let (group, free) = self.group(&cells, n);
                if !free {
                    for g in group {
                        cells[g] = 0;
                    }
                }
            }
        }
        if !self.group(&cells, i).1 {
            return Err(Illegal::Suicide);
        }
        if self.past.iter().any(|b| **b == *cells) {
            return Err(Illegal::Superko);
        }
        Ok(cells)
    }

    /// Plays a legal `mv` for the side to move.
    fn play(&mut self, mv: Move) {
        let cells = self.check(mv).expect("a legal move");
        match mv {
            Move::Play { .. } => {
                self.passes = 0;
                self.past.push(Arc::from(cells.as_slice()));
                self.cells = cells;
            }
            Move::Pass => self.passes += 1,
            Move::Resign => self.resigned = Some(self.to_move),
        }
        self.last = Some(mv);
        self.to_move = self.to_move.other();
    }

    /// Black's and White's area under Tromp-Taylor: stones, plus each empty region whose
    /// border holds stones of that colour only.
    pub fn area(&self) -> [u32; 2] {
        let mut area = [0u32; 2];
        let mut seen = vec![false; self.cells.len()];
        for i in 0..self.cells.len() {
            match self.cells[i] {
                1 => area[0] += 1,
                2 => area[1] += 1,
                _ if seen[i] => {}
                _ => {
                    // Flood the empty region, noting the colours on its border.
                    let (mut size, mut border) = (0, [false; 2]);
                    let mut stack = vec![i];
                    seen[i] = true;
                    while let Some(j) = stack.pop() {
                        size += 1;
                        for n in self.neighbours(j) {
                            match self.cells[n] {
                                0 if !seen[n] => {
                                    seen[n] = true;
                                    stack.push(n);
                                }
                                0 => {}
                                c => border[usize::from(c - 1)] = true,
                            }
                        }
                    }
                    match border {
                        [true, false] => area[0] += size,
                        [false, true] => area[1] += size,
                        _ => {}
                    }
                }
            }
        }
        area
    }

    /// Black's area minus White's minus komi, in half points (positive: Black leads).
    pub fn half_score(&self) -> i32 {
        let [black, white] = self.area();
        2 * (black as i32 - white as i32) - self.half_komi
    }

    /// The result as SGF writes it: `B+3.5`, `W+R`, `Draw`; `None` while the game is on.
    pub fn result_text(&self) -> Option<String> {
        if let Some(loser) = self.resigned {
            return Some(format!("{}+R", letter(loser.other())));
        }
        if self.passes < 2 {
            return None;
        }
        let score = self.half_score();
        Some(match score.signum() {
            0 => "Draw".into(),
            1 => format!("B+{}", half_points(score)),
            _ => format!("W+{}", half_points(-score)),
        })
    }
}

/// `B` or `W`.
fn letter(side: Side) -> char {
    match side {
        Side::First => 'B',
        Side::Second => 'W',
    }
}

/// Go under a run's [`Rules`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Go {
    /// Size, komi and handicap of every game.
    pub rules: Rules,
}

impl Go {
    /// The opening drawn from `board_seed`: 2 or 4 plies, each a stone on a point off the
    /// edge (fewer where the board has too few), legal in turn, alternating from the side
    /// that moves after the handicap.
    fn draw_opening(&self, board_seed: u64) -> Setup {
        let mut rng = StdRng::seed_from_u64(board_seed);
        let mut setup = Setup {
            rules: self.rules,
            opening: [Move::Pass; MAX_OPENING],
            plies: 0,
        };
        let size = self.rules.size() as usize;
        let mut position = Position::after_handicap(&setup);
        let want = if rng.random_bool(0.5) { 2 } else { 4 };
        for k in 0..want {
            let inner: Vec<Move> = (0..size * size)
                .map(|i| Move::at(size, i))
                .filter(|&mv| match mv {
                    Move::Play { col, row } => {
                        (1..size as i32 - 1).contains(&col) && (1..size as i32 - 1).contains(&row)
                    }
                    _ => false,
                })
                .filter(|&mv| position.check(mv).is_ok())
                .collect();
            // Whole pairs of plies only, so the side to move after the opening is fixed.
            if k % 2 == 0 && inner.len() < 2 {
                break;
            }
            let &mv = inner.choose(&mut rng).expect("checked above");
            position.play(mv);
            setup.opening[k] = mv;
            setup.plies += 1;
        }
        if setup.plies % 2 == 1 {
            setup.plies -= 1;
        }
        setup
    }
}

impl Game for Go {
    type Setup = Setup;
    type Position = Position;
    type Move = Move;
    type LoggedMove = Move;

    const PASSES: bool = true;
    const STONES_FLIP: bool = true;

    fn kind(&self) -> GameKind {
        GameKind::Go(self.rules)
    }

    fn setup(&self, board_seed: u64) -> Setup {
        self.draw_opening(board_seed)
    }

    /// White moves first after a handicap (the opening has whole pairs of plies).
    fn first_mover(setup: &Setup) -> Side {
        setup.opening_starts()
    }

    fn start(&self, setup: &Setup) -> Position {
        let mut position = Position::after_handicap(setup);
        for &mv in setup.opening() {
            // Setups are checked when built, so every opening move is legal.
            position.play(mv);
        }
        position
    }

    fn to_move(&self, position: &Position) -> Side {
        position.to_move
    }

    fn is_legal(&self, position: &Position, mv: Move) -> bool {
        position.check(mv).is_ok()
    }

    fn play(&self, position: &mut Position, mv: Move) -> Move {
        position.play(mv);
        mv
    }

    /// After a resignation (`resign`) or two passes (`score`, Tromp-Taylor; a draw when
    /// it is exactly 0). No margin: the score is in half points, and [`Game::end_detail`]
    /// gives it as SGF writes it.
    fn end(&self, position: &Position) -> Option<GameEnd> {
        if let Some(loser) = position.resigned {
            return Some(GameEnd {
                winner: Some(loser.other()),
                termination: Termination::Resign,
                margin: None,
            });
        }
        if position.passes < 2 {
            return None;
        }
        let winner = match position.half_score().signum() {
            1 => Some(Side::First),
            -1 => Some(Side::Second),
            _ => None,
        };
        Some(GameEnd {
            winner,
            termination: Termination::Score,
            margin: None,
        })
    }

    fn end_detail(&self, position: &Position) -> Option<String> {
        position.result_text()
    }

    fn describe_illegal(&self, position: &Position, mv: Move) -> (String, Option<[i32; 2]>) {
        let why = position
            .check(mv)
            .err()
            .map_or(String::new(), |e| format!(" ({e})"));
        let point = match mv {
            Move::Play { col, row } => Some([position.size as i32 - 1 - row, col]),
            _ => None,
        };
        (format!("illegal move {mv}{why}"), point)
    }

    fn read_move(&self, position: &Position, logged: Move) -> Option<Move> {
        position.check(logged).is_ok().then_some(logged)
    }

    /// Every legal point in reading order (top row first), then the pass; resigning is
    /// always legal too but not listed (no board offers it as a cell, nor passes by it).
    fn legal_moves(&self, position: &Position) -> Vec<Move> {
        if position.is_over() {
            return Vec::new();
        }
        let size = position.size;
        (0..size * size)
            .map(|i| Move::at(size, i))
            .filter(|&mv| position.check(mv).is_ok())
            .chain([Move::Pass])
            .collect()
    }

    fn move_at(&self, position: &Position, x: i32, y: i32) -> Option<Move> {
        let mv = Move::Play {
            col: y,
            row: position.size as i32 - 1 - x,
        };
        (mv.index(position.size).is_some() && position.check(mv).is_ok()).then_some(mv)
    }

    fn resignation(&self) -> Option<Move> {
        Some(Move::Resign)
    }

    fn move_cell(&self, position: &Position, mv: Move) -> Option<(i32, i32)> {
        mv.index(position.size)
            .map(|i| ((i / position.size) as i32, (i % position.size) as i32))
    }

    fn last_cell(&self, position: &Position) -> Option<(i32, i32)> {
        self.move_cell(position, position.last?)
    }

    fn grid(&self, position: &Position) -> Grid {
        let n = position.size as i32;
        let mut grid = Grid::new(n, n);
        for row in 0..n {
            for col in 0..n {
                if let Some(side) = position.stone_at(row, col) {
                    grid.set(row, col, Cell::of(side));
                }
            }
        }
        grid
    }

    /// Go has no winning line.
    fn winning_line(&self, _position: &Position) -> Vec<(i32, i32)> {
        Vec::new()
    }

    const RECORD_FORMAT: Option<&'static str> = Some("sgf");

    /// The game as SGF FF\[4\] (go_engine's writer): size, komi, handicap stones, the
    /// players (Black is the first), the opening and every move, and the result.
    fn record_text(&self, setup: &Setup, moves: &[Move], played: &Played) -> Option<String> {
        Some(sgf::write(setup, moves, played))
    }
}

pub mod sgf;

#[cfg(test)]
mod tests;
