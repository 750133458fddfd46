//! `judge`: isolated, statistically honest tournaments of course-ABI Connect-4 libraries.
//!
//! Data flows one way: schedule -> referee -> library host -> game log -> stats -> report.
//! `tournament` wires them together for the three commands; `view` shows games to people
//! (terminal play and replay, the HTML report) on top of the same pieces.

mod cli;
mod game_log;
mod host;
mod referee;
mod report;
mod runner;
mod schedule;
// Part of the stats API (e.g. the trinomial SPRT) is not used by the binary yet.
#[allow(dead_code, unused_imports)]
mod stats;
mod tournament;
mod view;

use clap::Parser;

fn main() -> anyhow::Result<()> {
    let cli = cli::Cli::parse();
    match cli.command {
        cli::Command::Host(args) => host::child::run(&host::child::HostSettings {
            library: &args.library,
            scratch: &args.scratch,
            memory_limit_mb: args.memory_limit_mb,
            parent_pid: args.parent_pid,
        }),
        cli::Command::Match(args) => tournament::run_match(args),
        cli::Command::RoundRobin(args) => tournament::run_round_robin(args),
        cli::Command::Gauntlet(args) => tournament::run_gauntlet(args),
        cli::Command::Play(args) => view::play::run(args),
        cli::Command::Replay(args) => view::replay::run(args),
        cli::Command::Report(args) => view::html::regenerate(&args.dir),
    }
}
