//! Winning cells ("threats") of both sides, kept up to date move by move.
//!
//! A threat of a side is an empty cell that would complete four in a row for it. Only the
//! four lines through a new stone can gain threats, and only within three cells of it, so a
//! move updates a few bits instead of rescanning the board. Threats are stored per column
//! (bit `row` of `cells[side][col]`), which makes the questions a playout asks every ply
//! (can I win now? must I block? does this move let the opponent win on top?) a handful of
//! AND operations against each column's landing cell.

use crate::position::zobrist;
use crate::position::{MAX_SIZE, Position, Side};

/// Column `c` lives at index `c + PAD` of the per-column arrays, so the 8-column window
/// `c - 3 ..= c + 4` around any column is an in-bounds slice (`c .. c + 8`).
const PAD: usize = 3;

/// Lanes in the per-column arrays: the padding, the columns and the window's reach past
/// the last column.
const LANES: usize = MAX_SIZE + 8;

/// An 8-column window of a per-column array as one `u128`: lane `i` (bits `16 i ..
/// 16 i + 16`) is column `col + i - 3`. Whole-window operations are a few 64-bit ones,
/// with no branch and no loop.
type Window = u128;

/// `x` in each of the 8 lanes.
const fn splat(x: u16) -> Window {
    x as Window * 0x0001_0001_0001_0001_0001_0001_0001_0001
}

/// Lane `i` all ones iff bit `i` of the index is set: a 7-bit column mask made a lane mask.
static EXPAND: [Window; 128] = {
    let mut table = [0; 128];
    let mut mask = 0;
    while mask < 128 {
        let mut i = 0;
        while i < 7 {
            if mask & (1 << i) != 0 {
                table[mask] |= 0xFFFF << (16 * i);
            }
            i += 1;
        }
        mask += 1;
    }
    table
};

/// Entries of the tables indexed by a row: 16, so that a row below 16 (as
/// [`Position::play_packed`] gives it) needs no bounds check.
const ROW_ENTRIES: usize = 16;

/// Row bits of the diagonal through row `row` of the window's middle column (lane 3):
/// lane `i` has the bit of row `row + i - 3`, 0 where that row is not in `0..16`.
static DIAG_WINDOW: [Window; ROW_ENTRIES] = window_patterns(1);

/// The same for the anti-diagonal: lane `i` has the bit of row `row + 3 - i`.
static ANTI_WINDOW: [Window; ROW_ENTRIES] = window_patterns(-1);

/// Lane `i` of entry `row`: the bit of row `row + slope * (i - 3)`, or 0 outside `0..16`.
const fn window_patterns(slope: i32) -> [Window; ROW_ENTRIES] {
    let mut table = [0; ROW_ENTRIES];
    let mut row = 0;
    while row < ROW_ENTRIES {
        let mut i = 0;
        while i < 8 {
            let r = row as i32 + slope * (i - 3);
            if r >= 0 && r < 16 {
                table[row] |= 1 << (16 * i + r);
            }
            i += 1;
        }
        row += 1;
    }
    table
}

/// One `u16` per column (plus padding), stored as little-endian bytes so that a whole
/// [`Window`] is one 16-byte load or store in safe code.
#[derive(Clone, Copy, Debug)]
struct Lanes([u8; 2 * LANES]);

impl Lanes {
    const ZERO: Lanes = Lanes([0; 2 * LANES]);

    /// Column `col`'s word.
    #[inline(always)]
    fn get(&self, col: usize) -> u16 {
        let at = 2 * (col + PAD);
        u16::from_le_bytes([self.0[at], self.0[at + 1]])
    }

    #[inline(always)]
    fn set(&mut self, col: usize, value: u16) {
        let at = 2 * (col + PAD);
        self.0[at..at + 2].copy_from_slice(&value.to_le_bytes());
    }

    /// The window whose lane 3 is column `col`.
    #[inline(always)]
    fn window(&self, col: usize) -> Window {
        let bytes: [u8; 16] = self.0[2 * col..2 * col + 16]
            .try_into()
            .expect("col < MAX_SIZE");
        Window::from_le_bytes(bytes)
    }

    #[inline(always)]
    fn set_window(&mut self, col: usize, window: Window) {
        self.0[2 * col..2 * col + 16].copy_from_slice(&window.to_le_bytes());
    }
}

/// `1 << row` in every lane, per row.
static ROW_WINDOW: [Window; ROW_ENTRIES] = {
    let mut table = [0; ROW_ENTRIES];
    let mut row = 0;
    while row < ROW_ENTRIES {
        table[row] = splat(1 << row);
        row += 1;
    }
    table
};

/// 0x0FFF in each 16-bit lane of a `u64`: added to a lane that holds only bits 0..12 (a
/// column's rows), it carries into bit 12 exactly when the lane is not zero.
const ROWS_CARRY: u64 = 0x0FFF_0FFF_0FFF_0FFF;

/// Bit 12 of each 16-bit lane.
const LANE_BIT_12: u64 = 0x1000_1000_1000_1000;

/// For `a` and `b`, windows whose lanes hold only row bits (0..12): bit `i` set iff lane
/// `i` of `a` is not zero, bit `8 + i` the same for `b`.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn nonzero_lanes(a: Window, b: Window) -> u32 {
    // SAFETY: `nonzero_lanes_sse2` only needs SSE2, part of the x86-64 baseline that every
    // x86_64 target enables: any CPU that runs this code has it.
    unsafe { nonzero_lanes_sse2(a, b) }
}

/// For `a` and `b`, windows whose lanes hold only row bits (0..12): bit `i` set iff lane
/// `i` of `a` is not zero, bit `8 + i` the same for `b`.
#[cfg(not(target_arch = "x86_64"))]
#[inline(always)]
fn nonzero_lanes(a: Window, b: Window) -> u32 {
    nonzero_lanes_swar(a, b)
}

/// [`nonzero_lanes`] in SSE2: a compare with zero per lane and one move of the lanes' sign
/// bytes, where the portable form takes about 30 instructions (issue 39: this is on every
/// tactical ply that makes a threat).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "sse2")]
#[inline]
fn nonzero_lanes_sse2(a: Window, b: Window) -> u32 {
    use std::arch::x86_64::{
        _mm_cmpeq_epi16, _mm_movemask_epi8, _mm_packs_epi16, _mm_set_epi64x, _mm_setzero_si128,
    };
    let vector = |w: Window| _mm_set_epi64x((w >> 64) as i64, w as i64);
    let zero = _mm_setzero_si128();
    // Lanes equal to zero become 0xFFFF, packed to one byte each: a's 8, then b's.
    let zeros = _mm_packs_epi16(
        _mm_cmpeq_epi16(vector(a), zero),
        _mm_cmpeq_epi16(vector(b), zero),
    );
    !(_mm_movemask_epi8(zeros) as u32) & 0xFFFF
}

/// [`nonzero_lanes`] on 64-bit words, for any target.
#[cfg_attr(target_arch = "x86_64", allow(dead_code))]
#[inline(always)]
fn nonzero_lanes_swar(a: Window, b: Window) -> u32 {
    // One half (4 lanes) of each at a time: a's flags at bits 12 + 16 j, b's at 16 + 16 j.
    let flags = |a: u64, b: u64| {
        let both = ((a + ROWS_CARRY) & LANE_BIT_12) >> 12 | ((b + ROWS_CARRY) & LANE_BIT_12) >> 8;
        // One multiplication moves a's flag j to bit 56 + j and b's to bit 60 + j; every
        // other product lands 16 or more bits away, so nothing collides or carries.
        (both.wrapping_mul(1 << 56 | 1 << 41 | 1 << 26 | 1 << 11) >> 56) as u32
    };
    let low = flags(a as u64, b as u64);
    let high = flags((a >> 64) as u64, (b >> 64) as u64);
    (low & 0xF) | (high & 0xF) << 4 | (low & 0xF0) << 4 | (high & 0xF0) << 8
}

/// A [`Position`] plus both sides' threat cells and each column's next two landing cells.
#[derive(Clone, Debug)]
pub struct ThreatPosition {
    pos: Position,
    /// `cells[side][col + PAD]`: bit `row` set iff `(row, col)` would complete four for
    /// `side` (occupied and blocked cells may be set too; queries only ask about empty ones).
    cells: [Lanes; 2],
    /// At `col + PAD`: bit of the cell the next stone in `col` lands on (0 when full).
    landing: Lanes,
    /// At `col + PAD`: bit of the cell the stone after that lands on (0 if none).
    above: Lanes,
    /// Four column masks in 16-bit lanes: lane `2 * side` has bit `c` set iff column `c`'s
    /// landing cell is a threat of `side`, lane `2 * side + 1` the same for the cell above
    /// the landing cell. Kept move by move with `cells`, so [`Self::tactics`] reads one word
    /// instead of scanning every column (and reading back the column words the move just
    /// wrote, which stalls store forwarding); a side's two lanes side by side, so that one
    /// rotation puts the side to move's first and the four masks are fixed shifts.
    on_cells: u64,
    /// `(1 << rows) - 1`, the board's rows, in every lane.
    rows_window: Window,
    /// [`Position::stones_key`] of `pos`, carried along move by move (one XOR per move, where
    /// recomputing it would read every cell) for the tables that look positions up.
    key: u64,
}

/// The immediate tactics of the side to move, as column masks (bit `c` = column `c`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tactics {
    /// Columns where the side to move wins at once.
    pub wins: u16,
    /// Columns where the opponent would win at once if it were its turn (must be blocked).
    pub must_block: u16,
    /// Columns whose move lets the opponent win by playing directly on top of it (meaningful
    /// for moves that do not win at once themselves).
    pub unsafe_moves: u16,
    /// Columns whose move lets the opponent block one of the mover's own threats by playing
    /// directly on top of it (Connect-4's first rule of zugzwang play: do not fill the cell
    /// under your own threat).
    pub spoils_own_threat: u16,
    /// All playable columns.
    pub open: u16,
}

impl Tactics {
    /// The moves worth considering, or 0 if the side to move loses whatever it plays.
    ///
    /// A win is taken alone; with one opponent threat only the block is considered; with two
    /// or more the position is lost; otherwise every move that is not [`Self::unsafe_moves`].
    /// Columns left out lose by force (the opponent wins on its next move).
    #[inline]
    pub fn candidates(&self) -> u16 {
        if self.wins != 0 {
            self.wins & self.wins.wrapping_neg()
        } else if self.must_block.count_ones() > 1 {
            0
        } else if self.must_block != 0 {
            self.must_block & !self.unsafe_moves
        } else {
            self.open & !self.unsafe_moves
        }
    }
}

/// The cells of each line lane (bits 0..12 of each 16-bit lane of a packed `u64`).
const LANE_CELLS: u64 = 0x0FFF_0FFF_0FFF_0FFF;

/// Cells whose filling would make four, for four lines packed side by side in 16-bit lanes
/// (as [`Position::packed_lines_through`] packs them), all in one pass.
///
/// Lines use bits 0..12 of their lane, so a left shift by up to 3 stays inside the lane; a
/// right shift pulls the next lane's low bits only into bits 13..16, which the mask clears
/// (no cell of any line lives there).
#[inline(always)]
fn packed_line_threats(m: u64) -> u64 {
    ((m >> 1 & m >> 2 & m >> 3)
        | (m << 1 & m >> 1 & m >> 2)
        | (m << 2 & m << 1 & m >> 1)
        | (m << 3 & m << 2 & m << 1))
        & LANE_CELLS
}

/// Calls `found(c, rows)` with the threat cells within three cells of `(row, col)` on
/// `lines`, the four lines through it packed as [`Position::packed_lines_through`] packs
/// them: `rows` has bit `r` set for cell `(r, c)`, as [`ThreatPosition`] keeps threats per
/// column. `board_rows` and `rows_at_32` are the board's.
///
/// Threat bits that fall off the board's columns or rows land in lanes or rows that have
/// no landing cell, so they can never be asked about; only the diagonals need masking,
/// because there an off-board column could map to a row outside `0..16`.
#[cfg(test)] // the plain statement of what `ThreatPosition::threats_window` computes
fn threats_near(
    lines: u64,
    (row, col): (usize, usize),
    board_rows: usize,
    rows_at_32: u64,
    mut found: impl FnMut(usize, u16),
) {
    let threats = packed_line_threats(lines);
    let [row_threats, col_threats, diag_threats, anti_threats] =
        [0, 16, 32, 48].map(|shift| (threats >> shift) as u16);
    // Only threats within three cells of the stone can be new.
    let near_col = ((0x7Fu32 << col) >> 3) as u16;
    // Row: bit = column.
    let mut t = row_threats & near_col;
    while t != 0 {
        found(t.trailing_zeros() as usize, 1 << row);
        t &= t - 1;
    }
    // Column: bit = row, same column.
    found(col, col_threats & ((0x7Fu32 << row) >> 3) as u16);
    // Diagonal (row - col constant): column c is on row c + row - col, which is on the
    // board for c in [col - row, col - row + board_rows).
    let on_board = (rows_at_32 >> (32 + row - col)) as u16;
    let mut t = diag_threats & near_col & on_board;
    while t != 0 {
        let c = t.trailing_zeros() as usize;
        found(c, 1 << (c + row - col));
        t &= t - 1;
    }
    // Anti-diagonal (row + col constant): column c is on row row + col - c, on the board
    // for c in (row + col - board_rows, row + col].
    let on_board = (rows_at_32 >> (32 + board_rows - 1 - row - col)) as u16;
    let mut t = anti_threats & near_col & on_board;
    while t != 0 {
        let c = t.trailing_zeros() as usize;
        found(c, 1 << (row + col - c));
        t &= t - 1;
    }
}

impl ThreatPosition {
    /// Computes every threat of `pos` from scratch (a few microseconds: once per search).
    pub fn new(pos: Position) -> ThreatPosition {
        let mut tp = ThreatPosition {
            pos,
            cells: [Lanes::ZERO; 2],
            landing: Lanes::ZERO,
            above: Lanes::ZERO,
            on_cells: 0,
            rows_window: 0,
            key: 0,
        };
        tp.key = tp.pos.stones_key();
        tp.rows_window = splat(((1u32 << tp.pos.rows()) - 1) as u16);
        for row in 0..tp.pos.rows() {
            for col in 0..tp.pos.cols() {
                if let Some(side) = tp.pos.stone(row, col) {
                    tp.add_threats_around(side, row, col);
                }
            }
        }
        for col in 0..tp.pos.cols() {
            tp.update_landing(col);
        }
        tp
    }

    /// The underlying position.
    #[inline]
    pub fn position(&self) -> &Position {
        &self.pos
    }

    /// Plays `col` for the side to move; returns true iff it made four. See [`Position::play`].
    #[inline(always)]
    pub fn play(&mut self, col: usize) -> bool {
        let side = self.pos.to_move();
        let (won, row, lines) = self.pos.play_packed(col);
        self.key ^= zobrist::stone(side, row, col);
        if !won {
            self.add_threats(side, (row, col), lines);
            self.update_landing(col);
        }
        won
    }

    /// [`Self::play`] without updating [`Self::key`], for playouts and look-aheads on a
    /// copy: the key is stale afterwards.
    #[inline(always)]
    pub(crate) fn play_without_key(&mut self, col: usize) -> bool {
        let side = self.pos.to_move();
        let (won, row, lines) = self.pos.play_packed(col);
        if !won {
            self.add_threats(side, (row, col), lines);
            self.update_landing(col);
        }
        won
    }

    /// Refreshes the next two landing cells of `col` and both sides' threat bits there.
    #[inline(always)]
    fn update_landing(&mut self, col: usize) {
        let (landing, above) = self.pos.landing_bits(col);
        self.landing.set(col, landing);
        self.above.set(col, above);
        let (us, them) = (
            u64::from(self.cells[0].get(col)),
            u64::from(self.cells[1].get(col)),
        );
        let (landing, above) = (u64::from(landing), u64::from(above));
        let hits =
            us & landing | (us & above) << 16 | (them & landing) << 32 | (them & above) << 48;
        let flags = ((hits + ROWS_CARRY) & LANE_BIT_12) >> 12;
        self.on_cells = self.on_cells & !(0x0001_0001_0001_0001 << col) | flags << col;
    }

    /// Records the threats of `side` that the stone at `(row, col)` takes part in, and which
    /// of them are on a landing cell or the cell above one.
    ///
    /// The same cells as [`threats_near`] finds, without its loops (whose exits the branch
    /// predictor cannot guess): new threats lie within three columns of the stone, so one
    /// [`Window`] of 8 columns around it takes them all, each lane selecting its row bits
    /// from the four lines' threat masks.
    #[inline(always)]
    fn add_threats_around(&mut self, side: Side, row: usize, col: usize) {
        let lines = self.pos.packed_lines_through(side, row, col);
        self.add_threats(side, (row, col), lines);
    }

    /// [`Self::add_threats_around`] given the lines through the stone, packed.
    #[inline(always)]
    fn add_threats(&mut self, side: Side, (row, col): (usize, usize), lines: u64) {
        let threats = packed_line_threats(lines);
        if threats == 0 {
            // No three of four on any line through the stone: no threat to add. A quarter
            // to a half of a playout's moves; skipping them saves a third of a tactical
            // ply's instructions for a branch the predictor misses now and then (issue 39:
            // a second skip, when the threats are known already, saved 3 % more
            // instructions and missed half as often again).
            return;
        }
        let add = self.threats_window((row, col), threats);
        let side = side as usize;
        let cells = self.cells[side].window(col) | add;
        self.cells[side].set_window(col, cells);
        // Threats only appear, so the bits only gain; the move's own column is redone by
        // `update_landing`, whose cells change with the move.
        let hits = nonzero_lanes(add & self.landing.window(col), add & self.above.window(col));
        // Window lane i is column col + i - 3: the landing flags to bits 0..16, the above
        // ones to 16..32, both moved to their columns at once (lanes left of column 0 fall
        // off the low end or, for the above flags, into bits 12..16, which the mask clears:
        // no column there).
        let both = u64::from(hits & 0xFF) | u64::from(hits >> 8) << 16;
        let columns = (both << col) >> 3 & 0x0FFF_0FFF;
        self.on_cells |= columns << (32 * side);
    }

    /// The threat cells within three columns of `(row, col)` as a [`Window`] around `col`,
    /// given `threats`, the [`packed_line_threats`] of the four lines through the cell: the
    /// cells [`threats_near`] finds.
    #[inline(always)]
    fn threats_window(&self, (row, col): (usize, usize), threats: u64) -> Window {
        // In every lane at once, bit i becomes column col + i - 3 (columns left of 0 shift
        // in zeros); bits 0..=6 are the columns within three of the stone. Lanes use bits
        // 0..12, so the left shift stays in its lane, and what the right shift pulls in
        // from the next lane lands on bit 16 + 3 - col >= 8, which the mask clears.
        let near = ((threats << 3) >> col) & 0x007F_007F_007F_007F;
        let near = |shift: u32| EXPAND[((near >> shift) & 0x7F) as usize];
        let col_t = (threats >> 16) as u16 & ((0x7Fu32 << row) >> 3) as u16;
        // The diagonals' rows may fall off the board: keep only its rows.
        near(0) & ROW_WINDOW[row]
            | (near(32) & DIAG_WINDOW[row] | near(48) & ANTI_WINDOW[row]) & self.rows_window
            | Window::from(col_t) << 48
    }

    /// The side to move's immediate tactics.
    #[inline(always)]
    pub fn tactics(&self) -> Tactics {
        // The side to move's two lanes first, the opponent's after them.
        let flags = self.on_cells.rotate_right(32 * self.pos.to_move() as u32);
        Tactics {
            wins: flags as u16,
            spoils_own_threat: (flags >> 16) as u16,
            must_block: (flags >> 32) as u16,
            unsafe_moves: (flags >> 48) as u16,
            open: self.pos.open_columns(),
        }
    }

    /// The position, mutably, for finishing a throw-away copy with plain moves: the threat
    /// data is stale afterwards and this value must not be used again.
    pub(crate) fn position_for_playout(&mut self) -> &mut Position {
        &mut self.pos
    }

    /// The position's [`Position::stones_key`], kept up to date move by move; see
    /// [`zobrist::position_key`] for a key that tells the side to move apart.
    #[inline]
    pub fn key(&self) -> u64 {
        self.key
    }

    /// How many empty cells would complete four for `side`: the endgame solver tries first
    /// the move that leaves the mover the most of them (as Pons' solver orders its moves).
    pub fn threat_count(&self, side: Side) -> u32 {
        let (blocked_row, blocked_col) = self.pos.blocked();
        let cells = &self.cells[side as usize];
        (0..self.pos.cols())
            .map(|c| {
                // Rows 0..=landing are the column's empty cells (row 0 is the top).
                let landing = self.landing.get(c);
                let mut empty = if landing == 0 {
                    0
                } else {
                    landing | (landing - 1)
                };
                if c == blocked_col {
                    empty &= !(1 << blocked_row);
                }
                (cells.get(c) & empty).count_ones()
            })
            .sum()
    }

    /// The columns among `moves` (which must be open) whose move leaves the side to move a
    /// cell it could win on at its next move: a threat the opponent must answer at once.
    /// Meant for a side with no immediate win (`Tactics::wins` empty): a threat it already
    /// has on a landing cell is not counted unless the move's lines pass through it.
    ///
    /// Works from the lines through each landing cell with the stone added, not by playing
    /// the move: a new threat can only lie on those four lines, and it forces only if it is
    /// some column's next landing cell (or the cell that the move itself uncovers).
    pub fn forcing_moves(&self, moves: u16) -> u16 {
        let uncovering = self.tactics().spoils_own_threat & moves;
        let mut forcing = uncovering;
        let mut rest = moves & !uncovering;
        while rest != 0 {
            let col = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            forcing |= u16::from(self.threatens(col)) << col;
        }
        forcing
    }

    /// Whether a stone of the side to move in the open column `col` makes a threat on
    /// some column's next landing cell (in `col`, the cell above it): [`Self::forcing_moves`]
    /// for one column, bar the moves that uncover an old threat (those the side to move's
    /// [`Tactics::spoils_own_threat`]).
    #[inline]
    pub(crate) fn threatens(&self, col: usize) -> bool {
        let side = self.pos.to_move();
        let row = self.pos.landing_row(col);
        let threats = packed_line_threats(self.pos.packed_lines_with_stone(side, row, col));
        // Most moves make no threat at all: no window to build.
        threats != 0 && {
            // Each column's next landing cell; in the move's own column (lane 3) the
            // one above it.
            let targets = self.landing.window(col) & !(0xFFFF << 48)
                | Window::from(self.above.get(col)) << 48;
            self.threats_window((row, col), threats) & targets != 0
        }
    }

    /// True iff `(row, col)` is a recorded threat of `side` (empty or not).
    pub fn is_threat(&self, side: Side, row: usize, col: usize) -> bool {
        col < MAX_SIZE && self.cells[side as usize].get(col) & (1 << row) != 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::rngs::SmallRng;
    use rand::{Rng, SeedableRng};

    /// The window finds exactly the cells the loop over threat bits finds, for any lines
    /// through any cell of any board size.
    #[test]
    fn the_threat_window_matches_the_threat_loops() {
        let mut rng = SmallRng::seed_from_u64(5);
        for _ in 0..200_000 {
            let rows = rng.random_range(4..=12);
            let cols = rng.random_range(4..=12);
            let (row, col) = (rng.random_range(0..rows), rng.random_range(0..cols));
            let lines = rng.random::<u64>() & rng.random::<u64>() & LANE_CELLS;
            let tp = ThreatPosition::new(Position::new(rows, cols, 0, 0).unwrap());
            let mut expected = [0u16; 20];
            let rows_at_32 = ((1u64 << rows) - 1) << 32;
            threats_near(lines, (row, col), rows, rows_at_32, |c, r| {
                expected[c + 3] |= r
            });
            let window = tp.threats_window((row, col), packed_line_threats(lines));
            let mut got = [0u16; 20];
            for i in 0..8 {
                got[col + i] = (window >> (16 * i)) as u16;
            }
            assert_eq!(got, expected, "{rows}x{cols} ({row}, {col}) {lines:#x}");
        }
    }

    /// The two forms of `nonzero_lanes` agree with a lane-by-lane test.
    #[test]
    fn nonzero_lanes_finds_the_nonzero_lanes() {
        let mut rng = SmallRng::seed_from_u64(3);
        for _ in 0..100_000 {
            // Sparse windows, so that zero lanes are common; rows 0..12 only.
            let window = |rng: &mut SmallRng| {
                let lanes = rng.random::<u128>() & rng.random::<u128>() & rng.random::<u128>();
                lanes & splat(0x0FFF)
            };
            let (a, b) = (window(&mut rng), window(&mut rng));
            let expected = (0..8).fold(0, |bits, i| {
                let lane = |w: Window| (w >> (16 * i)) as u16 != 0;
                bits | u32::from(lane(a)) << i | u32::from(lane(b)) << (8 + i)
            });
            assert_eq!(nonzero_lanes(a, b), expected, "{a:#x} {b:#x}");
            assert_eq!(nonzero_lanes_swar(a, b), expected, "{a:#x} {b:#x}");
        }
    }

    /// Threats of the incremental board agree with trying every empty cell, at every ply of
    /// random games on random boards.
    #[test]
    fn incremental_threats_match_a_full_scan() {
        let mut rng = SmallRng::seed_from_u64(11);
        for _ in 0..300 {
            let rows = rng.random_range(4..=12);
            let cols = rng.random_range(4..=12);
            let pos = Position::new(
                rows,
                cols,
                rng.random_range(0..rows),
                rng.random_range(0..cols),
            )
            .unwrap();
            let mut tp = ThreatPosition::new(pos);
            loop {
                for side in [Side::Us, Side::Them] {
                    for row in 0..rows {
                        for col in 0..cols {
                            let p = tp.position();
                            if p.stone(row, col).is_some() || p.is_blocked(row, col) {
                                continue;
                            }
                            assert_eq!(
                                tp.is_threat(side, row, col),
                                p.completes_four(side, row, col),
                                "{side:?} ({row},{col})\n{p:?}"
                            );
                        }
                    }
                }
                for side in [Side::Us, Side::Them] {
                    let p = tp.position();
                    let scanned = (0..rows)
                        .flat_map(|r| (0..cols).map(move |c| (r, c)))
                        .filter(|&(r, c)| p.stone(r, c).is_none() && !p.is_blocked(r, c))
                        .filter(|&(r, c)| p.completes_four(side, r, c))
                        .count();
                    assert_eq!(tp.threat_count(side) as usize, scanned, "{side:?}\n{p:?}");
                }
                let t = tp.tactics();
                let p = tp.position();
                for col in 0..cols {
                    let bit = 1 << col;
                    if !p.can_play(col) {
                        assert_eq!(t.wins & bit, 0);
                        continue;
                    }
                    assert_eq!(t.wins & bit != 0, p.is_winning_move(col));
                    let them = p.to_move().other();
                    assert_eq!(
                        t.must_block & bit != 0,
                        p.completes_four(them, p.landing_row(col), col)
                    );
                    let mut after = p.clone();
                    if !after.play(col) {
                        let above = after.can_play(col) && after.is_winning_move(col);
                        assert_eq!(t.unsafe_moves & bit != 0, above, "col {col}\n{p:?}");
                        // Threats the mover had before the move (not ones the move makes).
                        let own_above = p
                            .row_above_landing(col)
                            .is_some_and(|r| p.completes_four(p.to_move(), r, col));
                        assert_eq!(
                            t.spoils_own_threat & bit != 0,
                            own_above,
                            "col {col}\n{p:?}"
                        );
                        // Forcing: after the move the mover can win somewhere at once.
                        let mover = p.to_move();
                        let threatens = (0..cols).any(|c| {
                            after.can_play(c)
                                && after.completes_four(mover, after.landing_row(c), c)
                        });
                        // (Only asked when the mover has no win already.)
                        assert!(
                            t.wins != 0 || (tp.forcing_moves(bit) != 0) == threatens,
                            "col {col}\n{p:?}"
                        );
                    }
                }
                let open: Vec<usize> = (0..cols).filter(|&c| tp.position().can_play(c)).collect();
                if open.is_empty() {
                    break;
                }
                if tp.play(open[rng.random_range(0..open.len())]) {
                    break;
                }
            }
        }
    }
}
