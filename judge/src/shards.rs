//! The parts of a sharded run read together: checking that run directories are shards of
//! one schedule played by the same player files, and putting their games back together
//! with nothing lost and nothing counted twice. `judge merge` and `judge status` read
//! runs through this module; it only reads run directories.
//!
//! What makes a set of parts one run: the same seed and the same full schedule (its
//! digest in `run.json`), the same player files (their SHA-256), the same settings and
//! SPRT parameters, and shard numbers of one split with no number twice. Every game a
//! part logged must be one of its shard's games; only whole boards (both colours) are
//! taken, so a shard that was stopped contributes its complete pairs.

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};

use crate::games::Game;
use crate::record::{self, GameRecord};
use crate::run_dir::{RunDir, RunInfo};
use crate::schedule::{self, Entrant, Pairing, Shard};
use crate::stats::Penta;

/// One part: a run directory and what it holds.
#[derive(Debug)]
pub struct Part<G: Game> {
    /// Its directory, as given.
    pub dir: PathBuf,
    /// Its `run.json`.
    pub info: RunInfo,
    /// Its shard ([`Shard::WHOLE`] for an unsharded run).
    pub shard: Shard,
    /// Its whole boards' games.
    pub records: Vec<GameRecord<G>>,
    /// Games its log holds, half-played boards included.
    pub logged: u64,
    /// Games its shard plans.
    pub planned: u64,
}

impl<G: Game> Part<G> {
    /// Whether the part played every game of its shard.
    pub fn complete(&self) -> bool {
        self.records.len() as u64 == self.planned
    }
}

/// Parts checked to be shards of one run.
#[derive(Debug)]
pub struct Parts<G: Game> {
    /// The run as the first part describes it (seed, players, settings, SPRT).
    pub info: RunInfo,
    /// The players.
    pub entrants: Vec<Entrant>,
    /// Who meets whom.
    pub pairings: Vec<Pairing>,
    /// The parts, in shard order.
    pub parts: Vec<Part<G>>,
    /// How many shards the schedule was split into.
    pub count: u32,
    /// Shard numbers not among the parts.
    pub missing_shards: Vec<u32>,
    /// Games in the full schedule.
    pub planned: u64,
}

impl<G: Game> Parts<G> {
    /// Every part's games, in the order an unsharded run plays them (board by board,
    /// pairing by pairing, colours in order).
    pub fn records(&self) -> Vec<GameRecord<G>> {
        let mut all: Vec<GameRecord<G>> = self
            .parts
            .iter()
            .flat_map(|p| p.records.iter().cloned())
            .collect();
        all.sort_by_key(|r| (r.pair, r.pairing, r.game));
        all
    }

    /// Games of the full schedule no part holds.
    pub fn missing_games(&self) -> u64 {
        let have: u64 = self.parts.iter().map(|p| p.records.len() as u64).sum();
        self.planned - have
    }

    /// Pentanomial counts of `pairing`, each part's counted on its own and summed.
    pub fn pooled_penta(&self, pairing: usize) -> Penta {
        let mut sum = [0u64; 5];
        for p in &self.parts {
            let Penta(c) = crate::results::penta_of(&p.records, pairing);
            for (s, c) in sum.iter_mut().zip(c) {
                *s += c;
            }
        }
        Penta(sum)
    }

    /// What is missing, one line each (empty when the parts are the whole schedule):
    /// shards not given, and parts that did not finish (only their whole boards count).
    pub fn warnings(&self) -> Vec<String> {
        let mut out = Vec::new();
        if !self.missing_shards.is_empty() {
            let list: Vec<String> = self
                .missing_shards
                .iter()
                .map(|i| format!("{i}/{}", self.count))
                .collect();
            out.push(format!("missing shards: {}", list.join(", ")));
        }
        for p in self.parts.iter().filter(|p| !p.complete()) {
            let half = p.logged - p.records.len() as u64;
            out.push(format!(
                "shard {} ({}) is incomplete: {} of {} games, whole boards only{}",
                p.shard,
                p.dir.display(),
                p.records.len(),
                p.planned,
                if half > 0 {
                    format!(" ({half} game(s) of half-played boards left out)")
                } else {
                    String::new()
                }
            ));
        }
        if !out.is_empty() {
            out.push(format!(
                "{} of {} games of the schedule are missing",
                self.missing_games(),
                self.planned
            ));
        }
        out
    }
}

/// Reads the run directories `dirs` as shards of one run and checks that they are: see
/// the module's documentation. Refuses, naming the directories, a directory given twice,
/// a shard number given twice, a game in two parts, parts from different seeds or
/// schedules, split differently, with different player files, settings or SPRT, a merged
/// run, and a game that is not its shard's.
pub fn open<G: Game>(dirs: &[PathBuf]) -> Result<Parts<G>> {
    if dirs.is_empty() {
        bail!("no run directories given");
    }
    refuse_a_directory_twice(dirs)?;
    let mut parts: Vec<Part<G>> = dirs.iter().map(|d| read_part(d)).collect::<Result<_>>()?;
    let first = &parts[0];
    for p in &parts[1..] {
        check_same_run(first, p)?;
    }
    let info = first.info.clone();
    let count = first.shard.count();
    let by_shard = shard_numbers(&parts)?;
    let entrants = schedule::entrants(&info.players)?;
    let pairings = info.mode.pairings(entrants.len());
    // Read the games; every one must be its part's shard's, and no id may be in two parts.
    let mut owner: HashMap<String, PathBuf> = HashMap::new();
    for p in &mut parts {
        read_games(p, &info, pairings.len(), &mut owner)?;
    }
    parts.sort_by_key(|p| p.shard);
    let missing_shards = (1..=count).filter(|i| !by_shard.contains_key(i)).collect();
    Ok(Parts {
        planned: pairings.len() as u64 * 2 * info.pairs as u64,
        info,
        entrants,
        pairings,
        parts,
        count,
        missing_shards,
    })
}

/// Refuses a run directory given twice (under two names too).
fn refuse_a_directory_twice(dirs: &[PathBuf]) -> Result<()> {
    let mut seen: HashMap<PathBuf, &Path> = HashMap::new();
    for d in dirs {
        let canon = d
            .canonicalize()
            .with_context(|| format!("run directory {}", d.display()))?;
        if let Some(first) = seen.insert(canon, d) {
            bail!(
                "shard given twice: {} and {} are the same run directory",
                first.display(),
                d.display()
            );
        }
    }
    Ok(())
}

/// The part in `dir`, its games not read yet; a merged run, or one whose `run.json` has
/// no schedule digest, is refused.
fn read_part<G: Game>(dir: &Path) -> Result<Part<G>> {
    let info = RunDir::at(dir).read_info()?;
    if info.merged.is_some() {
        bail!(
            "{} is a merged run; give the shards' own directories",
            dir.display()
        );
    }
    if info.schedule_sha256.is_none() {
        bail!(
            "{}: run.json has no schedule digest (written by an older judge), so it cannot be checked against other shards",
            dir.display()
        );
    }
    Ok(Part {
        dir: dir.to_path_buf(),
        shard: info.shard(),
        info,
        records: Vec::new(),
        logged: 0,
        planned: 0,
    })
}

/// Each part's directory by its shard number; a number held by two parts is refused.
fn shard_numbers<G: Game>(parts: &[Part<G>]) -> Result<BTreeMap<u32, PathBuf>> {
    let mut by_shard: BTreeMap<u32, PathBuf> = BTreeMap::new();
    for p in parts {
        if let Some(other) = by_shard.insert(p.shard.index(), p.dir.clone()) {
            bail!(
                "shard {} given twice: {} and {} both hold it",
                p.shard,
                other.display(),
                p.dir.display()
            );
        }
    }
    Ok(by_shard)
}

/// Reads part `p`'s games (of a run `info` with `pairings` pairings): each must be one of
/// its shard's and in no other part (`owner`: which part holds each game id so far). Keeps
/// its whole boards.
fn read_games<G: Game>(
    p: &mut Part<G>,
    info: &RunInfo,
    pairings: usize,
    owner: &mut HashMap<String, PathBuf>,
) -> Result<()> {
    let logged: Vec<GameRecord<G>> = record::read(&RunDir::at(&p.dir).games())?;
    p.logged = logged.len() as u64;
    for r in &logged {
        if let Some(other) = owner.get(&r.id).filter(|o| **o != p.dir) {
            bail!(
                "game {} is in two parts: {} and {} (overlapping shards)",
                r.id,
                other.display(),
                p.dir.display()
            );
        }
        owner.insert(r.id.clone(), p.dir.clone());
        let expected = r.pairing < pairings
            && r.pair < info.pairs
            && r.game <= 1
            && r.seed == info.seed
            && r.board_seed == schedule::board_seed(info.seed, r.pair)
            && p.shard.owns(r.pairing, r.pair, pairings);
        if !expected {
            bail!(
                "{}: game {} is not one of shard {}'s games (seed {}, {} boards)",
                p.dir.display(),
                r.id,
                p.shard,
                info.seed,
                info.pairs
            );
        }
    }
    p.records = record::whole_pairs(logged);
    p.planned = schedule::shard_games(p.shard, pairings, info.pairs);
    Ok(())
}

/// Refuses `b` unless it is a shard of the same run as `a`, saying what differs.
fn check_same_run<G: Game>(a: &Part<G>, b: &Part<G>) -> Result<()> {
    check_same_schedule(a, b)?;
    check_same_players_and_settings(a, b)
}

/// Refuses `b` unless it is a shard of `a`'s schedule: the same seed, game and schedule,
/// split into as many shards.
fn check_same_schedule<G: Game>(a: &Part<G>, b: &Part<G>) -> Result<()> {
    let (da, db) = (a.dir.display(), b.dir.display());
    let (ia, ib) = (&a.info, &b.info);
    if ia.seed != ib.seed {
        bail!(
            "{db} was played with seed {} and {da} with seed {}: shards from another seed are not part of this run",
            ib.seed,
            ia.seed
        );
    }
    if (&ia.game, ia.rule, ia.go) != (&ib.game, ib.rule, ib.go) {
        bail!(
            "{db} plays {} and {da} {}: shards of another game are not part of this run",
            ib.game()?.title(),
            ia.game()?.title()
        );
    }
    if ia.colours != ib.colours {
        bail!(
            "{db} was played with colours {} and {da} with colours {}: shards with other colours (--fixed-colours) are not part of this run",
            ib.colours.name(),
            ia.colours.name()
        );
    }
    if ia.schedule_sha256 != ib.schedule_sha256 {
        bail!(
            "{db} and {da} have different schedules (mode, players or --pairs differ): {} `{}` {:?} vs {} `{}` {:?}",
            ib.pairs,
            ib.mode,
            ib.players,
            ia.pairs,
            ia.mode,
            ia.players
        );
    }
    if a.shard.count() != b.shard.count() {
        bail!(
            "{db} is shard {} and {da} shard {}: the schedule was split differently",
            b.shard,
            a.shard
        );
    }
    Ok(())
}

/// Refuses `b` unless it was played as `a` was: the same player files, SPRT, limits and
/// game clock.
fn check_same_players_and_settings<G: Game>(a: &Part<G>, b: &Part<G>) -> Result<()> {
    let (da, db) = (a.dir.display(), b.dir.display());
    let (ia, ib) = (&a.info, &b.info);
    for (fa, fb) in ia.player_files.iter().zip(&ib.player_files) {
        if fa.sha256 != fb.sha256 {
            bail!(
                "player file {} differs between {da} (sha256 {}) and {db} (sha256 {}): shards played with another build",
                fb.path.display(),
                &fa.sha256[..12.min(fa.sha256.len())],
                &fb.sha256[..12.min(fb.sha256.len())]
            );
        }
    }
    if ia.player_files.len() != ib.player_files.len() {
        bail!("{db} and {da} record different player files");
    }
    if ia.sprt != ib.sprt {
        let text = |p: &Option<crate::stats::SprtParams>| {
            p.map_or("no --sprt".to_string(), |p| format!("--sprt {p}"))
        };
        bail!(
            "{db} ({}) and {da} ({}) test different SPRT parameters",
            text(&ib.sprt),
            text(&ia.sprt)
        );
    }
    let settings = |i: &RunInfo| (i.move_limit_ms, i.memory_limit_mb, i.reuse_process);
    if settings(ia) != settings(ib) {
        bail!(
            "{db} and {da} were played under different settings (move limit {} vs {} ms, memory limit {} vs {} MiB, reuse-process {} vs {})",
            ib.move_limit_ms,
            ia.move_limit_ms,
            ib.memory_limit_mb,
            ia.memory_limit_mb,
            ib.reuse_process,
            ia.reuse_process
        );
    }
    if ia.clock != ib.clock {
        let text = |c: Option<crate::clock::ClockSettings>| {
            c.map_or("no clock".to_string(), |c| format!("clock {c}"))
        };
        bail!(
            "{db} ({}) and {da} ({}) were played on different game clocks",
            text(ib.clock),
            text(ia.clock)
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::connect4::Connect4;
    use crate::schedule::Mode;

    #[test]
    fn a_game_numbered_past_1_is_no_game_of_the_shard() {
        // Found by probing the judge's file readers the way the fuzz target does: games 2
        // and 3 of a board were counted, so a part held more games than its shard plans
        // and the count of missing games underflowed.
        let tmp = tempfile::tempdir().unwrap();
        let dir = RunDir::at(tmp.path());
        let mut info = RunInfo::example(Mode::Match, &["a", "b"], None);
        info.schedule_sha256 = Some("00".into());
        dir.write_info(&info).unwrap();
        let log = |games: &[u8]| -> String {
            games
                .iter()
                .map(|&g| {
                    let r = GameRecord {
                        seed: info.seed,
                        board_seed: schedule::board_seed(info.seed, 0),
                        ..GameRecord::example(0, 0, g)
                    };
                    serde_json::to_string(&r).unwrap() + "\n"
                })
                .collect()
        };
        let dirs = [tmp.path().to_path_buf()];
        std::fs::write(dir.games(), log(&[0, 1])).unwrap();
        let parts = open::<Connect4>(&dirs).unwrap();
        assert_eq!((parts.missing_games(), parts.planned), (2, 4));
        std::fs::write(dir.games(), log(&[0, 1, 2, 3])).unwrap();
        let err = open::<Connect4>(&dirs).unwrap_err().to_string();
        assert!(err.contains("is not one of shard 1/1's games"), "{err}");
    }
}
