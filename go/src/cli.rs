//! The command line of `go-engine`, with clap (derive) as the judge and `reversi` take
//! theirs: one subcommand a mode (`gtp`, `gmp`, `bench`, `train`), `--help` and `--version` on each.
//! The flags are read with the same [`Kind`]s as the `GO_*` variables
//! ([`crate::settings`]), and override them: [`Cli::invocation`] lays the flags over the
//! settings of the environment.
//!
//! A usage error is clap's (its kind, its text, exit status 2), said on one line by
//! [`one_line`], as every other bad setting is.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

use crate::model::train::TrainOptions;
use crate::settings::{
    self, BENCH_SECONDS, DEFAULT_BENCH_SECONDS, GmpArgs, Invocation, Kind, Settings,
};

/// What the help says after the flags: examples, and the environment.
const AFTER_HELP: &str = "\
Examples:
  go-engine gtp --move-ms 1000 --threads 2 --sgf-stats
  go-engine gtp --ponder
  go-engine gmp --color white --size 9 --komi 5.5 -o game.sgf
  go-engine bench --seconds 4
  go-engine train --out moves.bin records/ more-records/

Environment (flags override): GO_MOVE_MS (default 5000), GO_THREADS (1), GO_SGF_STATS=1,
GO_LOG=1, GO_PONDER=1; search knobs GO_POLICY=heavy|light, GO_RAVE=0|1, GO_RAVE_K, GO_UCT_C,
GO_PRIOR, GO_RESIGN (0 never resigns), GO_REUSE=0|1, GO_MAX_NODES, GO_EXPAND; the move model
GO_MODEL=shipped|none|FILE, GO_MODEL_PRIOR, GO_WIDEN=0|1 (go/README.md).";

/// A Monte-Carlo Go engine (UCT with RAVE and patterns) speaking GTP and GMP.
#[derive(Parser, Debug)]
#[command(name = "go-engine", version, propagate_version = true, after_help = AFTER_HELP)]
pub struct Cli {
    /// The mode.
    #[command(subcommand)]
    pub mode: Mode,
}

/// The program's modes.
#[derive(Subcommand, Debug)]
pub enum Mode {
    /// Speak GTP version 2 on standard input and output.
    #[command(after_help = AFTER_HELP)]
    Gtp {
        /// How to play.
        #[command(flatten)]
        play: PlayFlags,
        /// Search during the opponent's turn, from our genmove answer to the next command
        /// (also GO_PONDER=1; off by default: it takes the opponent's core).
        #[arg(long)]
        ponder: bool,
    },
    /// Play one game of the Go Modem Protocol on standard input and output.
    #[command(after_help = AFTER_HELP)]
    Gmp {
        /// The game.
        #[command(flatten)]
        game: GmpFlags,
        /// How to play it.
        #[command(flatten)]
        play: PlayFlags,
    },
    /// Measure the speed: playouts a second, light and heavy, and searches with 1, 2 (and N)
    /// threads.
    #[command(after_help = AFTER_HELP)]
    Bench(BenchFlags),
    /// Fit the move model to game records (MM, Coulom 2007) and write its weights; prints the
    /// prediction rates on the held-back games of each source.
    Train(TrainFlags),
}

/// The flags of the playing modes.
#[derive(Args, Clone, Debug, Default)]
pub struct PlayFlags {
    /// Budget of a move without a clock, in ms [default: GO_MOVE_MS, else 5000].
    #[arg(long, value_name = "MS", value_parser = flag(settings::MOVE_MS))]
    pub move_ms: Option<u64>,
    /// Search threads, sharing one tree [default: GO_THREADS, else 1].
    #[arg(long, value_name = "N", value_parser = flag(settings::THREADS))]
    pub threads: Option<usize>,
    /// Write the search statistics of our moves as SGF comments (also GO_SGF_STATS=1).
    #[arg(long)]
    pub sgf_stats: bool,
    /// One line per generated move on standard error (also GO_LOG=1).
    #[arg(long)]
    pub log: bool,
}

/// The game of `go-engine gmp`.
#[derive(Args, Clone, Debug)]
pub struct GmpFlags {
    /// Our colour: black or white.
    #[arg(long, value_name = "COLOR", value_parser = flag(settings::COLOR))]
    pub color: crate::point::Color,
    /// Board side, 2 to 25.
    #[arg(long, value_name = "S", value_parser = flag(settings::SIZE))]
    pub size: usize,
    /// Komi (GMP cannot tell it to the other side).
    #[arg(long, value_name = "K", value_parser = flag(settings::KOMI),
          default_value_t = crate::game::DEFAULT_KOMI)]
    pub komi: f64,
    /// Fixed handicap stones: 0, or 2 and more.
    #[arg(long, value_name = "H", value_parser = flag(settings::HANDICAP), default_value_t = 0)]
    pub handicap: usize,
    /// Where to write the game's SGF.
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
}

/// The flags of `go-engine bench`.
#[derive(Args, Clone, Debug)]
pub struct BenchFlags {
    /// CPU seconds a line.
    #[arg(long, value_name = "S", value_parser = flag(BENCH_SECONDS),
          default_value_t = DEFAULT_BENCH_SECONDS)]
    pub seconds: f64,
    /// Above 2, a search line with this many threads too [default: GO_THREADS].
    #[arg(long, value_name = "N", value_parser = flag(settings::THREADS))]
    pub threads: Option<usize>,
}

/// The flags of `go-engine train`.
#[derive(Args, Clone, Debug)]
pub struct TrainFlags {
    /// Directories (searched recursively) or files of records: SGF, or Tygem's lines of
    /// moves. Each is a source whose held-back games are measured apart.
    #[arg(required = true, value_name = "RECORDS")]
    pub sources: Vec<PathBuf>,
    /// Where to write the weights.
    #[arg(short, long, value_name = "FILE")]
    pub out: PathBuf,
    /// Hold back every N-th game of each source to measure the model (0: none).
    #[arg(long, value_name = "N", default_value_t = 10)]
    pub holdout: usize,
    /// Read only the first N games of each source (held-back ones included).
    #[arg(long, value_name = "N")]
    pub max_games: Option<usize>,
    /// A pattern enters the dictionary when played at least N times.
    #[arg(long, value_name = "N", default_value_t = 10)]
    pub min_count: u32,
    /// MM sweeps over the feature groups.
    #[arg(long, value_name = "N", default_value_t = 12)]
    pub sweeps: usize,
}

/// The value parser of a flag taking a `kind` of value.
fn flag<T: Clone + Send + Sync + 'static>(
    kind: Kind<T>,
) -> impl Fn(&str) -> Result<T, String> + Clone + Send + Sync + 'static {
    move |text| kind.read(text)
}

impl PlayFlags {
    /// `settings` with these flags over them.
    fn over(&self, mut settings: Settings) -> Settings {
        if let Some(ms) = self.move_ms {
            settings.move_ms = ms;
        }
        if let Some(n) = self.threads {
            settings.config.threads = n;
        }
        settings.sgf_stats |= self.sgf_stats;
        settings.log |= self.log;
        settings
    }
}

impl Cli {
    /// What the command line asks for, its flags over `settings` (from the environment).
    pub fn invocation(self, settings: Settings) -> Invocation {
        match self.mode {
            Mode::Gtp { play, ponder } => {
                let mut settings = play.over(settings);
                settings.ponder |= ponder;
                Invocation::Gtp(settings)
            }
            Mode::Gmp { game, play } => Invocation::Gmp(
                play.over(settings),
                GmpArgs {
                    color: game.color,
                    size: game.size,
                    komi: game.komi,
                    handicap: game.handicap,
                    output: game.output,
                },
            ),
            Mode::Bench(bench) => {
                let play = PlayFlags {
                    threads: bench.threads,
                    ..PlayFlags::default()
                };
                Invocation::Bench(play.over(settings), bench.seconds)
            }
            Mode::Train(train) => Invocation::Train(
                TrainOptions {
                    sources: train.sources,
                    holdout: train.holdout,
                    max_games: train.max_games,
                    min_count: train.min_count,
                    sweeps: train.sweeps,
                },
                train.out,
            ),
        }
    }
}

/// A usage error of clap's on one line: its message (the lines of its first paragraph
/// joined), then its usage line and where the help is.
pub fn one_line(error: &clap::Error) -> String {
    let text = error.render().to_string();
    let message: Vec<&str> = text
        .lines()
        .take_while(|l| !l.trim().is_empty())
        .map(str::trim)
        .collect();
    let message = message.join(" ");
    let message = message.strip_prefix("error: ").unwrap_or(&message);
    match text.lines().find_map(|l| l.strip_prefix("Usage: ")) {
        Some(usage) => format!("{message} (usage: {}; --help for more)", usage.trim()),
        None => format!("{message} (--help for more)"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::point::Color;

    fn env(pairs: &[(&str, &str)]) -> Settings {
        Settings::from_vars(|name| {
            pairs
                .iter()
                .find(|(k, _)| *k == name)
                .map(|(_, v)| v.to_string())
        })
        .unwrap()
    }

    fn parse(line: &str, settings: Settings) -> Result<Invocation, clap::Error> {
        let args = std::iter::once("go-engine").chain(line.split_whitespace());
        Cli::try_parse_from(args).map(|cli| cli.invocation(settings))
    }

    #[test]
    fn the_command_line_is_well_formed() {
        use clap::CommandFactory;
        Cli::command().debug_assert();
    }

    #[test]
    fn flags_override_the_environment() {
        let base = env(&[("GO_MOVE_MS", "900"), ("GO_THREADS", "2")]);
        let Ok(Invocation::Gtp(s)) = parse("gtp --move-ms 50 --sgf-stats", base.clone()) else {
            panic!("gtp");
        };
        assert_eq!((s.move_ms, s.config.threads, s.sgf_stats), (50, 2, true));
        assert!(!s.ponder, "pondering is off by default");
        let Ok(Invocation::Gtp(s)) = parse("gtp --ponder", base.clone()) else {
            panic!("gtp --ponder");
        };
        assert!(s.ponder);
        let line = "gmp --color white --size 9 --komi 5.5 --threads 1 -o game.sgf --handicap 2";
        let Ok(Invocation::Gmp(s, g)) = parse(line, base.clone()) else {
            panic!("gmp");
        };
        assert_eq!(s.move_ms, 900);
        assert_eq!(s.config.threads, 1);
        assert_eq!(
            g,
            GmpArgs {
                color: Color::White,
                size: 9,
                komi: 5.5,
                handicap: 2,
                output: Some("game.sgf".into()),
            }
        );
        let Ok(Invocation::Gmp(_, g)) = parse("gmp --color B --size 19", base.clone()) else {
            panic!("gmp");
        };
        assert_eq!((g.color, g.komi, g.handicap), (Color::Black, 7.5, 0));
        let Ok(Invocation::Bench(s, seconds)) =
            parse("bench --seconds 0.5 --threads 4", base.clone())
        else {
            panic!("bench");
        };
        assert_eq!((seconds, s.config.threads), (0.5, 4));
        let Ok(Invocation::Bench(s, seconds)) = parse("bench", base) else {
            panic!("bench");
        };
        assert_eq!((seconds, s.config.threads), (DEFAULT_BENCH_SECONDS, 2));
    }

    #[test]
    fn help_and_version_are_on_every_mode() {
        use clap::error::ErrorKind;
        for line in [
            "--help",
            "-h",
            "help",
            "gtp --help",
            "gmp --help",
            "bench -h",
            "help gmp",
        ] {
            let e = parse(line, env(&[])).unwrap_err();
            assert_eq!(e.kind(), ErrorKind::DisplayHelp, "{line}");
            assert_eq!(e.exit_code(), 0, "{line}");
        }
        for line in [
            "--version",
            "-V",
            "gtp --version",
            "gmp -V",
            "bench --version",
        ] {
            let e = parse(line, env(&[])).unwrap_err();
            assert_eq!(e.kind(), ErrorKind::DisplayVersion, "{line}");
        }
    }

    #[test]
    fn bad_flags_are_usage_errors_on_one_line() {
        for line in [
            "",
            "play",
            "gtp --move-ms",
            "gtp --move-ms -5",
            "gtp --move-ms 0",
            "gtp --threads 0",
            "gtp --threads 257",
            "gtp --color black",
            "gtp --bogus",
            "gmp --size 9",
            "gmp --color black",
            "gmp --color red --size 9",
            "gmp --color black --size 26",
            "gmp --color black --size 9 --komi x",
            "gmp --color black --size 9 --handicap 1",
            "bench --seconds 0",
            "bench --seconds",
            "bench --move-ms 5",
            "bench --threads 0",
        ] {
            let e = parse(line, env(&[])).unwrap_err();
            assert_eq!(e.exit_code(), 2, "{line}");
            let text = one_line(&e);
            assert!(!text.is_empty() && !text.contains('\n'), "{line}: {text}");
        }
        let e = parse("gtp --move-ms 0", env(&[])).unwrap_err();
        assert_eq!(
            one_line(&e),
            "invalid value '0' for '--move-ms <MS>': expected a positive integer (--help for more)"
        );
        let e = parse("gtp --bogus", env(&[])).unwrap_err();
        assert!(
            one_line(&e).starts_with("unexpected argument '--bogus' found"),
            "{}",
            one_line(&e)
        );
        assert!(one_line(&e).contains("usage: go-engine gtp [OPTIONS]"));
    }
}
