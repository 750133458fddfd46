//! The rules of gravity Connect-4 with one blocked cell, on line bitboards.
//!
//! Coordinates follow the course: `row` 0 is the TOP row, `col` 0 the left column, and a
//! column's next free cell is `top[col] - 1` (so `top[col] == 0` means the column is full).
//! The blocked cell is never occupied and stones fall past it.
//!
//! # Bit layout
//!
//! A 12x12 board with a separator column needs 156 bits, more than a `u128`, so instead of one
//! wide bitboard each side keeps every *line* of the board as its own `u16` mask. A stone at
//! `(row, col)` sets one bit in four lines:
//!
//! ```text
//!  line index            which cells                  bit of (row, col)
//!  0  ..12   ROW r       (r, 0) .. (r, 11)            col
//!  12 ..24   COLUMN c    (0, c) .. (11, c)            row
//!  24 ..47   DIAGONAL    row - col + 11 = const (\)   col
//!  47 ..70   ANTI-DIAG   row + col      = const (/)   col
//!
//!  e.g. the stone X at (row 2, col 1) on a 4x4 board:
//!        col 0 1 2 3
//!  row 0     . . . .      ROW 2      = 0b0010  (bit 1)
//!  row 1     . . . .      COLUMN 1   = 0b0100  (bit 2)
//!  row 2     . X . .      DIAGONAL 12 (2-1+11) = 0b0010 (bit 1)
//!  row 3     . . . .      ANTI-DIAG 50 (47+2+1) = 0b0010 (bit 1)
//! ```
//!
//! Within a line, neighbouring cells are neighbouring bits and cells off the board or the
//! blocked cell are never set, so "four in a row on this line" is `m & m>>1 & m>>2 & m>>3 != 0`.
//! Playing a move touches four words, the win test through the last stone reads four, and the
//! whole position is about 300 bytes, cheap to copy at the start of every search iteration.
//!
//! Beside the rules: [`zobrist`], the position's hash key, and [`centre_first`], the column
//! order every strategy tries first (central stones take part in more lines).

pub mod zobrist;

use std::fmt;

/// Smallest supported board side (rows or columns).
pub const MIN_SIZE: usize = 4;
/// Largest supported board side (rows or columns); the course draws 9..=12.
pub const MAX_SIZE: usize = 12;

const ROW_BASE: usize = 0;
const COL_BASE: usize = MAX_SIZE;
const DIAG_BASE: usize = 2 * MAX_SIZE;
const ANTI_BASE: usize = DIAG_BASE + 2 * MAX_SIZE - 1;
const LINES: usize = ANTI_BASE + 2 * MAX_SIZE - 1;
/// Lines kept per side: [`LINES`] and room for the indices of any row below 16 (as
/// [`Position::play_packed`] masks it) and column below [`MAX_SIZE`], so that its look-ups
/// need no bounds checks. The extra lines stay empty.
pub(crate) const LINE_SLOTS: usize = ANTI_BASE + 16 + MAX_SIZE - 1;
const _: () = assert!(LINE_SLOTS >= LINES);

/// One of the two players, named relative to the position's starting point.
///
/// `Us` is the side to move when the position was built from the course's arrays (the stones
/// the judge shows as `2`); `Them` is the opponent (`1`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Side {
    /// The side to move when the position was built ("machine", value 2 in the course board).
    Us = 0,
    /// The other side ("user", value 1 in the course board).
    Them = 1,
}

impl Side {
    /// The other side.
    #[inline]
    pub fn other(self) -> Side {
        match self {
            Side::Us => Side::Them,
            Side::Them => Side::Us,
        }
    }
}

/// Why a set of course arguments does not describe a playable position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PositionError {
    /// `M` or `N` is outside `MIN_SIZE..=MAX_SIZE`.
    #[error("board size {rows}x{cols} is outside {MIN_SIZE}..={MAX_SIZE}")]
    BadSize {
        /// Rows given.
        rows: i64,
        /// Columns given.
        cols: i64,
    },
    /// The blocked cell is not on the board.
    #[error("blocked cell ({row}, {col}) is off the {rows}x{cols} board")]
    BlockedOffBoard {
        /// Blocked row given.
        row: i64,
        /// Blocked column given.
        col: i64,
        /// Board rows.
        rows: usize,
        /// Board columns.
        cols: usize,
    },
    /// A board cell holds something other than 0, 1 or 2.
    #[error("board cell ({row}, {col}) holds {value}, expected 0, 1 or 2")]
    BadCell {
        /// Row of the cell.
        row: usize,
        /// Column of the cell.
        col: usize,
        /// The value found.
        value: i32,
    },
    /// The blocked cell holds a stone.
    #[error("blocked cell ({row}, {col}) holds a stone")]
    StoneOnBlocked {
        /// Blocked row.
        row: usize,
        /// Blocked column.
        col: usize,
    },
    /// `top[col]` is outside `0..=M` or disagrees with the stones in that column.
    #[error("top[{col}] = {top} does not match column {col} (expected {expected})")]
    BadTop {
        /// The column.
        col: usize,
        /// The value given.
        top: i32,
        /// The value the stones imply.
        expected: i32,
    },
    /// One side already has four in a row: the game is over.
    #[error("the position already holds four in a row")]
    AlreadyWon,
    /// Every column is full.
    #[error("the board is full: no legal move")]
    Full,
}

/// A board's size and blocked cell. Position keys hash stones only, so the tables kept
/// between moves empty themselves when the geometry changes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Geometry {
    /// Number of rows.
    pub rows: usize,
    /// Number of columns.
    pub cols: usize,
    /// The blocked cell as `(row, col)`.
    pub blocked: (usize, usize),
}

/// A position: board size, blocked cell, stones of both sides, side to move.
///
/// Only positions reachable under the rules can be built: [`Position::new`] gives the empty
/// board and [`Position::from_course`] validates the judge's arrays. Past that, [`Position::play`]
/// keeps every invariant (no four in a row before the last move, `top` consistent with stones).
#[derive(Clone, PartialEq, Eq)]
pub struct Position {
    lines: [[u16; LINE_SLOTS]; 2],
    top: [u8; MAX_SIZE],
    rows: u8,
    cols: u8,
    blocked_row: u8,
    blocked_col: u8,
    /// `blocked_row + 1` in the blocked column, 0xFF elsewhere: a stone landing on this row
    /// makes the column's next free cell the one above the blocked cell (branch-free skip).
    skip_at: [u8; MAX_SIZE],
    to_move: Side,
    /// Bit `c` set iff column `c` has a free cell.
    open: u16,
    /// Free playable cells left.
    empty: u16,
    /// Stones played so far.
    ply: u16,
}

#[inline(always)]
fn has_four(m: u16) -> bool {
    let pairs = m & (m >> 1);
    pairs & (pairs >> 2) != 0
}

#[inline(always)]
fn diag_index(row: usize, col: usize) -> usize {
    DIAG_BASE + row + (MAX_SIZE - 1) - col
}

#[inline(always)]
fn anti_index(row: usize, col: usize) -> usize {
    ANTI_BASE + row + col
}

impl Position {
    /// The empty `rows` x `cols` board with the blocked cell at `(blocked_row, blocked_col)`,
    /// `Side::Us` to move.
    pub fn new(
        rows: usize,
        cols: usize,
        blocked_row: usize,
        blocked_col: usize,
    ) -> Result<Position, PositionError> {
        check_size(rows as i64, cols as i64)?;
        if blocked_row >= rows || blocked_col >= cols {
            return Err(PositionError::BlockedOffBoard {
                row: blocked_row as i64,
                col: blocked_col as i64,
                rows,
                cols,
            });
        }
        let mut top = [0u8; MAX_SIZE];
        for (c, t) in top.iter_mut().enumerate().take(cols) {
            *t = rows as u8;
            if c == blocked_col && blocked_row == rows - 1 {
                *t -= 1;
            }
        }
        let mut pos = Position {
            lines: [[0; LINE_SLOTS]; 2],
            top,
            rows: rows as u8,
            cols: cols as u8,
            blocked_row: blocked_row as u8,
            blocked_col: blocked_col as u8,
            skip_at: std::array::from_fn(|c| {
                if c == blocked_col {
                    blocked_row as u8 + 1
                } else {
                    u8::MAX
                }
            }),
            to_move: Side::Us,
            open: 0,
            empty: (rows * cols - 1) as u16,
            ply: 0,
        };
        pos.open = pos.compute_open();
        Ok(pos)
    }

    /// Builds the position the course judge describes, validating every value.
    ///
    /// `board[row * cols + col]` is 0 (empty), 1 (opponent) or 2 (the caller, to move);
    /// `top[col]` is one past the next free row as the course keeps it. Fails if anything is
    /// inconsistent, the game is already won, or no move is left.
    pub fn from_course(
        rows: i64,
        cols: i64,
        top: &[i32],
        board: &[i32],
        blocked_row: i64,
        blocked_col: i64,
    ) -> Result<Position, PositionError> {
        check_size(rows, cols)?;
        let (rows, cols) = (rows as usize, cols as usize);
        if !(0..rows as i64).contains(&blocked_row) || !(0..cols as i64).contains(&blocked_col) {
            return Err(PositionError::BlockedOffBoard {
                row: blocked_row,
                col: blocked_col,
                rows,
                cols,
            });
        }
        assert!(top.len() >= cols && board.len() >= rows * cols);
        let mut pos = Position::new(rows, cols, blocked_row as usize, blocked_col as usize)?;
        let mut empty = pos.empty;
        let mut ply = 0;
        for row in 0..rows {
            for col in 0..cols {
                let value = board[row * cols + col];
                let side = match value {
                    0 => continue,
                    2 => Side::Us,
                    1 => Side::Them,
                    _ => return Err(PositionError::BadCell { row, col, value }),
                };
                if pos.is_blocked(row, col) {
                    return Err(PositionError::StoneOnBlocked { row, col });
                }
                pos.set_stone(side, row, col);
                empty -= 1;
                ply += 1;
            }
        }
        pos.empty = empty;
        pos.ply = ply;
        for (col, &given) in top.iter().enumerate().take(cols) {
            let expected = pos.column_top(board, col)?;
            if given != expected {
                return Err(PositionError::BadTop {
                    col,
                    top: given,
                    expected,
                });
            }
            pos.top[col] = expected as u8;
        }
        pos.open = pos.compute_open();
        if pos.lines.iter().flatten().any(|&m| has_four(m)) {
            return Err(PositionError::AlreadyWon);
        }
        if pos.open == 0 {
            return Err(PositionError::Full);
        }
        Ok(pos)
    }

    /// The `top` value a column's stones imply, or an error if they float over a gap.
    fn column_top(&self, board: &[i32], col: usize) -> Result<i32, PositionError> {
        let cols = self.cols as usize;
        let rows = self.rows as usize;
        // Walk up from the bottom: stones (or the blocked cell) then only empty cells.
        let mut top = rows;
        while top > 0 {
            let row = top - 1;
            if self.is_blocked(row, col) || board[row * cols + col] != 0 {
                top -= 1;
            } else {
                break;
            }
        }
        if let Some(row) = (0..top).find(|&r| board[r * cols + col] != 0) {
            // A stone above an empty cell: no `top` can describe this column.
            return Err(PositionError::BadTop {
                col,
                top: -1,
                expected: row as i32,
            });
        }
        // `top` is the lowest empty cell + 1, but a full column whose only gap is the blocked
        // cell at the very top has top 0 (walked past it above).
        Ok(top as i32)
    }

    fn compute_open(&self) -> u16 {
        (0..self.cols as usize)
            .filter(|&c| self.top[c] > 0)
            .fold(0, |m, c| m | 1 << c)
    }

    #[inline(always)]
    fn set_stone(&mut self, side: Side, row: usize, col: usize) {
        let lines = &mut self.lines[side as usize];
        lines[ROW_BASE + row] |= 1 << col;
        lines[COL_BASE + col] |= 1 << row;
        lines[diag_index(row, col)] |= 1 << col;
        lines[anti_index(row, col)] |= 1 << col;
    }

    /// Number of rows (`M`).
    #[inline]
    pub fn rows(&self) -> usize {
        self.rows as usize
    }

    /// Number of columns (`N`).
    #[inline]
    pub fn cols(&self) -> usize {
        self.cols as usize
    }

    /// The blocked cell as `(row, col)`.
    #[inline]
    pub fn blocked(&self) -> (usize, usize) {
        (self.blocked_row as usize, self.blocked_col as usize)
    }

    /// The board's size and blocked cell: what a table keyed by stones alone must match.
    #[inline]
    pub fn geometry(&self) -> Geometry {
        Geometry {
            rows: self.rows(),
            cols: self.cols(),
            blocked: self.blocked(),
        }
    }

    /// The course's `top` and `board` arrays of this position (for tests: the judge's side
    /// of [`Position::from_course`]). Stones of [`Side::Us`] are 2, of [`Side::Them`] 1.
    #[cfg(test)]
    pub(crate) fn to_course(&self) -> (Vec<i32>, Vec<i32>) {
        let cols = self.cols();
        let board = (0..self.rows() * cols)
            .map(|i| match self.stone(i / cols, i % cols) {
                Some(Side::Us) => 2,
                Some(Side::Them) => 1,
                None => 0,
            })
            .collect();
        let top = (0..cols).map(|c| self.top(c) as i32).collect();
        (top, board)
    }

    /// True iff `(row, col)` is the blocked cell.
    #[inline]
    pub fn is_blocked(&self, row: usize, col: usize) -> bool {
        row == self.blocked_row as usize && col == self.blocked_col as usize
    }

    /// The side whose turn it is.
    #[inline]
    pub fn to_move(&self) -> Side {
        self.to_move
    }

    /// Stones played since the position was built from nothing (or found on the course board).
    #[inline]
    pub fn ply(&self) -> usize {
        self.ply as usize
    }

    /// Free playable cells left; 0 means the game is a tie if nobody has won.
    #[inline]
    pub fn empty_cells(&self) -> usize {
        self.empty as usize
    }

    /// The course's `top[col]`: the next stone in `col` lands on row `top(col) - 1`.
    #[inline]
    pub fn top(&self, col: usize) -> usize {
        self.top[col] as usize
    }

    /// Every column's [`Self::top`] (0 past the last column), as one copy.
    #[inline(always)]
    pub(crate) fn tops(&self) -> [u8; MAX_SIZE] {
        self.top
    }

    /// Bit `c` is set iff column `c` can take a stone.
    #[inline]
    pub fn open_columns(&self) -> u16 {
        self.open
    }

    /// True iff a stone can be dropped in `col`.
    #[inline]
    pub fn can_play(&self, col: usize) -> bool {
        col < self.cols as usize && self.open & (1 << col) != 0
    }

    /// The row a stone dropped in `col` lands on. Only meaningful if `can_play(col)`.
    #[inline]
    pub fn landing_row(&self, col: usize) -> usize {
        self.top[col] as usize - 1
    }

    /// The four line masks of `side` through `(row, col)` side by side in one `u64`: see
    /// [`pack_lines`].
    #[inline(always)]
    pub(crate) fn packed_lines_through(&self, side: Side, row: usize, col: usize) -> u64 {
        pack_lines(&self.lines[side as usize], line_indices(row, col))
    }

    /// [`Self::packed_lines_through`] with a stone of `side` added on the empty cell
    /// `(row, col)`: the lines as they would be after that move.
    #[inline(always)]
    pub(crate) fn packed_lines_with_stone(&self, side: Side, row: usize, col: usize) -> u64 {
        // The cell's bit in each lane: the row lane and both diagonals index by column,
        // the column lane by row.
        let stone = 1u64 << col | 1u64 << (16 + row) | 1u64 << (32 + col) | 1u64 << (48 + col);
        self.packed_lines_through(side, row, col) | stone
    }

    /// The row a stone in `col` would land on after one more stone in `col`, if any (the
    /// tests' plain statement of what [`Self::landing_bits`] computes).
    #[cfg(test)]
    pub(crate) fn row_above_landing(&self, col: usize) -> Option<usize> {
        let row = (self.top[col] as usize).checked_sub(1)?;
        let top = row - usize::from(row as u8 == self.skip_at[col]);
        top.checked_sub(1)
    }

    /// The bits (`1 << row`) of the cell the next stone in `col` lands on and of the cell
    /// the stone after it lands on, each 0 if there is none, without branches.
    #[inline(always)]
    pub(crate) fn landing_bits(&self, col: usize) -> (u16, u16) {
        let top = u32::from(self.top[col]);
        // `top` is 0 for a full column: no landing cell, and nothing above it.
        let landing = (1u32 << top) >> 1;
        // The cell above is one row up, two when the blocked cell is in between (the
        // landing row `top - 1` is `skip_at`); a shift past row 0 leaves 0.
        let skip = u32::from(top.wrapping_sub(1) == u32::from(self.skip_at[col]));
        (landing as u16, (landing >> (1 + skip)) as u16)
    }

    /// Every line mask of `side`, indexed as [`cell_lines`] names them (for evaluations
    /// that read whole windows of a line at once).
    #[inline(always)]
    pub(crate) fn lines(&self, side: Side) -> &[u16; LINE_SLOTS] {
        &self.lines[side as usize]
    }

    /// Who holds `(row, col)`, if anyone.
    pub fn stone(&self, row: usize, col: usize) -> Option<Side> {
        [Side::Us, Side::Them]
            .into_iter()
            .find(|&s| self.lines[s as usize][ROW_BASE + row] & (1 << col) != 0)
    }

    /// True iff the side to move would make four in a row by dropping a stone in `col`.
    #[inline]
    pub fn is_winning_move(&self, col: usize) -> bool {
        self.completes_four(self.to_move, self.landing_row(col), col)
    }

    /// True iff a stone of `side` on the empty cell `(row, col)` would make four in a row.
    #[inline]
    pub fn completes_four(&self, side: Side, row: usize, col: usize) -> bool {
        let lines = &self.lines[side as usize];
        has_four(lines[ROW_BASE + row] | 1 << col)
            || has_four(lines[COL_BASE + col] | 1 << row)
            || has_four(lines[diag_index(row, col)] | 1 << col)
            || has_four(lines[anti_index(row, col)] | 1 << col)
    }

    /// Drops a stone for the side to move in `col` and passes the turn.
    ///
    /// Returns true iff that stone made four (or more) in a row: the mover has won and the
    /// position must not be played on. The caller guarantees `can_play(col)`.
    #[inline(always)]
    pub fn play(&mut self, col: usize) -> bool {
        self.play_packed(col).0
    }

    /// [`Self::play`], also returning the row the stone landed on and the mover's four lines
    /// through it afterwards, packed as [`Self::packed_lines_through`] packs them (the win
    /// test reads them anyway; the threat upkeep needs them next).
    #[inline(always)]
    pub(crate) fn play_packed(&mut self, col: usize) -> (bool, usize, u64) {
        debug_assert!(self.can_play(col), "illegal move {col}");
        // Below 16 however wrong `col` is (and `col` below MAX_SIZE past this look-up): the
        // line indices below need no bounds checks.
        let row = usize::from(self.top[col].wrapping_sub(1) & 15);
        let bit = 1u16 << col;
        let lines = &mut self.lines[self.to_move as usize];
        let [r, c, d, a] = line_indices(row, col);
        lines[r] |= bit;
        lines[c] |= 1 << row;
        lines[d] |= bit;
        lines[a] |= bit;
        let packed = pack_lines(lines, [r, c, d, a]);
        let pairs = packed & (packed >> 1);
        let won = pairs & (pairs >> 2) != 0;
        // The stone's row is the new top, one less if the blocked cell is next.
        let top = row - usize::from(row as u8 == self.skip_at[col]);
        self.top[col] = top as u8;
        self.open &= !(bit * u16::from(top == 0));
        self.empty -= 1;
        self.ply += 1;
        self.to_move = self.to_move.other();
        (won, row, packed)
    }
}

/// The row, column, diagonal and anti-diagonal through `(row, col)`: each line's index in
/// a side's line array and the cell's bit in that line.
#[inline(always)]
pub(crate) fn cell_lines(row: usize, col: usize) -> [(usize, u16); 4] {
    let [r, c, d, a] = line_indices(row, col);
    [(r, 1 << col), (c, 1 << row), (d, 1 << col), (a, 1 << col)]
}

/// The indices in a side's line array of the row, column, diagonal and anti-diagonal through
/// `(row, col)`.
#[inline(always)]
fn line_indices(row: usize, col: usize) -> [usize; 4] {
    [
        ROW_BASE + row,
        COL_BASE + col,
        diag_index(row, col),
        anti_index(row, col),
    ]
}

/// The four lines at `indices` side by side in one `u64`, 16-bit lanes of which each line
/// uses bits 0..12: row (lane 0), column (1), diagonal (2), anti-diagonal (3), each with its
/// line kind's bit convention (see the module docs). One shift-and chain then answers a
/// question for all four lines (the win test, the threat cells), and the 4 idle bits per
/// lane keep a run from spilling into the next lane.
#[inline(always)]
fn pack_lines(lines: &[u16; LINE_SLOTS], indices: [usize; 4]) -> u64 {
    let [r, c, d, a] = indices;
    u64::from(lines[r])
        | u64::from(lines[c]) << 16
        | u64::from(lines[d]) << 32
        | u64::from(lines[a]) << 48
}

fn check_size(rows: i64, cols: i64) -> Result<(), PositionError> {
    let ok = |v: i64| (MIN_SIZE as i64..=MAX_SIZE as i64).contains(&v);
    if ok(rows) && ok(cols) {
        Ok(())
    } else {
        Err(PositionError::BadSize { rows, cols })
    }
}

/// Twice the distance of column `col` from the centre line of a board `cols` wide: an integer
/// for odd and even widths alike (the two middle columns of an even board are both 1 away).
#[inline]
pub fn centre_distance(col: usize, cols: usize) -> usize {
    (2 * col).abs_diff(cols - 1)
}

/// How many columns lie between `col` and the nearer edge: 0 on the edges, growing by one per
/// column towards the centre (the other end of [`centre_distance`]).
#[inline]
pub fn edge_distance(col: usize, cols: usize) -> usize {
    (cols - 1 - centre_distance(col, cols)) / 2
}

/// The columns of a board `cols` wide from the centre outwards, the left one first where two
/// are equally central. Central moves are the usually better ones, so searches that try them
/// first cut or settle sooner; it is also the safe pick when nothing better is known.
pub fn centre_first(cols: usize) -> Vec<u8> {
    let mut order: Vec<u8> = (0..cols as u8).collect();
    // A stable sort: equally central columns keep their left-to-right order.
    order.sort_by_key(|&c| centre_distance(usize::from(c), cols));
    order
}

impl fmt::Debug for Position {
    /// Draws the board: `X` for `Us`, `O` for `Them`, `#` for the blocked cell.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "Position {}x{}, {:?} to move",
            self.rows, self.cols, self.to_move
        )?;
        for row in 0..self.rows() {
            for col in 0..self.cols() {
                let ch = match self.stone(row, col) {
                    Some(Side::Us) => 'X',
                    Some(Side::Them) => 'O',
                    None if self.is_blocked(row, col) => '#',
                    None => '.',
                };
                write!(f, "{ch}")?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The landing bits are the landing row and the row above it, on every column of
    /// every position of games on boards with the blocked cell anywhere.
    #[test]
    fn landing_bits_are_the_landing_cell_and_the_one_above() {
        for (rows, cols) in [(4, 4), (6, 7), (12, 12), (5, 9)] {
            for blocked in 0..rows * cols {
                let mut pos = Position::new(rows, cols, blocked / cols, blocked % cols).unwrap();
                let mut turn = 0;
                while pos.open_columns() != 0 {
                    for col in 0..MAX_SIZE {
                        let bit = |row: Option<usize>| row.map_or(0, |r| 1u16 << r);
                        let landing = pos.can_play(col).then(|| pos.landing_row(col));
                        let above = if pos.can_play(col) {
                            pos.row_above_landing(col)
                        } else {
                            None
                        };
                        assert_eq!(pos.landing_bits(col), (bit(landing), bit(above)));
                    }
                    // A spread of columns, so that every column fills at some point.
                    turn += 1;
                    let open = pos.open_columns();
                    let col = (0..cols)
                        .map(|c| (c * 5 + turn) % cols)
                        .find(|&c| open & (1 << c) != 0)
                        .unwrap();
                    if pos.play(col) {
                        break;
                    }
                }
            }
        }
    }

    #[test]
    fn blocked_bottom_cell_lowers_the_start_top() {
        let pos = Position::new(6, 7, 5, 3).unwrap();
        assert_eq!(pos.top(3), 5);
        assert_eq!(pos.top(2), 6);
        assert_eq!(pos.empty_cells(), 41);
    }

    #[test]
    fn stones_fall_past_the_blocked_cell() {
        let mut pos = Position::new(4, 4, 2, 1).unwrap();
        assert!(!pos.play(1)); // lands on row 3
        assert_eq!(pos.top(1), 2, "row 2 is blocked: top skips it");
        assert_eq!(pos.landing_row(1), 1);
        assert!(!pos.play(1));
        assert_eq!(pos.landing_row(1), 0);
        assert!(!pos.play(1));
        assert_eq!(pos.top(1), 0);
        assert!(!pos.can_play(1));
    }

    #[test]
    fn blocked_top_cell_closes_the_column_early() {
        let mut pos = Position::new(4, 4, 0, 0).unwrap();
        for _ in 0..3 {
            pos.play(0);
        }
        assert!(!pos.can_play(0));
        assert_eq!(pos.top(0), 0);
    }

    #[test]
    fn four_in_each_direction_wins() {
        // Horizontal: Us plays 0,1,2,3 on the bottom row, Them stacks on 0..2.
        let mut pos = Position::new(6, 7, 0, 6).unwrap();
        for c in 0..3 {
            assert!(!pos.play(c));
            assert!(!pos.play(c));
        }
        assert!(pos.is_winning_move(3));
        assert!(pos.play(3));

        // Vertical.
        let mut pos = Position::new(6, 7, 0, 6).unwrap();
        for _ in 0..3 {
            pos.play(0);
            pos.play(1);
        }
        assert!(pos.play(0));

        // Diagonal "/": Us on (5,0),(4,1),(3,2),(2,3).
        let mut pos = Position::new(6, 7, 0, 6).unwrap();
        for col in [0, 1, 1, 2, 2, 3, 2, 3, 3, 5] {
            assert!(!pos.play(col), "{pos:?}");
        }
        assert!(pos.play(3), "{pos:?}");
    }

    #[test]
    fn the_blocked_cell_breaks_a_line() {
        // Blocked cell at (5,3): Us holds (5,0..3) and (5,4) but never four in a row.
        let mut pos = Position::new(6, 7, 5, 3).unwrap();
        for col in [0, 0, 1, 1, 2, 2] {
            assert!(!pos.play(col));
        }
        assert!(!pos.is_winning_move(4));
        assert!(!pos.play(4));
    }

    #[test]
    fn from_course_round_trips_and_rejects_nonsense() {
        let mut pos = Position::new(5, 6, 4, 2).unwrap();
        for col in [2, 3, 2, 0] {
            pos.play(col);
        }
        // Us to move again after an even number of plies: value 2 = Us.
        let (top, board) = pos.to_course();
        let back = Position::from_course(5, 6, &top, &board, 4, 2).unwrap();
        assert_eq!(back.open_columns(), pos.open_columns());
        assert_eq!(back.empty_cells(), pos.empty_cells());
        assert_eq!(format!("{back:?}"), format!("{pos:?}"));

        let mut bad = board.clone();
        bad[0] = 7;
        assert!(matches!(
            Position::from_course(5, 6, &top, &bad, 4, 2),
            Err(PositionError::BadCell { value: 7, .. })
        ));
        let mut bad_top = top.clone();
        bad_top[1] -= 1;
        assert!(matches!(
            Position::from_course(5, 6, &bad_top, &board, 4, 2),
            Err(PositionError::BadTop { col: 1, .. })
        ));
        assert!(matches!(
            Position::from_course(3, 6, &top, &board, 0, 0),
            Err(PositionError::BadSize { .. })
        ));
        assert!(matches!(
            Position::from_course(5, 6, &top, &board, 5, 0),
            Err(PositionError::BlockedOffBoard { .. })
        ));
        let mut on_blocked = board.clone();
        on_blocked[4 * pos.cols() + 2] = 1;
        assert!(Position::from_course(5, 6, &top, &on_blocked, 4, 2).is_err());
    }

    // --- Rules invariants (tests engineer). The integration tests in tests/rules.rs compare
    // whole games with a slow reference; these pin the private bit layout those rely on.

    #[test]
    fn has_four_is_exactly_four_adjacent_bits() {
        // Exhaustive over every 16-bit line: the shift trick against a plain window scan.
        for m in 0..=u16::MAX {
            let naive = (0..13).any(|s| (m >> s) & 0b1111 == 0b1111);
            assert_eq!(has_four(m), naive, "{m:#018b}");
        }
    }

    #[test]
    fn every_cell_has_its_own_bit_in_four_disjoint_line_ranges() {
        use std::collections::HashSet;
        let ranges = [
            (ROW_BASE, COL_BASE),
            (COL_BASE, DIAG_BASE),
            (DIAG_BASE, ANTI_BASE),
            (ANTI_BASE, LINES),
        ];
        let mut seen: [HashSet<(usize, u32)>; 4] = Default::default();
        for row in 0..MAX_SIZE {
            for col in 0..MAX_SIZE {
                let lines = [
                    (ROW_BASE + row, col as u32),
                    (COL_BASE + col, row as u32),
                    (diag_index(row, col), col as u32),
                    (anti_index(row, col), col as u32),
                ];
                for (kind, &(index, bit)) in lines.iter().enumerate() {
                    let (lo, hi) = ranges[kind];
                    assert!((lo..hi).contains(&index), "kind {kind} ({row}, {col})");
                    assert!(bit < 12, "bits 12..16 must stay free for play()'s lanes");
                    assert!(
                        seen[kind].insert((index, bit)),
                        "kind {kind} ({row}, {col})"
                    );
                }
                // Neighbours along each line are neighbouring bits of the same word.
                if row + 1 < MAX_SIZE && col + 1 < MAX_SIZE {
                    assert_eq!(diag_index(row, col), diag_index(row + 1, col + 1));
                }
                if row + 1 < MAX_SIZE && col > 0 {
                    assert_eq!(anti_index(row, col), anti_index(row + 1, col - 1));
                }
            }
        }
    }

    #[test]
    fn three_at_a_line_end_never_joins_the_next_lane() {
        // play() tests four lines packed in 16-bit lanes of one u64. On a 12x12 board, three
        // stones at the right end of the top row (bits 9..11 of lane 0) next to a column whose
        // line has bit 0 set (lane 1) must not read as four in a row.
        let mut pos = Position::new(12, 12, 5, 0).unwrap();
        // Column 11 alternates from the bottom so it holds no vertical four.
        for row in (1..12).rev() {
            let side = if row % 2 == 0 { Side::Us } else { Side::Them };
            pos.set_stone(side, row, 11);
        }
        pos.top[11] = 1;
        for (row, col) in [(0, 9), (0, 10)] {
            pos.set_stone(Side::Us, row, col);
        }
        pos.top[9] = 0;
        pos.top[10] = 0;
        // Filling columns 9 and 10 under the stones with alternating colours keeps the test
        // about lanes: no other line is close to four.
        for col in [9, 10] {
            for row in 1..12 {
                let side = if (row + col) % 2 == 0 {
                    Side::Us
                } else {
                    Side::Them
                };
                pos.set_stone(side, row, col);
            }
        }
        pos.open = pos.compute_open();
        assert!(!pos.is_winning_move(11), "{pos:?}");
        assert!(!pos.play(11), "{pos:?}");
    }

    #[test]
    fn from_course_full_column_under_a_top_blocked_cell_has_top_zero() {
        // Column 0 is full except the blocked cell at its very top: the judge's top is 0,
        // and a top of 1 (pointing at the blocked cell) is not a real position.
        let mut pos = Position::new(4, 4, 0, 0).unwrap();
        for col in [0, 1, 0, 1, 0, 2] {
            assert!(!pos.play(col));
        }
        assert_eq!(pos.top(0), 0);
        let (top, board) = pos.to_course();
        let back = Position::from_course(4, 4, &top, &board, 0, 0).unwrap();
        assert!(!back.can_play(0));
        let mut bad = top.clone();
        bad[0] = 1;
        assert!(matches!(
            Position::from_course(4, 4, &bad, &board, 0, 0),
            Err(PositionError::BadTop { col: 0, .. })
        ));
    }

    #[test]
    fn new_rejects_bad_sizes_and_blocked_cells() {
        assert!(matches!(
            Position::new(3, 9, 0, 0),
            Err(PositionError::BadSize { .. })
        ));
        assert!(matches!(
            Position::new(9, 13, 0, 0),
            Err(PositionError::BadSize { .. })
        ));
        assert!(matches!(
            Position::new(9, 9, 9, 0),
            Err(PositionError::BlockedOffBoard { .. })
        ));
        assert!(matches!(
            Position::new(9, 9, 0, 9),
            Err(PositionError::BlockedOffBoard { .. })
        ));
        for (rows, cols) in [(4, 4), (12, 12), (4, 12), (12, 4)] {
            let pos = Position::new(rows, cols, rows - 1, cols - 1).unwrap();
            assert_eq!(pos.empty_cells(), rows * cols - 1);
            assert_eq!(pos.open_columns().count_ones() as usize, cols);
        }
    }
}
