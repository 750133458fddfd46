//! The program's settings, read once at start: the `GO_*` environment variables, then the
//! command line's flags over them ([`crate::cli`]). A bad value of either is one line of
//! error (the caller prints it and exits with status 2); nothing is read again later.
//!
//! The search's own variables (`GO_POLICY`, `GO_RAVE`, `GO_RAVE_K`, `GO_UCT_C`, `GO_PRIOR`,
//! `GO_RESIGN`, `GO_REUSE`, `GO_MAX_NODES`, `GO_EXPAND`, `GO_MODEL`, `GO_MODEL_PRIOR`,
//! `GO_WIDEN`) are read here too, over the
//! constants of [`Config::default`], and checked, so that a typo is an error rather than a
//! silent default. Each
//! value a variable or a flag takes is a [`Kind`]: how its text is read and what it expects,
//! the same for the variable and the flag. The reading is [`envset`]'s, shared with the
//! other games' programs.

use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::Arc;

pub use envset::Kind;
use envset::Vars;

use crate::model::Model;
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
    /// GTP: search during the opponent's turn, from our `genmove` answer to the next command
    /// (`--ponder`, `GO_PONDER=1`). Off by default: on a shared machine it takes the
    /// opponent's core.
    pub ponder: bool,
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

/// What the program is asked to do, its settings read.
#[derive(Clone, Debug)]
pub enum Invocation {
    /// Speak GTP on standard input and output.
    Gtp(Settings),
    /// Play one GMP game on standard input and output.
    Gmp(Settings, GmpArgs),
    /// Measure the speed ([`crate::bench`]): CPU seconds a line, and the settings (whose
    /// `--threads`, above 2, adds a search line with that many threads).
    Bench(Settings, f64),
    /// Fit the move model ([`crate::model::train`]) and write it to the path.
    Train(crate::model::train::TrainOptions, PathBuf),
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

impl From<envset::Error> for SettingsError {
    fn from(e: envset::Error) -> SettingsError {
        SettingsError(e.to_string())
    }
}

/// `GO_MOVE_MS`, `--move-ms`: a move's budget in ms.
pub const MOVE_MS: Kind<u64> = Kind {
    expected: "a positive integer",
    parse: |t| t.parse().ok().filter(|&ms| ms > 0),
};

/// `GO_THREADS`, `--threads`: search threads, 1 to [`MAX_THREADS`].
pub const THREADS: Kind<usize> = Kind {
    expected: "an integer from 1 to 256",
    parse: |t| t.parse().ok().filter(|n| (1..=MAX_THREADS).contains(n)),
};

/// A switch: `0` or `1`.
pub const SWITCH: Kind<bool> = envset::SWITCH;

/// `GO_POLICY`: the playout policy.
pub const POLICY: Kind<Policy> = Kind {
    expected: "heavy or light",
    parse: |t| match t {
        "heavy" => Some(Policy::Heavy),
        "light" => Some(Policy::Light),
        _ => None,
    },
};

/// `GO_RAVE_K`: a positive number.
pub const POSITIVE: Kind<f32> = Kind {
    expected: "a positive number",
    parse: |t| t.parse().ok().filter(|x: &f32| x.is_finite() && *x > 0.0),
};

/// `GO_UCT_C`, `GO_PRIOR`: a number >= 0.
pub const NON_NEGATIVE: Kind<f32> = Kind {
    expected: "a number >= 0",
    parse: |t| t.parse().ok().filter(|x: &f32| x.is_finite() && *x >= 0.0),
};

/// `GO_RESIGN`: the resignation threshold.
pub const RESIGN: Kind<f64> = Kind {
    expected: "a win rate from 0 (never resign) to below 1",
    parse: |t| t.parse().ok().filter(|x| (0.0..1.0).contains(x)),
};

/// `GO_MAX_NODES`: the node cap.
pub const MAX_NODES: Kind<usize> = Kind {
    expected: "an integer from 1024 to 268435456",
    parse: |t| t.parse().ok().filter(|n| (1024..=1 << 28).contains(n)),
};

/// `GO_EXPAND`: the expansion threshold.
pub const EXPAND: Kind<u32> = Kind {
    expected: "a positive integer",
    parse: |t| t.parse().ok().filter(|n| (1..=1_000_000).contains(n)),
};

/// `--color` of `go-engine gmp`: `black` or `white` (`b`, `w`, in any case).
pub const COLOR: Kind<Color> = Kind {
    expected: "black or white",
    parse: |t| match t.to_ascii_lowercase().as_str() {
        "black" | "b" => Some(Color::Black),
        "white" | "w" => Some(Color::White),
        _ => None,
    },
};

/// `--size` of `go-engine gmp`: a board side.
pub const SIZE: Kind<usize> = Kind {
    expected: "a board side from 2 to 25",
    parse: |t| t.parse().ok().filter(|n| (MIN_SIZE..=MAX_SIZE).contains(n)),
};

/// `--komi` of `go-engine gmp`.
pub const KOMI: Kind<f64> = Kind {
    expected: "a number",
    parse: |t| t.parse().ok().filter(|k: &f64| k.is_finite()),
};

/// `--handicap` of `go-engine gmp`: no handicap or at least 2 stones.
pub const HANDICAP: Kind<usize> = Kind {
    expected: "0 or 2..9",
    parse: |t| t.parse().ok().filter(|&h| h != 1),
};

/// `--seconds` of `go-engine bench`.
pub const BENCH_SECONDS: Kind<f64> = Kind {
    expected: "a number of seconds above 0, at most 3600",
    parse: |t| {
        t.parse()
            .ok()
            .filter(|s: &f64| s.is_finite() && *s > 0.0 && *s <= 3600.0)
    },
};

/// The move model `GO_MODEL` names: unset or `shipped` for the weights inside the binary
/// (checked here, so that a damaged binary says so at start), `none` for the hand-written
/// knowledge, else a file of `go-engine train`'s.
fn model(value: Option<String>) -> Result<Option<Arc<Model>>, SettingsError> {
    let shipped = || {
        crate::model::shipped()
            .map(Some)
            .map_err(|e| SettingsError(format!("the shipped move model: {e}")))
    };
    match value.as_deref().map(str::trim) {
        None | Some("shipped") => shipped(),
        Some("none") => Ok(None),
        Some(path) => Model::load(Path::new(path))
            .map(|m| Some(Arc::new(m)))
            .map_err(|e| SettingsError(format!("GO_MODEL={path}: {e}"))),
    }
}

impl Settings {
    /// The settings of the environment `var` describes (`var(name)` is the variable's value;
    /// an empty value counts as unset).
    pub fn from_vars(var: impl Fn(&str) -> Option<String>) -> Result<Settings, SettingsError> {
        let vars = Vars::new(var);
        // The search's defaults, then the checked values over them.
        let mut c = Config::default();
        let mut s = Settings {
            move_ms: DEFAULT_MOVE_MS,
            sgf_stats: false,
            log: false,
            ponder: false,
            config: c.clone(),
            playouts: None,
        };
        vars.set(&mut s.move_ms, "GO_MOVE_MS", MOVE_MS)?;
        vars.set(&mut c.threads, "GO_THREADS", THREADS)?;
        vars.set(&mut s.sgf_stats, "GO_SGF_STATS", SWITCH)?;
        vars.set(&mut s.log, "GO_LOG", SWITCH)?;
        vars.set(&mut s.ponder, "GO_PONDER", SWITCH)?;
        vars.set(&mut c.policy, "GO_POLICY", POLICY)?;
        vars.set(&mut c.rave, "GO_RAVE", SWITCH)?;
        vars.set(&mut c.reuse, "GO_REUSE", SWITCH)?;
        vars.set(&mut c.rave_equivalence, "GO_RAVE_K", POSITIVE)?;
        vars.set(&mut c.exploration, "GO_UCT_C", NON_NEGATIVE)?;
        vars.set(&mut c.prior_even, "GO_PRIOR", NON_NEGATIVE)?;
        vars.set(&mut c.resign_threshold, "GO_RESIGN", RESIGN)?;
        vars.set(&mut c.max_nodes, "GO_MAX_NODES", MAX_NODES)?;
        vars.set(&mut c.expand_visits, "GO_EXPAND", EXPAND)?;
        vars.set(&mut c.model_prior, "GO_MODEL_PRIOR", NON_NEGATIVE)?;
        vars.set(&mut c.widening, "GO_WIDEN", SWITCH)?;
        c.model = model(vars.text("GO_MODEL"))?;
        s.config = c;
        Ok(s)
    }

    /// The settings of the process's environment.
    pub fn from_env() -> Result<Settings, SettingsError> {
        Settings::from_vars(|name| std::env::var_os(name).map(|v| v.to_string_lossy().into_owned()))
    }
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

    #[test]
    fn defaults_and_good_values() {
        let s = env(&[]).unwrap();
        assert_eq!(s.move_ms, DEFAULT_MOVE_MS);
        assert_eq!(s.config.threads, 1);
        assert!(!s.sgf_stats && !s.log && !s.ponder);
        let s = env(&[
            ("GO_PONDER", "1"),
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
        assert!(s.sgf_stats && !s.log && s.ponder);
        assert_eq!(s.config.policy, Policy::Light);
        assert!(!s.config.rave);
        assert_eq!(s.config.rave_equivalence, 1000.0);
        assert_eq!(s.config.exploration, 0.0);
        assert_eq!(s.config.resign_threshold, 0.0);
        assert_eq!(s.config.max_nodes, 4096);
        assert_eq!(s.config.expand_visits, 3);
    }

    #[test]
    fn the_move_model_is_shipped_none_or_a_file() {
        assert!(env(&[]).unwrap().config.model.is_some());
        assert!(
            env(&[("GO_MODEL", "shipped")])
                .unwrap()
                .config
                .model
                .is_some()
        );
        assert!(env(&[("GO_MODEL", "none")]).unwrap().config.model.is_none());
        let path = std::env::temp_dir().join(format!("go-model-{}.bin", std::process::id()));
        std::fs::write(&path, crate::model::shipped().unwrap().to_bytes()).unwrap();
        let s = env(&[("GO_MODEL", path.to_str().unwrap()), ("GO_WIDEN", "1")]).unwrap();
        assert!(s.config.model.is_some() && s.config.widening);
        std::fs::write(&path, b"GOMOVES\0 but damaged").unwrap();
        let e = env(&[("GO_MODEL", path.to_str().unwrap())]).unwrap_err();
        std::fs::remove_file(&path).unwrap();
        assert!(
            e.0.contains("damaged") || e.0.contains("not a go-engine move model"),
            "{e}"
        );
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
            ("GO_MODEL", "/no/such/model.bin"),
            ("GO_MODEL_PRIOR", "-1"),
            ("GO_WIDEN", "yes"),
            ("GO_PONDER", "yes"),
        ] {
            let e = env(&[(name, value)]).unwrap_err();
            assert!(e.0.starts_with(&format!("{name}=")), "{e}");
            assert!(!e.0.contains('\n'), "{e}");
        }
    }
}
