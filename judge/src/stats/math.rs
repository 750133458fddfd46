//! Numeric helpers shared by the Elo, LOS and SPRT code: the error function,
//! the logistic Elo <-> expected-score mapping and the 95% normal quantile.

use std::f64::consts::{FRAC_2_SQRT_PI, LN_10};

/// Two-sided 95% quantile of the standard normal distribution, Φ⁻¹(0.975)
/// (the `CI95ZSCORE` of fastchess).
pub(super) const Z95: f64 = 1.959_963_984_540_054;

/// Scale from a standardized score difference t = (mu - 0.5) / sigma to
/// normalized Elo: 800 / ln 10 ≈ 347.43 (fishtest's `nelo_divided_by_nt`).
pub(super) const NELO_SCALE: f64 = 800.0 / LN_10;

/// Error function, absolute error ≲ 1e-14 on the whole real line.
///
/// Uses the series erf(x) = 2/√π · e^{-x²} · Σ_{n≥0} 2ⁿ x^{2n+1} / (1·3·…·(2n+1)).
/// Unlike the Maclaurin series its terms are all positive, so nothing cancels
/// even where erf(x) ≈ 1. For |x| ≥ 6, 1 - erf(x) < 2.2e-17 is below the
/// resolution of an f64 near 1, so ±1 is exact to rounding.
pub(super) fn erf(x: f64) -> f64 {
    if x.is_nan() {
        return f64::NAN;
    }
    if x < 0.0 {
        return -erf(-x);
    }
    if x >= 6.0 {
        return 1.0;
    }
    let x2 = x * x;
    let mut term = x;
    let mut sum = x;
    // At x < 6 the terms peak near n ≈ x² = 36 and then shrink geometrically,
    // so a few hundred iterations is a generous cap.
    for n in 1..500 {
        term *= 2.0 * x2 / (2 * n + 1) as f64;
        sum += term;
        if term <= sum * 1e-17 {
            break;
        }
    }
    FRAC_2_SQRT_PI * (-x2).exp() * sum
}

/// Logistic Elo difference for an expected score `s`: -400·log10(1/s - 1),
/// computed as 400·log10(s/(1-s)) so that s = 0.5 gives +0.0, not -0.0
/// (which would print as "-0.00").
///
/// Saturates to ±∞ outside the open interval (0, 1) instead of producing NaN,
/// because confidence bounds computed as mu ± z·se can leave that interval.
pub(super) fn elo_from_score(s: f64) -> f64 {
    if s <= 0.0 {
        f64::NEG_INFINITY
    } else if s >= 1.0 {
        f64::INFINITY
    } else {
        400.0 * (s / (1.0 - s)).log10()
    }
}

/// Expected score for a logistic Elo difference: 1 / (1 + 10^(-elo/400)).
pub(super) fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// Mean and population variance of a discrete score distribution given as
/// outcome values and their (possibly fractional) counts. Returns
/// `(total count, mean, variance)`; mean and variance are 0 when empty.
pub(super) fn mean_var(values: &[f64], counts: &[f64]) -> (f64, f64, f64) {
    let n: f64 = counts.iter().sum();
    if n <= 0.0 {
        return (0.0, 0.0, 0.0);
    }
    let mu = values.iter().zip(counts).map(|(a, c)| a * c).sum::<f64>() / n;
    let var = values
        .iter()
        .zip(counts)
        .map(|(a, c)| c * (a - mu) * (a - mu))
        .sum::<f64>()
        / n;
    (n, mu, var)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn erf_matches_reference_values() {
        // Reference values of erf to 16 digits (e.g. C99 erf / mpmath).
        let cases = [
            (0.0, 0.0),
            (0.1, 0.1124629160182849),
            (0.5, 0.5204998778130465),
            (1.0, 0.8427007929497149),
            (2.0, 0.9953222650189527),
            (3.0, 0.9999779095030014),
            (4.5, 0.9999999998033839),
        ];
        for (x, want) in cases {
            let got = erf(x);
            assert!((got - want).abs() < 1e-13, "erf({x}) = {got}, want {want}");
        }
    }

    #[test]
    fn erf_is_odd_and_saturates() {
        for x in [0.05, 0.5, 1.0, 2.5, 5.9] {
            assert_eq!(erf(-x), -erf(x));
        }
        assert_eq!(erf(6.0), 1.0);
        assert_eq!(erf(-40.0), -1.0);
        assert_eq!(erf(f64::INFINITY), 1.0);
        assert!(erf(f64::NAN).is_nan());
        // Just below the cut-off the series must already be ~1, with no jump.
        assert!((erf(5.999) - 1.0).abs() < 1e-15);
    }

    #[test]
    fn elo_score_mapping() {
        // elo(0.7) = -400·log10(0.3/0.7) = 400·0.367976785 = 147.1907141.
        assert!((elo_from_score(0.7) - 147.190_714_117_837_76).abs() < 1e-9);
        assert!(elo_from_score(0.5) == 0.0 && elo_from_score(0.5).is_sign_positive());
        assert_eq!(elo_from_score(0.0), f64::NEG_INFINITY);
        assert_eq!(elo_from_score(1.2), f64::INFINITY);
        for s in [0.01, 0.3, 0.5, 0.9] {
            assert!((score_from_elo(elo_from_score(s)) - s).abs() < 1e-12);
        }
        // +400 Elo means 10:1 odds: s = 10/11.
        assert!((score_from_elo(400.0) - 10.0 / 11.0).abs() < 1e-15);
    }

    #[test]
    fn mean_var_of_counts() {
        // 60 wins, 20 draws, 20 losses: mu = 0.7,
        // var = (60·0.09 + 20·0.04 + 20·0.49)/100 = 0.16.
        let (n, mu, var) = mean_var(&[0.0, 0.5, 1.0], &[20.0, 20.0, 60.0]);
        assert_eq!(n, 100.0);
        assert!((mu - 0.7).abs() < 1e-15);
        assert!((var - 0.16).abs() < 1e-15);
        assert_eq!(mean_var(&[0.0, 1.0], &[0.0, 0.0]), (0.0, 0.0, 0.0));
    }
}
