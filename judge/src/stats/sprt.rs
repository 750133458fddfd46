//! Generalized sequential probability ratio test (GSPRT) on the logistic Elo
//! model, as fishtest's `LLRcalc.LLR_logistic` and fastchess's
//! `SPRT::getLLR_logistic` compute it.

use super::elo::{PAIR_SCORES, pentanomial_counts, trinomial_counts};
use super::math::score_from_elo;
use super::{Penta, Wdl};

/// Elo hypotheses and error rates of an SPRT: H0 is "elo = elo0", H1 is
/// "elo = elo1" (logistic Elo), `alpha` the false-positive and `beta` the
/// false-negative rate.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct SprtParams {
    /// Elo under the null hypothesis.
    pub elo0: f64,
    /// Elo under the alternative hypothesis; must exceed `elo0`.
    pub elo1: f64,
    /// Probability of accepting H1 when H0 holds, in (0, 1).
    pub alpha: f64,
    /// Probability of accepting H0 when H1 holds, in (0, 1).
    pub beta: f64,
}

/// Outcome of an SPRT at the current sample (in summary.json: `H0`, `H1`, `continue`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
pub enum SprtDecision {
    /// The LLR fell to the lower bound: the data favour elo0 over elo1.
    #[serde(rename = "H0")]
    AcceptH0,
    /// The LLR reached the upper bound: the data favour elo1 over elo0.
    #[serde(rename = "H1")]
    AcceptH1,
    /// Neither bound reached; keep playing.
    #[default]
    #[serde(rename = "continue")]
    Continue,
}

impl SprtDecision {
    /// As summary.json and the terminal table write it: `H0`, `H1`, `continue`.
    pub fn as_str(self) -> &'static str {
        match self {
            SprtDecision::AcceptH0 => "H0",
            SprtDecision::AcceptH1 => "H1",
            SprtDecision::Continue => "continue",
        }
    }
}

impl std::fmt::Display for SprtDecision {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl std::fmt::Display for SprtParams {
    /// `elo0=.. elo1=.. alpha=.. beta=..`, as `--sprt` takes it and run.json records it.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "elo0={} elo1={} alpha={} beta={}",
            self.elo0, self.elo1, self.alpha, self.beta
        )
    }
}

/// Log-likelihood ratio of the current sample, the stopping bounds and the
/// resulting decision.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct SprtResult {
    /// Generalized log-likelihood ratio of H1 versus H0.
    pub llr: f64,
    /// ln(beta / (1 - alpha)): accept H0 at or below this.
    pub lower: f64,
    /// ln((1 - beta) / alpha): accept H1 at or above this.
    pub upper: f64,
    /// Decision from comparing `llr` with the bounds.
    pub decision: SprtDecision,
    /// Elo model of elo0/elo1; always `"logistic"`.
    pub model: &'static str,
}

/// Pseudo-count given to empty outcome buckets before the LLR is computed,
/// exactly as fastchess's `regularize` and fishtest's `LLRcalc.regularize`
/// do (1e-3 for each bucket that is 0). It keeps the maximum-likelihood fit
/// defined, and the LLR finite, on tiny or one-sided samples while changing
/// large samples negligibly.
const EMPTY_BUCKET: f64 = 1e-3;

/// Hypothesis scores are kept this far inside (0, 1) so that absurd elo0/elo1
/// (beyond about ±3600 Elo) cannot make the fit divide by zero.
const SCORE_GUARD: f64 = 1e-9;

/// GSPRT on game pairs: the LLR uses the per-pair score distribution
/// (values 0, .25, .5, .75, 1), with N = number of pairs. Empty buckets
/// (including the merged WL+DD one) get a 1e-3 pseudo-count first.
pub fn sprt_pentanomial(p: &Penta, params: &SprtParams) -> SprtResult {
    let llr = llr_logistic(&PAIR_SCORES, pentanomial_counts(p), params);
    decide(llr, params)
}

/// GSPRT on single games: the LLR uses the per-game score distribution
/// (values 0, .5, 1), with N = number of games. Empty buckets get a 1e-3
/// pseudo-count first.
pub fn sprt_trinomial(w: &Wdl, params: &SprtParams) -> SprtResult {
    let llr = llr_logistic(&[0.0, 0.5, 1.0], trinomial_counts(w), params);
    decide(llr, params)
}

/// Turns an LLR into a result. A NaN LLR (only from NaN parameters) yields
/// `Continue` because every comparison with it is false.
fn decide(llr: f64, params: &SprtParams) -> SprtResult {
    let lower = (params.beta / (1.0 - params.alpha)).ln();
    let upper = ((1.0 - params.beta) / params.alpha).ln();
    let decision = if llr >= upper {
        SprtDecision::AcceptH1
    } else if llr <= lower {
        SprtDecision::AcceptH0
    } else {
        SprtDecision::Continue
    };
    SprtResult {
        llr,
        lower,
        upper,
        decision,
        model: "logistic",
    }
}

/// Generalized LLR of "mean score = s1" versus "mean score = s0" with
/// s_i = 1/(1 + 10^(-elo_i/400)).
///
/// Each hypothesis is represented by the distribution closest (maximum
/// likelihood) to the empirical one among those with that mean, and the LLR
/// is N·Σ p̂ᵢ·ln(p1ᵢ/p0ᵢ) (M. Van den Bergh, "Comments on Normalized Elo",
/// proposition 1.1; fishtest `LLR_logistic`). For large N it agrees with the
/// classical approximation N·(s1-s0)(2·mu-s0-s1)/(2·var).
fn llr_logistic<const K: usize>(values: &[f64; K], counts: [f64; K], params: &SprtParams) -> f64 {
    let counts = counts.map(|c| if c == 0.0 { EMPTY_BUCKET } else { c });
    let total: f64 = counts.iter().sum();
    let probs = counts.map(|c| c / total);
    let s0 = score_from_elo(params.elo0).clamp(SCORE_GUARD, 1.0 - SCORE_GUARD);
    let s1 = score_from_elo(params.elo1).clamp(SCORE_GUARD, 1.0 - SCORE_GUARD);
    let p0 = mle_with_mean(values, &probs, s0);
    let p1 = mle_with_mean(values, &probs, s1);
    let per_sample: f64 = (0..K).map(|i| probs[i] * (p1[i].ln() - p0[i].ln())).sum();
    total * per_sample
}

/// The distribution with mean `s` that maximizes the likelihood of the
/// empirical distribution `probs` over outcome `values` (all probs > 0,
/// values sorted, min < s < max): pᵢ = p̂ᵢ / (1 + θ(aᵢ - s)) where θ solves
/// Σ p̂ᵢ(aᵢ - s)/(1 + θ(aᵢ - s)) = 0.
fn mle_with_mean<const K: usize>(values: &[f64; K], probs: &[f64; K], s: f64) -> [f64; K] {
    let g = |theta: f64| -> f64 {
        (0..K)
            .map(|i| probs[i] * (values[i] - s) / (1.0 + theta * (values[i] - s)))
            .sum()
    };
    // θ must keep every 1 + θ(aᵢ - s) positive; g decreases strictly from +∞
    // to -∞ across that open interval, so bisection always brackets the root.
    let mut lo = -1.0 / (values[K - 1] - s);
    let mut hi = -1.0 / (values[0] - s);
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if mid <= lo || mid >= hi {
            break; // interval exhausted at f64 resolution
        }
        if g(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let theta = 0.5 * (lo + hi);
    std::array::from_fn(|i| probs[i] / (1.0 + theta * (values[i] - s)))
}

/// Parses the CLI form `elo0=0 elo1=5 alpha=0.05 beta=0.05`; pairs may be
/// separated by whitespace and/or commas, in any order. All four keys are
/// required, each once. Rejects unknown keys, non-numeric or non-finite
/// values, alpha or beta outside (0, 1), alpha + beta >= 1 (the bounds would
/// cross) and elo0 >= elo1.
pub fn parse_sprt(s: &str) -> Result<SprtParams, String> {
    const KEYS: [&str; 4] = ["elo0", "elo1", "alpha", "beta"];
    let mut values: [Option<f64>; 4] = [None; 4];
    let tokens = s
        .split(|c: char| c == ',' || c.is_whitespace())
        .filter(|t| !t.is_empty());
    for token in tokens {
        let (key, value) = token
            .split_once('=')
            .ok_or_else(|| format!("SPRT: expected key=value, got `{token}`"))?;
        let idx = KEYS.iter().position(|&k| k == key).ok_or_else(|| {
            format!("SPRT: unknown key `{key}` (expected elo0, elo1, alpha, beta)")
        })?;
        if values[idx].is_some() {
            return Err(format!("SPRT: key `{key}` given more than once"));
        }
        let x: f64 = value
            .parse()
            .map_err(|_| format!("SPRT: {key}=`{value}` is not a number"))?;
        if !x.is_finite() {
            return Err(format!("SPRT: {key} must be finite, got `{value}`"));
        }
        values[idx] = Some(x);
    }
    let missing: Vec<&str> = KEYS
        .iter()
        .zip(&values)
        .filter(|(_, v)| v.is_none())
        .map(|(k, _)| *k)
        .collect();
    if !missing.is_empty() {
        return Err(format!(
            "SPRT: missing key(s) {} (expected elo0=.. elo1=.. alpha=.. beta=..)",
            missing.join(", ")
        ));
    }
    let [elo0, elo1, alpha, beta] = values.map(|v| v.unwrap_or_default());
    for (name, x) in [("alpha", alpha), ("beta", beta)] {
        if x <= 0.0 || x >= 1.0 {
            return Err(format!("SPRT: {name} must be in (0, 1), got {x}"));
        }
    }
    if alpha + beta >= 1.0 {
        return Err(format!(
            "SPRT: alpha + beta must be below 1, got {alpha} + {beta}"
        ));
    }
    if elo0 >= elo1 {
        return Err(format!(
            "SPRT: elo0 must be less than elo1, got elo0={elo0} elo1={elo1}"
        ));
    }
    Ok(SprtParams {
        elo0,
        elo1,
        alpha,
        beta,
    })
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

    fn params(elo0: f64, elo1: f64) -> SprtParams {
        SprtParams {
            elo0,
            elo1,
            alpha: 0.05,
            beta: 0.05,
        }
    }

    /// Classical GSPRT approximation N·(s1-s0)(2mu-s0-s1)/(2var), for cross-checks.
    fn llr_approx(values: &[f64], counts: &[f64], p: &SprtParams) -> f64 {
        let (n, mu, var) = super::super::math::mean_var(values, counts);
        let (s0, s1) = (score_from_elo(p.elo0), score_from_elo(p.elo1));
        n * (s1 - s0) * (2.0 * mu - s0 - s1) / (2.0 * var)
    }

    #[test]
    fn bounds_for_five_percent_errors() {
        // ln(0.05/0.95) = -2.944438979166440, ln(0.95/0.05) = +2.944438979166440.
        let r = sprt_trinomial(&Wdl::default(), &params(0.0, 5.0));
        assert!((r.lower + 2.944_438_979_166_44).abs() < 1e-12);
        assert!((r.upper - 2.944_438_979_166_44).abs() < 1e-12);
        assert_eq!(r.model, "logistic");
        // alpha=0.05, beta=0.10: ln(0.1/0.95) = -2.251292, ln(0.9/0.05) = 2.890372.
        let p = SprtParams {
            beta: 0.10,
            ..params(0.0, 5.0)
        };
        let r = sprt_pentanomial(&Penta::default(), &p);
        assert!((r.lower + 2.251_291_798_606_495).abs() < 1e-12);
        assert!((r.upper - 2.890_371_757_896_165).abs() < 1e-12);
    }

    #[test]
    fn lopsided_trinomial_accepts_h1() {
        // W=600 D=200 L=200, [0, 10]: mu = 0.7, var = 0.16, s0 = 0.5,
        // s1 = 0.514387; the classical approximation gives
        // 1000·0.014387·(1.4 - 1.014387)/0.32 = 17.34, but it overshoots when
        // mu lies far outside [s0, s1]; the exact GSPRT value is 13.898.
        let r = sprt_trinomial(&wdl(600, 200, 200), &params(0.0, 10.0));
        assert_eq!(r.decision, SprtDecision::AcceptH1);
        assert!((r.llr - 13.898).abs() < 1e-3, "{r:?}");
    }

    #[test]
    fn even_trinomial_accepts_h0() {
        // W=D=L=10000, [0, 5]: mu = 0.5, var = 1/6, s1 = 0.507195;
        // approx LLR = 30000·0.007195·(1 - 1.007195)/(1/3) = -4.66.
        let r = sprt_trinomial(&wdl(10_000, 10_000, 10_000), &params(0.0, 5.0));
        assert_eq!(r.decision, SprtDecision::AcceptH0);
        assert!((r.llr + 4.66).abs() < 0.02, "{r:?}");
    }

    #[test]
    fn pentanomial_decisions() {
        // [500, 2000, 5000, 2000, 500]: mu = 0.5, var = 0.05 per pair;
        // approx LLR = 10000·0.007195·(-0.007195)/0.1 = -5.18 -> H0.
        let even = sprt_pentanomial(&Penta([500, 2000, 5000, 2000, 500]), &params(0.0, 5.0));
        assert_eq!(even.decision, SprtDecision::AcceptH0);
        assert!((even.llr + 5.18).abs() < 0.05, "{even:?}");
        // 435 pairs scoring mu = 270/435 = 0.6207 against [0, 10]: LLR 8.42.
        let strong = sprt_pentanomial(&Penta([15, 60, 150, 120, 90]), &params(0.0, 10.0));
        assert_eq!(strong.decision, SprtDecision::AcceptH1);
        assert!((strong.llr - 8.417).abs() < 1e-3, "{strong:?}");
        let unsure = sprt_pentanomial(&Penta([5, 10, 20, 10, 5]), &params(0.0, 5.0));
        assert_eq!(unsure.decision, SprtDecision::Continue);
    }

    #[test]
    fn matches_fastchess_published_llr() {
        // fastchess app/tests/sprt_test.cpp, logistic model, alpha = beta = 0.05,
        // expected LLRs rounded to 2 decimals. Its Stats(W, L, D) and
        // Stats(LL, LD, WL, DD, WD, WW) orders are mapped to ours.
        let cases = [
            (
                sprt_trinomial(&wdl(21404, 40708, 21184), &params(0.5, 2.5)),
                -1.57,
            ),
            (
                sprt_trinomial(&wdl(57433, 106593, 57030), &params(0.0, 2.0)),
                -2.59,
            ),
            (
                sprt_pentanomial(
                    &Penta([223, 9863, 20279 + 1000, 10037, 246]),
                    &params(0.5, 2.5),
                ),
                -3.07,
            ),
            (
                sprt_pentanomial(
                    &Penta([871, 26175, 55003 + 980, 26678, 821]),
                    &params(0.0, 2.0),
                ),
                -4.98,
            ),
        ];
        for (r, want) in cases {
            assert!((r.llr - want).abs() < 0.006, "llr {} want {want}", r.llr);
        }
    }

    #[test]
    fn exact_llr_agrees_with_classical_approximation() {
        let w = wdl(1234, 2345, 1111);
        let p = params(0.0, 5.0);
        let exact = sprt_trinomial(&w, &p).llr;
        let approx = llr_approx(&[0.0, 0.5, 1.0], &[1111.0, 2345.0, 1234.0], &p);
        assert!(
            (exact - approx).abs() < 0.01 * approx.abs(),
            "{exact} vs {approx}"
        );
    }

    #[test]
    fn mle_fit_has_requested_mean() {
        let values = [0.0, 0.25, 0.5, 0.75, 1.0];
        let probs = [0.1, 0.2, 0.4, 0.2, 0.1];
        let p = mle_with_mean(&values, &probs, 0.53);
        let total: f64 = p.iter().sum();
        let mean: f64 = values.iter().zip(&p).map(|(a, q)| a * q).sum();
        assert!((total - 1.0).abs() < 1e-12 && (mean - 0.53).abs() < 1e-12);
        // Asking for the empirical mean returns the empirical distribution.
        let same = mle_with_mean(&values, &probs, 0.5);
        for (a, b) in same.iter().zip(&probs) {
            assert!((a - b).abs() < 1e-12);
        }
    }

    #[test]
    fn tiny_samples_stay_finite() {
        // Empty buckets become 1e-3 pseudo-counts, so even 0 or 1 games give a
        // finite LLR close to 0 and no decision.
        let p = params(0.0, 5.0);
        for r in [
            sprt_trinomial(&Wdl::default(), &p),
            sprt_trinomial(&wdl(1, 0, 0), &p),
            sprt_trinomial(&wdl(0, 0, 1), &p),
            sprt_pentanomial(&Penta::default(), &p),
            sprt_pentanomial(&Penta([0, 0, 0, 0, 1]), &p),
        ] {
            assert!(r.llr.is_finite() && r.llr.abs() < 0.1, "{r:?}");
            assert_eq!(r.decision, SprtDecision::Continue);
        }
        // With the pseudo-counts each win adds about ln(s1/s0) = 0.0143 to the
        // LLR, so a pure winning streak accepts H1 after ~206 games.
        let r = sprt_trinomial(&wdl(200, 0, 0), &p);
        assert_eq!(r.decision, SprtDecision::Continue);
        let r = sprt_trinomial(&wdl(250, 0, 0), &p);
        assert!(r.llr.is_finite());
        assert_eq!(r.decision, SprtDecision::AcceptH1);
    }

    #[test]
    fn extreme_hypotheses_do_not_panic() {
        let r = sprt_trinomial(&wdl(3, 2, 1), &params(-5000.0, 5000.0));
        assert!(r.llr.is_finite(), "{r:?}");
    }

    #[test]
    fn parses_cli_forms() {
        let want = SprtParams {
            elo0: 0.0,
            elo1: 5.0,
            alpha: 0.05,
            beta: 0.05,
        };
        assert_eq!(parse_sprt("elo0=0 elo1=5 alpha=0.05 beta=0.05"), Ok(want));
        assert_eq!(parse_sprt("elo0=0,elo1=5,alpha=0.05,beta=0.05"), Ok(want));
        assert_eq!(
            parse_sprt(" beta=0.05, alpha=0.05  elo1=5,elo0=0 "),
            Ok(want)
        );
        let neg = parse_sprt("elo0=-1.75 elo1=0.25 alpha=0.05 beta=0.1").unwrap();
        assert_eq!((neg.elo0, neg.elo1, neg.beta), (-1.75, 0.25, 0.1));
    }

    #[test]
    fn rejects_bad_input_with_clear_errors() {
        let err = |s: &str| parse_sprt(s).unwrap_err();
        assert!(err("elo0=0 elo1=5 alpha=0.05 beta=0.05 gamma=1").contains("unknown key `gamma`"));
        assert!(err("elo0=0 elo1=5 alpha=0.05").contains("missing key(s) beta"));
        assert!(err("").contains("missing key(s) elo0, elo1, alpha, beta"));
        assert!(err("elo0=0 elo1=5 alpha=0 beta=0.05").contains("alpha must be in (0, 1)"));
        assert!(err("elo0=0 elo1=5 alpha=0.05 beta=1").contains("beta must be in (0, 1)"));
        assert!(err("elo0=0 elo1=5 alpha=0.6 beta=0.5").contains("alpha + beta"));
        assert!(err("elo0=5 elo1=5 alpha=0.05 beta=0.05").contains("elo0 must be less than elo1"));
        assert!(err("elo0=x elo1=5 alpha=0.05 beta=0.05").contains("elo0=`x` is not a number"));
        assert!(err("elo0=nan elo1=5 alpha=0.05 beta=0.05").contains("finite"));
        assert!(err("elo0=0 elo0=1 elo1=5 alpha=0.05 beta=0.05").contains("more than once"));
        assert!(err("elo0 = 0 elo1=5 alpha=0.05 beta=0.05").contains("expected key=value"));
    }
}
