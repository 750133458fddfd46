//! The three commands, wired: entrants and pairings (schedule), the run directory and
//! `--resume`, the worker pool (runner), the game log, and the final report.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use anyhow::{Context, Result, bail};
use serde::{Deserialize, Serialize};

use crate::cli::{Common, GauntletArgs, MatchArgs, RoundRobinArgs};
use crate::game_log::{self, GameLog};
use crate::host::{HostConfig, LogSink};
use crate::report::{self, Progress};
use crate::runner::{self, RunSettings};
use crate::schedule::{self, Pairing};
use crate::stats::SprtParams;

/// Each library's captured stdout+stderr is cut at this many bytes per run.
const LOG_CAP_BYTES: u64 = 1 << 20;

/// What `run.json` records, so `--resume` can check it continues the same run.
#[derive(Debug, Serialize, Deserialize)]
struct RunInfo {
    mode: String,
    players: Vec<PathBuf>,
    names: Vec<String>,
    seed: u64,
    pairs: u32,
    move_limit_ms: u64,
    memory_limit_mb: u64,
    reuse_process: bool,
    judge_version: String,
    /// The `--sprt` parameters as given (runs written before it was recorded have none).
    #[serde(default)]
    sprt: Option<String>,
}

/// `judge match`.
pub fn run_match(args: MatchArgs) -> Result<()> {
    let sprt = args.sprt.as_deref().map(parse_sprt).transpose()?;
    run(
        "match",
        vec![args.a, args.b],
        pairings_of_mode("match"),
        &args.common,
        sprt,
    )
}

/// The pairings a mode plays among `n` entrants.
fn pairings_of_mode(mode: &str) -> fn(usize) -> Vec<Pairing> {
    match mode {
        "round-robin" => schedule::round_robin,
        "gauntlet" => schedule::gauntlet,
        _ => |_| vec![Pairing { a: 0, b: 1 }],
    }
}

/// `judge report`: prints the table of the run in `dir`. A run that was stopped before its
/// end or is still running (its summary older than its game log) first gets `summary.json`
/// built from `run.json` and the complete pairs of `games.jsonl`. The table always counts the
/// games its `summary.json` counts: every game of a finished run, as the match did, and the
/// whole pairs of a stopped one. The game log is only read, so a match still running keeps
/// appending to it.
pub fn summarize_run(dir: &Path) -> Result<()> {
    let summary_path = dir.join("summary.json");
    let log_path = dir.join("games.jsonl");
    let modified = |p: &Path| std::fs::metadata(p).and_then(|m| m.modified()).ok();
    let up_to_date = matches!(
        (modified(&summary_path), modified(&log_path)),
        (Some(summary), Some(log)) if summary >= log
    );
    let path = dir.join("run.json");
    let text =
        std::fs::read_to_string(&path).with_context(|| format!("reading {}", path.display()))?;
    let info: RunInfo =
        serde_json::from_str(&text).with_context(|| format!("parsing {}", path.display()))?;
    let entrants = schedule::entrants(&info.players)?;
    let pairings = pairings_of_mode(&info.mode)(entrants.len());
    let sprt = info
        .sprt
        .as_deref()
        .map(|s| crate::stats::parse_sprt(s).map_err(|e| anyhow::anyhow!("run.json sprt: {e}")))
        .transpose()?;
    let records = game_log::read(&log_path)?;
    let summarized_games = if up_to_date {
        let text = std::fs::read_to_string(&summary_path)
            .with_context(|| format!("reading {}", summary_path.display()))?;
        let summary: serde_json::Value = serde_json::from_str(&text)
            .with_context(|| format!("parsing {}", summary_path.display()))?;
        summary["games"].as_u64()
    } else {
        None
    };
    // Only whole pairs unless the match itself summarized every game: a board played in one
    // colour only would bias the score.
    let whole_pairs_only = summarized_games != Some(records.len() as u64);
    let records = if whole_pairs_only {
        game_log::whole_pairs(records)
    } else {
        records
    };
    let summary = report::summarize(&info.mode, &entrants, &pairings, &records, sprt.as_ref());
    if !up_to_date {
        std::fs::write(
            &summary_path,
            serde_json::to_string_pretty(&summary)? + "\n",
        )
        .context("writing summary.json")?;
    }
    print!("{}", report::render(&summary));
    if whole_pairs_only {
        println!(
            "\n{} of {} planned games, whole pairs only (the run was stopped or is still running)",
            records.len(),
            pairings.len() * 2 * info.pairs as usize
        );
    }
    Ok(())
}

/// `judge round-robin`.
pub fn run_round_robin(args: RoundRobinArgs) -> Result<()> {
    run(
        "round-robin",
        args.libs,
        pairings_of_mode("round-robin"),
        &args.common,
        None,
    )
}

/// `judge gauntlet`.
pub fn run_gauntlet(args: GauntletArgs) -> Result<()> {
    let mut paths = vec![args.lib];
    paths.extend(schedule::expand_pool(&args.vs)?);
    run(
        "gauntlet",
        paths,
        pairings_of_mode("gauntlet"),
        &args.common,
        None,
    )
}

/// Parses `--sprt elo0=.. elo1=.. alpha=.. beta=..` (the tokens may also be one
/// comma-separated argument).
fn parse_sprt(items: &[String]) -> Result<SprtParams> {
    crate::stats::parse_sprt(&items.join(" ")).map_err(|e| anyhow::anyhow!("--sprt: {e}"))
}

fn run(
    mode: &str,
    paths: Vec<PathBuf>,
    pairings_for: impl Fn(usize) -> Vec<Pairing>,
    common: &Common,
    sprt: Option<SprtParams>,
) -> Result<()> {
    if paths.len() < 2 {
        bail!("{mode} needs at least two libraries");
    }
    crate::host::sweep_stale_scratch();
    let entrants = schedule::entrants(&paths)?;
    let pairings = pairings_for(entrants.len());
    let (dir, seed) = prepare_dir(mode, &entrants, common)?;
    let info = RunInfo {
        mode: mode.to_string(),
        players: paths.clone(),
        names: entrants.iter().map(|e| e.name.clone()).collect(),
        seed,
        pairs: common.pairs,
        move_limit_ms: common.move_limit_ms,
        memory_limit_mb: common.memory_limit_mb,
        reuse_process: common.reuse_process,
        judge_version: env!("CARGO_PKG_VERSION").to_string(),
        sprt: sprt.as_ref().map(|p| {
            format!(
                "elo0={} elo1={} alpha={} beta={}",
                p.elo0, p.elo1, p.alpha, p.beta
            )
        }),
    };
    std::fs::write(
        dir.join("run.json"),
        serde_json::to_string_pretty(&info)? + "\n",
    )
    .context("writing run.json")?;
    let logs_dir = dir.join("logs");
    std::fs::create_dir_all(&logs_dir)
        .with_context(|| format!("creating {}", logs_dir.display()))?;
    let logs = entrants
        .iter()
        .map(|e| {
            let path = logs_dir.join(format!("{}.log", e.name.replace(['/', '#'], "_")));
            LogSink::open(&path, LOG_CAP_BYTES)
                .map(Arc::new)
                .with_context(|| format!("opening {}", path.display()))
        })
        .collect::<Result<Vec<_>>>()?;

    let log_path = dir.join("games.jsonl");
    let mut records = if common.resume.is_some() {
        game_log::keep_whole_pairs(&log_path)?
    } else {
        Vec::new()
    };
    let done: HashSet<(usize, u32)> = records.iter().map(|r| (r.pairing, r.pair)).collect();
    // Live, the test runs on all complete pairs so far; a resumed run reads the log as a
    // sequential test (stopping at the first deciding prefix), like the final report.
    let decided = |recs: &[game_log::GameRecord]| {
        sprt.as_ref()
            .is_some_and(|p| report::sprt_of(recs, 0, p).decision != "continue")
    };
    let decided_before = sprt
        .as_ref()
        .is_some_and(|p| report::sequential_sprt(&records, 0, p).decision != "continue");
    let jobs = if decided_before {
        Vec::new()
    } else {
        schedule::jobs(&pairings, common.pairs, seed, &done)
    };
    let concurrency = common
        .concurrency
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    eprintln!(
        "judge {mode}: {} players, {} games to play ({} already logged), seed {seed}, concurrency {concurrency}, run directory {}",
        entrants.len(),
        jobs.len(),
        records.len(),
        dir.display()
    );

    let settings = RunSettings {
        move_limit: Duration::from_millis(common.move_limit_ms),
        concurrency,
        reuse_process: common.reuse_process,
        host: HostConfig {
            exe: std::env::current_exe().context("locating the judge executable")?,
            memory_limit_mb: common.memory_limit_mb,
        },
        seed,
    };
    let mut progress = Progress::new(
        (records.len() + jobs.len()) as u64,
        records.len() as u64,
        &entrants[0].name,
    );
    if common.quiet {
        progress.hide();
    }
    let mut log = GameLog::open(&log_path)?;
    runner::run(&settings, &entrants, &logs, jobs, |rec| {
        log.append(&rec)?;
        progress.record(&rec);
        records.push(rec);
        Ok(decided(&records))
    })?;
    progress.finish();

    let summary = report::summarize(mode, &entrants, &pairings, &records, sprt.as_ref());
    std::fs::write(
        dir.join("summary.json"),
        serde_json::to_string_pretty(&summary)? + "\n",
    )
    .context("writing summary.json")?;
    crate::view::html::write(&dir)?;
    print!("{}", report::render(&summary));
    println!(
        "\nrun directory: {} (open report.html in a browser)",
        dir.display()
    );
    Ok(())
}

/// Creates or reopens the run directory; returns it with the seed to use.
fn prepare_dir(
    mode: &str,
    entrants: &[schedule::Entrant],
    common: &Common,
) -> Result<(PathBuf, u64)> {
    if let Some(dir) = &common.resume {
        let path = dir.join("run.json");
        let text = std::fs::read_to_string(&path)
            .with_context(|| format!("--resume: reading {}", path.display()))?;
        let info: RunInfo = serde_json::from_str(&text)
            .with_context(|| format!("--resume: parsing {}", path.display()))?;
        let paths: Vec<&Path> = entrants.iter().map(|e| e.path.as_path()).collect();
        let logged: Vec<&Path> = info.players.iter().map(|p| p.as_path()).collect();
        if info.mode != mode || paths != logged {
            bail!(
                "--resume {}: that run was `{}` with {:?}; give the same command and libraries",
                dir.display(),
                info.mode,
                info.players
            );
        }
        if common.seed.is_some_and(|s| s != info.seed) {
            bail!(
                "--resume {}: that run used --seed {}",
                dir.display(),
                info.seed
            );
        }
        return Ok((dir.clone(), info.seed));
    }
    let dir = match &common.out {
        Some(d) => d.clone(),
        None => fresh_dir(mode)?,
    };
    std::fs::create_dir_all(&dir)
        .with_context(|| format!("creating run directory {}", dir.display()))?;
    if dir.join("games.jsonl").exists() {
        bail!(
            "{} already holds a run (games.jsonl); use --resume {} to continue it or another --out",
            dir.display(),
            dir.display()
        );
    }
    let seed = common.seed.unwrap_or_else(|| {
        let t = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap_or_default();
        t.as_nanos() as u64 ^ (std::process::id() as u64) << 32
    });
    Ok((dir, seed))
}

/// `runs/YYYYMMDD-HHMMSS-MODE`, with a numeric suffix if taken.
fn fresh_dir(mode: &str) -> Result<PathBuf> {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap_or_default()
        .as_secs() as i64;
    let (days, rem) = (secs.div_euclid(86_400), secs.rem_euclid(86_400));
    let (y, m, d) = civil_from_days(days);
    let base = format!(
        "{y:04}{m:02}{d:02}-{:02}{:02}{:02}-{mode}",
        rem / 3600,
        rem / 60 % 60,
        rem % 60
    );
    let root = PathBuf::from("runs");
    let mut dir = root.join(&base);
    let mut k = 2;
    while dir.exists() {
        dir = root.join(format!("{base}-{k}"));
        k += 1;
    }
    Ok(dir)
}

/// Days since 1970-01-01 to (year, month, day), proleptic Gregorian (H. Hinnant).
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (yoe + era * 400 + i64::from(m <= 2), m, d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(19_723), (2024, 1, 1));
        assert_eq!(civil_from_days(11_016), (2000, 2, 29));
    }

    #[test]
    fn sprt_args() {
        let p = parse_sprt(&[
            "elo0=0".into(),
            "elo1=10".into(),
            "alpha=0.1".into(),
            "beta=0.05".into(),
        ])
        .unwrap();
        assert_eq!((p.elo0, p.elo1, p.alpha, p.beta), (0.0, 10.0, 0.1, 0.05));
        let p = parse_sprt(&["elo0=-5,elo1=5,alpha=0.05,beta=0.05".into()]).unwrap();
        assert_eq!((p.elo0, p.elo1), (-5.0, 5.0));
        assert!(parse_sprt(&["elo0=5".into(), "elo1=0".into()]).is_err());
        assert!(parse_sprt(&["gamma=1".into()]).is_err());
    }
}
