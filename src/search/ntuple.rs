//! A learned evaluation of a position: an n-tuple network over windows of four cells, one
//! table for every board the course draws (9..12 x 9..12, one blocked cell).
//!
//! # The model
//!
//! A *window* is four cells in a row along one of the four directions, wholly on the board
//! (a 12x12 board has 378 of them, 9x9 has 180). Each cell of a window is in one of five
//! states, seen from the side to move: empty and not yet playable, empty and playable (the
//! landing cell of its column), the mover's stone, the opponent's stone, or the blocked cell.
//! The window's 5^4 = 625 contents index one table row, and the row is chosen by the
//! window's *class*, which depends only on where the window sits relative to the board's
//! edges, never on the board's size, so one table serves every size:
//!
//! - its direction (horizontal, vertical, `\` diagonal, `/` diagonal): 4;
//! - the height of its lowest cell above the bottom row: 0, 1, 2, 3, then even or odd
//!   (Connect-4's zugzwang depends on the parity of a threat's row): 6;
//! - the columns between the window and the nearer side edge: 0, 1, 2 or more: 3;
//! - the parity of the empty cells left (who gets the last move): 2.
//!
//! That is 144 classes, 90 000 weights (360 kB as `f32`). The value is
//! `sigmoid(sum of one weight per window)`: the probability that the side to move wins,
//! a tie counting half. One evaluation reads each window's line masks and two tables: no
//! allocation, about 200-400 look-ups, so the search spends it once per new leaf only.
//! Mirroring the board left to right maps the table onto itself ([`mirror_slot`]); training
//! keeps mirrored weights equal.
//!
//! # The shipped file
//!
//! The weights are compiled into the library (`include_bytes!`) in this format, all
//! little-endian: the magic `G4NT`, the format version (`u32`), the number of classes and
//! of states per class (`u32` each), the weights (`f32`), then an FNV-1a 64 checksum of
//! everything before it. [`Model::shipped`] checks it once; a file that fails the check
//! gives no model, and the search runs without one (the library never depends on it to
//! move). The trainer is `examples/train-ntuple.rs`.

use crate::position::{Geometry, LINE_SLOTS, Position, cell_lines};
use std::sync::OnceLock;

/// Window directions: horizontal, vertical, `\` diagonal, `/` diagonal.
const DIRECTIONS: usize = 4;
/// Height classes of a window's lowest cell: 0..=3, then 4 + parity.
const HEIGHTS: usize = 6;
/// Classes of the columns between a window and the nearer side edge: 0, 1, 2 or more.
const EDGES: usize = 3;
/// Window classes: direction x height x edge x parity of the empty cells.
pub const CLASSES: usize = 2 * DIRECTIONS * HEIGHTS * EDGES;
/// Contents of a window: five states for each of four cells.
pub const STATES: usize = 625;
/// Weights of the model.
pub const WEIGHTS: usize = CLASSES * STATES;
/// The most windows a board has (12x12: 108 rows, 108 columns, 162 diagonals).
const MAX_WINDOWS: usize = 378;

/// The size cap of a weights file: the header, [`WEIGHTS`] `f32`s and the checksum, well
/// under the 1 MiB that would make the library noticeably larger than its code.
pub const MAX_FILE_BYTES: usize = 1 << 20;
/// The first bytes of a weights file.
const MAGIC: &[u8; 4] = b"G4NT";
/// The format version this library reads.
const VERSION: u32 = 1;
/// Bytes before the weights: magic, version, classes, states.
const HEADER_BYTES: usize = 16;
const _: () = assert!(HEADER_BYTES + 4 * WEIGHTS + 8 <= MAX_FILE_BYTES);

/// The weights shipped inside the library.
static SHIPPED: &[u8] = include_bytes!("ntuple.weights");

/// Why a weights file cannot be used.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ModelError {
    /// Longer than [`MAX_FILE_BYTES`], or not the length its header implies.
    #[error("weights file of {0} bytes: expected {expected}", expected = HEADER_BYTES + 4 * WEIGHTS + 8)]
    Length(usize),
    /// Not a weights file, or another version or shape of the model.
    #[error("weights file header is not G4NT version {VERSION} with {CLASSES}x{STATES} weights")]
    Header,
    /// The checksum does not match the contents.
    #[error("weights file checksum mismatch")]
    Checksum,
    /// A weight is NaN or infinite.
    #[error("weights file holds a non-finite weight")]
    NotFinite,
}

/// The cell state of bit `k` of the masks packed in `index` (own | opponent << 4 |
/// playable << 8): 0 empty not playable, 1 empty playable, 2 own, 3 opponent, 4 blocked
/// (the blocked cell is set in both stone masks).
const fn cell_state(index: usize, k: usize) -> usize {
    let (own, opp, play) = (index >> k & 1, index >> (4 + k) & 1, index >> (8 + k) & 1);
    match (own, opp) {
        (1, 1) => 4,
        (1, 0) => 2,
        (0, 1) => 3,
        _ => play,
    }
}

/// The window contents (0..625) of each packing of its three 4-bit masks.
static STATE: [u16; 4096] = {
    let mut table = [0; 4096];
    let mut index = 0;
    while index < 4096 {
        let mut state = 0;
        let mut k = 4;
        while k > 0 {
            k -= 1;
            state = state * 5 + cell_state(index, k);
        }
        table[index] = state as u16;
        index += 1;
    }
    table
};

/// One window of a board: the line it lies on, the bit of its first cell in that line, and
/// its class's first weight (parity 0).
#[derive(Clone, Copy, Debug, Default)]
struct Window {
    line: u8,
    shift: u8,
    base: u32,
}

/// Every window of one board geometry, with the blocked cell's bit in each line: built once
/// per search (a few microseconds), read by every evaluation.
#[derive(Clone, Debug)]
pub struct Windows {
    geometry: Geometry,
    len: usize,
    list: [Window; MAX_WINDOWS],
    blocked: [u16; LINE_SLOTS],
}

/// The height class of a cell `height` rows above the bottom row.
fn height_class(height: usize) -> usize {
    if height < 4 { height } else { 4 + height % 2 }
}

impl Windows {
    /// The windows of boards of `geometry`.
    pub fn new(geometry: Geometry) -> Windows {
        let (rows, cols) = (geometry.rows, geometry.cols);
        let mut windows = Windows {
            geometry,
            len: 0,
            list: [Window::default(); MAX_WINDOWS],
            blocked: [0; LINE_SLOTS],
        };
        for (line, bit) in cell_lines(geometry.blocked.0, geometry.blocked.1) {
            windows.blocked[line] = bit;
        }
        // Each direction as the step from a window's first cell (bit `shift` of its line)
        // to the next, and which line of `cell_lines` holds it.
        let steps: [(isize, isize, usize); DIRECTIONS] =
            [(0, 1, 0), (1, 0, 1), (1, 1, 2), (-1, 1, 3)];
        for (dir, &(dr, dc, lane)) in steps.iter().enumerate() {
            for row in 0..rows as isize {
                for col in 0..cols as isize {
                    let (last_row, last_col) = (row + 3 * dr, col + 3 * dc);
                    if !(0..rows as isize).contains(&last_row) || last_col >= cols as isize {
                        continue;
                    }
                    let (row, col) = (row as usize, col as usize);
                    let lowest = row.max(last_row as usize);
                    let edge = col.min(cols - 1 - last_col as usize).min(EDGES - 1);
                    let class = (dir * HEIGHTS + height_class(rows - 1 - lowest)) * EDGES + edge;
                    let (line, _) = cell_lines(row, col)[lane];
                    // Columns index their bits by row, the other lines by column.
                    let shift = if lane == 1 { row } else { col };
                    windows.list[windows.len] = Window {
                        line: line as u8,
                        shift: shift as u8,
                        base: (class * STATES) as u32,
                    };
                    windows.len += 1;
                }
            }
        }
        windows
    }

    /// The geometry these windows are for.
    pub fn geometry(&self) -> Geometry {
        self.geometry
    }

    /// Calls `slot` with the weight index of every window of `pos` (whose geometry must be
    /// [`Self::geometry`]), seen from the side to move: the features the model sums and
    /// training adjusts.
    #[inline]
    pub fn for_each_slot(&self, pos: &Position, mut slot: impl FnMut(usize)) {
        debug_assert_eq!(pos.geometry(), self.geometry);
        let me = pos.to_move();
        let (own, opp) = (pos.lines(me), pos.lines(me.other()));
        let mut playable = [0u16; LINE_SLOTS];
        let mut open = pos.open_columns();
        while open != 0 {
            let col = open.trailing_zeros() as usize;
            open &= open - 1;
            for (line, bit) in cell_lines(pos.landing_row(col), col) {
                playable[line] |= bit;
            }
        }
        let parity = (pos.empty_cells() % 2) * (CLASSES / 2) * STATES;
        for w in &self.list[..self.len] {
            let (line, shift) = (w.line as usize, w.shift);
            let blocked = self.blocked[line];
            let own = ((own[line] | blocked) >> shift) & 15;
            let opp = ((opp[line] | blocked) >> shift) & 15;
            let play = (playable[line] >> shift) & 15;
            let index = usize::from(own | opp << 4 | play << 8);
            slot(parity + w.base as usize + usize::from(STATE[index]));
        }
    }
}

/// The weight index of the mirror image (left and right swapped) of the window content at
/// `slot`: horizontal and vertical windows stay in their direction, the two diagonals swap,
/// and every direction but the vertical reads its cells in the opposite order.
pub fn mirror_slot(slot: usize) -> usize {
    let (class, mut state) = (slot / STATES, slot % STATES);
    let (parity_dir, rest) = (class / (HEIGHTS * EDGES), class % (HEIGHTS * EDGES));
    let (parity, dir) = (parity_dir / DIRECTIONS, parity_dir % DIRECTIONS);
    let mirrored_dir = [0, 1, 3, 2][dir];
    if dir != 1 {
        let mut reversed = 0;
        for _ in 0..4 {
            reversed = reversed * 5 + state % 5;
            state /= 5;
        }
        state = reversed;
    }
    ((parity * DIRECTIONS + mirrored_dir) * HEIGHTS * EDGES + rest) * STATES + state
}

/// A trained evaluation: one weight per window class and contents.
#[derive(Clone, Debug, PartialEq)]
pub struct Model {
    weights: Box<[f32]>,
}

impl Model {
    /// The model of `weights` ([`WEIGHTS`] of them).
    pub fn new(weights: Box<[f32]>) -> Model {
        assert_eq!(weights.len(), WEIGHTS, "a model has {WEIGHTS} weights");
        Model { weights }
    }

    /// The model compiled into the library, checked the first time it is asked for; the
    /// error when the file is not usable (the search then runs without it).
    pub fn shipped() -> Result<&'static Model, &'static ModelError> {
        static LOADED: OnceLock<Result<Model, ModelError>> = OnceLock::new();
        LOADED.get_or_init(|| Model::from_bytes(SHIPPED)).as_ref()
    }

    /// Reads a weights file (the module docs give its format), checking its length, header,
    /// checksum and that every weight is finite.
    pub fn from_bytes(bytes: &[u8]) -> Result<Model, ModelError> {
        let expected = HEADER_BYTES + 4 * WEIGHTS + 8;
        if bytes.len() != expected || bytes.len() > MAX_FILE_BYTES {
            return Err(ModelError::Length(bytes.len()));
        }
        let word = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().expect("4 bytes"));
        if &bytes[..4] != MAGIC
            || word(4) != VERSION
            || word(8) as usize != CLASSES
            || word(12) as usize != STATES
        {
            return Err(ModelError::Header);
        }
        let (body, sum) = bytes.split_at(expected - 8);
        if fnv1a(body).to_le_bytes() != sum {
            return Err(ModelError::Checksum);
        }
        let weights: Box<[f32]> = body[HEADER_BYTES..]
            .chunks_exact(4)
            .map(|b| f32::from_le_bytes(b.try_into().expect("4 bytes")))
            .collect();
        if weights.iter().any(|w| !w.is_finite()) {
            return Err(ModelError::NotFinite);
        }
        Ok(Model { weights })
    }

    /// The weights file of this model, as [`Self::from_bytes`] reads it.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut bytes = MAGIC.to_vec();
        for word in [VERSION, CLASSES as u32, STATES as u32] {
            bytes.extend(word.to_le_bytes());
        }
        for w in &self.weights {
            bytes.extend(w.to_le_bytes());
        }
        let sum = fnv1a(&bytes);
        bytes.extend(sum.to_le_bytes());
        bytes
    }

    /// The weights, by slot ([`Windows::for_each_slot`]).
    pub fn weights(&self) -> &[f32] {
        &self.weights
    }

    /// The weights, for training.
    pub fn weights_mut(&mut self) -> &mut [f32] {
        &mut self.weights
    }

    /// The sum of the weights of `pos`'s windows: the value before the sigmoid.
    #[inline]
    pub fn score(&self, windows: &Windows, pos: &Position) -> f32 {
        let mut sum = 0.0;
        windows.for_each_slot(pos, |slot| sum += self.weights[slot]);
        sum
    }

    /// The probability that the side to move in `pos` wins (a tie counting half).
    #[inline]
    pub fn value(&self, windows: &Windows, pos: &Position) -> f32 {
        sigmoid(self.score(windows, pos))
    }
}

/// The logistic function.
#[inline]
pub fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// FNV-1a, 64 bits: a checksum that catches a truncated or corrupted file, not an attack.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The slots of `pos`, in window order.
    fn slots(pos: &Position) -> Vec<usize> {
        let mut out = vec![];
        Windows::new(pos.geometry()).for_each_slot(pos, |s| out.push(s));
        out
    }

    #[test]
    fn window_counts_and_slots_are_in_range() {
        for (rows, cols, count) in [(12, 12, 378), (9, 9, 180), (9, 12, 9 * 9 + 6 * 12 + 2 * 54)] {
            let pos = Position::new(rows, cols, 3, 4).unwrap();
            let all = slots(&pos);
            assert_eq!(all.len(), count, "{rows}x{cols}");
            assert!(all.iter().all(|&s| s < WEIGHTS));
        }
    }

    /// A position and its mirror image have the same slots, mirrored.
    #[test]
    fn the_mirror_image_reads_mirrored_slots() {
        let (rows, cols) = (9, 11);
        let mut pos = Position::new(rows, cols, 8, 2).unwrap();
        let mut mirror = Position::new(rows, cols, 8, cols - 1 - 2).unwrap();
        for col in [2, 3, 3, 5, 0, 10, 2, 7] {
            assert!(!pos.play(col) && !mirror.play(cols - 1 - col));
        }
        let mut a: Vec<usize> = slots(&pos).into_iter().map(mirror_slot).collect();
        let mut b = slots(&mirror);
        a.sort_unstable();
        b.sort_unstable();
        assert_eq!(a, b);
        for slot in [0, 7, 624, 30_000, WEIGHTS - 1] {
            assert_eq!(mirror_slot(mirror_slot(slot)), slot);
        }
    }

    #[test]
    fn the_blocked_cell_and_the_landing_cells_have_their_states() {
        // 9x9, blocked (8, 0): the bottom-left horizontal window is blocked, playable x3.
        let pos = Position::new(9, 9, 8, 0).unwrap();
        let first = slots(&pos)[8 * 6]; // row 8's first window
        assert_eq!(first % STATES, 4 + 5 * (1 + 5 * (1 + 5)));
    }

    #[test]
    fn a_file_round_trips_and_damage_is_refused() {
        let weights: Box<[f32]> = (0..WEIGHTS).map(|i| i as f32 * 1e-4).collect();
        let model = Model::new(weights);
        let bytes = model.to_bytes();
        assert!(bytes.len() <= MAX_FILE_BYTES);
        assert_eq!(Model::from_bytes(&bytes), Ok(model));
        let mut bad = bytes.clone();
        bad[100] ^= 1;
        assert_eq!(Model::from_bytes(&bad), Err(ModelError::Checksum));
        assert_eq!(Model::from_bytes(&bytes[..50]), Err(ModelError::Length(50)));
        let mut other = bytes.clone();
        other[4] = 9;
        assert_eq!(Model::from_bytes(&other), Err(ModelError::Header));
    }

    #[test]
    fn the_shipped_model_loads_and_rates_a_position() {
        let model = Model::shipped().expect("the shipped weights pass their checks");
        let pos = Position::new(10, 11, 4, 5).unwrap();
        let value = model.value(&Windows::new(pos.geometry()), &pos);
        assert!((0.0..=1.0).contains(&value));
    }
}
