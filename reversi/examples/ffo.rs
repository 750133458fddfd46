//! The FFO endgame benchmark: solves positions of Gunnar Andersson's FFO test suite (#40-#59,
//! `reversi/tests/data/ffo-40-59.txt`) exactly, one at a time, and prints for each the score
//! and move found, whether they are the published answer, the wall and CPU time and the nodes.
//!
//! ```sh
//! cargo run -p reversi --release --example ffo -- --limit-s 300 40-49   # 48 MiB table
//! cargo run -p reversi --release --example ffo -- --limit-s 1800 50 51
//! ```
//!
//! A position not solved within `--limit-s` seconds (CPU time of the solving thread on Linux,
//! else wall time; `--wall` forces wall time) is reported as not finished, with the nodes
//! searched until then. The exit status is 1 if any finished solve gave a wrong answer.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use clap::Parser;
use reversi::search::endgame::ffo::{FfoPosition, parse_suite};
use reversi::search::endgame::{Config, Solver, Weights};

/// Solves FFO endgame positions and prints time and nodes for each.
#[derive(Parser)]
struct Args {
    /// Positions: numbers (`45`) or ranges (`40-49`); default all in the file.
    positions: Vec<String>,
    /// Time limit per position, seconds (0: none): CPU seconds of the solving thread where
    /// Linux reports them (a shared machine's wall time overstates the work), else wall time.
    #[arg(long, default_value_t = 300)]
    limit_s: u64,
    /// Make `--limit-s` wall-clock seconds even where CPU time is available.
    #[arg(long)]
    wall: bool,
    /// Transposition table slots, as a power of two (24 bytes each: 21 is 48 MiB).
    #[arg(long, default_value_t = 21)]
    table_bits: u32,
    /// Ablation: empties from which the deep search (table, fastest-first, PVS) runs.
    #[arg(long, default_value_t = reversi::search::endgame::DEEP_MIN_EMPTIES)]
    deep_min: u32,
    /// Ablation: no stability cut-off.
    #[arg(long)]
    no_stability: bool,
    /// Ablation: no parity in move ordering.
    #[arg(long)]
    no_parity: bool,
    /// Ablation: no enhanced transposition cut-offs.
    #[arg(long)]
    no_etc: bool,
    /// Tuning: empties from which the ordering looks one ply further.
    #[arg(long, default_value_t = reversi::search::endgame::LOOKAHEAD_EMPTIES)]
    lookahead_empties: u32,
    /// Tuning: the ordering weights `mobility,potential,corner,parity,lookahead`.
    #[arg(long, value_parser = parse_weights)]
    weights: Option<Weights>,
    /// The suite file.
    #[arg(long, default_value = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/ffo-40-59.txt"))]
    file: PathBuf,
}

/// Whether `number` is picked by the `positions` arguments (none: every position).
fn picked(positions: &[String], number: u32) -> Result<bool, String> {
    if positions.is_empty() {
        return Ok(true);
    }
    for p in positions {
        let (lo, hi) = p.split_once('-').unwrap_or((p, p));
        let bad = || format!("bad position {p:?}: expected N or N-M");
        let (lo, hi): (u32, u32) = (
            lo.parse().map_err(|_| bad())?,
            hi.parse().map_err(|_| bad())?,
        );
        if (lo..=hi).contains(&number) {
            return Ok(true);
        }
    }
    Ok(false)
}

/// Parses `--weights`: five comma-separated integers.
fn parse_weights(text: &str) -> Result<Weights, String> {
    let v: Vec<i32> = text
        .split(',')
        .map(|t| t.trim().parse().map_err(|_| format!("bad weight {t:?}")))
        .collect::<Result<_, _>>()?;
    let [mobility, potential, corner, parity, lookahead] = v[..] else {
        return Err("expected 5 weights: mobility,potential,corner,parity,lookahead".into());
    };
    Ok(Weights {
        mobility,
        potential,
        corner,
        parity,
        lookahead,
    })
}

/// CPU time of this thread so far (Linux's `/proc/thread-self/schedstat`, nanoseconds on
/// the CPU), or `None` elsewhere: on a shared machine wall time overstates the work.
fn cpu_seconds() -> Option<f64> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns: f64 = text.split_whitespace().next()?.parse().ok()?;
    Some(ns / 1e9)
}

fn run(args: &Args) -> Result<bool, String> {
    let text =
        std::fs::read_to_string(&args.file).map_err(|e| format!("{}: {e}", args.file.display()))?;
    let suite: Vec<FfoPosition> = parse_suite(&text)?;
    let limit = (args.limit_s > 0).then(|| Duration::from_secs(args.limit_s));
    let mut solver = Solver::with_config(Config {
        table_bits: args.table_bits,
        deep_min_empties: args.deep_min,
        stability: !args.no_stability,
        parity: !args.no_parity,
        etc: !args.no_etc,
        weights: args.weights.unwrap_or(Weights::DEFAULT),
        lookahead_empties: args.lookahead_empties,
    });
    let mut all_right = true;
    println!(
        "| # | empties | score (published) | move (published) | right | wall s | CPU s | nodes | \
         Mnodes/CPU s |"
    );
    println!("|---|---|---|---|---|---|---|---|---|");
    for p in &suite {
        if !picked(&args.positions, p.number)? {
            continue;
        }
        let cpu_before = cpu_seconds();
        let use_cpu = cpu_before.is_some() && !args.wall;
        if let (true, Some(limit), Some(start)) = (use_cpu, limit, cpu_before) {
            let end = start + limit.as_secs_f64();
            solver.set_stop(Some(Box::new(move || {
                cpu_seconds().is_some_and(|t| t >= end)
            })));
        }
        let run = p.solve(&mut solver, if use_cpu { None } else { limit });
        let secs = run.elapsed.as_secs_f64();
        let cpu = match (cpu_before, cpu_seconds()) {
            (Some(a), Some(b)) => b - a,
            _ => secs,
        };
        let published = p
            .best
            .iter()
            .map(|m| m.to_string())
            .collect::<Vec<_>>()
            .join(",");
        let (score, mv, right) = match run.answer {
            Some(answer) => {
                let right = p.is_right(answer);
                all_right &= right;
                (
                    format!("{:+}", answer.0),
                    answer.1.to_string(),
                    if right { "yes" } else { "NO" },
                )
            }
            None => (
                format!(
                    "not finished within {} {} s",
                    args.limit_s,
                    if use_cpu { "CPU" } else { "wall" }
                ),
                "-".to_string(),
                "-",
            ),
        };
        println!(
            "| {} | {} | {score} ({:+}) | {mv} ({published}) | {right} | {secs:.1} | {cpu:.1} | {} | {:.2} |",
            p.number,
            p.position.empties(),
            p.score,
            run.nodes,
            run.nodes as f64 / cpu.max(1e-9) / 1e6
        );
    }
    Ok(all_right)
}

fn main() -> ExitCode {
    match run(&Args::parse()) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(e) => {
            eprintln!("ffo: {e}");
            ExitCode::from(2)
        }
    }
}
