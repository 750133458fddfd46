//! `go-engine`: the Go engine as a program. `go-engine gtp` speaks GTP on standard input and
//! output; `go-engine gmp --color C --size S` plays one GMP game there; `go-engine bench`
//! measures playouts a second. Settings come from the `GO_*` environment and the flags
//! ([`go_engine::cli`]), read once: a bad one is a line on standard error and exit status 2.

use std::io;
use std::process::ExitCode;

use clap::Parser;
use clap::error::ErrorKind;
use go_engine::bench::{self, BenchOptions};
use go_engine::gmp::{GmpConfig, play_game};
use go_engine::gtp::session::Session;
use go_engine::model::{self, train::TrainOptions};
use go_engine::player::Player;
use std::path::Path;

use go_engine::cli::{Cli, one_line};
use go_engine::settings::{GmpArgs, Invocation, Settings};

fn gtp(settings: &Settings) -> Result<(), String> {
    let mut session = Session::new(settings);
    session
        .run(io::stdin().lock(), io::stdout().lock())
        .map_err(|e| format!("gtp: {e}"))
}

fn gmp(settings: &Settings, args: &GmpArgs) -> Result<(), String> {
    let mut settings = settings.clone();
    // GMP cannot carry a resignation: play every game out.
    settings.config.resign_threshold = 0.0;
    let mut player = Player::new(&settings, args.size, args.komi).ok_or("bad board size")?;
    let mut config = GmpConfig::new(args.size, args.color);
    config.komi = args.komi;
    config.handicap = args.handicap;
    let outcome = play_game(io::stdin(), io::stdout(), &config, &mut player);
    let record = player.record();
    if let Some(path) = &args.output {
        std::fs::write(path, record.to_sgf())
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    let outcome = outcome.map_err(|e| e.to_string())?;
    eprintln!(
        "go-engine: GMP game over after {} moves, result {}",
        outcome.moves.len(),
        record.result.as_deref().unwrap_or("unknown")
    );
    Ok(())
}

fn bench(settings: &Settings, seconds: f64) -> Result<(), String> {
    let extra = settings.config.threads;
    let options = BenchOptions {
        budget: std::time::Duration::from_secs_f64(seconds),
        threads: if extra > 2 {
            vec![1, 2, extra]
        } else {
            vec![1, 2]
        },
        config: settings.config.clone(),
    };
    bench::run(&options, &mut io::stdout().lock()).map_err(|e| format!("bench: {e}"))
}

fn train(options: &TrainOptions, out: &Path) -> Result<(), String> {
    let (model, _) = model::train::train(options, &mut io::stderr().lock())?;
    let bytes = model.to_bytes();
    std::fs::write(out, &bytes).map_err(|e| format!("cannot write {}: {e}", out.display()))?;
    eprintln!(
        "go-engine: wrote {} ({} bytes, {} patterns)",
        out.display(),
        bytes.len(),
        model.patterns()
    );
    Ok(())
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        // --help and --version (status 0), or the help when no mode is given (status 2).
        Err(e)
            if !e.use_stderr()
                || e.kind() == ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand =>
        {
            e.exit()
        }
        Err(e) => {
            eprintln!("go-engine: {}", one_line(&e));
            return ExitCode::from(2);
        }
    };
    let settings = match Settings::from_env() {
        Ok(settings) => settings,
        Err(e) => {
            eprintln!("go-engine: {e}");
            return ExitCode::from(2);
        }
    };
    let result = match cli.invocation(settings) {
        Invocation::Gtp(settings) => gtp(&settings),
        Invocation::Gmp(settings, gmp_args) => gmp(&settings, &gmp_args),
        Invocation::Bench(settings, seconds) => bench(&settings, seconds),
        Invocation::Train(options, out) => train(&options, &out),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("go-engine: {e}");
            ExitCode::FAILURE
        }
    }
}
