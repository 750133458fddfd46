//! Statistics per *position*, shared by every move order that reaches it.
//!
//! The tree keeps one node per move sequence, so on Connect-4, where about a dozen orders
//! reach the same position a few plies down, each order learns the position's value alone.
//! This table adds the other half of Monte-Carlo graph search (Czech, Korus and Kersting,
//! 2021): the tree's node counts stay *edge* visits, which drive exploration, while the mean
//! a move is judged by comes from every iteration that passed through the position it leads
//! to, whichever path it came by.
//!
//! It is a fixed-size hash table of 16-byte entries in buckets of four (one cache line).
//! A bucket that is full evicts a position the game has left behind (fewer stones than the
//! current root: unreachable), else its least visited entry; a lookup that misses falls back
//! on the tree node's own statistics, so an eviction costs information, never correctness.
//! The table lives as long as the library's session, over the moves of a game; a root with
//! fewer stones than the last one means a new game and empties it, so the many-game
//! processes of the course's runner do not fill it with the past.

use crate::position::{Geometry, Position};

/// Entries per bucket: four 16-byte entries fill one 64-byte cache line.
const BUCKET: usize = 4;

/// One position's statistics, from the view of the player who moved into it.
#[derive(Clone, Copy, Debug, Default)]
#[repr(C, align(16))]
struct Entry {
    /// The key's high half (its low bits chose the bucket).
    check: u32,
    /// Stones on the board ([`Position::ply`]), to recognise positions left behind.
    ply: u32,
    /// Iterations that passed through the position, by any path; 0 marks a free slot.
    visits: u32,
    /// Their results in half points (win 2, tie 1, loss 0), as in the tree's nodes.
    half_points: u32,
}

/// The shared statistics; see the module docs.
#[derive(Debug, Default)]
pub struct Transpositions {
    entries: Vec<Entry>,
    geometry: Option<Geometry>,
    /// Stones at the current search's root: entries with fewer are unreachable.
    root_ply: u32,
}

/// The part of a key an entry stores.
#[inline(always)]
fn check_of(key: u64) -> u32 {
    (key >> 32) as u32
}

impl Transpositions {
    /// Makes the table ready for a search from `root` within `max_bytes`: allocates it on
    /// first use, and empties it when the board differs from the last search's or `root`
    /// has fewer stones than the last root (a new game). Otherwise the statistics are kept:
    /// they stay true of their positions.
    pub fn prepare(&mut self, root: &Position, max_bytes: usize) {
        let geometry = root.geometry();
        let ply = root.ply() as u32;
        let len = (max_bytes / std::mem::size_of::<Entry>()).max(BUCKET);
        let len = 1 << (usize::BITS - 1 - len.leading_zeros()); // a power of two, rounded down
        if self.entries.len() != len || self.geometry != Some(geometry) || ply < self.root_ply {
            // A fresh zeroed allocation: the pages arrive as they are touched.
            self.entries = vec![Entry::default(); len];
            self.geometry = Some(geometry);
        }
        self.root_ply = ply;
    }

    /// A table prepared for `root` (see [`Self::prepare`]).
    pub fn prepared(root: &Position, max_bytes: usize) -> Transpositions {
        let mut table = Transpositions::default();
        table.prepare(root, max_bytes);
        table
    }

    /// First slot of the bucket holding `key`.
    #[inline(always)]
    fn bucket(&self, key: u64) -> usize {
        // The low bits of a Zobrist key are as random as the high ones.
        (key as usize) & (self.entries.len() - 1) & !(BUCKET - 1)
    }

    /// The statistics of the position with `key` (see
    /// [`position_key`](crate::position::zobrist::position_key)): `(visits,
    /// half_points)` for the player who moved into it, if the table holds them.
    #[inline(always)]
    pub fn get(&self, key: u64) -> Option<(u32, u32)> {
        if self.entries.is_empty() {
            return None;
        }
        let start = self.bucket(key);
        let check = check_of(key);
        self.entries[start..start + BUCKET]
            .iter()
            .find(|e| e.check == check && e.visits > 0)
            .map(|e| (e.visits, e.half_points))
    }

    /// Adds one result, in half points for the player who moved into the position, to the
    /// position with `key` and `ply` stones, making room for it if it is new.
    #[inline]
    pub fn add(&mut self, key: u64, ply: u32, half_points: u32) {
        if self.entries.is_empty() {
            return;
        }
        let start = self.bucket(key);
        let check = check_of(key);
        let root_ply = self.root_ply;
        let bucket = &mut self.entries[start..start + BUCKET];
        let slot = match bucket.iter().position(|e| e.check == check && e.visits > 0) {
            Some(i) => i,
            None => {
                // Free first, then left behind by the game, then the least visited.
                let keep_value = |e: &Entry| match e.visits {
                    0 => 0,
                    _ if e.ply < root_ply => 1,
                    visits => 1 + u64::from(visits),
                };
                let i = (0..BUCKET)
                    .min_by_key(|&i| keep_value(&bucket[i]))
                    .unwrap_or(0);
                bucket[i] = Entry {
                    check,
                    ply,
                    visits: 0,
                    half_points: 0,
                };
                i
            }
        };
        bucket[slot].visits += 1;
        bucket[slot].half_points += half_points;
    }

    /// True until [`Self::prepare`] allocates the table: searches given an unprepared table
    /// skip it (the `transpositions` technique switched off).
    #[inline]
    pub fn is_unprepared(&self) -> bool {
        self.entries.is_empty()
    }

    /// Positions held (a full scan: for tests and telemetry, not the search).
    pub fn len(&self) -> usize {
        self.entries.iter().filter(|e| e.visits != 0).count()
    }

    /// True iff no position is held.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board() -> Position {
        Position::new(6, 7, 0, 6).unwrap()
    }

    #[test]
    fn entries_are_a_quarter_of_a_cache_line() {
        assert_eq!(std::mem::size_of::<Entry>(), 16);
    }

    #[test]
    fn adds_and_reads_back_per_position() {
        let mut table = Transpositions::default();
        table.prepare(&board(), 1 << 12);
        let (a, b) = (42 << 32 | 5, 43 << 32 | 5);
        assert_eq!(table.get(a), None);
        table.add(a, 3, 2);
        table.add(a, 3, 1);
        table.add(b, 3, 0);
        assert_eq!(table.get(a), Some((2, 3)));
        assert_eq!(table.get(b), Some((1, 0)));
        assert_eq!(table.len(), 2);
    }

    #[test]
    fn a_full_bucket_evicts_its_least_visited_entry() {
        let mut table = Transpositions::default();
        table.prepare(&board(), 1 << 12);
        // Five keys with the same bucket; key k gets k + 1 visits.
        let keys: Vec<u64> = (1..=5).map(|k| k << 32).collect();
        for (k, &key) in keys[..4].iter().enumerate() {
            for _ in 0..=k {
                table.add(key, 0, 2);
            }
        }
        table.add(keys[4], 0, 1);
        assert_eq!(table.get(keys[0]), None, "the least visited goes");
        assert_eq!(table.get(keys[1]), Some((2, 4)));
        assert_eq!(table.get(keys[4]), Some((1, 1)));
    }

    #[test]
    fn positions_the_game_has_left_behind_go_first() {
        let mut table = Transpositions::default();
        let mut pos = board();
        table.prepare(&pos, 1 << 12);
        let keys: Vec<u64> = (1..=5).map(|k| k << 32).collect();
        // The first key is the root (0 stones) and much visited; the others are deeper.
        for _ in 0..100 {
            table.add(keys[0], 0, 1);
        }
        for &key in &keys[1..4] {
            table.add(key, 1, 1);
        }
        pos.play(3);
        table.prepare(&pos, 1 << 12); // the next move: 0-stone positions are unreachable
        table.add(keys[4], 2, 1);
        assert_eq!(table.get(keys[0]), None);
        assert!(keys[1..].iter().all(|&k| table.get(k).is_some()));
    }

    #[test]
    fn a_new_board_empties_the_table_and_the_same_board_keeps_it() {
        let mut table = Transpositions::default();
        table.prepare(&board(), 1 << 12);
        table.add(7 << 32, 0, 2);
        table.prepare(&board(), 1 << 12);
        assert_eq!(table.get(7 << 32), Some((1, 2)));
        table.prepare(&Position::new(6, 7, 1, 6).unwrap(), 1 << 12);
        assert_eq!(table.get(7 << 32), None);
    }

    #[test]
    fn a_root_with_fewer_stones_starts_a_new_game() {
        let mut table = Transpositions::default();
        let mut pos = board();
        pos.play(3);
        table.prepare(&pos, 1 << 12);
        table.add(7 << 32, 1, 2);
        table.prepare(&board(), 1 << 12);
        assert_eq!(table.get(7 << 32), None);
    }
}
