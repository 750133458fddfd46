//! `reversi`: the Reversi engine as a GTP engine, a Botzone bot, a self-play harness, and perft.

use std::io::{self, BufWriter};
use std::process::ExitCode;
use std::time::Instant;

use clap::{Parser, Subcommand};

use reversi::protocol::{Player, botzone, gtp::Gtp};
use reversi::selfplay::{self, MatchConfig};
use reversi::{Position, Profile, Rule, Settings, perft};

/// Reversi (Othello) engine: GTP, Botzone, self-play, perft.
///
/// Environment: REVERSI_MOVE_MS (budget per move, default 5000), REVERSI_PROFILE
/// (classic|strong|alphabeta), REVERSI_LOG=1 (a line per move on stderr), REVERSI_MEMORY_MB (tree cap,
/// default 256), and experiment knobs (reversi/README.md). Flags override the environment; a bad
/// value stops the program with status 2.
#[derive(Parser)]
#[command(name = "reversi", version)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

/// Options every playing subcommand shares.
#[derive(clap::Args, Clone)]
struct Common {
    /// Rule set: standard or no-adjacent.
    #[arg(long, default_value = "standard", value_parser = parse_rule)]
    rule: Rule,
    /// Engine: classic, strong or alphabeta (default: REVERSI_PROFILE, else strong).
    #[arg(long, value_parser = parse_profile)]
    profile: Option<Profile>,
    /// Budget per move in ms (default: REVERSI_MOVE_MS, else 5000).
    #[arg(long)]
    move_ms: Option<u64>,
    /// Print a log line per move on stderr (also REVERSI_LOG=1).
    #[arg(long)]
    log: bool,
}

#[derive(Subcommand)]
enum Command {
    /// Speak GTP v2 on stdin/stdout.
    Gtp(Common),
    /// Play one Botzone turn (JSON on stdin), or every turn with --keep-running.
    Botzone {
        #[command(flatten)]
        common: Common,
        /// Stay up between turns (Botzone's long-running mode).
        #[arg(long)]
        keep_running: bool,
    },
    /// Play one profile against another from random openings and print W-D-L.
    Selfplay {
        /// Rule set: standard or no-adjacent.
        #[arg(long, default_value = "standard", value_parser = parse_rule)]
        rule: Rule,
        /// Number of games (rounded up to pairs with colours swapped).
        #[arg(long, default_value_t = 20)]
        games: u32,
        /// Budget per move in ms.
        #[arg(long, default_value_t = 100)]
        move_ms: u64,
        /// Random plies that make each opening.
        #[arg(long, default_value_t = 4)]
        random_plies: u32,
        /// Seed of the openings and engines.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// The engine measured.
        #[arg(long, default_value = "strong", value_parser = parse_profile)]
        first: Profile,
        /// Its opponent.
        #[arg(long, default_value = "classic", value_parser = parse_profile)]
        second: Profile,
    },
    /// Count move paths from the start (perft) to check the rules.
    Perft {
        /// Depth in plies.
        #[arg(default_value_t = 8)]
        depth: u32,
        /// Rule set: standard or no-adjacent.
        #[arg(long, default_value = "standard", value_parser = parse_rule)]
        rule: Rule,
    },
}

fn parse_rule(s: &str) -> Result<Rule, String> {
    Rule::parse(s).ok_or_else(|| format!("unknown rule {s:?}: expected standard or no-adjacent"))
}

fn parse_profile(s: &str) -> Result<Profile, String> {
    Profile::parse(s)
        .ok_or_else(|| format!("unknown profile {s:?}: expected classic, strong or alphabeta"))
}

/// The player the flags and environment describe.
fn player(common: &Common, settings: &Settings) -> Player {
    let profile = common.profile.unwrap_or(settings.profile);
    Player {
        engine: profile.engine(None, settings.memory_bytes, &settings.tuning),
        move_ms: common.move_ms.unwrap_or(settings.move_ms).max(1),
        log: common.log || settings.log,
    }
}

fn run(cli: Cli) -> Result<(), String> {
    let settings = Settings::from_env()?;
    match cli.command {
        Command::Gtp(common) => {
            let mut gtp = Gtp::new(common.rule, player(&common, &settings));
            gtp.run(io::stdin().lock(), BufWriter::new(io::stdout().lock()))
                .map_err(|e| format!("gtp: {e}"))
        }
        Command::Botzone {
            common,
            keep_running,
        } => {
            let mut p = player(&common, &settings);
            botzone::run(
                io::stdin().lock(),
                io::stdout().lock(),
                &mut p,
                common.rule,
                keep_running,
            )
        }
        Command::Selfplay {
            rule,
            games,
            move_ms,
            random_plies,
            seed,
            first,
            second,
        } => {
            let config = MatchConfig {
                games,
                move_ms,
                rule,
                random_plies,
                seed,
                first,
                second,
                memory_bytes: settings.memory_bytes,
                tuning: settings.tuning,
            };
            let start = Instant::now();
            let t = selfplay::run_match(&config, &mut io::stdout().lock())
                .map_err(|e| format!("selfplay: {e}"))?;
            let n = t.wins + t.draws + t.losses;
            println!(
                "{first} vs {second}, rule {rule}, {move_ms} ms/move, {n} games: \
                 W-D-L {}-{}-{}, score {:.1}%, mean disc margin {:+.1}, {:.0} s",
                t.wins,
                t.draws,
                t.losses,
                100.0 * (f64::from(t.wins) + 0.5 * f64::from(t.draws)) / f64::from(n.max(1)),
                t.discs as f64 / f64::from(n.max(1)),
                start.elapsed().as_secs_f64()
            );
            Ok(())
        }
        Command::Perft { depth, rule } => {
            let start = Instant::now();
            let n = perft(&Position::start(rule), depth);
            println!(
                "perft({depth}) = {n}  ({rule}, {:.3} s)",
                start.elapsed().as_secs_f64()
            );
            Ok(())
        }
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("reversi: {e}");
            ExitCode::from(2)
        }
    }
}
