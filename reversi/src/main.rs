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
/// (classic|strong|alphabeta|learned), REVERSI_LOG=1 (a line per move on stderr), REVERSI_MEMORY_MB (tree cap,
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
    /// Engine: classic, strong, alphabeta or learned (default: REVERSI_PROFILE, else learned).
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
    /// Make training data or fit the learned evaluation's tables (scripts/reversi-train.sh).
    #[command(subcommand)]
    Train(Train),
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

#[derive(Subcommand)]
enum Train {
    /// Play self-play games and write their labelled positions (21-byte records) to --out.
    Gen {
        /// Rule set: standard or no-adjacent.
        #[arg(long, default_value = "standard", value_parser = parse_rule)]
        rule: Rule,
        /// Seed of the openings and the noise.
        #[arg(long, default_value_t = 50)]
        seed: u64,
        /// The first game's number.
        #[arg(long, default_value_t = 0)]
        first_game: u64,
        /// Games to play.
        #[arg(long, default_value_t = 100)]
        games: u64,
        /// The policy's search depth, plies.
        #[arg(long, default_value_t = 4)]
        depth: u32,
        /// The exact solver plays and labels from this many empties on.
        #[arg(long, default_value_t = 14)]
        exact_empties: u32,
        /// Chance of a random move.
        #[arg(long, default_value_t = 0.05)]
        noise: f64,
        /// The records' file.
        #[arg(long)]
        out: std::path::PathBuf,
    },
    /// Fit the pattern tables to record files; write the weights and a held-back sample.
    Fit {
        /// Seed of the shuffles and the sample.
        #[arg(long, default_value_t = 50)]
        seed: u64,
        /// Share of a label that is the game's outcome; the rest is the fitted evaluation a
        /// phase later in the game (temporal difference; 1: outcomes only).
        #[arg(long, default_value_t = 0.5)]
        outcome_share: f32,
        /// Labels at or below this many empties are exact (gen's --exact-empties).
        #[arg(long, default_value_t = 16)]
        exact_empties: u32,
        /// The weights file to write.
        #[arg(long)]
        out: std::path::PathBuf,
        /// The held-back sample's file to write.
        #[arg(long)]
        holdout: std::path::PathBuf,
        /// Record files (from `train gen`).
        #[arg(required = true)]
        data: Vec<std::path::PathBuf>,
    },
    /// Fit Multi-ProbCut's table on the learned engine's searches of record files; write it
    /// as Rust source (reversi/src/search/mpc/table.rs).
    Mpc {
        /// Seed of the sample's shuffle.
        #[arg(long, default_value_t = 50)]
        seed: u64,
        /// Positions searched per phase (5 empties).
        #[arg(long, default_value_t = 60)]
        per_stage: usize,
        /// The deepest depth fitted.
        #[arg(long, default_value_t = 10)]
        max_depth: u32,
        /// Positions with fewer empties are not sampled.
        #[arg(long, default_value_t = 15)]
        min_empties: u32,
        /// The Rust source to write.
        #[arg(long)]
        out: std::path::PathBuf,
        /// Record files (from `train gen`).
        #[arg(required = true)]
        data: Vec<std::path::PathBuf>,
    },
}

fn parse_rule(s: &str) -> Result<Rule, String> {
    Rule::parse(s).ok_or_else(|| format!("unknown rule {s:?}: expected standard or no-adjacent"))
}

fn parse_profile(s: &str) -> Result<Profile, String> {
    Profile::parse(s).ok_or_else(|| {
        format!("unknown profile {s:?}: expected classic, strong, alphabeta or learned")
    })
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
    // Training makes the tables: it needs neither them nor the playing settings.
    if let Command::Train(train) = cli.command {
        return run_train(train);
    }
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
        Command::Train(_) => unreachable!("handled above"),
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

/// The `train` subcommands.
fn run_train(train: Train) -> Result<(), String> {
    use reversi::learned::data::{self, GenConfig};
    match train {
        Train::Gen {
            rule,
            seed,
            first_game,
            games,
            depth,
            exact_empties,
            noise,
            out,
        } => {
            let config = GenConfig {
                rule,
                seed,
                first_game,
                games,
                depth,
                exact_empties,
                noise,
                opening_plies: data::OPENING_PLIES,
            };
            let start = Instant::now();
            let file =
                std::fs::File::create(&out).map_err(|e| format!("{}: {e}", out.display()))?;
            let n = data::generate(&config, &mut BufWriter::new(file))
                .map_err(|e| format!("{}: {e}", out.display()))?;
            println!(
                "games {first_game}..{}: {n} positions, {:.1} s",
                first_game + games,
                start.elapsed().as_secs_f64()
            );
            Ok(())
        }
        Train::Fit {
            seed,
            outcome_share,
            exact_empties,
            out,
            holdout,
            data,
        } => {
            let config = reversi::learned::fit::FitConfig {
                seed,
                outcome_share,
                exact_empties,
            };
            run_fit(&config, &out, &holdout, &data)
        }
        Train::Mpc {
            seed,
            per_stage,
            max_depth,
            min_empties,
            out,
            data,
        } => {
            let config = reversi::learned::mpc::MpcConfig {
                seed,
                per_stage,
                max_deep: max_depth,
                min_empties,
            };
            run_mpc(&config, &out, &data)
        }
    }
}

/// Reads every record of `data` (files from `train gen`).
fn read_all(data: &[std::path::PathBuf]) -> Result<Vec<reversi::learned::data::Record>, String> {
    let mut records = Vec::new();
    for path in data {
        let file = std::fs::File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
        records.extend(
            reversi::learned::data::read_records(io::BufReader::new(file))
                .map_err(|e| format!("{}: {e}", path.display()))?,
        );
    }
    Ok(records)
}

/// `reversi train mpc`: samples, searches, fits, writes the table's source.
fn run_mpc(
    config: &reversi::learned::mpc::MpcConfig,
    out: &std::path::Path,
    data: &[std::path::PathBuf],
) -> Result<(), String> {
    use reversi::search::mpc;
    let start = Instant::now();
    // The fits describe the built-in tables (the ones the engine plays with).
    let tables = reversi::search::patterns::builtin(Rule::Standard)?;
    let records = read_all(data)?;
    println!("{} positions read", records.len());
    let fits = reversi::learned::mpc::fit(&records, config, tables, &mut io::stdout().lock())
        .map_err(|e| format!("mpc: {e}"))?;
    mpc::check(&fits)?;
    let command = format!(
        "reversi train mpc --seed {} --per-stage {} --max-depth {} --min-empties {} DATA",
        config.seed, config.per_stage, config.max_deep, config.min_empties
    );
    std::fs::write(out, mpc::render(&fits, config.max_deep, &command))
        .map_err(|e| format!("{}: {e}", out.display()))?;
    println!(
        "{} fits in {}; {:.0} s",
        fits.len(),
        out.display(),
        start.elapsed().as_secs_f64()
    );
    Ok(())
}

/// `reversi train fit`: reads the records, fits, writes the weights and the sample.
fn run_fit(
    config: &reversi::learned::fit::FitConfig,
    out: &std::path::Path,
    holdout: &std::path::Path,
    data: &[std::path::PathBuf],
) -> Result<(), String> {
    use reversi::learned::fit;
    let start = Instant::now();
    let records = read_all(data)?;
    let games = records
        .iter()
        .map(|r| r.game)
        .collect::<std::collections::HashSet<_>>();
    println!("{} positions from {} games", records.len(), games.len());
    let report =
        fit::fit(&records, config, &mut io::stdout().lock()).map_err(|e| format!("fit: {e}"))?;
    std::fs::write(out, &report.weights).map_err(|e| format!("{}: {e}", out.display()))?;
    std::fs::write(holdout, fit::holdout_text(&report, config)?)
        .map_err(|e| format!("{}: {e}", holdout.display()))?;
    println!(
        "test rmse {:.2} discs; {} bytes of weights in {}; {:.0} s",
        report.test_rmse,
        report.weights.len(),
        out.display(),
        start.elapsed().as_secs_f64()
    );
    Ok(())
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
