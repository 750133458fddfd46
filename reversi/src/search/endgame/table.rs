//! The solver's transposition table: bounds on exact scores and the best move, two slots per
//! bucket, the deeper result kept.
//!
//! Only nodes with many empties are stored (the solver decides which): near the end a search
//! costs less than a memory access, and far from it one saved subtree pays for many probes.

use super::slot;

/// One slot: the position (own, opp, the house rule's square code) and bounds on its score.
#[derive(Clone, Copy, Default)]
pub(super) struct Entry {
    own: u64,
    opp: u64,
    last: u8,
    /// Empties of the stored position: the size of the subtree the bounds cost, for replacement.
    empties: u8,
    /// The score is at least this.
    pub lower: i8,
    /// The score is at most this.
    pub upper: i8,
    /// The best (or refuting) move's square.
    pub best: u8,
}

/// A table of `2^bits` slots, in buckets of two.
pub(super) struct Table {
    slots: Vec<Entry>,
    bits: u32,
}

impl Table {
    /// An empty table of `2^bits` slots (`bits` >= 1).
    pub fn new(bits: u32) -> Table {
        Table {
            slots: vec![Entry::default(); 1 << bits],
            bits,
        }
    }

    /// Forgets every entry (a new rule set or scoring changes every value).
    pub fn clear(&mut self) {
        self.slots.fill(Entry::default());
    }

    /// The first of the two slots of a position's bucket.
    fn bucket(&self, own: u64, opp: u64, last: u8) -> usize {
        slot(own, opp, last, self.bits) & !1
    }

    /// The entry of the position, if stored.
    #[inline]
    pub fn probe(&self, own: u64, opp: u64, last: u8) -> Option<Entry> {
        let b = self.bucket(own, opp, last);
        self.slots[b..b + 2]
            .iter()
            .find(|e| e.own == own && e.opp == opp && e.last == last)
            .copied()
    }

    /// Stores the result of a search of the position with `empties` empties in the window
    /// (`alpha`, `beta`): `score` is exact inside it, a bound outside. Replaces the position's
    /// own slot, else the slot holding the smaller subtree.
    #[allow(clippy::too_many_arguments)]
    pub fn store(
        &mut self,
        (own, opp, last): (u64, u64, u8),
        empties: u32,
        alpha: i32,
        beta: i32,
        score: i32,
        best: u8,
    ) {
        let (lower, upper) = if score >= beta {
            (score, 64)
        } else if score <= alpha {
            (-64, score)
        } else {
            (score, score)
        };
        let b = self.bucket(own, opp, last);
        let at =
            if self.slots[b].own == own && self.slots[b].opp == opp && self.slots[b].last == last {
                b
            } else if self.slots[b + 1].own == own
                && self.slots[b + 1].opp == opp
                && self.slots[b + 1].last == last
            {
                b + 1
            } else if self.slots[b].empties <= self.slots[b + 1].empties {
                b
            } else {
                b + 1
            };
        self.slots[at] = Entry {
            own,
            opp,
            last,
            empties: empties as u8,
            lower: lower as i8,
            upper: upper as i8,
            best,
        };
    }
}
