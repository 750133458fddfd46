//! Fitting the model to game records by minorization-maximization (Coulom 2007, section 2):
//!
//! 1. every source's games are split by game: every `holdout`-th game is held back to measure
//!    the model, never seen by the fit;
//! 2. the patterns are harvested: the keys of every size around the moves played in the
//!    training games, counted; those played at least `min_count` times make the dictionary;
//! 3. every training position becomes a competition: the move played is the winner among
//!    all legal moves (own true eyes left out, as the search leaves them out);
//! 4. MM updates one group's strengths at a time, `γ_i <- (W_i + 1) / (Σ_j C_ij / E_j +
//!    2 / (γ_i + 1))`, where `W_i` counts the wins of feature `i`, `E_j` is the total strength
//!    of position `j`'s candidates and `C_ij` that of the candidates holding `i` divided by
//!    `γ_i`; the `+1` and `2 / (γ_i + 1)` are Coulom's prior, one virtual win and one virtual
//!    loss against a feature of strength 1, which keeps rare features finite;
//! 5. the held-back games are ranked move by move: the share of positions whose played move
//!    the model ranks first (top-1) or among its first five (top-5), per source.

use std::collections::HashMap;
use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

use super::features::{Dictionary, Extractor, Features, GROUPS, TACTICAL_VALUES};
use super::pattern::SIZES;
use super::records::{self, Position, Source};
use super::{Model, ModelError};
use crate::sgf::record::GameRecord;

/// What a training run reads and how it fits.
#[derive(Clone, Debug)]
pub struct TrainOptions {
    /// Directories or files of game records, one source each.
    pub sources: Vec<PathBuf>,
    /// Every `holdout`-th game of each source is held back for measuring (0: none).
    pub holdout: usize,
    /// Only the first this many games of each source (held-back ones included), if set.
    pub max_games: Option<usize>,
    /// A pattern enters the dictionary when played this many times.
    pub min_count: u32,
    /// MM sweeps over all groups.
    pub sweeps: usize,
}

impl Default for TrainOptions {
    fn default() -> TrainOptions {
        TrainOptions {
            sources: Vec::new(),
            holdout: 10,
            max_games: None,
            min_count: 10,
            sweeps: 12,
        }
    }
}

/// How well a model predicts a set of games.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Rates {
    /// Games.
    pub games: usize,
    /// Positions ranked.
    pub positions: usize,
    /// Positions whose played move the model ranks first.
    pub top1: usize,
    /// ... among its first five.
    pub top5: usize,
    /// Sum of the log-probabilities of the moves played.
    pub log_likelihood: f64,
}

impl Rates {
    /// `top1 / positions` as a percentage.
    pub fn top1_percent(&self) -> f64 {
        100.0 * self.top1 as f64 / self.positions.max(1) as f64
    }
    /// `top5 / positions` as a percentage.
    pub fn top5_percent(&self) -> f64 {
        100.0 * self.top5 as f64 / self.positions.max(1) as f64
    }
}

/// The training positions as competitions: candidates' features, the winner first.
#[derive(Debug, Default)]
struct Competitions {
    candidates: Vec<Features>,
    /// Start of each position's candidates (one more entry than positions).
    starts: Vec<u32>,
}

impl Competitions {
    fn positions(&self) -> usize {
        self.starts.len() - 1
    }
    fn position(&self, j: usize) -> &[Features] {
        &self.candidates[self.starts[j] as usize..self.starts[j + 1] as usize]
    }
}

/// The candidate moves of a position, the one played first: every legal point but the
/// mover's own true eyes (the played move is kept even there).
fn candidates(p: &Position<'_>, mut each: impl FnMut(usize)) {
    each(p.played);
    for &e in p.board.empties() {
        let i = usize::from(e);
        if i != p.played && p.board.is_legal(p.color, i) && !p.board.is_true_eye(p.color, i) {
            each(i);
        }
    }
}

/// Trains a model; progress and the held-back rates go to `log`. Returns the model and, per
/// source, the rates on its held-back games.
pub fn train(
    options: &TrainOptions,
    log: &mut dyn Write,
) -> Result<(Model, Vec<(String, Rates)>), String> {
    let start = Instant::now();
    let sources = options
        .sources
        .iter()
        .map(|path| records::read_source(path))
        .collect::<Result<Vec<_>, _>>()?;
    let mut training = Vec::new();
    let mut held = Vec::new();
    for source in &sources {
        let (t, h) = split(source, options);
        let _ = writeln!(
            log,
            "{}: {} games ({} unreadable): {} to train, {} held back",
            source.name,
            source.games.len(),
            source.skipped,
            t.len(),
            h.len()
        );
        training.extend(t);
        held.push((source.name.clone(), h));
    }
    let dictionary = harvest(&training, options.min_count);
    let _ = writeln!(
        log,
        "dictionary: {} patterns played {} times or more",
        dictionary.len(),
        options.min_count
    );
    let extractor = Extractor::new(dictionary);
    let data = compete(&extractor, &training);
    let _ = writeln!(
        log,
        "{} positions, {} candidates, {:.0} s so far",
        data.positions(),
        data.candidates.len(),
        start.elapsed().as_secs_f64()
    );
    let gammas = fit(&data, extractor.dictionary().len() + 1, options.sweeps, log);
    let model = to_model(&extractor, &gammas).map_err(|e| e.to_string())?;
    let mut report = Vec::new();
    for (name, games) in held {
        let rates = measure(&model, &games);
        let _ = writeln!(
            log,
            "{name}: held back {} games, {} positions: top-1 {:.1} %, top-5 {:.1} %, mean log-likelihood {:.3}",
            rates.games,
            rates.positions,
            rates.top1_percent(),
            rates.top5_percent(),
            rates.log_likelihood / rates.positions.max(1) as f64
        );
        report.push((name, rates));
    }
    let _ = writeln!(log, "trained in {:.0} s", start.elapsed().as_secs_f64());
    Ok((model, report))
}

/// A source's games split into training games and held-back games.
fn split<'a>(
    source: &'a Source,
    options: &TrainOptions,
) -> (Vec<&'a GameRecord>, Vec<&'a GameRecord>) {
    let mut train = Vec::new();
    let mut held = Vec::new();
    let games = options.max_games.unwrap_or(usize::MAX);
    for (k, game) in source.games.iter().take(games).enumerate() {
        if options.holdout > 0 && k % options.holdout == options.holdout - 1 {
            held.push(game);
        } else {
            train.push(game);
        }
    }
    (train, held)
}

/// The dictionary: the patterns of every size played at least `min_count` times.
fn harvest(games: &[&GameRecord], min_count: u32) -> Dictionary {
    let shapes = super::pattern::Shapes::new();
    let mut counts: HashMap<u64, (usize, u32)> = HashMap::new();
    for game in games {
        records::replay(game, |p| {
            for (size, key) in shapes
                .keys(p.board, p.color, p.played)
                .into_iter()
                .enumerate()
            {
                counts.entry(key).or_insert((size, 0)).1 += 1;
            }
        });
    }
    // Smaller sizes first, then the most played: the dictionary's order is reproducible.
    let mut kept: Vec<(usize, u32, u64)> = counts
        .into_iter()
        .filter(|&(_, (_, n))| n >= min_count)
        .map(|(key, (size, n))| (size, n, key))
        .collect();
    kept.sort_by(|a, b| a.0.cmp(&b.0).then(b.1.cmp(&a.1)).then(a.2.cmp(&b.2)));
    kept.truncate(usize::from(u16::MAX) - 1);
    debug_assert!(kept.iter().all(|k| k.0 < SIZES.len()));
    kept.iter()
        .enumerate()
        .map(|(k, &(_, _, key))| (key, (k + 1) as u16))
        .collect()
}

/// Every training position as a competition.
fn compete(extractor: &Extractor, games: &[&GameRecord]) -> Competitions {
    let mut data = Competitions {
        candidates: Vec::new(),
        starts: vec![0],
    };
    for game in games {
        records::replay(game, |p| {
            candidates(p, |i| {
                data.candidates
                    .push(extractor.features(p.board, p.color, i, p.recent));
            });
            data.starts.push(data.candidates.len() as u32);
        });
    }
    data
}

/// Whether value `v` of group `g` has a strength to fit (a tactical group's 0 is "absent").
fn fitted(g: usize, v: u16) -> bool {
    g == 0 || v != 0
}

/// The strengths γ, fitted by MM: `sweeps` passes over the groups.
fn fit(
    data: &Competitions,
    patterns: usize,
    sweeps: usize,
    log: &mut dyn Write,
) -> [Vec<f64>; GROUPS] {
    let mut gammas: [Vec<f64>; GROUPS] =
        std::array::from_fn(|g| vec![1.0; if g == 0 { patterns } else { TACTICAL_VALUES[g] }]);
    let mut wins: [Vec<f64>; GROUPS] = std::array::from_fn(|g| vec![0.0; gammas[g].len()]);
    for j in 0..data.positions() {
        for (g, &v) in data.position(j)[0].iter().enumerate() {
            wins[g][usize::from(v)] += 1.0;
        }
    }
    for sweep in 0..sweeps {
        for g in 0..GROUPS {
            let denominators = mm_denominators(data, &gammas, g);
            for (v, gamma) in gammas[g].iter_mut().enumerate() {
                if fitted(g, v as u16) {
                    *gamma = (wins[g][v] + 1.0) / (denominators[v] + 2.0 / (*gamma + 1.0));
                }
            }
        }
        let ll = log_likelihood(data, &gammas);
        let _ = writeln!(
            log,
            "sweep {}: mean log-likelihood {:.4}",
            sweep + 1,
            ll / data.positions().max(1) as f64
        );
    }
    gammas
}

/// A candidate's strength: the product of its features' γ.
#[inline]
fn strength(gammas: &[Vec<f64>; GROUPS], f: &Features) -> f64 {
    let mut s = 1.0;
    for (g, &v) in f.iter().enumerate() {
        s *= gammas[g][usize::from(v)];
    }
    s
}

/// For group `g`, per value `i`: `Σ_j C_ij / E_j` over the positions.
fn mm_denominators(data: &Competitions, gammas: &[Vec<f64>; GROUPS], g: usize) -> Vec<f64> {
    let mut out = vec![0.0; gammas[g].len()];
    let mut strengths = Vec::new();
    for j in 0..data.positions() {
        let cands = data.position(j);
        strengths.clear();
        strengths.extend(cands.iter().map(|f| strength(gammas, f)));
        let total: f64 = strengths.iter().sum();
        for (f, s) in cands.iter().zip(&strengths) {
            let v = usize::from(f[g]);
            out[v] += s / gammas[g][v] / total;
        }
    }
    out
}

/// The training positions' log-likelihood under `gammas`.
fn log_likelihood(data: &Competitions, gammas: &[Vec<f64>; GROUPS]) -> f64 {
    (0..data.positions())
        .map(|j| {
            let cands = data.position(j);
            let total: f64 = cands.iter().map(|f| strength(gammas, f)).sum();
            (strength(gammas, &cands[0]) / total).ln()
        })
        .sum()
}

/// The model of a dictionary and its strengths.
fn to_model(extractor: &Extractor, gammas: &[Vec<f64>; GROUPS]) -> Result<Model, ModelError> {
    let mut keys = vec![0u64; extractor.dictionary().len()];
    for (&key, &v) in extractor.dictionary() {
        keys[usize::from(v) - 1] = key;
    }
    let weights = std::array::from_fn(|g| {
        gammas[g]
            .iter()
            .enumerate()
            .map(|(v, &gamma)| {
                if fitted(g, v as u16) {
                    gamma.ln() as f32
                } else {
                    0.0
                }
            })
            .collect()
    });
    Model::new(&keys, weights)
}

/// How well `model` predicts the moves of `games`.
pub fn measure(model: &Model, games: &[&GameRecord]) -> Rates {
    let mut rates = Rates {
        games: games.len(),
        ..Rates::default()
    };
    let mut scores = Vec::new();
    for game in games {
        records::replay(game, |p| {
            scores.clear();
            candidates(p, |i| {
                scores.push(model.score_move(p.board, p.color, i, p.recent));
            });
            let played = scores[0];
            let better = scores[1..].iter().filter(|&&s| s > played).count();
            let total: f64 = scores.iter().map(|&s| f64::from(s - played).exp()).sum();
            rates.positions += 1;
            rates.top1 += usize::from(better == 0);
            rates.top5 += usize::from(better < 5);
            rates.log_likelihood -= total.ln();
        });
    }
    rates
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Games where Black always answers White's move by the point to its right: a habit
    /// the distance feature (d = 2 to the last move) must learn.
    fn habit_games(dir: &std::path::Path) {
        std::fs::create_dir_all(dir).unwrap();
        let letters = b"abcdefghi";
        for g in 0..30usize {
            let mut sgf = String::from("(;SZ[9]");
            for k in 0..6usize {
                let (x, y) = ((g + 3 * k) % 8, (g * 5 + k * 7) % 9);
                let w = format!("{}{}", letters[x] as char, letters[y] as char);
                let b = format!("{}{}", letters[x + 1] as char, letters[y] as char);
                sgf.push_str(&format!(";W[{w}];B[{b}]"));
            }
            sgf.push(')');
            std::fs::write(dir.join(format!("{g:02}.sgf")), sgf).unwrap();
        }
    }

    #[test]
    fn mm_learns_a_habit_and_predicts_held_back_games() {
        let dir = std::env::temp_dir().join(format!("go-train-{}", std::process::id()));
        habit_games(&dir);
        let options = TrainOptions {
            sources: vec![dir.clone()],
            holdout: 5,
            min_count: 2,
            sweeps: 6,
            ..TrainOptions::default()
        };
        let mut log = Vec::new();
        let (model, report) = train(&options, &mut log).unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
        let log = String::from_utf8(log).unwrap();
        assert!(log.contains("sweep 6"), "{log}");
        // Next door to the last move (LastDistance value 1) is strong; the held-back games
        // (every fifth) are predicted far above chance (1 in 70 or so).
        assert!(model.weights[5][1] > 2.0, "{:?}", model.weights[5]);
        let rates = &report[0].1;
        assert_eq!(rates.games, 6);
        assert!(rates.top5_percent() > 40.0, "{rates:?}");
        // The model survives its file.
        let again = Model::from_bytes(&model.to_bytes()).unwrap();
        assert_eq!(again.to_bytes(), model.to_bytes());
    }
}
