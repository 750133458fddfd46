//! The least-squares fit of the pattern tables, phase by phase, by stochastic gradient
//! descent on the labelled positions of [`super::data`].
//!
//! Games are split by number: those with `game % 10 == 0` are the test set (never trained on;
//! its error is the one reported, and the held-back sample the tests check comes from it),
//! `game % 10 == 1` the validation set (it picks the epoch to stop at), the rest train. A
//! phase trains on the positions within [`SHARE_EMPTIES`] empties of its own range, so
//! neighbouring phases share data, as Buro's did; its error is measured on its own range.

use std::io::Write;

use rand::rngs::SmallRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};

use super::data::Record;
use crate::bitboard;
use crate::search::patterns::{self, Geometry, STAGE_EMPTIES, STAGES, Tables};

/// A phase also trains on positions this many empties outside its range.
pub const SHARE_EMPTIES: u32 = 2;
/// Passes over a phase's data, at most (the validation error picks the best).
const EPOCHS: usize = 12;
/// The step: this share of the error is corrected per position, spread over its features
/// (0.1 gave a lower test error than 0.4 and 0.03 on the first 117,000 positions).
const STEP: f32 = 0.1;
/// Each epoch's step is this fraction of the previous one's.
const STEP_DECAY: f32 = 0.8;
/// The mobility feature is divided by this, to be on the patterns' scale for the step.
const MOBILITY_SCALE: f32 = 8.0;
/// Held-back positions written per phase for the test.
const HOLDOUT_PER_STAGE: usize = 20;

/// The split a game belongs to.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Split {
    Train,
    Validation,
    Test,
}

fn split(game: u32) -> Split {
    match game % 10 {
        0 => Split::Test,
        1 => Split::Validation,
        _ => Split::Train,
    }
}

/// One phase's positions as features: each position's shared-weight indices, its mobility
/// difference (scaled) and its label.
struct Set {
    features: Vec<u32>,
    mobility: Vec<f32>,
    labels: Vec<f32>,
    width: usize,
}

impl Set {
    /// The set of `records` with their own labels.
    fn new(records: &[&Record]) -> Set {
        let labels = records.iter().map(|r| f32::from(r.label)).collect();
        Set::with_labels(records, labels)
    }

    /// The set of `records` with `labels` in their order.
    fn with_labels(records: &[&Record], labels: Vec<f32>) -> Set {
        let g = Geometry::get();
        let width = g.instances();
        let mut features = vec![0u32; records.len() * width];
        let mut mobility = Vec::with_capacity(records.len());
        for (r, out) in records.iter().zip(features.chunks_exact_mut(width)) {
            g.features(r.own, r.opp, out);
            let moves = bitboard::legal_moves(r.own, r.opp);
            mobility.push(patterns::mobility(r.own, r.opp, moves) as f32 / MOBILITY_SCALE);
        }
        Set {
            features,
            mobility,
            labels,
            width,
        }
    }

    fn len(&self) -> usize {
        self.labels.len()
    }

    /// Prediction for position `i` under `w` (patterns, then mobility and constant).
    fn predict(&self, w: &[f32], i: usize) -> f32 {
        let n = w.len();
        let f = &self.features[i * self.width..(i + 1) * self.width];
        f.iter().map(|&k| w[k as usize]).sum::<f32>() + w[n - 2] * self.mobility[i] + w[n - 1]
    }

    /// Root-mean-square and mean absolute error of `w` on the set.
    fn errors(&self, w: &[f32]) -> (f64, f64) {
        let (mut sq, mut abs) = (0.0f64, 0.0f64);
        for i in 0..self.len() {
            let e = f64::from(self.labels[i] - self.predict(w, i));
            sq += e * e;
            abs += e.abs();
        }
        let n = self.len().max(1) as f64;
        ((sq / n).sqrt(), abs / n)
    }
}

/// One phase's fit: weights in discs, and the test errors.
fn fit_stage(train: &Set, validation: &Set, rng: &mut SmallRng) -> Vec<f32> {
    let g = Geometry::get();
    let n = g.weights_per_stage();
    let mut w = vec![0.0f32; n];
    let mut best = (f64::INFINITY, w.clone());
    let mut order: Vec<usize> = (0..train.len()).collect();
    let mut step = STEP / (train.width + 2) as f32;
    for _ in 0..EPOCHS {
        order.shuffle(rng);
        for &i in &order {
            let e = (train.labels[i] - train.predict(&w, i)) * step;
            for &k in &train.features[i * train.width..(i + 1) * train.width] {
                w[k as usize] += e;
            }
            w[n - 2] += e * train.mobility[i];
            w[n - 1] += e;
        }
        let (rmse, _) = validation.errors(&w);
        if rmse < best.0 {
            best = (rmse, w.clone());
        }
        step *= STEP_DECAY;
    }
    best.1
}

/// Weights in discs to the file's hundredths (the mobility one per move, unscaled).
fn quantise(w: &[f32]) -> Vec<i16> {
    let n = w.len();
    w.iter()
        .enumerate()
        .map(|(k, &v)| {
            let v = if k == n - 2 { v / MOBILITY_SCALE } else { v };
            (v * 100.0)
                .round()
                .clamp(f32::from(i16::MIN), f32::from(i16::MAX)) as i16
        })
        .collect()
}

/// The records of a split whose empties lie in `lo..=hi`.
fn select(records: &[Record], which: Split, lo: u32, hi: u32) -> Vec<&Record> {
    records
        .iter()
        .filter(|r| split(r.game) == which && (lo..=hi).contains(&r.empties()))
        .collect()
}

/// What a fit measured.
pub struct Report {
    /// The weights file's bytes.
    pub weights: Vec<u8>,
    /// Test-set root-mean-square error over all phases (discs).
    pub test_rmse: f64,
    /// The held-back sample: `own opp label` lines (hex, hex, discs).
    pub holdout: Vec<Record>,
}

/// Each game's positions in the order played, linked: for every record, the next record of
/// its game and whether the side to move changed between them (a pass keeps it).
struct Trajectories {
    next: Vec<Option<(usize, bool)>>,
}

impl Trajectories {
    fn new(records: &[Record]) -> Trajectories {
        let mut by_game: std::collections::HashMap<u32, Vec<usize>> = Default::default();
        for (i, r) in records.iter().enumerate() {
            by_game.entry(r.game).or_default().push(i);
        }
        let mut next = vec![None; records.len()];
        for game in by_game.values_mut() {
            // Every move adds a disc: fewer empties is later.
            game.sort_by_key(|&i| std::cmp::Reverse(records[i].empties()));
            for pair in game.windows(2) {
                let (a, b) = (&records[pair[0]], &records[pair[1]]);
                // The mover's discs only grow: they are the other side's after a move.
                let flipped = a.own & b.opp == a.own;
                next[pair[0]] = Some((pair[1], flipped));
            }
        }
        Trajectories { next }
    }

    /// The first later position of record `i`'s game with fewer than `below` empties, and
    /// whether its side to move is the other one.
    fn ahead(&self, records: &[Record], i: usize, below: u32) -> Option<(usize, bool)> {
        let (mut at, mut flipped) = (i, false);
        while records[at].empties() >= below {
            let (n, f) = self.next[at]?;
            at = n;
            flipped ^= f;
        }
        Some((at, flipped))
    }
}

/// Temporal-difference labels for the positions `chosen` of a phase starting at `lo`
/// empties: `outcome_share` of the record's own label (the game's outcome, or the exact
/// value) plus the rest of the value of the game's first position in an earlier-fitted
/// phase (its exact label at or below `exact_empties`, else the fitted tables' score).
fn td_labels(
    records: &[Record],
    chosen: &[usize],
    paths: &Trajectories,
    fitted: &[Vec<f32>],
    lo: u32,
    share: (f32, u32),
) -> Vec<f32> {
    let (outcome_share, exact_empties) = share;
    let g = Geometry::get();
    let mut features = vec![0u32; g.instances()];
    chosen
        .iter()
        .map(|&i| {
            let r = &records[i];
            let own = f32::from(r.label);
            if r.empties() <= exact_empties || lo == 0 {
                return own;
            }
            let Some((j, flipped)) = paths.ahead(records, i, lo) else {
                return own;
            };
            let a = &records[j];
            let value = if a.empties() <= exact_empties {
                f32::from(a.label)
            } else {
                let w = &fitted[patterns::stage(a.empties())];
                g.features(a.own, a.opp, &mut features);
                let mobility =
                    patterns::mobility(a.own, a.opp, bitboard::legal_moves(a.own, a.opp)) as f32;
                let n = w.len();
                features.iter().map(|&k| w[k as usize]).sum::<f32>()
                    + w[n - 2] * mobility / MOBILITY_SCALE
                    + w[n - 1]
            };
            let value = if flipped { -value } else { value };
            outcome_share * own + (1.0 - outcome_share) * value
        })
        .collect()
}

/// The indices of the records of a split whose empties lie in `lo..=hi`.
fn select_indices(records: &[Record], which: Split, lo: u32, hi: u32) -> Vec<usize> {
    (0..records.len())
        .filter(|&i| split(records[i].game) == which && (lo..=hi).contains(&records[i].empties()))
        .collect()
}

/// How to fit.
#[derive(Clone, Copy, Debug)]
pub struct FitConfig {
    /// Seed of the shuffles and the held-back sample.
    pub seed: u64,
    /// Share of a training label that is the game's outcome; the rest is the fitted
    /// evaluation a phase later in the same game (1: outcomes only).
    pub outcome_share: f32,
    /// Labels at or below this many empties are exact (the data's `--exact-empties`).
    pub exact_empties: u32,
}

/// Fits every phase on `records`, from the end of the game back, printing a line per phase
/// on `log`.
pub fn fit(
    records: &[Record],
    config: &FitConfig,
    log: &mut impl Write,
) -> std::io::Result<Report> {
    let mut rng = SmallRng::seed_from_u64(config.seed);
    let paths = Trajectories::new(records);
    let mut fitted: Vec<Vec<f32>> = Vec::new();
    let (mut sq_sum, mut count) = (0.0f64, 0usize);
    let mut holdout = Vec::new();
    for s in 0..STAGES {
        let (lo, hi) = (
            s as u32 * STAGE_EMPTIES,
            s as u32 * STAGE_EMPTIES + STAGE_EMPTIES - 1,
        );
        let wide = (lo.saturating_sub(SHARE_EMPTIES), hi + SHARE_EMPTIES);
        let chosen = select_indices(records, Split::Train, wide.0, wide.1);
        let share = (config.outcome_share, config.exact_empties);
        let labels = td_labels(records, &chosen, &paths, &fitted, lo, share);
        let refs: Vec<&Record> = chosen.iter().map(|&i| &records[i]).collect();
        let train = Set::with_labels(&refs, labels);
        let validation = Set::new(&select(records, Split::Validation, lo, hi));
        let test_records = select(records, Split::Test, lo, hi);
        let test = Set::new(&test_records);
        let w = fit_stage(&train, &validation, &mut rng);
        let (rmse, mae) = test.errors(&w);
        let (zero_rmse, _) = test.errors(&vec![0.0; w.len()]);
        writeln!(
            log,
            "stage {s:2} (empties {lo:2}-{hi:2}): train {:7}, test {:6}: rmse {rmse:5.2} mae {mae:5.2} discs (predicting 0: rmse {zero_rmse:5.2})",
            train.len(),
            test.len()
        )?;
        if test.len() > 0 {
            sq_sum += rmse * rmse * test.len() as f64;
            count += test.len();
        }
        for _ in 0..HOLDOUT_PER_STAGE.min(test_records.len()) {
            holdout.push(*test_records[rng.random_range(0..test_records.len())]);
        }
        fitted.push(w);
    }
    let quantised: Vec<Vec<i16>> = fitted.iter().map(|w| quantise(w)).collect();
    Ok(Report {
        weights: Tables::serialize(&quantised),
        test_rmse: (sq_sum / count.max(1) as f64).sqrt(),
        holdout,
    })
}

/// The sample's root-mean-square error, in discs, under the tables of `weights`.
pub fn sample_rmse(tables: &Tables, sample: &[Record]) -> f64 {
    let sq: f64 = sample
        .iter()
        .map(|r| {
            let pos = r.position();
            let e = f64::from(tables.evaluate(&pos, pos.move_mask())) / 100.0 - f64::from(r.label);
            e * e
        })
        .sum();
    (sq / sample.len().max(1) as f64).sqrt()
}

/// The held-back sample as the text file the tests read: a header stating the test error
/// and the sample's own error under the quantised tables, then `own opp label` lines.
pub fn holdout_text(report: &Report, config: &FitConfig) -> Result<String, String> {
    let tables = Tables::parse(&report.weights)?;
    let mut text = format!(
        "# Held-back test positions (games never trained on) of `reversi train fit --seed {} --outcome-share {}`.\n\
         # Lines: own discs, other side's discs (hex bitboards, side to move first), exact or outcome label (discs).\n\
         test_rmse {:.3}\nsample_rmse {:.3}\nchecksum {:016x}\n",
        config.seed,
        config.outcome_share,
        report.test_rmse,
        sample_rmse(&tables, &report.holdout),
        tables.checksum()
    );
    for r in &report.holdout {
        text.push_str(&format!("{:016x} {:016x} {}\n", r.own, r.opp, r.label));
    }
    Ok(text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::learned::data::{self, GenConfig};
    use crate::position::{Move, Position, Rule};

    #[test]
    fn trajectories_follow_each_game_and_its_passes() {
        let p0 = Position::start(Rule::Standard);
        let p1 = p0.play(Move::parse("d3").unwrap()).unwrap();
        let rec = |own, opp, game| Record {
            own,
            opp,
            label: 0,
            game,
        };
        // Out of order, and a pass: the same side moves twice (its discs only grow).
        let records = vec![
            rec(p1.own(), p1.opp(), 0),
            rec(p0.own(), p0.opp(), 0),
            rec(0b111, 0b1000, 1),
            rec(0b1, 0b10, 1),
        ];
        let t = Trajectories::new(&records);
        assert_eq!(t.next[1], Some((0, true)));
        assert_eq!(t.next[0], None);
        assert_eq!(t.next[3], Some((2, false)));
        assert_eq!(t.ahead(&records, 1, 60), Some((0, true)));
    }

    #[test]
    fn a_small_fit_writes_tables_that_load_and_a_sample_that_matches_them() {
        let config = GenConfig {
            rule: Rule::Standard,
            seed: 9,
            first_game: 0,
            games: 30,
            depth: 1,
            exact_empties: 8,
            noise: 0.05,
            opening_plies: data::OPENING_PLIES,
        };
        let mut bytes = Vec::new();
        data::generate(&config, &mut bytes).unwrap();
        let records = data::read_records(&bytes[..]).unwrap();
        let fit_config = FitConfig {
            seed: 1,
            outcome_share: 0.5,
            exact_empties: 8,
        };
        let mut log = Vec::new();
        let report = fit(&records, &fit_config, &mut log).unwrap();
        assert_eq!(String::from_utf8(log).unwrap().lines().count(), STAGES);
        let tables = Tables::parse(&report.weights).unwrap();
        assert!(report.test_rmse.is_finite() && report.test_rmse > 0.0);
        let text = holdout_text(&report, &fit_config).unwrap();
        let stated = format!("sample_rmse {:.3}", sample_rmse(&tables, &report.holdout));
        assert!(text.contains(&stated), "{text}");
    }
}
