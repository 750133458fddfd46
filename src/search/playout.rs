//! Playouts: finish the game from a new leaf, with uniformly random legal moves (the
//! classic profile, and the strong one with tactical playouts off) or with tactics (the
//! strong profile).

use super::learned::Learned;
use super::outcome::Outcome;
use crate::position::{MAX_SIZE, Position};
use crate::threats::ThreatPosition;
use rand::RngCore;
use std::hint::select_unpredictable;

/// Plays uniformly random legal moves on `pos` until someone wins or the board is full.
///
/// The open columns live in a small array that shrinks as columns fill, so every ply is one
/// random number, one table read, one [`Position::play`]: no retries, no allocation.
#[inline]
pub fn random_playout<R: RngCore>(pos: &mut Position, rng: &mut R) -> Outcome {
    let mut open = [0u8; MAX_SIZE];
    let mut len = 0usize;
    let mut mask = pos.open_columns();
    while mask != 0 {
        open[len] = mask.trailing_zeros() as u8;
        len += 1;
        mask &= mask - 1;
    }
    while len > 0 {
        // Multiply-shift maps 32 random bits onto 0..len; the bias (len / 2^32) is far below
        // anything a playout could notice, and it avoids a division per ply.
        let i = ((u64::from(rng.next_u32()) * len as u64) >> 32) as usize;
        let col = open[i] as usize;
        let mover = pos.to_move();
        if pos.play(col) {
            return Outcome::Win(mover);
        }
        if pos.top(col) == 0 {
            len -= 1;
            open[i] = open[len];
        }
    }
    Outcome::Tie
}

/// Finishes the game: win when possible, block when forced, never hand the opponent a win on
/// top unless every move does; otherwise uniformly random, among the moves that keep the
/// mover's own threats when `keep_threats` asks for it and any do. Decided positions end
/// early. `pos` is left at the end of the game, its [`ThreatPosition::key`] not updated
/// by the playout's moves (nothing reads it; the search starts each iteration afresh).
///
/// [`Tactics::candidates`](crate::threats::Tactics::candidates) with the keep-threats rule,
/// written with selects instead of branches: whether a block is forced changes from ply to
/// ply in a way the branch predictor cannot learn.
#[inline]
pub fn tactical_playout<R: RngCore + Clone>(
    pos: &mut ThreatPosition,
    keep_threats: bool,
    rng: &mut R,
) -> Outcome {
    playout_with::<false, R>(pos, keep_threats, None, rng)
}

/// [`tactical_playout`] whose free choices follow the policy learned in `replies`
/// ([`Learned::choose`]: the last good reply to the previous move, or a draw by the adapted
/// policy), and which records every move it plays there.
#[inline]
pub fn tactical_playout_learned<R: RngCore + Clone>(
    pos: &mut ThreatPosition,
    keep_threats: bool,
    replies: &mut Learned,
    rng: &mut R,
) -> Outcome {
    playout_with::<true, R>(pos, keep_threats, Some(replies), rng)
}

/// The tactical playout, with (`REPLIES`) or without the reply table: one body, so the
/// default's loop compiles without the table's look-ups.
///
/// Without the table it draws from a copy of `rng`, put back at the end: the same
/// numbers, but the generator's state stays in registers through the playout instead of
/// being written back through the reference at every draw (4 instructions a ply less
/// under callgrind; with the table, whose draws need the registers, 7 more, so that one
/// keeps the reference).
#[inline(always)]
fn playout_with<const REPLIES: bool, R: RngCore + Clone>(
    pos: &mut ThreatPosition,
    keep_threats: bool,
    replies: Option<&mut Learned>,
    rng: &mut R,
) -> Outcome {
    if REPLIES {
        return playout_loop::<REPLIES, R>(pos, keep_threats, replies, rng);
    }
    let mut local = rng.clone();
    let outcome = playout_loop::<REPLIES, R>(pos, keep_threats, replies, &mut local);
    *rng = local;
    outcome
}

/// [`playout_with`]'s moves, drawing from `rng`.
#[inline(always)]
fn playout_loop<const REPLIES: bool, R: RngCore>(
    pos: &mut ThreatPosition,
    keep_threats: bool,
    mut replies: Option<&mut Learned>,
    rng: &mut R,
) -> Outcome {
    loop {
        let to_move = pos.position().to_move();
        let tactics = pos.tactics();
        if tactics.open == 0 {
            return Outcome::Tie;
        }
        if tactics.wins != 0 {
            return Outcome::Win(to_move);
        }
        let must_block = tactics.must_block;
        if must_block & must_block.wrapping_sub(1) != 0 {
            // Two threats to block.
            return Outcome::Win(to_move.other());
        }
        let forced = must_block != 0;
        let mut candidates =
            select_unpredictable(forced, must_block, tactics.open) & !tactics.unsafe_moves;
        if candidates == 0 {
            // The block, or every move, lets the opponent win on top.
            return Outcome::Win(to_move.other());
        }
        if keep_threats {
            let spoils = select_unpredictable(forced, 0, tactics.spoils_own_threat);
            let keeping = candidates & !spoils;
            candidates = select_unpredictable(keeping != 0, keeping, candidates);
        }
        let col = match replies.as_deref_mut() {
            Some(replies) if REPLIES => {
                let chance = |rng: &mut R| random_bit(candidates, rng);
                replies.choose(to_move, candidates, pos.position(), rng, chance)
            }
            _ => random_bit(candidates, rng),
        };
        if pos.play_without_key(col) {
            return Outcome::Win(to_move);
        }
    }
}

/// A uniformly random set bit of the non-zero `mask`: the `k`-th lowest, `k` drawn by
/// multiply-shift onto `0..n` as in the plain playout.
///
/// Without branches: clearing the low bits one at a time costs a loop whose exit the
/// branch predictor misses about once a ply. The byte holding the `k`-th bit is chosen by
/// comparing `k` with the low byte's count, and a table answers within the byte.
#[inline(always)]
fn random_bit<R: RngCore>(mask: u16, rng: &mut R) -> usize {
    let (lo, hi) = (usize::from(mask as u8), usize::from(mask >> 8));
    let lo_count = u32::from(BYTE_BITS[lo].0);
    let n = lo_count + u32::from(BYTE_BITS[hi].0);
    let k = ((u64::from(rng.next_u32()) * u64::from(n)) >> 32) as u32;
    let in_hi = k >= lo_count;
    let byte = select_unpredictable(in_hi, hi, lo);
    let k = select_unpredictable(in_hi, k.wrapping_sub(lo_count), k);
    usize::from(BYTE_BITS[byte].1[(k & 7) as usize]) + 8 * usize::from(in_hi)
}

/// For each byte value: its number of set bits, and the position of its `k`-th lowest set
/// bit at index `k`.
static BYTE_BITS: [(u8, [u8; 8]); 256] = {
    let mut table = [(0u8, [0u8; 8]); 256];
    let mut byte = 0;
    while byte < 256 {
        let mut count = 0;
        let mut bit = 0;
        while bit < 8 {
            if byte & (1 << bit) != 0 {
                table[byte].1[count] = bit as u8;
                count += 1;
            }
            bit += 1;
        }
        table[byte].0 = count as u8;
        byte += 1;
    }
    table
};

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand::rngs::SmallRng;

    #[test]
    fn playouts_end_in_a_win_or_a_full_board() {
        let mut rng = SmallRng::seed_from_u64(7);
        for seed in 0..200u64 {
            let rows = 4 + (seed % 9) as usize;
            let cols = 4 + (seed / 9 % 9) as usize;
            let root =
                Position::new(rows, cols, seed as usize % rows, seed as usize % cols).unwrap();
            let mut pos = root.clone();
            match random_playout(&mut pos, &mut rng) {
                Outcome::Tie => assert_eq!(pos.empty_cells(), 0),
                Outcome::Win(side) => assert_eq!(pos.to_move(), side.other()),
            }
        }
    }

    #[test]
    fn random_bit_hits_every_set_bit() {
        let mut rng = SmallRng::seed_from_u64(1);
        let mut seen = 0u16;
        for _ in 0..1000 {
            let b = random_bit(0b1010_0110, &mut rng);
            seen |= 1 << b;
        }
        assert_eq!(seen, 0b1010_0110);
    }

    /// The table lookup picks the same bit as clearing the `k` lowest set bits one by one
    /// (the earlier code), for every mask and every draw that matters.
    #[test]
    fn random_bit_is_the_kth_set_bit() {
        struct Fixed(u32);
        impl RngCore for Fixed {
            fn next_u32(&mut self) -> u32 {
                self.0
            }
            fn next_u64(&mut self) -> u64 {
                u64::from(self.0)
            }
            fn fill_bytes(&mut self, _: &mut [u8]) {
                unimplemented!()
            }
        }
        for mask in 1..=u16::MAX {
            let n = mask.count_ones();
            for k in 0..n {
                // The smallest draw that multiply-shift maps onto k.
                let draw = ((u64::from(k) << 32).div_ceil(u64::from(n))) as u32;
                let mut m = mask;
                for _ in 0..k {
                    m &= m - 1;
                }
                let expected = m.trailing_zeros() as usize;
                assert_eq!(
                    random_bit(mask, &mut Fixed(draw)),
                    expected,
                    "{mask:#x} {k}"
                );
            }
        }
    }
}
