//! The program's settings, read once at start: the `GO_*` environment variables, then the
//! command line's flags over them. A bad value of either is one line of error (the caller
//! prints it and exits with status 2); nothing is read again later.
//!
//! The search's own variables (`GO_POLICY`, `GO_RAVE`, `GO_RAVE_K`, `GO_UCT_C`, `GO_PRIOR`,
//! `GO_RESIGN`, `GO_REUSE`, `GO_MAX_NODES`, `GO_EXPAND`) are the ones
//! [`Config::default`] reads; they are checked here so that a typo is an error rather than
//! a silent default, and the configuration is then built from the checked values.

use std::fmt;
use std::path::PathBuf;

use crate::point::{Color, MAX_SIZE, MIN_SIZE};
use crate::search::Config;
use crate::search::playout::Policy;

/// The budget of a move when no clock is set (`GO_MOVE_MS`, `--move-ms`), in ms.
pub const DEFAULT_MOVE_MS: u64 = 5000;

/// CPU seconds a line of `go-engine bench` runs for by default.
pub const DEFAULT_BENCH_SECONDS: f64 = 2.0;

/// The most search threads accepted (far beyond any machine this runs on; a typo guard).
pub const MAX_THREADS: usize = 256;

/// How the engine plays, whatever the protocol.
#[derive(Clone, Debug)]
pub struct Settings {
    /// Budget of a move without a clock, in ms.
    pub move_ms: u64,
    /// Write the search statistics of our moves as SGF comments (`--sgf-stats`, `GO_SGF_STATS=1`).
    pub sgf_stats: bool,
    /// One line per generated move on standard error (`--log`, `GO_LOG=1`).
    pub log: bool,
    /// The search's configuration (threads from `--threads` / `GO_THREADS`).
    pub config: Config,
    /// Search exactly this many playouts per generated move instead of the clock, so that
    /// with `config.seed` a session reproduces (the fuzz targets; no flag sets it).
    pub playouts: Option<u64>,
}

/// A GMP game as the command line describes it.
#[derive(Clone, Debug, PartialEq)]
pub struct GmpArgs {
    /// Our colour.
    pub color: Color,
    /// Board side.
    pub size: usize,
    /// Komi (GMP cannot tell it to the other side).
    pub komi: f64,
    /// Fixed handicap stones (0 or 2..).
    pub handicap: usize,
    /// Where to write the game's SGF.
    pub output: Option<PathBuf>,
}

/// What the program is asked to do.
#[derive(Clone, Debug)]
pub enum Invocation {
    /// Speak GTP on standard input and output.
    Gtp(Settings),
    /// Play one GMP game on standard input and output.
    Gmp(Settings, GmpArgs),
    /// Measure the speed ([`crate::bench`]): CPU seconds a line, and the settings (whose
    /// `--threads`, above 2, adds a search line with that many threads).
    Bench(Settings, f64),
    /// Print the usage.
    Help,
    /// Print the version.
    Version,
}

/// A bad setting: the line to print.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SettingsError(pub String);

impl fmt::Display for SettingsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for SettingsError {}

/// The usage text of `go-engine --help`.
pub const USAGE: &str = "\
go-engine: a Monte-Carlo Go engine (UCT with RAVE and patterns)

usage:
  go-engine gtp [--move-ms N] [--threads N] [--sgf-stats] [--log]
  go-engine gmp --color black|white --size S [--komi K] [--handicap H] [-o FILE]
                [--move-ms N] [--threads N] [--sgf-stats] [--log]
  go-engine bench [--seconds S] [--threads N]
                playouts a second, light and heavy, and searches with 1, 2 (and N) threads;
                S CPU seconds a line (default 2)
  go-engine --help | --version

environment (flags override): GO_MOVE_MS (default 5000), GO_THREADS (1), GO_SGF_STATS=1,
GO_LOG=1; search knobs GO_POLICY=heavy|light, GO_RAVE=0|1, GO_RAVE_K, GO_UCT_C, GO_PRIOR,
GO_RESIGN (0 never resigns), GO_REUSE=0|1, GO_MAX_NODES, GO_EXPAND";

fn bad(name: &str, value: &str, expected: &str) -> SettingsError {
    SettingsError(format!("{name}={value:?}: expected {expected}"))
}

/// Parses `value` as a number accepted by `ok`.
fn number<T: std::str::FromStr + Copy>(
    name: &str,
    value: &str,
    ok: impl Fn(T) -> bool,
    expected: &str,
) -> Result<T, SettingsError> {
    value
        .trim()
        .parse::<T>()
        .ok()
        .filter(|&v| ok(v))
        .ok_or_else(|| bad(name, value, expected))
}

fn switch(name: &str, value: &str) -> Result<bool, SettingsError> {
    match value.trim() {
        "0" => Ok(false),
        "1" => Ok(true),
        _ => Err(bad(name, value, "0 or 1")),
    }
}

impl Settings {
    /// The settings of the environment `var` describes (`var(name)` is the variable's value;
    /// an empty value counts as unset).
    pub fn from_vars(var: impl Fn(&str) -> Option<String>) -> Result<Settings, SettingsError> {
        let get = |name: &str| var(name).filter(|v| !v.trim().is_empty());
        // The search's defaults (its own reading of the same variables), then the checked
        // values over them.
        let mut config = Config::default();
        let mut settings = Settings {
            move_ms: DEFAULT_MOVE_MS,
            sgf_stats: false,
            log: false,
            config: config.clone(),
            playouts: None,
        };
        if let Some(v) = get("GO_MOVE_MS") {
            settings.move_ms = number("GO_MOVE_MS", &v, |ms: u64| ms > 0, "a positive integer")?;
        }
        if let Some(v) = get("GO_THREADS") {
            config.threads = number(
                "GO_THREADS",
                &v,
                |n: usize| (1..=MAX_THREADS).contains(&n),
                "an integer from 1 to 256",
            )?;
        }
        if let Some(v) = get("GO_SGF_STATS") {
            settings.sgf_stats = switch("GO_SGF_STATS", &v)?;
        }
        if let Some(v) = get("GO_LOG") {
            settings.log = switch("GO_LOG", &v)?;
        }
        if let Some(v) = get("GO_POLICY") {
            config.policy = match v.trim() {
                "heavy" => Policy::Heavy,
                "light" => Policy::Light,
                _ => return Err(bad("GO_POLICY", &v, "heavy or light")),
            };
        }
        if let Some(v) = get("GO_RAVE") {
            config.rave = switch("GO_RAVE", &v)?;
        }
        if let Some(v) = get("GO_REUSE") {
            config.reuse = switch("GO_REUSE", &v)?;
        }
        let positive = |x: f32| x.is_finite() && x > 0.0;
        let non_negative = |x: f32| x.is_finite() && x >= 0.0;
        if let Some(v) = get("GO_RAVE_K") {
            config.rave_equivalence = number("GO_RAVE_K", &v, positive, "a positive number")?;
        }
        if let Some(v) = get("GO_UCT_C") {
            config.exploration = number("GO_UCT_C", &v, non_negative, "a number >= 0")?;
        }
        if let Some(v) = get("GO_PRIOR") {
            config.prior_even = number("GO_PRIOR", &v, non_negative, "a number >= 0")?;
        }
        if let Some(v) = get("GO_RESIGN") {
            config.resign_threshold = number(
                "GO_RESIGN",
                &v,
                |x: f64| (0.0..1.0).contains(&x),
                "a win rate from 0 (never resign) to below 1",
            )?;
        }
        if let Some(v) = get("GO_MAX_NODES") {
            config.max_nodes = number(
                "GO_MAX_NODES",
                &v,
                |n: usize| (1024..=1 << 28).contains(&n),
                "an integer from 1024 to 268435456",
            )?;
        }
        if let Some(v) = get("GO_EXPAND") {
            config.expand_visits = number(
                "GO_EXPAND",
                &v,
                |n: u32| (1..=1_000_000).contains(&n),
                "a positive integer",
            )?;
        }
        settings.config = config;
        Ok(settings)
    }

    /// The settings of the process's environment.
    pub fn from_env() -> Result<Settings, SettingsError> {
        Settings::from_vars(|name| std::env::var(name).ok())
    }
}

/// The flags every playing mode shares; true when `flag` was one of them.
fn common_flag(
    settings: &mut Settings,
    flag: &str,
    value: &mut dyn FnMut() -> Result<String, SettingsError>,
) -> Result<bool, SettingsError> {
    match flag {
        "--move-ms" => {
            let v = value()?;
            settings.move_ms = number("--move-ms", &v, |ms: u64| ms > 0, "a positive integer")?;
        }
        "--threads" => {
            let v = value()?;
            settings.config.threads = number(
                "--threads",
                &v,
                |n: usize| (1..=MAX_THREADS).contains(&n),
                "an integer from 1 to 256",
            )?;
        }
        "--sgf-stats" => settings.sgf_stats = true,
        "--log" => settings.log = true,
        _ => return Ok(false),
    }
    Ok(true)
}

/// The invocation `args` (without the program name) asks for, over `settings` from the
/// environment.
pub fn parse_args(args: &[String], mut settings: Settings) -> Result<Invocation, SettingsError> {
    let Some((mode, rest)) = args.split_first() else {
        return Err(SettingsError(
            "no mode given: go-engine gtp | gmp ... (go-engine --help)".into(),
        ));
    };
    let mut rest = rest.iter();
    let mut gmp = GmpArgs {
        color: Color::Black,
        size: 0,
        komi: crate::game::DEFAULT_KOMI,
        handicap: 0,
        output: None,
    };
    let (mut color, mut size) = (None, None);
    match mode.as_str() {
        "--help" | "-h" | "help" => return Ok(Invocation::Help),
        "--version" | "-V" => return Ok(Invocation::Version),
        "gtp" | "gmp" => {}
        "bench" => return parse_bench(rest, settings),
        other => {
            return Err(SettingsError(format!(
                "unknown mode {other:?}: expected gtp, gmp or bench (go-engine --help)"
            )));
        }
    }
    while let Some(flag) = rest.next() {
        let mut value = || {
            rest.next()
                .cloned()
                .ok_or_else(|| SettingsError(format!("{flag} needs a value")))
        };
        if common_flag(&mut settings, flag, &mut value)? {
            continue;
        }
        if mode == "gmp" {
            match flag.as_str() {
                "--color" => {
                    let v = value()?;
                    color = Some(match v.to_ascii_lowercase().as_str() {
                        "black" | "b" => Color::Black,
                        "white" | "w" => Color::White,
                        _ => return Err(bad("--color", &v, "black or white")),
                    });
                    continue;
                }
                "--size" => {
                    let v = value()?;
                    size = Some(number(
                        "--size",
                        &v,
                        |n: usize| (MIN_SIZE..=MAX_SIZE).contains(&n),
                        "a board side from 2 to 25",
                    )?);
                    continue;
                }
                "--komi" => {
                    let v = value()?;
                    gmp.komi = number("--komi", &v, |k: f64| k.is_finite(), "a number")?;
                    continue;
                }
                "--handicap" => {
                    let v = value()?;
                    gmp.handicap = number("--handicap", &v, |h: usize| h != 1, "0 or 2..9")?;
                    continue;
                }
                "-o" | "--output" => {
                    gmp.output = Some(PathBuf::from(value()?));
                    continue;
                }
                _ => {}
            }
        }
        return Err(SettingsError(format!(
            "unknown flag {flag:?} for go-engine {mode} (go-engine --help)"
        )));
    }
    if mode == "gtp" {
        return Ok(Invocation::Gtp(settings));
    }
    gmp.color = color.ok_or_else(|| SettingsError("gmp needs --color black|white".into()))?;
    gmp.size = size.ok_or_else(|| SettingsError("gmp needs --size S".into()))?;
    Ok(Invocation::Gmp(settings, gmp))
}

/// The flags of `go-engine bench`: `--seconds S` and `--threads N`.
fn parse_bench(
    mut rest: std::slice::Iter<'_, String>,
    mut settings: Settings,
) -> Result<Invocation, SettingsError> {
    let mut seconds = DEFAULT_BENCH_SECONDS;
    while let Some(flag) = rest.next() {
        let mut value = || {
            rest.next()
                .cloned()
                .ok_or_else(|| SettingsError(format!("{flag} needs a value")))
        };
        match flag.as_str() {
            "--seconds" => {
                let v = value()?;
                seconds = number(
                    "--seconds",
                    &v,
                    |s: f64| s.is_finite() && s > 0.0 && s <= 3600.0,
                    "a number of seconds above 0, at most 3600",
                )?;
            }
            "--threads" => {
                common_flag(&mut settings, flag, &mut value)?;
            }
            _ => {
                return Err(SettingsError(format!(
                    "unknown flag {flag:?} for go-engine bench (go-engine --help)"
                )));
            }
        }
    }
    Ok(Invocation::Bench(settings, seconds))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env(pairs: &[(&str, &str)]) -> Result<Settings, SettingsError> {
        let pairs: Vec<(String, String)> = pairs
            .iter()
            .map(|&(k, v)| (k.to_string(), v.to_string()))
            .collect();
        Settings::from_vars(|name| {
            pairs
                .iter()
                .find(|(k, _)| k == name)
                .map(|(_, v)| v.clone())
        })
    }

    fn args(line: &str) -> Vec<String> {
        line.split_whitespace().map(str::to_string).collect()
    }

    #[test]
    fn defaults_and_good_values() {
        let s = env(&[]).unwrap();
        assert_eq!(s.move_ms, DEFAULT_MOVE_MS);
        assert_eq!(s.config.threads, 1);
        assert!(!s.sgf_stats && !s.log);
        let s = env(&[
            ("GO_MOVE_MS", " 250 "),
            ("GO_THREADS", "2"),
            ("GO_SGF_STATS", "1"),
            ("GO_POLICY", "light"),
            ("GO_RAVE", "0"),
            ("GO_RAVE_K", "1000"),
            ("GO_UCT_C", "0"),
            ("GO_RESIGN", "0"),
            ("GO_MAX_NODES", "4096"),
            ("GO_EXPAND", "3"),
            ("GO_LOG", ""),
        ])
        .unwrap();
        assert_eq!(s.move_ms, 250);
        assert_eq!(s.config.threads, 2);
        assert!(s.sgf_stats && !s.log);
        assert_eq!(s.config.policy, Policy::Light);
        assert!(!s.config.rave);
        assert_eq!(s.config.rave_equivalence, 1000.0);
        assert_eq!(s.config.exploration, 0.0);
        assert_eq!(s.config.resign_threshold, 0.0);
        assert_eq!(s.config.max_nodes, 4096);
        assert_eq!(s.config.expand_visits, 3);
    }

    #[test]
    fn a_bad_variable_is_one_line_naming_it() {
        for (name, value) in [
            ("GO_MOVE_MS", "0"),
            ("GO_MOVE_MS", "5s"),
            ("GO_THREADS", "0"),
            ("GO_THREADS", "many"),
            ("GO_SGF_STATS", "yes"),
            ("GO_POLICY", "medium"),
            ("GO_RAVE", "2"),
            ("GO_RAVE_K", "-1"),
            ("GO_UCT_C", "NaN"),
            ("GO_PRIOR", "-3"),
            ("GO_RESIGN", "1.5"),
            ("GO_REUSE", "true"),
            ("GO_MAX_NODES", "10"),
            ("GO_EXPAND", "0"),
            ("GO_LOG", "on"),
        ] {
            let e = env(&[(name, value)]).unwrap_err();
            assert!(e.0.starts_with(&format!("{name}=")), "{e}");
            assert!(!e.0.contains('\n'), "{e}");
        }
    }

    #[test]
    fn flags_override_the_environment() {
        let base = env(&[("GO_MOVE_MS", "900"), ("GO_THREADS", "2")]).unwrap();
        let Invocation::Gtp(s) =
            parse_args(&args("gtp --move-ms 50 --sgf-stats"), base.clone()).unwrap()
        else {
            panic!("gtp");
        };
        assert_eq!((s.move_ms, s.config.threads, s.sgf_stats), (50, 2, true));
        let Invocation::Gmp(s, g) = parse_args(
            &args("gmp --color white --size 9 --komi 5.5 --threads 1 -o game.sgf --handicap 2"),
            base.clone(),
        )
        .unwrap() else {
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
        assert!(matches!(
            parse_args(&args("--help"), base.clone()),
            Ok(Invocation::Help)
        ));
        assert!(matches!(
            parse_args(&args("--version"), base.clone()),
            Ok(Invocation::Version)
        ));
        let Invocation::Bench(s, seconds) =
            parse_args(&args("bench --seconds 0.5 --threads 4"), base.clone()).unwrap()
        else {
            panic!("bench");
        };
        assert_eq!((seconds, s.config.threads), (0.5, 4));
        let Invocation::Bench(s, seconds) = parse_args(&args("bench"), base).unwrap() else {
            panic!("bench");
        };
        assert_eq!((seconds, s.config.threads), (DEFAULT_BENCH_SECONDS, 2));
    }

    #[test]
    fn bad_flags_are_one_line() {
        let base = env(&[]).unwrap();
        for line in [
            "",
            "play",
            "gtp --move-ms",
            "gtp --move-ms -5",
            "gtp --threads 0",
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
            let e = parse_args(&args(line), base.clone()).unwrap_err();
            assert!(!e.0.is_empty() && !e.0.contains('\n'), "{line}: {e}");
        }
    }
}
