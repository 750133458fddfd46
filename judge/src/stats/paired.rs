//! Two players compared through a common opponent on the same boards.
//!
//! In a gauntlet every pairing plays the same boards (a board depends only on the seed and
//! its number), so two of the hero's opponents can be compared board by board: on each
//! board both played the hero twice, colours swapped, and the difference of their scores
//! there is one observation. The board's own difficulty (a position won for the first
//! mover, say) cancels out of the difference, which makes this far steadier than comparing
//! their two overall scores. It is how a change is measured against another program rather
//! than in self-play, where gains can owe much to playing a copy of oneself.

use super::math::{Z95, erf};

/// The mean per-game score difference of two players over the boards both completed
/// against one opponent, with its 95% interval and likelihood of superiority.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PairedDifference {
    /// Boards both completed.
    pub boards: u64,
    /// Mean of the per-board differences of their mean game scores, in -1..=1 (0.05: the
    /// first scored five points per hundred games more against the common opponent).
    pub diff: f64,
    /// Half-width of the 95% interval of `diff` (normal approximation, the boards' sample
    /// standard deviation); infinite with fewer than two boards.
    pub margin95: f64,
    /// Probability that the first player's true difference is positive, Φ(diff / SE);
    /// 1 or 0 when every board differs the same way, 0.5 with no difference at all.
    pub los: f64,
}

/// Sums up per-board differences `diffs` (each the first player's mean game score on the
/// board minus the second's, in -1..=1).
pub fn paired_difference(diffs: &[f64]) -> PairedDifference {
    let n = diffs.len();
    if n == 0 {
        return PairedDifference {
            boards: 0,
            diff: 0.0,
            margin95: f64::INFINITY,
            los: 0.5,
        };
    }
    let mean = diffs.iter().sum::<f64>() / n as f64;
    let (margin95, los) = if n < 2 {
        (f64::INFINITY, 0.5)
    } else {
        let var = diffs.iter().map(|d| (d - mean).powi(2)).sum::<f64>() / (n - 1) as f64;
        let se = (var / n as f64).sqrt();
        let los = if se > 0.0 {
            0.5 + 0.5 * erf(mean / (se * std::f64::consts::SQRT_2))
        } else if mean > 0.0 {
            1.0
        } else if mean < 0.0 {
            0.0
        } else {
            0.5
        };
        (Z95 * se, los)
    };
    PairedDifference {
        boards: n as u64,
        diff: mean,
        margin95,
        los,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn four_boards_by_hand() {
        // Mean 0.25; sample variance (0.5625 + 0.0625 + 0.0625 + 0.5625) / 3 = 0.416667,
        // standard error sqrt(0.416667 / 4) = 0.322749; margin 1.959964 * 0.322749 =
        // 0.632576; LOS = Φ(0.25 / 0.322749) = Φ(0.774597) = 0.780711.
        let d = paired_difference(&[1.0, 0.0, 0.5, -0.5]);
        assert_eq!(d.boards, 4);
        assert!((d.diff - 0.25).abs() < 1e-12);
        assert!((d.margin95 - 0.632576).abs() < 1e-6, "{d:?}");
        assert!((d.los - 0.780711).abs() < 1e-6, "{d:?}");
    }

    #[test]
    fn degenerate_cases() {
        let none = paired_difference(&[]);
        assert_eq!((none.boards, none.diff, none.los), (0, 0.0, 0.5));
        assert!(none.margin95.is_infinite());
        let one = paired_difference(&[0.5]);
        assert_eq!((one.diff, one.los), (0.5, 0.5));
        assert!(one.margin95.is_infinite());
        // Every board the same way: no spread, certain direction.
        let same = paired_difference(&[0.5, 0.5, 0.5]);
        assert_eq!((same.margin95, same.los), (0.0, 1.0));
        assert_eq!(paired_difference(&[-1.0, -1.0]).los, 0.0);
        assert_eq!(paired_difference(&[0.0, 0.0]).los, 0.5);
    }

    #[test]
    fn symmetric_in_the_players() {
        let d = [1.0, 0.0, 0.5, -0.5, 0.5];
        let a = paired_difference(&d);
        let b = paired_difference(&d.map(|x| -x));
        assert!((a.diff + b.diff).abs() < 1e-12);
        assert!((a.margin95 - b.margin95).abs() < 1e-12);
        assert!((a.los + b.los - 1.0).abs() < 1e-12);
    }
}
