//! The FFO endgame benchmark: solves positions of Gunnar Andersson's FFO test suite (#40-#59,
//! `reversi/tests/data/ffo-40-59.txt`) exactly, one at a time, and prints for each the score
//! and move found, whether they are the published answer, the time and the nodes.
//!
//! ```sh
//! cargo run -p reversi --release --example ffo -- --limit-s 300 40-49
//! cargo run -p reversi --release --example ffo -- --limit-s 1800 50 51
//! ```
//!
//! A position not solved within `--limit-s` seconds is reported as not finished, with the
//! nodes searched until then. The exit status is 1 if any finished solve gave a wrong answer.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use clap::Parser;
use reversi::search::endgame::Solver;
use reversi::search::endgame::ffo::{FfoPosition, parse_suite};

/// Solves FFO endgame positions and prints time and nodes for each.
#[derive(Parser)]
struct Args {
    /// Positions: numbers (`45`) or ranges (`40-49`); default all in the file.
    positions: Vec<String>,
    /// Time limit per position, seconds (0: none).
    #[arg(long, default_value_t = 300)]
    limit_s: u64,
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

fn run(args: &Args) -> Result<bool, String> {
    let text =
        std::fs::read_to_string(&args.file).map_err(|e| format!("{}: {e}", args.file.display()))?;
    let suite: Vec<FfoPosition> = parse_suite(&text)?;
    let limit = (args.limit_s > 0).then(|| Duration::from_secs(args.limit_s));
    let mut solver = Solver::new();
    let mut all_right = true;
    println!(
        "| # | empties | score (published) | move (published) | right | time s | nodes | Mnodes/s |"
    );
    println!("|---|---|---|---|---|---|---|---|");
    for p in &suite {
        if !picked(&args.positions, p.number)? {
            continue;
        }
        let run = p.solve(&mut solver, limit);
        let secs = run.elapsed.as_secs_f64();
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
                format!("not finished within {} s", args.limit_s),
                "-".to_string(),
                "-",
            ),
        };
        println!(
            "| {} | {} | {score} ({:+}) | {mv} ({published}) | {right} | {secs:.1} | {} | {:.2} |",
            p.number,
            p.position.empties(),
            p.score,
            run.nodes,
            run.nodes as f64 / secs.max(1e-9) / 1e6
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
