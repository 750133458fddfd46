//! TEMPORARY stand-in for `stats/` (delivered by another engineer) with the agreed API.
//! Deleted as soon as the real module lands.
#![allow(dead_code)]

#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Wdl {
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
}
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Penta(pub [u64; 5]);
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Estimate {
    pub elo: f64,
    pub margin95: f64,
}
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SprtParams {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
}
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SprtDecision {
    AcceptH0,
    AcceptH1,
    Continue,
}
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SprtResult {
    pub llr: f64,
    pub lower: f64,
    pub upper: f64,
    pub decision: SprtDecision,
    pub model: &'static str,
}

fn elo_of(s: f64) -> f64 {
    -400.0 * (1.0 / s - 1.0).log10()
}

fn estimate(probs: &[(f64, f64)], n: f64) -> Estimate {
    if n == 0.0 {
        return Estimate {
            elo: 0.0,
            margin95: f64::INFINITY,
        };
    }
    let s: f64 = probs.iter().map(|(x, p)| x * p).sum();
    let var: f64 = probs.iter().map(|(x, p)| p * (x - s).powi(2)).sum();
    let se = (var / n).sqrt();
    let lo = elo_of((s - 1.96 * se).clamp(0.0, 1.0));
    let hi = elo_of((s + 1.96 * se).clamp(0.0, 1.0));
    Estimate {
        elo: elo_of(s),
        margin95: (hi - lo) / 2.0,
    }
}

pub fn trinomial_elo(w: &Wdl) -> Estimate {
    let n = (w.wins + w.draws + w.losses) as f64;
    let p = |k: u64| if n > 0.0 { k as f64 / n } else { 0.0 };
    estimate(
        &[(1.0, p(w.wins)), (0.5, p(w.draws)), (0.0, p(w.losses))],
        n,
    )
}

pub fn pentanomial_elo(p: &Penta) -> Estimate {
    let n: f64 = p.0.iter().sum::<u64>() as f64;
    let probs: Vec<(f64, f64)> = (0..5)
        .map(|i| {
            (
                i as f64 / 4.0,
                if n > 0.0 { p.0[i] as f64 / n } else { 0.0 },
            )
        })
        .collect();
    estimate(&probs, n)
}

fn erf(x: f64) -> f64 {
    let t = 1.0 / (1.0 + 0.3275911 * x.abs());
    let y = 1.0
        - (((((1.061405429 * t - 1.453152027) * t) + 1.421413741) * t - 0.284496736) * t
            + 0.254829592)
            * t
            * (-x * x).exp();
    if x >= 0.0 { y } else { -y }
}

pub fn los(w: &Wdl) -> f64 {
    let (a, b) = (w.wins as f64, w.losses as f64);
    if a + b == 0.0 {
        return 0.5;
    }
    0.5 * (1.0 + erf((a - b) / (2.0 * (a + b)).sqrt()))
}

pub fn normalized_elo_trinomial(w: &Wdl) -> Estimate {
    trinomial_elo(w)
}
pub fn normalized_elo_pentanomial(p: &Penta) -> Estimate {
    pentanomial_elo(p)
}

fn sprt(probs: &[(f64, f64)], n: f64, params: &SprtParams, model: &'static str) -> SprtResult {
    let lower = (params.beta / (1.0 - params.alpha)).ln();
    let upper = ((1.0 - params.beta) / params.alpha).ln();
    let s: f64 = probs.iter().map(|(x, p)| x * p).sum();
    let var: f64 = probs.iter().map(|(x, p)| p * (x - s).powi(2)).sum();
    let llr = if n == 0.0 || var <= 0.0 {
        0.0
    } else {
        let sc = |e: f64| 1.0 / (1.0 + 10f64.powf(-e / 400.0));
        let (s0, s1) = (sc(params.elo0), sc(params.elo1));
        n * (s1 - s0) * (2.0 * s - s0 - s1) / (2.0 * var)
    };
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
        model,
    }
}

pub fn sprt_pentanomial(p: &Penta, params: &SprtParams) -> SprtResult {
    let n: f64 = p.0.iter().sum::<u64>() as f64;
    let probs: Vec<(f64, f64)> = (0..5)
        .map(|i| {
            (
                i as f64 / 4.0,
                if n > 0.0 { p.0[i] as f64 / n } else { 0.0 },
            )
        })
        .collect();
    sprt(&probs, n, params, "pentanomial")
}

pub fn sprt_trinomial(w: &Wdl, params: &SprtParams) -> SprtResult {
    let n = (w.wins + w.draws + w.losses) as f64;
    let p = |k: u64| if n > 0.0 { k as f64 / n } else { 0.0 };
    sprt(
        &[(1.0, p(w.wins)), (0.5, p(w.draws)), (0.0, p(w.losses))],
        n,
        params,
        "trinomial",
    )
}
