//! Fitting Multi-ProbCut's table ([`crate::search::mpc`]): the `learned` engine searches
//! positions of the self-play data by iterative deepening (no clock, no cuts), each
//! iteration's root score is `v_depth`, and per phase and deep depth `D` a least-squares line
//! `v_D ≈ a·v_d + b` (with `d` = [`shallow_depth`]`(D)`) and its residual spread are fitted.

use std::io::{self, Write};

use rand::SeedableRng;
use rand::rngs::SmallRng;
use rand::seq::SliceRandom;

use super::data::Record;
use crate::search::Engine;
use crate::search::alphabeta::{AlphaBeta, Evaluator};
use crate::search::mpc::{Fit, MIN_DEEP, MIN_SAMPLES, shallow_depth};
use crate::search::patterns::{self, ByRule, Tables};

/// The searching engine's table: the searches are a few hundred thousand nodes.
const TABLE_BYTES: usize = 16 << 20;

/// What to fit on.
#[derive(Clone, Copy, Debug)]
pub struct MpcConfig {
    /// Seed of the sample's shuffle.
    pub seed: u64,
    /// Positions sampled per phase.
    pub per_stage: usize,
    /// The deepest depth `D` fitted.
    pub max_deep: u32,
    /// Positions with fewer empties are not sampled (the root solver plays there, and deep
    /// searches reach the end of the game).
    pub min_empties: u32,
}

/// Samples positions from `records` (at most `per_stage` a phase, a seeded shuffle), searches
/// them with `tables`, and fits every (phase, deep depth) with at least [`MIN_SAMPLES`]
/// usable pairs; progress and each fit go to `log`.
pub fn fit(
    records: &[Record],
    config: &MpcConfig,
    tables: &'static Tables,
    log: &mut impl Write,
) -> io::Result<Vec<Fit>> {
    let mut order: Vec<usize> = (0..records.len()).collect();
    order.shuffle(&mut SmallRng::seed_from_u64(config.seed));
    let mut taken = [0usize; patterns::STAGES];
    let mut engine =
        AlphaBeta::with_evaluator(TABLE_BYTES, Evaluator::Patterns(ByRule::same(tables)));
    // Per sampled position: its phase and its scores by depth.
    let mut samples: Vec<(usize, Vec<Option<i32>>)> = Vec::new();
    for i in order {
        let pos = records[i].position();
        let empties = pos.empties();
        let stage = patterns::stage(empties);
        if empties < config.min_empties || taken[stage] >= config.per_stage || pos.must_pass() {
            continue;
        }
        if pos.is_game_over() {
            continue;
        }
        taken[stage] += 1;
        // Each position on its own: the fit must not depend on the sample's order.
        engine.new_game();
        samples.push((stage, engine.scores_by_depth(&pos, config.max_deep)));
        if samples.len().is_multiple_of(50) {
            writeln!(log, "{} positions searched", samples.len())?;
        }
    }
    let mut fits = Vec::new();
    for stage in 0..patterns::STAGES {
        for deep in MIN_DEEP..=config.max_deep {
            let d = shallow_depth(deep);
            let pairs: Vec<(f64, f64)> = samples
                .iter()
                .filter(|(s, _)| *s == stage)
                .filter_map(|(_, v)| {
                    let shallow = v.get(d as usize - 1).copied().flatten()?;
                    let deep = v.get(deep as usize - 1).copied().flatten()?;
                    Some((f64::from(shallow), f64::from(deep)))
                })
                .collect();
            let Some(f) = line(stage, deep, &pairs) else {
                continue;
            };
            writeln!(
                log,
                "stage {stage} (empties {}-{}) D={deep} d={d}: n={} a={:.3} b={:.1} sigma={:.1}",
                stage * 5,
                stage * 5 + 4,
                f.samples,
                f.a,
                f.b,
                f.sigma
            )?;
            fits.push(f);
        }
    }
    Ok(fits)
}

/// The least-squares line through `pairs` (shallow, deep), or `None` with too few of them or
/// no spread in the shallow scores.
fn line(stage: usize, deep: u32, pairs: &[(f64, f64)]) -> Option<Fit> {
    if pairs.len() < MIN_SAMPLES as usize {
        return None;
    }
    let n = pairs.len() as f64;
    let mx = pairs.iter().map(|p| p.0).sum::<f64>() / n;
    let my = pairs.iter().map(|p| p.1).sum::<f64>() / n;
    let sxx: f64 = pairs.iter().map(|p| (p.0 - mx) * (p.0 - mx)).sum();
    let sxy: f64 = pairs.iter().map(|p| (p.0 - mx) * (p.1 - my)).sum();
    if sxx <= 0.0 {
        return None;
    }
    let a = sxy / sxx;
    let b = my - a * mx;
    let sse: f64 = pairs.iter().map(|p| (p.1 - a * p.0 - b).powi(2)).sum();
    Some(Fit {
        stage: stage as u8,
        deep: deep as u8,
        a: a as f32,
        b: b as f32,
        // Two parameters fitted: n - 2 degrees of freedom.
        sigma: (sse / (n - 2.0)).sqrt().max(1.0) as f32,
        samples: pairs.len() as u32,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_is_recovered_with_its_spread() {
        let pairs: Vec<(f64, f64)> = (0..100)
            .map(|i| {
                let x = f64::from(i) * 10.0;
                let noise = if i % 2 == 0 { 30.0 } else { -30.0 };
                (x, 1.2 * x - 40.0 + noise)
            })
            .collect();
        let f = line(6, 8, &pairs).unwrap();
        assert!((f.a - 1.2).abs() < 0.01, "{f:?}");
        assert!((f.b + 40.0).abs() < 5.0, "{f:?}");
        assert!((f.sigma - 30.0).abs() < 1.0, "{f:?}");
        assert_eq!(line(6, 8, &pairs[..10]), None);
    }

    #[test]
    fn fits_on_a_few_self_play_positions() {
        use crate::learned::data::{GenConfig, generate, read_records};
        use crate::position::Rule;
        let config = GenConfig {
            rule: Rule::Standard,
            seed: 3,
            first_game: 0,
            games: 3,
            depth: 1,
            exact_empties: 8,
            noise: 0.1,
            opening_plies: (4, 6),
        };
        let mut bytes = Vec::new();
        generate(&config, &mut bytes).unwrap();
        let records = read_records(&bytes[..]).unwrap();
        let tables = patterns::builtin(Rule::Standard).unwrap();
        let mpc = MpcConfig {
            seed: 1,
            per_stage: 40,
            max_deep: 3,
            min_empties: 20,
        };
        let fits = fit(&records, &mpc, tables, &mut io::sink()).unwrap();
        crate::search::mpc::check(&fits).unwrap();
    }
}
