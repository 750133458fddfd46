//! Likelihood of superiority.

use super::Wdl;
use super::math::erf;

/// Likelihood of superiority (0..1) from the trinomial counts: the
/// probability that the player is truly stronger, given that draws carry no
/// information, 0.5 + 0.5·erf((W - L) / √(2(W + L))) (the Cute Chess / Bayeselo
/// formula). Defined as 0.5 when there are no decisive games.
pub fn los(w: &Wdl) -> f64 {
    let decisive = w.wins as f64 + w.losses as f64;
    if decisive == 0.0 {
        return 0.5;
    }
    let diff = w.wins as f64 - w.losses as f64;
    0.5 + 0.5 * erf(diff / (2.0 * decisive).sqrt())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn wdl(wins: u64, draws: u64, losses: u64) -> Wdl {
        Wdl {
            wins,
            draws,
            losses,
        }
    }

    #[test]
    fn even_or_undecided_is_one_half() {
        assert_eq!(los(&wdl(7, 3, 7)), 0.5);
        assert_eq!(los(&wdl(0, 12, 0)), 0.5);
        assert_eq!(los(&Wdl::default()), 0.5);
    }

    #[test]
    fn ten_wins_five_losses() {
        // (W-L)/√(2(W+L)) = 5/√30 = 0.912870929; erf(0.912870929) = 0.803294398,
        // so LOS = 0.5 + 0.5·0.803294398 = 0.901647199.
        let got = los(&wdl(10, 4, 5));
        assert!((got - 0.901_647_198_770_526_6).abs() < 1e-12, "{got}");
        // Swapping sides mirrors the probability.
        assert!((los(&wdl(5, 4, 10)) - (1.0 - got)).abs() < 1e-15);
    }

    #[test]
    fn overwhelming_result_saturates_without_nan() {
        assert_eq!(los(&wdl(1000, 0, 0)), 1.0);
        assert_eq!(los(&wdl(0, 0, 1000)), 0.0);
        assert_eq!(los(&wdl(u64::MAX, u64::MAX, 0)), 1.0);
    }
}
