//! `judge`: parses the command line and calls the [`gravity4_judge`] library.

mod cli;

use anyhow::Result;
use clap::{CommandFactory, Parser};
use gravity4_judge::check::CheckOptions;
use gravity4_judge::commands::{self, TournamentOptions};
use gravity4_judge::players::{self, HostSettings};
use gravity4_judge::schedule::{self, Colours, Mode};
use gravity4_judge::stats;
use gravity4_judge::view::{play, replay, web};

fn main() -> std::process::ExitCode {
    let cli = cli::Cli::parse();
    match run(cli) {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            // One line, whatever RUST_BACKTRACE says: the causes joined by `: `.
            eprintln!("judge: error: {e:#}");
            std::process::ExitCode::FAILURE
        }
    }
}

fn run(cli: cli::Cli) -> Result<()> {
    match cli.command {
        cli::Command::Host(args) => players::run_host(&HostSettings {
            library: &args.library,
            scratch: &args.scratch,
            memory_limit_mb: args.memory_limit_mb,
            parent_pid: args.parent_pid,
            stdout_fd: args.stdout_fd,
        }),
        cli::Command::Match(args) => {
            let sprt = args.sprt.as_deref().map(parse_sprt).transpose()?;
            commands::tournament(&tournament(
                Mode::Match,
                vec![args.a, args.b],
                args.common,
                sprt,
            )?)
        }
        cli::Command::RoundRobin(args) => {
            commands::tournament(&tournament(Mode::RoundRobin, args.libs, args.common, None)?)
        }
        cli::Command::Gauntlet(args) => {
            let mut players = vec![args.lib];
            players.extend(schedule::expand_pool(&args.vs)?);
            commands::tournament(&tournament(Mode::Gauntlet, players, args.common, None)?)
        }
        cli::Command::Play(args) => run_play(args),
        cli::Command::Replay(args) => replay::run(&replay::ReplayOptions {
            log: args.log,
            game: args.game,
        }),
        cli::Command::Report(args) => {
            players::die_on_closed_stdout();
            commands::report(&args.dirs)
        }
        cli::Command::Merge(args) => {
            players::die_on_closed_stdout();
            commands::merge(&args.dirs, &args.out)
        }
        cli::Command::Check(args) => {
            let code = run_check(args)?;
            std::process::exit(code)
        }
        cli::Command::Status(args) => {
            players::die_on_closed_stdout();
            let code = commands::status(&args.dirs)?;
            std::process::exit(code.exit_code())
        }
    }
}

/// `judge play`, in the terminal or (`--web`) in the browser.
fn run_play(args: cli::PlayArgs) -> Result<()> {
    // `--size` is Connect-4's MxN unless the game is Go.
    let go_size = (args.game.game == "go")
        .then_some(args.size.as_deref())
        .flatten();
    let game = args.game.kind(go_size)?;
    let options = play::PlayOptions {
        game,
        lib: args.lib,
        ai_first: args.ai_first,
        size: args.size,
        blocked: args.blocked,
        seed: args.seed,
        move_limit_ms: args
            .move_limit_ms
            .unwrap_or_else(|| game.default_move_limit_ms()),
        memory_limit_mb: args.memory_limit_mb,
        save: args.save,
    };
    if args.web {
        let web = web::WebOptions {
            port: args.port,
            open: args.open,
        };
        web::run(&options, &web)
    } else {
        play::run(&options)
    }
}

/// `judge check`: returns the exit status.
fn run_check(args: cli::CheckArgs) -> Result<i32> {
    let options = CheckOptions {
        library: args.lib,
        full: args.full,
        ladder: args.ladder,
        out: args.out,
        memory_limit_mb: args.memory_limit_mb,
        seed: args.seed,
    };
    commands::check(&options, args.position.as_deref())
}

/// The library's options for a tournament command.
fn tournament(
    mode: Mode,
    players: Vec<std::path::PathBuf>,
    c: cli::Common,
    sprt: Option<stats::SprtParams>,
) -> Result<TournamentOptions> {
    let game = c.game.kind(c.size.as_deref())?;
    let clock = c.clock.settings(game)?;
    if c.shard.is_some() && c.seed.is_none() && c.resume.is_none() {
        // A usage error (exit 2): shards drawn from different clock seeds would be parts
        // of different schedules.
        cli::Cli::command()
            .error(
                clap::error::ErrorKind::MissingRequiredArgument,
                "--shard needs --seed: every shard must draw the same schedule",
            )
            .exit();
    }
    Ok(TournamentOptions {
        game,
        mode,
        players,
        pairs: c.pairs,
        seed: c.seed,
        // On a clock, a move may take the whole clock unless limited further.
        move_limit_ms: c.move_limit_ms.unwrap_or_else(|| match clock {
            Some(clock) => clock.longest_move().as_millis() as u64,
            None => game.default_move_limit_ms(),
        }),
        clock,
        concurrency: c.concurrency,
        memory_limit_mb: c.memory_limit_mb,
        reuse_process: c.reuse_process,
        out: c.out,
        resume: c.resume,
        quiet: c.quiet,
        sprt,
        shard: c.shard,
        colours: if c.fixed_colours {
            Colours::Fixed
        } else {
            Colours::Swapped
        },
    })
}

/// Parses `--sprt elo0=.. elo1=.. alpha=.. beta=..` (the tokens may also be one
/// comma-separated argument).
fn parse_sprt(items: &[String]) -> Result<stats::SprtParams> {
    stats::parse_sprt(&items.join(" ")).map_err(|e| anyhow::anyhow!("--sprt: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

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
