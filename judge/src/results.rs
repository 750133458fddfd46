//! Results: per-player tables, crosstable, pentanomial pairs and the SPRT, computed from
//! game records (what `summary.json` holds), and the summary of a run directory as
//! `judge report` reads it. Both the tournament (its SPRT stop) and the reporters use
//! this module; it uses neither.

use std::collections::{BTreeMap, HashMap};

use anyhow::{Context, Result};
use serde::Serialize;

use crate::games::{Game, Side, Termination};
use crate::record::{self, GameRecord};
use crate::run_dir::{RunDir, RunInfo};
use crate::schedule::{self, Entrant, Mode, Pairing};
use crate::stats::{self, Estimate, Penta, SprtDecision, SprtParams, Wdl};

/// W/D/L as JSON.
#[derive(Debug, Clone, Copy, Default, Serialize, PartialEq)]
pub struct WdlJson {
    /// Wins.
    pub wins: u64,
    /// Draws.
    pub draws: u64,
    /// Losses.
    pub losses: u64,
}

impl WdlJson {
    /// Counts one game scored `score` (1, 0.5 or 0).
    pub fn add(&mut self, score: f64) {
        match score {
            s if s > 0.75 => self.wins += 1,
            s if s < 0.25 => self.losses += 1,
            _ => self.draws += 1,
        }
    }
    /// As the statistics take it.
    pub fn stats(self) -> Wdl {
        Wdl {
            wins: self.wins,
            draws: self.draws,
            losses: self.losses,
        }
    }
    /// Games counted.
    pub fn games(self) -> u64 {
        self.wins + self.draws + self.losses
    }
    /// Points: a win 1, a draw ½.
    pub fn score(self) -> f64 {
        self.wins as f64 + 0.5 * self.draws as f64
    }
}

/// An Elo estimate as JSON: `null` when not finite (a 0% or 100% score, or no games).
#[derive(Debug, Clone, Serialize)]
pub struct EloJson {
    /// Logistic Elo difference.
    pub elo: Option<f64>,
    /// Half-width of the 95% interval.
    pub margin95: Option<f64>,
    /// How a non-finite Elo reads ("+inf", "-inf", "n/a"); not serialized.
    #[serde(skip)]
    elo_inf: String,
}

impl EloJson {
    /// `+12.3 ± 45.6`, `+inf ± inf`: how tables and the progress bar show it.
    pub fn display(&self) -> String {
        let elo = match self.elo {
            Some(elo) => format!("{elo:+.1}"),
            None => self.elo_inf.clone(),
        };
        match self.margin95 {
            Some(m) => format!("{elo} ± {m:.1}"),
            None => format!("{elo} ± inf"),
        }
    }
}

impl From<Estimate> for EloJson {
    fn from(e: Estimate) -> Self {
        let f = |x: f64| x.is_finite().then_some((x * 100.0).round() / 100.0);
        let elo_inf = if e.elo.is_nan() {
            "n/a"
        } else if e.elo > 0.0 {
            "+inf"
        } else {
            "-inf"
        };
        EloJson {
            elo: f(e.elo),
            margin95: f(e.margin95),
            elo_inf: elo_inf.to_string(),
        }
    }
}

/// One player's results against the field.
#[derive(Debug, Clone, Serialize)]
pub struct PlayerSummary {
    /// Name.
    pub name: String,
    /// Library path.
    pub path: String,
    /// Games played.
    pub games: u64,
    /// Wins, draws, losses.
    #[serde(flatten)]
    pub wdl: WdlJson,
    /// Score in percent.
    pub score_pct: f64,
    /// The course's grading points: win 2, tie 1, loss 0.
    pub points: u64,
    /// Elo against the field with its 95% margin.
    pub elo: EloJson,
    /// Normalized Elo against the field (per-game model).
    pub nelo: EloJson,
    /// Likelihood of superiority over the field, 0..1.
    pub los: f64,
    /// Losses by verdict (`four` for ordinary lost games).
    pub losses_by: BTreeMap<Termination, u64>,
    /// Results when moving first.
    pub as_first: WdlJson,
    /// Results when moving second.
    pub as_second: WdlJson,
    /// Mean and max wall ms per move, and mean CPU ms per move.
    pub move_ms_mean: f64,
    /// Slowest move, ms.
    pub move_ms_max: f64,
    /// Mean CPU ms per move, over the moves whose CPU time was measured (a library's
    /// thread in its host, a program's process from its clock); absent when none was,
    /// rather than a misleading 0.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cpu_ms_mean: Option<f64>,
    /// The highest peak resident memory of the player's process in any game, MiB (to the
    /// hundredth); absent when no game knows it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub peak_rss_mb: Option<f64>,
    /// Games scored by a margin (Reversi's disc count; not those ended by a verdict): the
    /// mean of the player's discs minus the opponent's. Absent when no game has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub disc_diff_mean: Option<f64>,
}

/// One pairing's results, from its first entrant's side.
#[derive(Debug, Clone, Serialize)]
pub struct PairingSummary {
    /// First entrant.
    pub a: String,
    /// Second entrant.
    pub b: String,
    /// `a`'s results.
    #[serde(flatten)]
    pub wdl: WdlJson,
    /// Counts of complete pairs by `a`'s pair score 0, 0.5, 1, 1.5, 2.
    pub penta: [u64; 5],
    /// The colours were fixed (`--fixed-colours`): `a` moved first in both games of a
    /// board, so no pair was formed (`penta` all 0, its Elo `null`); the W/D/L, Elo and
    /// LOS are the games'. Absent when colours were swapped.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub fixed_colours: bool,
    /// Trinomial Elo of `a` over `b`.
    pub elo: EloJson,
    /// Pentanomial Elo of `a` over `b` (paired games).
    pub elo_pentanomial: EloJson,
    /// Normalized Elo from the pentanomial counts.
    pub nelo_pentanomial: EloJson,
    /// Likelihood that `a` is stronger.
    pub los: f64,
}

/// SPRT state as JSON.
#[derive(Debug, Clone, Serialize)]
pub struct SprtJson {
    /// H0 Elo.
    pub elo0: f64,
    /// H1 Elo.
    pub elo1: f64,
    /// Type I error.
    pub alpha: f64,
    /// Type II error.
    pub beta: f64,
    /// Log-likelihood ratio.
    pub llr: f64,
    /// Lower bound (accept H0).
    pub lower: f64,
    /// Upper bound (accept H1).
    pub upper: f64,
    /// `H0`, `H1` or `continue`.
    pub decision: SprtDecision,
    /// Statistical model used.
    pub model: String,
    /// Complete pairs the test used (where it stopped, if it decided).
    pub pairs: u64,
}

/// Everything `summary.json` holds.
#[derive(Debug, Clone, Serialize)]
pub struct Summary {
    /// `match`, `round-robin` or `gauntlet`.
    pub mode: Mode,
    /// Games in the log.
    pub games: u64,
    /// Per player, best score first.
    pub players: Vec<PlayerSummary>,
    /// Per pairing.
    pub pairings: Vec<PairingSummary>,
    /// Round-robin only: `crosstable[i][j]` is row player i's score against j.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub crosstable: Option<Crosstable>,
    /// Match with `--sprt` only.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sprt: Option<SprtJson>,
    /// Gauntlets with two or more opponents: each two of them compared board by board
    /// through the hero they both played.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub comparisons: Vec<ComparisonJson>,
    /// Merged runs only: games of the full schedule the merged log does not hold.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub missing_games: Option<u64>,
    /// Merged runs only: shards (1..=N) that were not among the parts.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub missing_shards: Option<Vec<u32>>,
}

/// Two of a gauntlet's opponents compared through the hero on the boards both completed
/// ([`stats::paired_difference`]).
#[derive(Debug, Clone, Serialize)]
pub struct ComparisonJson {
    /// The first of the two.
    pub a: String,
    /// The second.
    pub b: String,
    /// The common opponent (the gauntlet's hero).
    pub via: String,
    /// Boards both played in both colours.
    pub boards: u64,
    /// `a`'s mean score per game against `via` minus `b`'s, in percentage points.
    pub score_diff_pct: f64,
    /// Half-width of its 95% interval, percentage points (`null` under two boards).
    pub margin95_pct: Option<f64>,
    /// Likelihood that `a` does better against `via` than `b`.
    pub los: f64,
}

/// Each two of a gauntlet's opponents compared through its hero (entrant 0), board by
/// board: for every board both completed, the difference of their mean game scores there.
fn comparisons<G: Game>(
    entrants: &[Entrant],
    pairings: &[Pairing],
    records: &[GameRecord<G>],
) -> Vec<ComparisonJson> {
    // Per pairing (hero against opponent k + 1), each complete board's mean score of the
    // opponent (the pairing's `b`).
    let boards: Vec<BTreeMap<u32, f64>> = (0..pairings.len())
        .map(|k| {
            pair_scores(records, k)
                .into_iter()
                .map(|(pair, a)| (pair, 1.0 - a / 2.0))
                .collect()
        })
        .collect();
    let mut out = Vec::new();
    for i in 0..pairings.len() {
        for j in i + 1..pairings.len() {
            let diffs: Vec<f64> = boards[i]
                .iter()
                .filter_map(|(pair, s)| boards[j].get(pair).map(|t| s - t))
                .collect();
            let d = stats::paired_difference(&diffs);
            out.push(ComparisonJson {
                a: entrants[pairings[i].b].name.clone(),
                b: entrants[pairings[j].b].name.clone(),
                via: entrants[pairings[i].a].name.clone(),
                boards: d.boards,
                score_diff_pct: round2(100.0 * d.diff),
                margin95_pct: d.margin95.is_finite().then(|| round2(100.0 * d.margin95)),
                los: round2(d.los * 100.0) / 100.0,
            });
        }
    }
    out
}

/// How the SPRT reads a run's complete pairs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SprtReading {
    /// As the sequential test the run itself ran: pairs in board order, stopping at the
    /// first prefix that decides (games in flight at the stop do not undo it).
    Sequential,
    /// All complete pairs at once, the sum of the pentanomial counts: for shards, which
    /// do not stop on the test, and their merge (the parts were played side by side, so
    /// there is no one order in which the test ran).
    Pooled,
}

impl SprtReading {
    /// How the run that `info` describes is read: pooled for a shard of a bigger run
    /// and for a merged run, sequential otherwise.
    pub fn of(info: &RunInfo) -> SprtReading {
        if info.merged.is_some() || !info.shard().is_whole() {
            SprtReading::Pooled
        } else {
            SprtReading::Sequential
        }
    }
}

/// Score of each row player against each column player.
#[derive(Debug, Clone, Serialize)]
pub struct Crosstable {
    /// Player order of rows and columns.
    pub names: Vec<String>,
    /// `[i][j]`: W/D/L of i against j (`null` on the diagonal).
    pub results: Vec<Vec<Option<WdlJson>>>,
}

/// The pairs of one pairing, in board order, each with the score of the pairing's `a`
/// over its two games (0 to 2): the boards with both games logged, played in both
/// colours. A board whose two games had the same first mover (`--fixed-colours`) forms
/// no pair: a pair is what balances the colours.
fn pair_scores<G: Game>(records: &[GameRecord<G>], pairing: usize) -> BTreeMap<u32, f64> {
    let mut boards: BTreeMap<u32, [Option<&GameRecord<G>>; 2]> = BTreeMap::new();
    for r in records.iter().filter(|r| r.pairing == pairing) {
        boards.entry(r.pair).or_default()[r.game.min(1) as usize] = Some(r);
    }
    boards
        .into_iter()
        .filter_map(|(pair, games)| match games {
            // `a` moves first in game 0 and second in game 1.
            [Some(x), Some(y)] if x.first != y.first => {
                Some((pair, x.first_score() + 1.0 - y.first_score()))
            }
            _ => None,
        })
        .collect()
}

/// Whether pairing `k` (`a` against `b`) was played with fixed colours: `a` first in a
/// board's second game too.
fn colours_fixed<G: Game>(records: &[GameRecord<G>], k: usize, a: &str) -> bool {
    records
        .iter()
        .any(|r| r.pairing == k && r.game == 1 && r.first == a)
}

/// Pentanomial counts of complete pairs of one pairing, from `a`'s side.
pub fn penta_of<G: Game>(records: &[GameRecord<G>], pairing: usize) -> Penta {
    let mut p = [0u64; 5];
    for score in pair_scores(records, pairing).values() {
        p[(score * 2.0).round() as usize] += 1;
    }
    Penta(p)
}

/// Runs the SPRT on one pairing's complete pairs.
pub fn sprt_of<G: Game>(
    records: &[GameRecord<G>],
    pairing: usize,
    params: &SprtParams,
) -> SprtJson {
    sprt_of_penta(&penta_of(records, pairing), params)
}

/// The SPRT as a sequential test reads the log: complete pairs are taken in board
/// order, and the test stops at the first prefix where it decides (games that finished
/// after the stop, in flight at the time, do not undo the decision).
pub fn sequential_sprt<G: Game>(
    records: &[GameRecord<G>],
    pairing: usize,
    params: &SprtParams,
) -> SprtJson {
    let mut p = [0u64; 5];
    let mut last = sprt_of_penta(&Penta(p), params);
    for score in pair_scores(records, pairing).values() {
        p[(score * 2.0).round() as usize] += 1;
        last = sprt_of_penta(&Penta(p), params);
        if last.decision != SprtDecision::Continue {
            break;
        }
    }
    last
}

/// The SPRT on pentanomial counts (e.g. summed over the shards of a run).
pub fn sprt_of_penta(penta: &Penta, params: &SprtParams) -> SprtJson {
    let r = stats::sprt_pentanomial(penta, params);
    SprtJson {
        pairs: penta.0.iter().sum(),
        elo0: params.elo0,
        elo1: params.elo1,
        alpha: params.alpha,
        beta: params.beta,
        llr: r.llr,
        lower: r.lower,
        upper: r.upper,
        decision: r.decision,
        model: r.model.to_string(),
    }
}

/// The players of the run `info` describes, under the names the run used: a program's
/// name can depend on which files exist where the judge runs (`saiblo:python3 main.py` is
/// `main` only next to main.py).
fn entrants_of(info: &RunInfo) -> Result<Vec<Entrant>> {
    let mut entrants = schedule::entrants(&info.players)?;
    if info.names.len() == entrants.len() {
        for (e, name) in entrants.iter_mut().zip(&info.names) {
            e.name.clone_from(name);
        }
    }
    Ok(entrants)
}

/// Independent runs of the same players (other seeds, other boards) read as one: the
/// summary of all their whole pairs, each run's boards kept apart, with the SPRT (if the
/// first run had one) over the summed pentanomial counts. Returns it with each run's seed.
pub fn of_runs<G: Game>(dirs: &[RunDir]) -> Result<(Summary, Vec<u64>)> {
    let mut first: Option<(Mode, Vec<Entrant>, Option<SprtParams>)> = None;
    let (mut records, mut seeds) = (Vec::new(), Vec::new());
    // Pair numbers of a later run start after the last of the runs before it, so boards of
    // different runs never make one pair.
    let mut offset = 0u32;
    // Runs with fixed colours and with colours swapped measure different things.
    let mut colours = None;
    for dir in dirs {
        let info = dir.read_info()?;
        let first_colours = *colours.get_or_insert(info.colours);
        if info.colours != first_colours {
            anyhow::bail!(
                "{}: played with colours {}, {} with colours {} (--fixed-colours): not pooled",
                dir.path().display(),
                info.colours.name(),
                dirs[0].path().display(),
                first_colours.name()
            );
        }
        let entrants = entrants_of(&info)?;
        let names = |es: &[Entrant]| es.iter().map(|e| e.name.clone()).collect::<Vec<_>>();
        match &first {
            None => first = Some((info.mode, entrants, info.sprt)),
            Some((mode, known, _)) => {
                if *mode != info.mode || names(known) != names(&entrants) {
                    anyhow::bail!(
                        "{}: not the same players and kind of tournament as {} ({:?} against {:?})",
                        dir.path().display(),
                        dirs[0].path().display(),
                        names(&entrants),
                        names(known)
                    );
                }
            }
        }
        let mut run: Vec<GameRecord<G>> = record::whole_pairs(record::read(&dir.games())?);
        // Board numbers near u32::MAX are none a judge writes; they must not overflow.
        let too_many = || {
            anyhow::anyhow!(
                "{}: board numbers too large to pool with the runs before it",
                dir.path().display()
            )
        };
        let boards = match run.iter().map(|r| r.pair).max() {
            Some(last) => last.checked_add(1).ok_or_else(too_many)?,
            None => 0,
        };
        for r in &mut run {
            r.pair = r.pair.checked_add(offset).ok_or_else(too_many)?;
        }
        offset = offset.checked_add(boards).ok_or_else(too_many)?;
        records.extend(run);
        seeds.push(info.seed);
    }
    let (mode, entrants, sprt) = first.ok_or_else(|| anyhow::anyhow!("no run directory"))?;
    let pairings = mode.pairings(entrants.len());
    let summary = summarize(
        mode,
        &entrants,
        &pairings,
        &records,
        sprt.as_ref(),
        SprtReading::Pooled,
    );
    Ok((summary, seeds))
}

/// Builds the summary from the game log.
pub fn summarize<G: Game>(
    mode: Mode,
    entrants: &[Entrant],
    pairings: &[Pairing],
    records: &[GameRecord<G>],
    sprt: Option<&SprtParams>,
    reading: SprtReading,
) -> Summary {
    let tally = Tally::of(entrants, records);
    let mut players = tally.players(entrants);
    players.sort_by(|a, b| {
        b.score_pct
            .total_cmp(&a.score_pct)
            .then(b.points.cmp(&a.points))
    });
    let n = entrants.len();
    let crosstable = (mode == Mode::RoundRobin).then(|| Crosstable {
        names: entrants.iter().map(|e| e.name.clone()).collect(),
        results: (0..n)
            .map(|i| {
                (0..n)
                    .map(|j| (i != j).then_some(tally.cross[i][j]))
                    .collect()
            })
            .collect(),
    });
    Summary {
        mode,
        games: records.len() as u64,
        players,
        pairings: pairing_summaries(entrants, pairings, records, &tally.cross),
        crosstable,
        comparisons: if mode == Mode::Gauntlet && pairings.len() >= 2 {
            comparisons(entrants, pairings, records)
        } else {
            Vec::new()
        },
        sprt: sprt.map(|p| match reading {
            SprtReading::Sequential => sequential_sprt(records, 0, p),
            SprtReading::Pooled => sprt_of(records, 0, p),
        }),
        missing_games: None,
        missing_shards: None,
    }
}

/// `x` rounded to two decimals.
fn round2(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

/// What the game log adds up to for each player (by entrant index).
struct Tally {
    /// Results over all games, as first mover, as second mover.
    all: Vec<WdlJson>,
    first: Vec<WdlJson>,
    second: Vec<WdlJson>,
    /// `cross[i][j]`: `i`'s results against `j`.
    cross: Vec<Vec<WdlJson>>,
    losses_by: Vec<BTreeMap<Termination, u64>>,
    /// Wall ms of the moves: sum, largest, count.
    ms: Vec<(f64, f64, u64)>,
    /// CPU ms summed over the moves whose CPU time is known, and how many those are.
    cpu: Vec<(f64, u64)>,
    /// Sum and count of signed margins (the player's side's).
    discs: Vec<(i64, u64)>,
    peak_kb: Vec<Option<u64>>,
}

impl Tally {
    /// The tally of `records` between `entrants` (a record naming someone else is skipped).
    fn of<G: Game>(entrants: &[Entrant], records: &[GameRecord<G>]) -> Tally {
        let idx: HashMap<&str, usize> = entrants
            .iter()
            .enumerate()
            .map(|(i, e)| (e.name.as_str(), i))
            .collect();
        let n = entrants.len();
        let mut tally = Tally {
            all: vec![WdlJson::default(); n],
            first: vec![WdlJson::default(); n],
            second: vec![WdlJson::default(); n],
            cross: vec![vec![WdlJson::default(); n]; n],
            losses_by: vec![BTreeMap::new(); n],
            ms: vec![(0.0, 0.0, 0); n],
            cpu: vec![(0.0, 0); n],
            discs: vec![(0, 0); n],
            peak_kb: vec![None; n],
        };
        for r in records {
            if let (Some(&f), Some(&s)) = (idx.get(r.first.as_str()), idx.get(r.second.as_str())) {
                tally.add_result(r, f, s);
                tally.add_moves(r, f, s);
            }
        }
        tally
    }

    /// Adds the result of `r`, played by `f` first and `s` second: scores, the loser's
    /// verdict, the margin, the peak memory.
    fn add_result<G: Game>(&mut self, r: &GameRecord<G>, f: usize, s: usize) {
        let sc = r.first_score();
        self.all[f].add(sc);
        self.all[s].add(1.0 - sc);
        self.first[f].add(sc);
        self.second[s].add(1.0 - sc);
        self.cross[f][s].add(sc);
        self.cross[s][f].add(1.0 - sc);
        if let Some(loser) = r.loser {
            let who = if loser == Side::First { f } else { s };
            *self.losses_by[who].entry(r.termination).or_default() += 1;
        }
        if let Some(m) = r.margin {
            let first = match r.loser {
                Some(Side::First) => -i64::from(m),
                Some(Side::Second) => i64::from(m),
                None => 0,
            };
            self.discs[f].0 += first;
            self.discs[f].1 += 1;
            self.discs[s].0 -= first;
            self.discs[s].1 += 1;
        }
        self.peak_kb[f] = self.peak_kb[f].max(r.peak_rss_kb[0]);
        self.peak_kb[s] = self.peak_kb[s].max(r.peak_rss_kb[1]);
    }

    /// Adds the times of `r`'s moves to whoever made them.
    fn add_moves<G: Game>(&mut self, r: &GameRecord<G>, f: usize, s: usize) {
        // Moves alternate from the side the setup gives the first move (Go's handicap:
        // White, the second).
        let (even, odd) = match G::first_mover(&r.board) {
            Side::First => (f, s),
            Side::Second => (s, f),
        };
        for (k, w) in r.move_ms.iter().enumerate() {
            let who = if k % 2 == 0 { even } else { odd };
            let e = &mut self.ms[who];
            e.0 += w;
            e.1 = e.1.max(*w);
            e.2 += 1;
            if let Some(c) = r.cpu_ms.get(k).copied().flatten() {
                self.cpu[who].0 += c;
                self.cpu[who].1 += 1;
            }
        }
    }

    /// Each player's summary, in entrant order.
    fn players(&self, entrants: &[Entrant]) -> Vec<PlayerSummary> {
        (0..entrants.len())
            .map(|i| {
                let w = self.all[i];
                let g = w.games();
                let (sum, max, count) = self.ms[i];
                let (cpu_sum, cpu_count) = self.cpu[i];
                let discs = self.discs[i];
                // A mean to the tenth of a millisecond; `None` over no moves.
                let mean = |x: f64, n: u64| (n > 0).then(|| round2(x / n as f64 * 10.0) / 10.0);
                PlayerSummary {
                    name: entrants[i].name.clone(),
                    path: entrants[i].path.display().to_string(),
                    games: g,
                    wdl: w,
                    score_pct: if g > 0 {
                        round2(100.0 * w.score() / g as f64)
                    } else {
                        0.0
                    },
                    points: 2 * w.wins + w.draws,
                    elo: stats::trinomial_elo(&w.stats()).into(),
                    nelo: stats::normalized_elo_trinomial(&w.stats()).into(),
                    los: round2(stats::los(&w.stats()) * 100.0) / 100.0,
                    losses_by: self.losses_by[i].clone(),
                    as_first: self.first[i],
                    as_second: self.second[i],
                    move_ms_mean: mean(sum, count).unwrap_or(0.0),
                    move_ms_max: round2(max),
                    cpu_ms_mean: mean(cpu_sum, cpu_count),
                    peak_rss_mb: self.peak_kb[i].map(|kb| round2(kb as f64 / 1024.0)),
                    disc_diff_mean: (discs.1 > 0).then(|| round2(discs.0 as f64 / discs.1 as f64)),
                }
            })
            .collect()
    }
}

/// Each pairing's summary: its results (`cross`, from [`Tally`]) and its pairs of games.
fn pairing_summaries<G: Game>(
    entrants: &[Entrant],
    pairings: &[Pairing],
    records: &[GameRecord<G>],
    cross: &[Vec<WdlJson>],
) -> Vec<PairingSummary> {
    pairings
        .iter()
        .enumerate()
        .map(|(k, p)| {
            let w = cross[p.a][p.b];
            let penta = penta_of(records, k);
            let fixed = colours_fixed(records, k, &entrants[p.a].name);
            // Under fixed colours there are no pairs to estimate from: `null`, not 0.
            let paired = |e: Estimate| -> EloJson {
                if fixed {
                    Estimate {
                        elo: f64::NAN,
                        margin95: f64::NAN,
                    }
                    .into()
                } else {
                    e.into()
                }
            };
            PairingSummary {
                a: entrants[p.a].name.clone(),
                b: entrants[p.b].name.clone(),
                wdl: w,
                penta: penta.0,
                fixed_colours: fixed,
                elo: stats::trinomial_elo(&w.stats()).into(),
                elo_pentanomial: paired(stats::pentanomial_elo(&penta)),
                nelo_pentanomial: paired(stats::normalized_elo_pentanomial(&penta)),
                los: round2(stats::los(&w.stats()) * 100.0) / 100.0,
            }
        })
        .collect()
}

/// A run directory's summary, as `judge report` builds it.
#[derive(Debug, Clone)]
pub struct RunSummary {
    /// The summary.
    pub summary: Summary,
    /// `summary.json` is at least as new as the game log: the summary is the file's
    /// (recomputed the same way), and need not be written again.
    pub up_to_date: bool,
    /// Only whole pairs were counted: the run was stopped or is still running.
    pub whole_pairs_only: bool,
    /// Games the run planned (pairings x 2 x pairs, or its shard's part of them).
    pub planned: usize,
}

/// The summary of the run in `dir`, from `run.json` and `games.jsonl`. A run that was
/// stopped before its end or is still running (its summary older than its game log, or
/// counting other games) is summarized from the complete pairs of its log. The summary
/// always counts the games its `summary.json` counts: every game of a finished run, as the
/// match did, and the whole pairs of a stopped one. The game log is only read, so a match
/// still running keeps appending to it.
pub fn of_run<G: Game>(dir: &RunDir) -> Result<RunSummary> {
    let up_to_date = dir.summary_is_current();
    let info = dir.read_info()?;
    let entrants = entrants_of(&info)?;
    let pairings = info.mode.pairings(entrants.len());
    let records: Vec<GameRecord<G>> = record::read(&dir.games())?;
    let summarized_games = if up_to_date {
        let path = dir.summary();
        let text = std::fs::read_to_string(&path)
            .with_context(|| format!("reading {}", path.display()))?;
        let summary: serde_json::Value =
            serde_json::from_str(&text).with_context(|| format!("parsing {}", path.display()))?;
        summary["games"].as_u64()
    } else {
        None
    };
    // Only whole pairs unless the match itself summarized every game: a board played in one
    // colour only would bias the score.
    let whole_pairs_only = summarized_games != Some(records.len() as u64);
    let records = if whole_pairs_only {
        record::whole_pairs(records)
    } else {
        records
    };
    let mut summary = summarize(
        info.mode,
        &entrants,
        &pairings,
        &records,
        info.sprt.as_ref(),
        SprtReading::of(&info),
    );
    if let Some(m) = &info.merged {
        summary.missing_games = Some(m.missing_games);
        summary.missing_shards = Some(m.missing_shards.clone());
    }
    let planned = match &info.merged {
        Some(_) => pairings.len() as u64 * 2 * info.pairs as u64,
        None => schedule::shard_games(info.shard(), pairings.len(), info.pairs),
    };
    Ok(RunSummary {
        summary,
        up_to_date,
        whole_pairs_only,
        planned: planned as usize,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::connect4::Connect4;
    use crate::players::PlayerSpec;
    use crate::record::GameResult;
    use std::path::PathBuf;

    fn entrant(name: &str) -> Entrant {
        Entrant {
            name: name.into(),
            path: PathBuf::from(format!("{name}.so")),
            spec: PlayerSpec::CourseAbi {
                library: PathBuf::from(format!("{name}.so")),
                env: Vec::new(),
            },
        }
    }

    /// Game `game` of board `pair` in gauntlet pairing `pairing` (the hero against
    /// opponent `pairing + 1`), won by the opponent or not.
    fn game(pairing: usize, pair: u32, game: u8, opponent_wins: bool) -> GameRecord<Connect4> {
        let (first, second) = if game == 0 {
            ("hero".to_string(), format!("o{pairing}"))
        } else {
            (format!("o{pairing}"), "hero".to_string())
        };
        // Game 0: the hero moves first, so the opponent's win is the second mover's.
        let result = match (game == 0, opponent_wins) {
            (true, true) | (false, false) => GameResult::SecondWins,
            _ => GameResult::FirstWins,
        };
        GameRecord {
            first_path: PathBuf::from(&first),
            second_path: PathBuf::from(&second),
            first,
            second,
            result,
            board_seed: u64::from(pair),
            ..GameRecord::example(pairing, pair, game)
        }
    }

    #[test]
    fn fixed_colours_form_no_pairs_and_keep_the_games_figures() {
        // A match under --fixed-colours: the hero first in both games of each board,
        // winning 3 of the 4 games. The W/D/L, Elo and LOS are the games'; no board is a
        // pair (both games in one colour), so the pentanomial counts and the SPRT see none.
        let entrants = [entrant("hero"), entrant("o0")];
        let pairings = Mode::Match.pairings(2);
        let fixed = |pair: u32, game: u8, hero_wins: bool| GameRecord {
            first: "hero".into(),
            second: "o0".into(),
            first_path: "hero".into(),
            second_path: "o0".into(),
            result: if hero_wins {
                GameResult::FirstWins
            } else {
                GameResult::SecondWins
            },
            ..GameRecord::<Connect4>::example(0, pair, game)
        };
        let records = vec![
            fixed(0, 0, true),
            fixed(0, 1, true),
            fixed(1, 0, true),
            fixed(1, 1, false),
        ];
        let sprt = crate::stats::parse_sprt("elo0=0 elo1=10 alpha=0.05 beta=0.05").unwrap();
        let s = summarize(
            Mode::Match,
            &entrants,
            &pairings,
            &records,
            Some(&sprt),
            SprtReading::Sequential,
        );
        let p = &s.pairings[0];
        assert!(p.fixed_colours);
        assert_eq!((p.wdl.wins, p.wdl.draws, p.wdl.losses), (3, 0, 1));
        assert_eq!(p.penta, [0; 5]);
        assert!(p.elo.elo.is_some_and(|e| e > 0.0), "{:?}", p.elo);
        assert_eq!(p.elo_pentanomial.elo, None);
        assert_eq!(
            (p.nelo_pentanomial.elo, p.nelo_pentanomial.margin95),
            (None, None)
        );
        assert_eq!(s.sprt.as_ref().unwrap().pairs, 0);
        assert_eq!(s.players[0].as_first.wins, 3);
        let json = serde_json::to_string(&s).unwrap();
        assert!(json.contains(r#""fixed_colours":true"#), "{json}");
        let table = crate::report::table::render(&s);
        assert!(
            table.contains(
                "hero vs o0: 3-0-1  Elo +190.8 ± inf  LOS 0.84  colours fixed (hero first in every game): no pentanomial pairs"
            ),
            "{table}"
        );
        // The same games with colours swapped in each board's second game form two pairs.
        let swapped: Vec<_> = [(0, 0, true), (0, 1, false), (1, 0, true), (1, 1, true)]
            .into_iter()
            .map(|(pair, g, opponent_wins)| game(0, pair, g, opponent_wins))
            .collect();
        let s = summarize(
            Mode::Match,
            &entrants,
            &pairings,
            &swapped,
            None,
            SprtReading::Sequential,
        );
        assert!(!s.pairings[0].fixed_colours);
        assert_eq!(s.pairings[0].penta.iter().sum::<u64>(), 2);
        assert!(!serde_json::to_string(&s).unwrap().contains("fixed_colours"));
    }

    #[test]
    fn gauntlet_opponents_compare_board_by_board_through_the_hero() {
        let entrants = [entrant("hero"), entrant("o0"), entrant("o1")];
        let pairings = Mode::Gauntlet.pairings(3);
        let mut records = Vec::new();
        // o0: both games of board 0, one of board 1, none of board 2.
        for (pair, wins) in [(0, [true, true]), (1, [true, false]), (2, [false, false])] {
            for g in 0..2 {
                records.push(game(0, pair, g, wins[g as usize]));
            }
        }
        // o1: one game of board 0, none of board 1; board 2 only half played.
        for (pair, wins) in [(0, [false, true]), (1, [false, false])] {
            for g in 0..2 {
                records.push(game(1, pair, g, wins[g as usize]));
            }
        }
        records.push(game(1, 2, 0, true));
        let s = summarize(
            Mode::Gauntlet,
            &entrants,
            &pairings,
            &records,
            None,
            SprtReading::Sequential,
        );
        assert_eq!(s.comparisons.len(), 1);
        let c = &s.comparisons[0];
        assert_eq!(
            (c.a.as_str(), c.b.as_str(), c.via.as_str()),
            ("o0", "o1", "hero")
        );
        // Boards 0 and 1 only: o0 scored 1 and 0.5 per game there, o1 0.5 and 0.
        assert_eq!(c.boards, 2);
        assert_eq!(c.score_diff_pct, 50.0);
        assert_eq!((c.margin95_pct, c.los), (Some(0.0), 1.0));
        let table = crate::report::table::render(&s);
        assert!(
            table.contains("through hero on the same boards")
                && table.contains("o0 - o1: +50.0 ± 0.0 points over 2 boards  LOS 1.00"),
            "{table}"
        );
        // A pool of five makes ten pairs: the table only says where they are.
        let pool: Vec<Entrant> = ["hero", "o0", "o1", "o2", "o3", "o4"].map(entrant).to_vec();
        let many = summarize(
            Mode::Gauntlet,
            &pool,
            &Mode::Gauntlet.pairings(pool.len()),
            &records,
            None,
            SprtReading::Sequential,
        );
        assert_eq!(many.comparisons.len(), 10);
        let table = crate::report::table::render(&many);
        assert!(
            table.contains("10 pairs of opponents compared through hero")
                && !table.contains("o0 - o1"),
            "{table}"
        );
        // Not for a match.
        let m = summarize(
            Mode::Match,
            &entrants[..2],
            &Mode::Match.pairings(2),
            &records[..6],
            None,
            SprtReading::Sequential,
        );
        assert!(m.comparisons.is_empty());
    }

    #[test]
    fn pooled_runs_with_board_numbers_past_u32_are_refused() {
        // Found by probing the judge's file readers the way the fuzz target does: a board
        // numbered u32::MAX overflowed the numbering that keeps the runs' boards apart.
        let tmp = tempfile::tempdir().unwrap();
        let mut dirs = Vec::new();
        for (k, pair) in [(0, 3), (1, u32::MAX)] {
            let dir = RunDir::at(tmp.path().join(format!("r{k}")));
            std::fs::create_dir(dir.path()).unwrap();
            dir.write_info(&RunInfo::example(Mode::Match, &["a", "b"], None))
                .unwrap();
            let mut log = String::new();
            for g in 0..2 {
                let r = GameRecord::example(0, pair, g);
                log += &(serde_json::to_string(&r).unwrap() + "\n");
            }
            std::fs::write(dir.games(), log).unwrap();
            dirs.push(dir);
        }
        let (summary, _) = of_runs::<Connect4>(&dirs[..1]).unwrap();
        assert_eq!(summary.games, 2);
        let err = of_runs::<Connect4>(&dirs).unwrap_err().to_string();
        assert!(err.contains("board numbers too large to pool"), "{err}");
        dirs.reverse();
        assert!(of_runs::<Connect4>(&dirs).is_err());
        // A run with fixed colours is not pooled with one whose colours swapped (the
        // colours are read before the boards).
        dirs.reverse();
        let mut fixed = RunInfo::example(Mode::Match, &["a", "b"], None);
        fixed.colours = schedule::Colours::Fixed;
        dirs[1].write_info(&fixed).unwrap();
        let err = of_runs::<Connect4>(&dirs).unwrap_err().to_string();
        assert!(
            err.contains("r1: played with colours fixed")
                && err.contains("r0 with colours swapped"),
            "{err}"
        );
    }

    #[test]
    fn cpu_time_is_averaged_over_the_moves_measured_and_absent_when_none_was() {
        let entrants = [entrant("a"), entrant("b")];
        // `a` made moves 0 and 2, the second unmeasured (its host died, say); `b` move 1,
        // unmeasured (a program).
        let records = [GameRecord {
            cpu_ms: vec![Some(0.05), None, None],
            ..GameRecord::example(0, 0, 0)
        }];
        let s = summarize(
            Mode::Match,
            &entrants,
            &Mode::Match.pairings(2),
            &records,
            None,
            SprtReading::Sequential,
        );
        let player = |name: &str| s.players.iter().find(|p| p.name == name).unwrap();
        assert_eq!(player("a").cpu_ms_mean, Some(0.05));
        assert_eq!(player("b").cpu_ms_mean, None);
        assert_eq!(
            (player("a").peak_rss_mb, player("b").peak_rss_mb),
            (Some(2.0), None)
        );
        let table = crate::report::table::render(&s);
        let row = |name: &str| {
            table
                .lines()
                .skip_while(|l| !l.starts_with("time, memory"))
                .find(|l| l.split_whitespace().next() == Some(name))
                .unwrap()
                .split_whitespace()
                .collect::<Vec<_>>()
        };
        // CPU 0.05 ms to one place, and 2048 KiB.
        assert_eq!(row("a")[3..], ["0.1", "2.0"], "{table}");
        assert_eq!(row("b")[3..], ["-", "-"], "{table}");
    }
}
