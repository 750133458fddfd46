//! Match statistics for the judge: logistic Elo with 95% intervals from
//! single games (trinomial W/D/L) or colour-swapped game pairs (pentanomial),
//! normalized Elo, likelihood of superiority, the GSPRT that stops a
//! match once it is conclusive, and two players' paired difference through a
//! common opponent on the same boards.
//!
//! The formulas follow the computer-chess tournament tools so that numbers
//! are comparable with theirs: fastchess (`matchmaking/elo`,
//! `matchmaking/sprt`), fishtest (`stat_util.py`, `LLRcalc.py`) and the
//! Cute Chess / Bayeselo LOS. Nothing here panics or returns NaN for
//! well-formed counts; the degenerate cases (no games, 0% or 100% score) are
//! documented on each function.

mod elo;
mod los;
mod math;
mod paired;
mod sprt;

pub use elo::{
    normalized_elo_pentanomial, normalized_elo_trinomial, pentanomial_elo, trinomial_elo,
};
pub use los::los;
pub use paired::{PairedDifference, paired_difference};
pub use sprt::{
    SprtDecision, SprtParams, SprtResult, parse_sprt, sprt_pentanomial, sprt_trinomial,
};

/// Win/draw/loss counts from one player's point of view.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Wdl {
    /// Games won.
    pub wins: u64,
    /// Games drawn.
    pub draws: u64,
    /// Games lost.
    pub losses: u64,
}

impl Wdl {
    /// Number of games played (saturating, so absurd counts cannot panic).
    pub fn games(&self) -> u64 {
        self.wins
            .saturating_add(self.draws)
            .saturating_add(self.losses)
    }

    /// Fraction of available points scored, (W + D/2)/N in 0..=1;
    /// 0.5 when no games were played (no evidence either way).
    pub fn score(&self) -> f64 {
        let n = self.wins as f64 + self.draws as f64 + self.losses as f64;
        if n == 0.0 {
            return 0.5;
        }
        (self.wins as f64 + 0.5 * self.draws as f64) / n
    }
}

/// Pentanomial counts of game pairs (same board, colours swapped): index k
/// counts pairs whose total score out of 2 was k/2, i.e. [0, 0.5, 1, 1.5, 2]
/// (LL, LD, DD or WL, WD, WW).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Penta(pub [u64; 5]);

impl Penta {
    /// Number of complete pairs (saturating, so absurd counts cannot panic).
    pub fn pairs(&self) -> u64 {
        self.0.iter().fold(0u64, |acc, &c| acc.saturating_add(c))
    }

    /// Fraction of available points scored over all pairs, Σ k/4·count_k /
    /// pairs in 0..=1; 0.5 when there are no pairs.
    pub fn score(&self) -> f64 {
        let n: f64 = self.0.iter().map(|&c| c as f64).sum();
        if n == 0.0 {
            return 0.5;
        }
        let points: f64 = self
            .0
            .iter()
            .enumerate()
            .map(|(k, &c)| k as f64 * 0.25 * c as f64)
            .sum();
        points / n
    }
}

/// An Elo estimate with the half-width of its 95% confidence interval.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Estimate {
    /// Point estimate (may be ±∞ for a 0% or 100% score).
    pub elo: f64,
    /// Half-width of the 95% interval, elo ± margin95 (∞ when undetermined).
    pub margin95: f64,
}

impl Estimate {
    /// The estimate of an empty sample: no difference, unbounded uncertainty.
    const UNKNOWN: Estimate = Estimate {
        elo: 0.0,
        margin95: f64::INFINITY,
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wdl_games_and_score() {
        let w = Wdl {
            wins: 60,
            draws: 20,
            losses: 20,
        };
        assert_eq!(w.games(), 100);
        // (60 + 20/2)/100 = 0.7
        assert_eq!(w.score(), 0.7);
        assert_eq!(Wdl::default().games(), 0);
        assert_eq!(Wdl::default().score(), 0.5);
        let huge = Wdl {
            wins: u64::MAX,
            draws: 1,
            losses: 1,
        };
        assert_eq!(huge.games(), u64::MAX);
    }

    #[test]
    fn penta_pairs_and_score() {
        let p = Penta([1, 2, 3, 2, 2]);
        assert_eq!(p.pairs(), 10);
        // (0·1 + .25·2 + .5·3 + .75·2 + 1·2)/10 = 5.5/10
        assert!((p.score() - 0.55).abs() < 1e-15);
        assert_eq!(Penta::default().pairs(), 0);
        assert_eq!(Penta::default().score(), 0.5);
        assert_eq!(Penta([0, 0, 0, 0, 3]).score(), 1.0);
    }
}
