//! The judge's commands, as the binary calls them with plain options: this is where a
//! tournament is wired to its run directory, its players and its observers (game log,
//! progress bar, report), which the tournament itself knows only as traits.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use anyhow::{Context, Result, bail};

use crate::games::connect4::Connect4;
use crate::players::{self, LogSink, ProcessSettings, Roster};
use crate::record::GameLog;
use crate::report::progress::Progress;
use crate::report::{ReportWriter, html, table};
use crate::results;
use crate::run_dir::{RunDir, RunInfo};
use crate::schedule::{self, Mode};
use crate::stats::SprtParams;
use crate::tournament::{self, Plan, Settings};

/// Each player's captured stdout+stderr is cut at this many bytes per run.
const LOG_CAP_BYTES: u64 = 1 << 20;

/// A tournament as asked for on the command line.
#[derive(Debug, Clone)]
pub struct TournamentOptions {
    /// Who meets whom.
    pub mode: Mode,
    /// The players as given (`LIB.so`, `LIB.so@KEY=VALUE,...`), pools already expanded.
    pub players: Vec<PathBuf>,
    /// Boards per pairing; each board is played twice, colours swapped.
    pub pairs: u32,
    /// Seed for the boards (default: from the clock, printed and recorded).
    pub seed: Option<u64>,
    /// Wall-clock limit per move, ms.
    pub move_limit_ms: u64,
    /// Games played at once (default: the number of cores).
    pub concurrency: Option<usize>,
    /// Address-space limit of each player's process, MiB (0: none).
    pub memory_limit_mb: u64,
    /// One process per player per worker across games.
    pub reuse_process: bool,
    /// Run directory (default: a fresh one under `runs/`).
    pub out: Option<PathBuf>,
    /// Continue the run in this directory instead.
    pub resume: Option<PathBuf>,
    /// No progress bar.
    pub quiet: bool,
    /// Stop a match once this SPRT decides.
    pub sprt: Option<SprtParams>,
}

/// `judge match`, `judge round-robin`, `judge gauntlet`: plays the tournament into its
/// run directory, then writes the summary and the report and prints the table.
pub fn tournament(opts: &TournamentOptions) -> Result<()> {
    let mode = opts.mode;
    if opts.players.len() < 2 {
        bail!("{mode} needs at least two libraries");
    }
    players::sweep_stale_scratch();
    let entrants = schedule::entrants(&opts.players)?;
    let pairings = mode.pairings(entrants.len());
    let (dir, seed) = match &opts.resume {
        Some(root) => {
            let (dir, info) = RunDir::resume(root, mode, &opts.players, opts.seed)?;
            (dir, info.seed)
        }
        None => (
            RunDir::create(opts.out.as_deref(), mode)?,
            opts.seed.unwrap_or_else(clock_seed),
        ),
    };
    dir.write_info(&RunInfo {
        mode,
        players: opts.players.clone(),
        names: entrants.iter().map(|e| e.name.clone()).collect(),
        seed,
        pairs: opts.pairs,
        move_limit_ms: opts.move_limit_ms,
        memory_limit_mb: opts.memory_limit_mb,
        reuse_process: opts.reuse_process,
        judge_version: env!("CARGO_PKG_VERSION").to_string(),
        sprt: opts.sprt,
    })?;
    std::fs::create_dir_all(dir.logs())
        .with_context(|| format!("creating {}", dir.logs().display()))?;
    let logs = entrants
        .iter()
        .map(|e| {
            let path = dir.player_log(&e.name);
            LogSink::open(&path, LOG_CAP_BYTES)
                .map(Arc::new)
                .with_context(|| format!("opening {}", path.display()))
        })
        .collect::<Result<Vec<_>>>()?;
    let logged = if opts.resume.is_some() {
        dir.keep_whole_pairs()?
    } else {
        Vec::new()
    };
    let settings = Settings {
        move_limit: Duration::from_millis(opts.move_limit_ms),
        concurrency: opts
            .concurrency
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())),
        reuse_process: opts.reuse_process,
        seed,
        pairs: opts.pairs,
        sprt: opts.sprt,
    };
    let plan = Plan::new(&Connect4, &pairings, &settings, logged);
    eprintln!(
        "judge {mode}: {} players, {} games to play ({} already logged), seed {seed}, concurrency {}, run directory {}",
        entrants.len(),
        plan.jobs.len(),
        plan.logged.len(),
        settings.concurrency,
        dir.path().display()
    );
    let roster = Roster::new(
        entrants.iter().map(|e| e.spec.clone()).collect(),
        logs,
        ProcessSettings::current(opts.memory_limit_mb).context("locating the judge executable")?,
    );
    let mut progress = Progress::new(
        (plan.logged.len() + plan.jobs.len()) as u64,
        plan.logged.len() as u64,
        &entrants[0].name,
    );
    if opts.quiet {
        progress.hide();
    }
    let mut log = GameLog::open(&dir.games())?;
    let mut report = ReportWriter {
        game: &Connect4,
        dir: &dir,
        mode,
        entrants: &entrants,
        pairings: &pairings,
        sprt: opts.sprt.as_ref(),
    };
    tournament::play(
        &Connect4,
        &settings,
        &entrants,
        &roster,
        plan,
        &mut [&mut log, &mut progress, &mut report],
    )?;
    Ok(())
}

/// A seed from the clock and the process id, for runs without `--seed`.
fn clock_seed() -> u64 {
    let t = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap_or_default();
    t.as_nanos() as u64 ^ (std::process::id() as u64) << 32
}

/// `judge report DIR`: prints the run's table (for a run that was stopped before its end,
/// after writing its summary from the game log's whole pairs), writes `report.html` again
/// and prints its path.
pub fn report(dir: &Path) -> Result<()> {
    let dir = RunDir::at(dir);
    let run = results::of_run::<Connect4>(&dir)?;
    if !run.up_to_date {
        dir.write_summary(&run.summary)?;
    }
    print!("{}", table::render(&run.summary));
    if run.whole_pairs_only {
        println!(
            "\n{} of {} planned games, whole pairs only (the run was stopped or is still running)",
            run.summary.games, run.planned
        );
    }
    println!("{}", html::write(&Connect4, &dir)?.display());
    Ok(())
}
