//! Logistic and normalized Elo estimates with 95% confidence intervals,
//! computed as fastchess does (`matchmaking/elo/elo_wdl.cpp`,
//! `elo_pentanomial.cpp`): the sample mean score and its normal-approximation
//! interval mu ± 1.96·√(var/N), mapped through the Elo formula.

use super::math::{NELO_SCALE, Z95, elo_from_score, mean_var};
use super::{Estimate, Penta, Wdl};

/// Outcome values of one game, in the order of `trinomial_counts`.
const GAME_SCORES: [f64; 3] = [0.0, 0.5, 1.0];
/// Per-pair score (pair total / 2), index-aligned with `Penta`.
pub(super) const PAIR_SCORES: [f64; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];

/// Counts as f64 in `GAME_SCORES` order (loss, draw, win).
pub(super) fn trinomial_counts(w: &Wdl) -> [f64; 3] {
    [w.losses as f64, w.draws as f64, w.wins as f64]
}

/// Counts as f64 in `PAIR_SCORES` order.
pub(super) fn pentanomial_counts(p: &Penta) -> [f64; 5] {
    p.0.map(|c| c as f64)
}

/// Logistic Elo of `n` samples with mean score `mu` and per-sample variance
/// `var`. Returns `{0, ∞}` without samples and `{±∞, ∞}` for a 0% or 100%
/// score, where the interval degenerates.
fn logistic(n: f64, mu: f64, var: f64) -> Estimate {
    if n == 0.0 {
        return Estimate::UNKNOWN;
    }
    if mu <= 0.0 || mu >= 1.0 {
        return Estimate {
            elo: elo_from_score(mu),
            margin95: f64::INFINITY,
        };
    }
    let se = (var / n).sqrt();
    // A bound outside (0, 1) maps to ±∞, making the margin ∞ rather than NaN.
    let hi = elo_from_score(mu + Z95 * se);
    let lo = elo_from_score(mu - Z95 * se);
    Estimate {
        elo: elo_from_score(mu),
        margin95: (hi - lo) / 2.0,
    }
}

/// Normalized Elo C·(mu - 0.5)/σ_game with C = 800/ln 10, for `n` samples
/// whose per-game standard deviation is `sigma_game` and which are worth
/// `games_per_sample` independent games each (1 per game, 2 per pair).
///
/// The margin is (nElo(mu + z·se) - nElo(mu - z·se))/2 with σ held fixed,
/// which simplifies to C·z/√(n·games_per_sample): it does not depend on σ.
/// With σ = 0 (every sample identical) nElo is 0 when mu = 0.5 and ±∞
/// (margin ∞) otherwise.
fn normalized(n: f64, mu: f64, sigma_game: f64, games_per_sample: f64) -> Estimate {
    if n == 0.0 {
        return Estimate::UNKNOWN;
    }
    let margin95 = NELO_SCALE * Z95 / (n * games_per_sample).sqrt();
    if sigma_game == 0.0 {
        return if mu == 0.5 {
            Estimate { elo: 0.0, margin95 }
        } else {
            Estimate {
                elo: f64::INFINITY.copysign(mu - 0.5),
                margin95: f64::INFINITY,
            }
        };
    }
    Estimate {
        elo: NELO_SCALE * (mu - 0.5) / sigma_game,
        margin95,
    }
}

/// Logistic Elo from per-game results: mean score mu = (W + D/2)/N, per-game
/// variance σ² = (W(1-mu)² + D(0.5-mu)² + L·mu²)/N, 95% interval
/// mu ± 1.959964·√(σ²/N) mapped through -400·log10(1/s - 1).
///
/// Edge cases: no games gives `{elo: 0, margin95: ∞}`; a 0% or 100% score
/// gives `elo = ∓∞/±∞` with `margin95 = ∞` (no clamping or prior, so the
/// point estimate is never an invented number); an interval bound that
/// leaves (0, 1) also makes the margin ∞.
pub fn trinomial_elo(w: &Wdl) -> Estimate {
    let (n, mu, var) = mean_var(&GAME_SCORES, &trinomial_counts(w));
    logistic(n, mu, var)
}

/// Logistic Elo from colour-swapped game pairs: per-pair scores
/// 0, .25, .5, .75, 1, their mean and variance over pairs, se = √(var/pairs),
/// then the same interval and edge cases as [`trinomial_elo`]. Pairs capture
/// the correlation between the two games on one board, so the interval is
/// usually narrower than the trinomial one on the same games.
pub fn pentanomial_elo(p: &Penta) -> Estimate {
    let (n, mu, var) = mean_var(&PAIR_SCORES, &pentanomial_counts(p));
    logistic(n, mu, var)
}

/// Normalized Elo from per-game results, as fastchess (`EloWDL`) and fishtest
/// (`stat_util`) define it: nElo = (mu - 0.5)/σ · 800/ln 10 with σ the
/// per-game standard deviation; margin 800/ln 10 · 1.959964/√N.
/// Edge cases as in [`trinomial_elo`], except that an all-draw sample gives
/// nElo 0 with the finite margin above.
pub fn normalized_elo_trinomial(w: &Wdl) -> Estimate {
    let (n, mu, var) = mean_var(&GAME_SCORES, &trinomial_counts(w));
    normalized(n, mu, var.sqrt(), 1.0)
}

/// Normalized Elo from game pairs, as fastchess (`EloPentanomial`) and
/// fishtest define it: nElo = (mu - 0.5)/(√2·σ_pair) · 800/ln 10, where
/// √2·σ_pair is the per-game standard deviation implied by the per-pair one
/// (a pair score is the mean of two games). Margin 800/ln 10 · 1.959964/√(2·pairs).
/// Edge cases as in [`normalized_elo_trinomial`].
pub fn normalized_elo_pentanomial(p: &Penta) -> Estimate {
    let (n, mu, var) = mean_var(&PAIR_SCORES, &pentanomial_counts(p));
    normalized(n, mu, (2.0 * var).sqrt(), 2.0)
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

    fn close(got: Estimate, elo: f64, margin: f64, tol: f64) {
        assert!(
            (got.elo - elo).abs() < tol && (got.margin95 - margin).abs() < tol,
            "got {got:?}, want {elo} ± {margin}"
        );
    }

    #[test]
    fn trinomial_sixty_percent_wins() {
        // W=60 D=20 L=20: mu = 0.7, var = 0.16, se = √(0.16/100) = 0.04.
        // elo(0.7) = 147.1907; bounds 0.7 ± 1.959964·0.04 = 0.7783985 / 0.6216015
        // -> elo 218.2518 / 86.2250, margin (218.2518 - 86.2250)/2 = 66.0134.
        close(
            trinomial_elo(&wdl(60, 20, 20)),
            147.190_714_117_837_76,
            66.013_381_220_385_28,
            1e-9,
        );
    }

    #[test]
    fn normalized_trinomial_sixty_percent_wins() {
        // (0.7 - 0.5)/√0.16 · 800/ln10 = 0.5 · 347.4356 = 173.7178;
        // margin 347.4356 · 1.959964/√100 = 68.0961.
        close(
            normalized_elo_trinomial(&wdl(60, 20, 20)),
            173.717_792_761_300_7,
            68.096_123_457_188_47,
            1e-9,
        );
    }

    #[test]
    fn symmetric_results_are_zero() {
        let w = wdl(30, 40, 30);
        let e = trinomial_elo(&w);
        assert!(e.elo == 0.0 && e.elo.is_sign_positive(), "{e:?}");
        // var = 60·0.25/100 = 0.15, se = 0.038730; bounds 0.5 ± 0.075910
        // -> elo(0.575910) = 400·log10(0.575910/0.424090) = 53.158, and
        // symmetrically -53.158 below, so the margin is 53.158.
        assert!((e.margin95 - 53.158).abs() < 1e-3, "{e:?}");
        assert_eq!(normalized_elo_trinomial(&w).elo, 0.0);
        let p = Penta([3, 5, 10, 5, 3]);
        assert_eq!(pentanomial_elo(&p).elo, 0.0);
        assert_eq!(normalized_elo_pentanomial(&p).elo, 0.0);
    }

    #[test]
    fn pentanomial_all_even_pairs() {
        // Ten pairs all scoring 1/2: mu = 0.5 and var = 0, so the logistic
        // interval collapses to 0 ± 0 (fastchess gives the same).
        let p = Penta([0, 0, 10, 0, 0]);
        close(pentanomial_elo(&p), 0.0, 0.0, 1e-12);
        // Normalized: 0, margin 347.4356 · 1.959964/√(2·10) = 152.2676.
        close(
            normalized_elo_pentanomial(&p),
            0.0,
            152.267_561_054_491_4,
            1e-9,
        );
    }

    #[test]
    fn pentanomial_mixed_pairs() {
        // [1,2,3,2,2]: 10 pairs, mu = (0·1 + .25·2 + .5·3 + .75·2 + 1·2)/10 = 0.55,
        // var = (1·.3025 + 2·.09 + 3·.0025 + 2·.04 + 2·.2025)/10 = 0.0975,
        // elo(0.55) = 34.8601; se = √(0.0975/10) = 0.098742,
        // bounds 0.55 ± 0.193531 -> elo 202.55 / -59.97, margin 143.7623.
        let p = Penta([1, 2, 3, 2, 2]);
        close(
            pentanomial_elo(&p),
            34.860_070_287_560_08,
            143.762_328_581_899_54,
            1e-9,
        );
        // nElo = 0.05/√(2·0.0975) · 347.4356 = 39.3393, margin 152.2676.
        close(
            normalized_elo_pentanomial(&p),
            39.339_333_433_182_254,
            152.267_561_054_491_4,
            1e-9,
        );
    }

    #[test]
    fn matches_fastchess_published_trinomial() {
        // fastchess app/tests/elo_test.cpp (values rounded to 2 decimals).
        close(
            normalized_elo_trinomial(&wdl(76, 123, 89)),
            -20.76,
            40.13,
            0.006,
        );
        close(
            normalized_elo_trinomial(&wdl(136, 111, 96)),
            49.77,
            36.77,
            0.006,
        );
        close(trinomial_elo(&wdl(136, 111, 96)), 40.70, 30.43, 0.006);
        close(
            normalized_elo_trinomial(&wdl(34, 0, 356)),
            -508.44,
            34.48,
            0.006,
        );
    }

    #[test]
    fn matches_fastchess_published_pentanomial() {
        // fastchess app/tests/elo_test.cpp; its Stats(LL, LD, WL, DD, WD, WW)
        // maps to Penta([LL, LD, WL + DD, WD, WW]).
        let p = Penta([34, 54, 31 + 32, 64, 75]);
        close(normalized_elo_pentanomial(&p), 57.94, 28.28, 0.006);
        close(pentanomial_elo(&p), 55.58, 27.65, 0.006);
        let p = Penta([332, 433, 457 + 41, 333, 334]);
        close(normalized_elo_pentanomial(&p), -9.17, 10.96, 0.006);
        close(pentanomial_elo(&p), -8.64, 10.33, 0.006);
        let p = Penta([7895, 8757, 5485 + 200, 568, 9999]);
        close(normalized_elo_pentanomial(&p), -19.01, 2.65, 0.006);
        close(pentanomial_elo(&p), -21.04, 2.95, 0.006);
    }

    #[test]
    fn pairs_are_tighter_than_games_when_correlated() {
        // Mostly WL/DD pairs (colour advantage cancels out): the same 200 games
        // seen as 100 pairs give a much narrower interval.
        let games = wdl(70, 20, 70);
        let pairs = Penta([5, 5, 80, 5, 5]);
        assert!(pentanomial_elo(&pairs).margin95 < trinomial_elo(&games).margin95);
    }

    #[test]
    fn empty_sample_is_zero_with_infinite_margin() {
        let e = Estimate {
            elo: 0.0,
            margin95: f64::INFINITY,
        };
        assert_eq!(trinomial_elo(&Wdl::default()), e);
        assert_eq!(pentanomial_elo(&Penta::default()), e);
        assert_eq!(normalized_elo_trinomial(&Wdl::default()), e);
        assert_eq!(normalized_elo_pentanomial(&Penta::default()), e);
    }

    #[test]
    fn perfect_scores_are_infinite_not_nan() {
        let inf = f64::INFINITY;
        let win = Estimate {
            elo: inf,
            margin95: inf,
        };
        let loss = Estimate {
            elo: -inf,
            margin95: inf,
        };
        assert_eq!(trinomial_elo(&wdl(10, 0, 0)), win);
        assert_eq!(trinomial_elo(&wdl(0, 0, 10)), loss);
        assert_eq!(pentanomial_elo(&Penta([0, 0, 0, 0, 5])), win);
        assert_eq!(pentanomial_elo(&Penta([5, 0, 0, 0, 0])), loss);
        assert_eq!(normalized_elo_trinomial(&wdl(10, 0, 0)), win);
        assert_eq!(normalized_elo_pentanomial(&Penta([5, 0, 0, 0, 0])), loss);
        // Zero variance away from 0.5: every pair was LD.
        assert_eq!(normalized_elo_pentanomial(&Penta([0, 4, 0, 0, 0])), loss);
    }

    #[test]
    fn interval_past_full_score_gives_infinite_margin() {
        // W=9 D=1: mu = 0.95, var = (9·.0025 + 1·.2025)/10 = 0.0225,
        // se = 0.047434, mu + 1.96·se = 1.043 > 1 -> upper bound +∞.
        let e = trinomial_elo(&wdl(9, 1, 0));
        // elo(0.95) = -400·log10(0.05/0.95) = 511.5014.
        assert!((e.elo - 511.501_4).abs() < 1e-3, "{e:?}");
        assert_eq!(e.margin95, f64::INFINITY);
    }
}
