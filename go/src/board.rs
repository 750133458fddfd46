//! The fast rules: a padded one-dimensional board whose groups keep their stones and their
//! liberties incrementally, so that a capture, an atari or a suicide test is a lookup.
//!
//! # Layout
//! A board of side `n` is stored row by row with a stride of `n + 1`: every row starts with one
//! border cell, which also serves as the right border of the row above, and a whole border row
//! lies above and below the board (plus one last cell, so that the diagonal of the bottom-right
//! point is still inside the array). For `n = 3` (`#` border, digits are indices):
//! ```text
//!  #0  #1  #2  #3
//!  #4   5   6   7
//!  #8   9  10  11
//! #12  13  14  15
//! #16 #17 #18 #19 #20
//! ```
//! The neighbours of `i` are `i - 1`, `i + 1`, `i - stride`, `i + stride`; its diagonals are
//! `i ± stride ± 1`. No neighbour of a point ever leaves the array.
//!
//! # Groups
//! Each stone names its group by the index of the group's *head* (one of its stones). The
//! stones of a group form a circular list through `next`. Per head the board keeps the number
//! of stones and the exact set of liberties as a bitset over the array (plus its size), so
//! merging two groups is an OR of a few words and a capture adds each freed point to the
//! neighbouring groups' sets; a liberty is counted once however many stones touch it.
//!
//! The board itself knows simple ko (the point a single-stone capture forbids for one move) but
//! not the history that positional superko needs: that is [`crate::game::Game`]'s job, helped by
//! the Zobrist hash kept here.

use std::fmt;

use crate::point::{Color, MAX_SIZE, MIN_SIZE, Point};

/// An empty point.
pub const EMPTY: u8 = 0;
/// A black stone.
pub const BLACK: u8 = 1;
/// A white stone.
pub const WHITE: u8 = 2;
/// A border cell (off the board).
pub const EDGE: u8 = 3;

/// The longest array any board size needs: `(n + 2) * (n + 1) + 1` for `n = MAX_SIZE`.
pub const MAX_LEN: usize = (MAX_SIZE + 2) * (MAX_SIZE + 1) + 1;

/// The content code of a colour's stones.
#[inline]
pub fn stone(color: Color) -> u8 {
    color.index() as u8 + 1
}

/// The colour of a content code, if it is a stone.
#[inline]
pub fn stone_color(code: u8) -> Option<Color> {
    match code {
        BLACK => Some(Color::Black),
        WHITE => Some(Color::White),
        _ => None,
    }
}

/// Random 64-bit keys for (array index, colour), the Zobrist hash's alphabet. Built at compile
/// time by SplitMix64 from a fixed seed, so hashes are the same in every run.
static ZOBRIST: [[u64; 2]; MAX_LEN] = zobrist_table();

const fn zobrist_table() -> [[u64; 2]; MAX_LEN] {
    let mut table = [[0u64; 2]; MAX_LEN];
    let mut state: u64 = 0x60_0d_5e_ed_90_0d_be_ef;
    let mut i = 0;
    while i < MAX_LEN {
        let mut c = 0;
        while c < 2 {
            // SplitMix64.
            state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            table[i][c] = z ^ (z >> 31);
            c += 1;
        }
        i += 1;
    }
    table
}

/// The Zobrist key of a `color` stone at array index `i`.
#[inline]
pub fn zobrist(i: usize, color: Color) -> u64 {
    ZOBRIST[i][color.index()]
}

/// Why a stone may not be placed, as far as the board alone can tell (positional superko is
/// the game's verdict, see [`crate::game::IllegalMove`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BoardError {
    /// The point is not empty.
    Occupied,
    /// The point is the simple-ko point: it would retake a single stone at once.
    Ko,
    /// The stone would have no liberty and capture nothing.
    Suicide,
}

/// A Go board with incrementally kept groups. See the module documentation for the layout.
#[derive(Clone, Debug)]
pub struct Board {
    size: usize,
    stride: usize,
    /// 64-bit words per liberty bitset.
    words: usize,
    /// Content per array index: [`EMPTY`], [`BLACK`], [`WHITE`] or [`EDGE`].
    color: Vec<u8>,
    /// Head of the group per stone (meaningless on empty points).
    group: Vec<u16>,
    /// Next stone of the same group (a circular list).
    next: Vec<u16>,
    /// Stones per group, at the head's index.
    stones: Vec<u16>,
    /// Liberties per group, at the head's index.
    lib_count: Vec<u16>,
    /// Liberty bitsets: `words` words per array index, used at heads.
    libs: Vec<u64>,
    /// The empty points, in no order.
    empties: Vec<u16>,
    /// Position of each empty point in `empties`.
    empty_pos: Vec<u16>,
    /// The simple-ko point (0: none) and the colour it is forbidden to.
    ko: u16,
    ko_color: Color,
    hash: u64,
    /// Stones captured by Black and by White.
    captures: [u32; 2],
    /// The last stone played (0: none or a pass).
    last: u16,
}

impl Board {
    /// An empty board of side `size`, or `None` when `size` is outside
    /// [`MIN_SIZE`]`..=`[`MAX_SIZE`].
    pub fn new(size: usize) -> Option<Board> {
        if !(MIN_SIZE..=MAX_SIZE).contains(&size) {
            return None;
        }
        let stride = size + 1;
        let len = (size + 2) * stride + 1;
        let words = len.div_ceil(64);
        let mut board = Board {
            size,
            stride,
            words,
            color: vec![EDGE; len],
            group: vec![0; len],
            next: vec![0; len],
            stones: vec![0; len],
            lib_count: vec![0; len],
            libs: vec![0; len * words],
            empties: Vec::with_capacity(size * size),
            empty_pos: vec![0; len],
            ko: 0,
            ko_color: Color::Black,
            hash: 0,
            captures: [0; 2],
            last: 0,
        };
        for y in 0..size {
            for x in 0..size {
                let i = board.index(Point::new(x, y));
                board.color[i] = EMPTY;
                board.empty_pos[i] = board.empties.len() as u16;
                board.empties.push(i as u16);
            }
        }
        Some(board)
    }

    /// Makes `self` a copy of `other` (same size) without allocating: the search copies the
    /// original board into its scratch board once per iteration.
    pub fn copy_from(&mut self, other: &Board) {
        if self.size != other.size {
            *self = other.clone();
            return;
        }
        self.color.copy_from_slice(&other.color);
        self.group.copy_from_slice(&other.group);
        self.next.copy_from_slice(&other.next);
        self.stones.copy_from_slice(&other.stones);
        self.lib_count.copy_from_slice(&other.lib_count);
        self.libs.copy_from_slice(&other.libs);
        self.empties.clear();
        self.empties.extend_from_slice(&other.empties);
        self.empty_pos.copy_from_slice(&other.empty_pos);
        self.ko = other.ko;
        self.ko_color = other.ko_color;
        self.hash = other.hash;
        self.captures = other.captures;
        self.last = other.last;
    }

    /// The side of the board.
    #[inline]
    pub fn size(&self) -> usize {
        self.size
    }

    /// The distance between vertically adjacent indices.
    #[inline]
    pub fn stride(&self) -> usize {
        self.stride
    }

    /// The length of the padded array (every index is below it).
    #[inline]
    pub fn len(&self) -> usize {
        self.color.len()
    }

    /// Always false: a board has at least [`MIN_SIZE`]² points (for clippy's `len` rule).
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.color.is_empty()
    }

    /// The array index of an on-board point.
    #[inline]
    pub fn index(&self, p: Point) -> usize {
        debug_assert!(p.on_board(self.size));
        (usize::from(p.y) + 1) * self.stride + usize::from(p.x) + 1
    }

    /// The point at an on-board array index.
    #[inline]
    pub fn point(&self, i: usize) -> Point {
        Point::new(i % self.stride - 1, i / self.stride - 1)
    }

    /// Every on-board array index, row by row from the top.
    pub fn points(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.size).flat_map(move |y| {
            let row = (y + 1) * self.stride + 1;
            row..row + self.size
        })
    }

    /// The four neighbours of `i`.
    #[inline]
    pub fn neighbors(&self, i: usize) -> [usize; 4] {
        [i - self.stride, i - 1, i + 1, i + self.stride]
    }

    /// The four diagonal neighbours of `i`.
    #[inline]
    pub fn diagonals(&self, i: usize) -> [usize; 4] {
        [
            i - self.stride - 1,
            i - self.stride + 1,
            i + self.stride - 1,
            i + self.stride + 1,
        ]
    }

    /// The content of array index `i`: [`EMPTY`], [`BLACK`], [`WHITE`] or [`EDGE`].
    #[inline]
    pub fn at(&self, i: usize) -> u8 {
        self.color[i]
    }

    /// The stone on `p`, if any (`p` must be on the board).
    pub fn stone_at(&self, p: Point) -> Option<Color> {
        stone_color(self.color[self.index(p)])
    }

    /// The head of the group of the stone at `i`.
    #[inline]
    pub fn group(&self, i: usize) -> usize {
        usize::from(self.group[i])
    }

    /// The number of liberties of the group of the stone at `i`.
    #[inline]
    pub fn libs(&self, i: usize) -> usize {
        usize::from(self.lib_count[self.group(i)])
    }

    /// The number of stones of the group of the stone at `i`.
    #[inline]
    pub fn group_size(&self, i: usize) -> usize {
        usize::from(self.stones[self.group(i)])
    }

    /// The stones of the group whose head is `head`.
    pub fn group_stones(&self, head: usize) -> GroupStones<'_> {
        GroupStones {
            board: self,
            head,
            at: Some(head),
        }
    }

    /// The liberties of the group whose head is `head`, in index order.
    pub fn group_libs(&self, head: usize) -> impl Iterator<Item = usize> + '_ {
        let base = head * self.words;
        self.libs[base..base + self.words]
            .iter()
            .enumerate()
            .flat_map(|(w, &word)| BitIter(word).map(move |b| w * 64 + b))
    }

    /// The first liberty of the group whose head is `head` (its only one when in atari).
    #[inline]
    pub fn first_lib(&self, head: usize) -> usize {
        let base = head * self.words;
        for w in 0..self.words {
            let word = self.libs[base + w];
            if word != 0 {
                return w * 64 + word.trailing_zeros() as usize;
            }
        }
        0
    }

    /// The empty points, in no particular order.
    #[inline]
    pub fn empties(&self) -> &[u16] {
        &self.empties
    }

    /// The Zobrist hash of the stones on the board (not of the side to move, nor the ko).
    #[inline]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// Stones captured so far by `color`.
    pub fn captures(&self, color: Color) -> u32 {
        self.captures[color.index()]
    }

    /// The simple-ko point and the colour it is forbidden to, if any.
    pub fn ko(&self) -> Option<(usize, Color)> {
        (self.ko != 0).then_some((usize::from(self.ko), self.ko_color))
    }

    /// The last stone played (`None` after a pass or on a fresh board).
    #[inline]
    pub fn last_move(&self) -> Option<usize> {
        (self.last != 0).then_some(usize::from(self.last))
    }

    /// Whether `color` may play at `i` as far as the board can tell (superko aside).
    #[inline]
    pub fn check(&self, color: Color, i: usize) -> Result<(), BoardError> {
        if self.color[i] != EMPTY {
            return Err(BoardError::Occupied);
        }
        if usize::from(self.ko) == i && self.ko_color == color {
            return Err(BoardError::Ko);
        }
        if self.is_suicide(color, i) {
            return Err(BoardError::Suicide);
        }
        Ok(())
    }

    /// True when `color` may play at the empty point `i` (not ko, not suicide).
    #[inline]
    pub fn is_legal(&self, color: Color, i: usize) -> bool {
        self.check(color, i).is_ok()
    }

    /// True when a `color` stone at the empty point `i` would have no liberty and capture
    /// nothing.
    #[inline]
    pub fn is_suicide(&self, color: Color, i: usize) -> bool {
        let me = stone(color);
        for n in self.neighbors(i) {
            let c = self.color[n];
            if c == EMPTY {
                return false;
            }
            if c == EDGE {
                continue;
            }
            let libs = self.lib_count[usize::from(self.group[n])];
            if (c == me) == (libs > 1) {
                // Own group with another liberty, or an enemy group in atari (captured).
                return false;
            }
        }
        true
    }

    /// The hash the board would have after `color` plays at `i` (a legal move), captures
    /// included: the positional-superko test without playing.
    pub fn hash_after(&self, color: Color, i: usize) -> u64 {
        let mut h = self.hash ^ zobrist(i, color);
        let opp = stone(color.opponent());
        let mut seen = [0usize; 4];
        let mut n_seen = 0;
        for n in self.neighbors(i) {
            if self.color[n] != opp {
                continue;
            }
            let g = self.group(n);
            if self.lib_count[g] != 1 || seen[..n_seen].contains(&g) {
                continue;
            }
            seen[n_seen] = g;
            n_seen += 1;
            for s in self.group_stones(g) {
                h ^= zobrist(s, color.opponent());
            }
        }
        h
    }

    /// Records a pass: it clears the simple-ko point.
    pub fn pass(&mut self) {
        self.ko = 0;
        self.last = 0;
    }

    /// Plays a `color` stone at `i`, which must be legal ([`Board::check`]); returns the number
    /// of stones captured.
    pub fn play(&mut self, color: Color, i: usize) -> u32 {
        debug_assert!(self.check(color, i).is_ok(), "illegal move at {i}");
        let me = stone(color);
        let opp = stone(color.opponent());
        self.color[i] = me;
        self.remove_empty(i);
        self.hash ^= zobrist(i, color);
        self.group[i] = i as u16;
        self.next[i] = i as u16;
        self.stones[i] = 1;
        self.lib_count[i] = 0;
        let base = i * self.words;
        self.libs[base..base + self.words].fill(0);
        for n in self.neighbors(i) {
            if self.color[n] == EMPTY {
                self.add_lib(i, n);
            }
        }
        let mut captured = 0;
        let mut captured_at = 0;
        for n in self.neighbors(i) {
            let c = self.color[n];
            if c == me {
                let g = self.group(n);
                self.remove_lib(g, i);
                let cur = self.group(i);
                if cur != g {
                    self.merge(cur, g);
                }
            } else if c == opp {
                let g = self.group(n);
                if self.remove_lib(g, i) && self.lib_count[g] == 0 {
                    captured += self.remove_group(g, color);
                    captured_at = n;
                }
            }
        }
        self.captures[color.index()] += captured;
        let g = self.group(i);
        self.ko = if captured == 1 && self.stones[g] == 1 && self.lib_count[g] == 1 {
            self.ko_color = color.opponent();
            captured_at as u16
        } else {
            0
        };
        self.last = i as u16;
        captured
    }

    /// Adds liberty `lib` to the group headed by `head`; false if it was already there.
    #[inline]
    fn add_lib(&mut self, head: usize, lib: usize) -> bool {
        let word = &mut self.libs[head * self.words + lib / 64];
        let bit = 1u64 << (lib % 64);
        if *word & bit != 0 {
            return false;
        }
        *word |= bit;
        self.lib_count[head] += 1;
        true
    }

    /// Removes liberty `lib` from the group headed by `head`; false if it was not there.
    #[inline]
    fn remove_lib(&mut self, head: usize, lib: usize) -> bool {
        let word = &mut self.libs[head * self.words + lib / 64];
        let bit = 1u64 << (lib % 64);
        if *word & bit == 0 {
            return false;
        }
        *word &= !bit;
        self.lib_count[head] -= 1;
        true
    }

    /// Merges the groups headed by `a` and `b`: the smaller one's stones join the larger.
    fn merge(&mut self, a: usize, b: usize) {
        let (big, small) = if self.stones[a] >= self.stones[b] {
            (a, b)
        } else {
            (b, a)
        };
        let mut s = small;
        loop {
            self.group[s] = big as u16;
            s = usize::from(self.next[s]);
            if s == small {
                break;
            }
        }
        self.next.swap(big, small);
        self.stones[big] += self.stones[small];
        let mut count = 0;
        for w in 0..self.words {
            let word = self.libs[big * self.words + w] | self.libs[small * self.words + w];
            self.libs[big * self.words + w] = word;
            count += word.count_ones();
        }
        self.lib_count[big] = count as u16;
    }

    /// Removes the group headed by `head`, captured by `by`; returns its size.
    fn remove_group(&mut self, head: usize, by: Color) -> u32 {
        let victim = by.opponent();
        let me = stone(by);
        let mut count = 0;
        let mut s = head;
        loop {
            self.color[s] = EMPTY;
            self.hash ^= zobrist(s, victim);
            self.empty_pos[s] = self.empties.len() as u16;
            self.empties.push(s as u16);
            count += 1;
            for n in self.neighbors(s) {
                if self.color[n] == me {
                    let g = self.group(n);
                    self.add_lib(g, s);
                }
            }
            s = usize::from(self.next[s]);
            if s == head {
                break;
            }
        }
        count
    }

    /// Takes `i` out of the empty list in O(1).
    #[inline]
    fn remove_empty(&mut self, i: usize) {
        let pos = usize::from(self.empty_pos[i]);
        let last = self.empties.pop().expect("an empty point to fill");
        if usize::from(last) != i {
            self.empties[pos] = last;
            self.empty_pos[usize::from(last)] = pos as u16;
        }
    }

    /// True when every neighbour of the empty point `i` is a `color` stone or the edge: an
    /// eye shape, which may still be false.
    #[inline]
    pub fn is_eyeish(&self, color: Color, i: usize) -> bool {
        let me = stone(color);
        self.neighbors(i)
            .iter()
            .all(|&n| self.color[n] == me || self.color[n] == EDGE)
    }

    /// True when the empty point `i` is a true eye of `color`: an eye shape whose diagonals
    /// hold at most one enemy stone in the middle, none on the edge or in a corner.
    #[inline]
    pub fn is_true_eye(&self, color: Color, i: usize) -> bool {
        if !self.is_eyeish(color, i) {
            return false;
        }
        let opp = stone(color.opponent());
        let mut enemy = 0;
        let mut edge = false;
        for d in self.diagonals(i) {
            match self.color[d] {
                EDGE => edge = true,
                c if c == opp => enemy += 1,
                _ => {}
            }
        }
        enemy == 0 || (!edge && enemy == 1)
    }

    /// The number of liberties a `color` stone at the empty point `i` would have, counted up
    /// to `cap` (captures included): the self-atari test.
    pub fn libs_after(&self, color: Color, i: usize, cap: usize) -> usize {
        debug_assert!((1..=8).contains(&cap), "libs_after counts up to 8");
        let me = stone(color);
        let mut found = [0usize; 8];
        let mut n_found = 0;
        let add = |p: usize, found: &mut [usize; 8], n_found: &mut usize| {
            if p != i && !found[..*n_found].contains(&p) {
                found[*n_found] = p;
                *n_found += 1;
            }
            *n_found >= cap
        };
        for n in self.neighbors(i) {
            let c = self.color[n];
            if c == EMPTY || (c != me && c != EDGE && self.libs(n) == 1) {
                // An empty neighbour, or an enemy stone that the move captures.
                if add(n, &mut found, &mut n_found) {
                    return cap;
                }
            }
        }
        for n in self.neighbors(i) {
            if self.color[n] == me {
                for lib in self.group_libs(self.group(n)) {
                    if add(lib, &mut found, &mut n_found) {
                        return cap;
                    }
                }
            }
        }
        n_found
    }

    /// The number of stones of the group a `color` stone at `i` would join (itself included).
    pub fn size_after(&self, color: Color, i: usize) -> usize {
        let me = stone(color);
        let mut heads = [0usize; 4];
        let mut n = 0;
        let mut total = 1;
        for nb in self.neighbors(i) {
            if self.color[nb] == me {
                let g = self.group(nb);
                if !heads[..n].contains(&g) {
                    heads[n] = g;
                    n += 1;
                    total += usize::from(self.stones[g]);
                }
            }
        }
        total
    }

    /// Black's and White's area: stones plus the empty points whose region reaches only that
    /// colour (Tromp-Taylor), by a flood fill over the empty regions.
    pub fn area(&self) -> [usize; 2] {
        self.area_without(&[])
    }

    /// [`Board::area`] with the stones on the indices where `dead` is true taken off first (an
    /// empty slice: none), for scoring after the dead stones are agreed.
    pub fn area_without(&self, dead: &[bool]) -> [usize; 2] {
        let content = |i: usize| {
            if dead.get(i).copied().unwrap_or(false) {
                EMPTY
            } else {
                self.color[i]
            }
        };
        let mut area = [0usize; 2];
        let mut seen = vec![false; self.len()];
        let mut stack = Vec::new();
        for i in self.points() {
            match content(i) {
                BLACK => area[0] += 1,
                WHITE => area[1] += 1,
                _ if !seen[i] => {
                    let (mut size, mut reach) = (0, 0u8);
                    seen[i] = true;
                    stack.push(i);
                    while let Some(p) = stack.pop() {
                        size += 1;
                        for n in self.neighbors(p) {
                            match content(n) {
                                EMPTY if !seen[n] => {
                                    seen[n] = true;
                                    stack.push(n);
                                }
                                BLACK => reach |= 1,
                                WHITE => reach |= 2,
                                _ => {}
                            }
                        }
                    }
                    match reach {
                        1 => area[0] += size,
                        2 => area[1] += size,
                        _ => {}
                    }
                }
                _ => {}
            }
        }
        area
    }

    /// Black's area minus White's, counting an empty point only when all its neighbours are of
    /// one colour: exact at the end of a playout, where every empty point is a small eye, and
    /// much cheaper than [`Board::area`].
    pub fn playout_score(&self) -> i32 {
        let mut score = 0i32;
        for i in self.points() {
            match self.color[i] {
                BLACK => score += 1,
                WHITE => score -= 1,
                _ => {
                    let mut reach = 0u8;
                    for n in self.neighbors(i) {
                        reach |= match self.color[n] {
                            BLACK => 1,
                            WHITE => 2,
                            _ => 0,
                        };
                    }
                    match reach {
                        1 => score += 1,
                        2 => score -= 1,
                        _ => {}
                    }
                }
            }
        }
        score
    }

    /// The owner of point `i` at the end of a playout: its stone, or the one colour around an
    /// empty point ([`Board::playout_score`]'s rule).
    #[inline]
    pub fn playout_owner(&self, i: usize) -> Option<Color> {
        match self.color[i] {
            EMPTY => {
                let mut reach = 0u8;
                for n in self.neighbors(i) {
                    reach |= match self.color[n] {
                        BLACK => 1,
                        WHITE => 2,
                        _ => 0,
                    };
                }
                match reach {
                    1 => Some(Color::Black),
                    2 => Some(Color::White),
                    _ => None,
                }
            }
            c => stone_color(c),
        }
    }

    /// Checks every invariant of the incremental bookkeeping against a recount (tests only:
    /// it is a flood fill).
    #[cfg(test)]
    pub(crate) fn assert_consistent(&self) {
        for i in self.points() {
            let c = self.color[i];
            if c == EMPTY || c == EDGE {
                continue;
            }
            let head = self.group(i);
            assert_eq!(self.color[head], c, "head of {i} has another colour");
            let stones: Vec<usize> = self.group_stones(head).collect();
            assert!(stones.contains(&i), "{i} is not in its group's list");
            assert_eq!(stones.len(), usize::from(self.stones[head]));
            let mut libs: Vec<usize> = stones
                .iter()
                .flat_map(|&s| self.neighbors(s))
                .filter(|&n| self.color[n] == EMPTY)
                .collect();
            libs.sort_unstable();
            libs.dedup();
            let kept: Vec<usize> = self.group_libs(head).collect();
            assert_eq!(libs, kept, "liberties of the group at {i}");
            assert_eq!(libs.len(), usize::from(self.lib_count[head]));
        }
        let mut empties: Vec<usize> = self.empties.iter().map(|&e| usize::from(e)).collect();
        empties.sort_unstable();
        let expected: Vec<usize> = self.points().filter(|&i| self.color[i] == EMPTY).collect();
        assert_eq!(empties, expected);
    }
}

/// The stones of one group (see [`Board::group_stones`]).
#[derive(Debug)]
pub struct GroupStones<'a> {
    board: &'a Board,
    head: usize,
    at: Option<usize>,
}

impl Iterator for GroupStones<'_> {
    type Item = usize;

    fn next(&mut self) -> Option<usize> {
        let s = self.at?;
        let next = usize::from(self.board.next[s]);
        self.at = (next != self.head).then_some(next);
        Some(s)
    }
}

/// The set bits of a word, lowest first.
struct BitIter(u64);

impl Iterator for BitIter {
    type Item = usize;

    #[inline]
    fn next(&mut self) -> Option<usize> {
        if self.0 == 0 {
            return None;
        }
        let b = self.0.trailing_zeros() as usize;
        self.0 &= self.0 - 1;
        Some(b)
    }
}

impl fmt::Display for Board {
    /// The board as rows of `X` (black), `O` (white) and `.` from the top, without coordinates
    /// (the protocol layer labels them in its own convention).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for y in 0..self.size {
            for x in 0..self.size {
                if x > 0 {
                    f.write_str(" ")?;
                }
                let c = match self.color[self.index(Point::new(x, y))] {
                    BLACK => 'X',
                    WHITE => 'O',
                    _ => '.',
                };
                write!(f, "{c}")?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use Color::{Black, White};

    /// A board from rows of `X`, `O` and `.` (top row first), built by legal plays.
    pub(crate) fn board_from(rows: &[&str]) -> Board {
        let mut b = Board::new(rows.len()).unwrap();
        for (y, row) in rows.iter().enumerate() {
            for (x, ch) in row.chars().filter(|c| !c.is_whitespace()).enumerate() {
                let i = b.index(Point::new(x, y));
                match ch {
                    'X' => {
                        b.play(Black, i);
                    }
                    'O' => {
                        b.play(White, i);
                    }
                    _ => {}
                }
            }
        }
        b.pass();
        b.assert_consistent();
        b
    }

    fn at(b: &Board, x: usize, y: usize) -> usize {
        b.index(Point::new(x, y))
    }

    #[test]
    fn sizes_outside_the_range_are_refused() {
        assert!(Board::new(1).is_none());
        assert!(Board::new(26).is_none());
        assert_eq!(Board::new(2).unwrap().empties().len(), 4);
        assert_eq!(Board::new(25).unwrap().empties().len(), 625);
        assert!(Board::new(25).unwrap().len() <= MAX_LEN);
    }

    #[test]
    fn index_and_point_are_inverse() {
        let b = Board::new(7).unwrap();
        for i in b.points() {
            assert_eq!(b.index(b.point(i)), i);
            assert_eq!(b.at(i), EMPTY);
        }
        assert_eq!(b.points().count(), 49);
    }

    #[test]
    fn corner_stone_has_two_liberties_and_dies_by_two() {
        let mut b = Board::new(5).unwrap();
        let corner = at(&b, 0, 0);
        b.play(Black, corner);
        assert_eq!(b.libs(corner), 2);
        b.play(White, at(&b, 1, 0));
        assert_eq!(b.libs(corner), 1);
        assert_eq!(b.play(White, at(&b, 0, 1)), 1);
        assert_eq!(b.at(corner), EMPTY);
        assert_eq!(b.captures(White), 1);
        assert_eq!(b.libs(at(&b, 1, 0)), 3);
        b.assert_consistent();
    }

    #[test]
    fn merging_counts_shared_liberties_once() {
        let mut b = Board::new(5).unwrap();
        b.play(Black, at(&b, 1, 1));
        b.play(Black, at(&b, 3, 1));
        b.play(Black, at(&b, 2, 1));
        assert_eq!(b.group_size(at(&b, 1, 1)), 3);
        assert_eq!(b.libs(at(&b, 3, 1)), 8);
        b.assert_consistent();
    }

    #[test]
    fn suicide_is_refused_but_a_capturing_fill_is_not() {
        let b = board_from(&[
            ". X . . .", //
            "X . . . .",
            ". . . . .",
            ". . . . .",
            ". . . . .",
        ]);
        assert_eq!(b.check(White, at(&b, 0, 0)), Err(BoardError::Suicide));
        assert_eq!(b.check(Black, at(&b, 0, 0)), Ok(()));
        assert_eq!(b.check(White, at(&b, 1, 0)), Err(BoardError::Occupied));
        let mut b = board_from(&[
            ". X O . .", //
            "X O O . .",
            "O . . . .",
            ". . . . .",
            ". . . . .",
        ]);
        // White at (0,0) has no empty neighbour but captures both black stones.
        assert_eq!(b.check(White, at(&b, 0, 0)), Ok(()));
        assert_eq!(b.play(White, at(&b, 0, 0)), 2);
        assert_eq!(b.libs(at(&b, 0, 0)), 2);
        b.assert_consistent();
    }

    #[test]
    fn simple_ko_forbids_the_immediate_retake_only() {
        let mut b = board_from(&[
            ". X O . .", //
            "X O . O .",
            ". X O . .",
            ". . . . .",
            ". . . . .",
        ]);
        // Black takes the white stone at (1,1) by playing (2,1).
        let take = at(&b, 2, 1);
        assert_eq!(b.play(Black, take), 1);
        let retake = at(&b, 1, 1);
        assert_eq!(b.ko(), Some((retake, White)));
        assert_eq!(b.check(White, retake), Err(BoardError::Ko));
        // After a move elsewhere the ko is open again.
        b.play(White, at(&b, 4, 4));
        assert_eq!(b.ko(), None);
        b.play(Black, at(&b, 4, 3));
        assert_eq!(b.check(White, retake), Ok(()));
        assert_eq!(b.play(White, retake), 1);
        b.assert_consistent();
    }

    #[test]
    fn snapback_recaptures_the_capturing_group() {
        let mut b = board_from(&[
            ". O X . .", //
            ". O X . .",
            "X X . . .",
            ". . . . .",
            ". . . . .",
        ]);
        // Black throws in at the corner: one liberty, captures nothing.
        let throw = at(&b, 0, 0);
        assert_eq!(b.play(Black, throw), 0);
        assert_eq!(b.libs(throw), 1);
        // White captures it, and its capturing group is left with one liberty: no ko.
        assert_eq!(b.play(White, at(&b, 0, 1)), 1);
        assert_eq!(b.ko(), None);
        assert_eq!(b.libs(at(&b, 1, 1)), 1);
        // Black takes back three stones.
        assert_eq!(b.play(Black, throw), 3);
        assert_eq!(b.captures(Black), 3);
        assert_eq!(b.captures(White), 1);
        b.assert_consistent();
    }

    #[test]
    fn eyes_true_and_false() {
        let b = board_from(&[
            ". X . X .", //
            "X . X . X",
            ". X O X .",
            ". . . . .",
            ". . . . .",
        ]);
        // (0,0): corner eye of Black, no enemy diagonal: true.
        assert!(b.is_true_eye(Black, at(&b, 0, 0)));
        // (1,1): eye shape; diagonals (0,0) empty, (2,0) empty, (0,2) empty, (2,2) White:
        // one enemy diagonal in the middle: still true.
        assert!(b.is_eyeish(Black, at(&b, 1, 1)));
        assert!(b.is_true_eye(Black, at(&b, 1, 1)));
        // (2,0) on the edge: diagonals (1,1), (3,1) empty: true. Add an enemy diagonal below.
        let b2 = board_from(&[
            ". X . X .", //
            ". O X . .",
            ". . . . .",
            ". . . . .",
            ". . . . .",
        ]);
        assert!(b2.is_eyeish(Black, at(&b2, 2, 0)));
        assert!(
            !b2.is_true_eye(Black, at(&b2, 2, 0)),
            "an edge eye with an enemy diagonal is false"
        );
        assert!(!b.is_eyeish(White, at(&b, 0, 0)));
    }

    #[test]
    fn libs_after_sees_captures_and_merges() {
        let b = board_from(&[
            ". X O . .", //
            "X O . . .",
            ". . . . .",
            ". . . . .",
            ". . . . .",
        ]);
        assert_eq!(b.libs(at(&b, 1, 1)), 2);
        // White at (0,0) captures the black stone at (1,0), whose point becomes its liberty.
        assert_eq!(b.libs_after(White, at(&b, 0, 0), 4), 1);
        // White at (3,0): (2,0)'s liberty (3,0) is used, the new stone adds (4,0), (3,1).
        assert_eq!(b.libs_after(White, at(&b, 3, 0), 8), 3);
        // Black at (0,0) joins (1,0) and (0,1); together: liberties (0,2) only.
        assert_eq!(b.libs_after(Black, at(&b, 0, 0), 4), 1);
        assert_eq!(b.size_after(Black, at(&b, 0, 0)), 3);
    }

    #[test]
    fn hash_after_matches_play() {
        let mut b = board_from(&[
            ". X O . .", //
            "X O . O .",
            ". X O . .",
            ". . . . .",
            ". . . . .",
        ]);
        let take = at(&b, 2, 1);
        let predicted = b.hash_after(Black, take);
        b.play(Black, take);
        assert_eq!(b.hash(), predicted);
        let mut fresh = Board::new(5).unwrap();
        assert_ne!(fresh.hash(), b.hash());
        fresh.copy_from(&b);
        assert_eq!(fresh.hash(), b.hash());
        fresh.assert_consistent();
    }

    #[test]
    fn area_counts_regions_reaching_one_colour() {
        let b = board_from(&[
            ". X O . .", //
            "X X O . .",
            ". X O . .",
            "X X O O O",
            ". . . . .",
        ]);
        // Black: 6 stones + (0,0) + (0,2) = 8. White: 6 stones + 6 empties right = 12.
        // The bottom row touches both colours: nobody's.
        assert_eq!(b.area(), [8, 12]);
        // The playout rule looks at direct neighbours only: on this unfinished board it gives
        // Black 6 + 2 eyes + (0,4), (1,4) = 10 and White 6 + (3,0), (3,1), (3,2), (4,2) +
        // (2,4), (3,4), (4,4) = 13.
        assert_eq!(b.playout_score(), 10 - 13);
    }
}
