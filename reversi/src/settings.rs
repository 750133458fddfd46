//! The `REVERSI_*` environment variables, their defaults, and the one place they are read.
//!
//! [`Settings::from_env`] reads them all once, at the program's start: the budget, the
//! engine, the log switch, the memory cap, and the engines' experiment knobs (as a
//! [`Tuning`]). A value that does not parse is an error naming the variable, the value and
//! what was expected, never a silent default: an experiment run with a typo in its knob
//! would otherwise measure the default while claiming to measure the knob. An empty value
//! counts as unset. The reading is [`envset`]'s, shared with the other games' programs.

use envset::{Kind, Vars};

use crate::search::heuristic::Weights;
use crate::search::patterns;
use crate::search::{Profile, Tuning};

/// Budget per move in milliseconds; program flag `--move-ms`.
pub const ENV_MOVE_MS: &str = "REVERSI_MOVE_MS";
/// The engine: `classic`, `strong`, `alphabeta` or `learned`; program flag `--profile`.
pub const ENV_PROFILE: &str = "REVERSI_PROFILE";
/// `1`: one [`crate::SearchReport::log_line`] per move on stderr; program flag `--log`.
pub const ENV_LOG: &str = "REVERSI_LOG";
/// Tree memory cap in MiB.
pub const ENV_MEMORY_MB: &str = "REVERSI_MEMORY_MB";
/// Experiments: the strong engine's UCB1 exploration constant.
pub const ENV_STRONG_C: &str = "REVERSI_STRONG_C";
/// Experiments: the strong engine solves leaves with at most this many empties.
pub const ENV_LEAF_EMPTIES: &str = "REVERSI_LEAF_EMPTIES";
/// Experiments: the strong engine's playout plies before the evaluation, or `full` (none).
pub const ENV_CUTOFF: &str = "REVERSI_CUTOFF";
/// Experiments: the weight of corner-anchored edge discs in the strong engine's evaluation.
pub const ENV_EVAL_STABILITY: &str = "REVERSI_EVAL_STABILITY";
/// Experiments: the alphabeta evaluation's 16 weights (see [`Weights::from_values`]).
pub const ENV_AB_WEIGHTS: &str = "REVERSI_AB_WEIGHTS";

/// Experiments: a pattern weights file for the `learned` engine in place of the built-in
/// ones (for both rule sets).
pub const ENV_PATTERNS: &str = "REVERSI_PATTERNS";

/// Multi-ProbCut in the `learned` engine: `on` or `off`.
pub const ENV_MPC: &str = "REVERSI_MPC";

/// Every variable [`Settings::from_env`] reads.
pub const ENV_VARS: [&str; 11] = [
    ENV_MOVE_MS,
    ENV_PROFILE,
    ENV_LOG,
    ENV_MEMORY_MB,
    ENV_STRONG_C,
    ENV_LEAF_EMPTIES,
    ENV_CUTOFF,
    ENV_EVAL_STABILITY,
    ENV_AB_WEIGHTS,
    ENV_PATTERNS,
    ENV_MPC,
];

/// The course's Reversi limit per move, our default budget (ms).
pub const DEFAULT_MOVE_MS: u64 = 5000;

/// Default cap on the tree's memory (MiB). At 32 bytes a node this is about 8 M nodes, more
/// than 5 s of search grows, and far below the course's limits.
pub const DEFAULT_MEMORY_MB: u64 = 256;

/// Everything the environment sets, each of the first three overridable by a program flag.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Settings {
    /// Budget per move in ms ([`ENV_MOVE_MS`], default [`DEFAULT_MOVE_MS`]).
    pub move_ms: u64,
    /// Print a [`crate::SearchReport::log_line`] per move on stderr ([`ENV_LOG`], default off).
    pub log: bool,
    /// The engine ([`ENV_PROFILE`], default [`Profile::Learned`]).
    pub profile: Profile,
    /// Tree memory cap in bytes ([`ENV_MEMORY_MB`], default [`DEFAULT_MEMORY_MB`] MiB).
    pub memory_bytes: usize,
    /// The engines' experiment knobs ([`ENV_STRONG_C`], [`ENV_LEAF_EMPTIES`], [`ENV_CUTOFF`],
    /// [`ENV_EVAL_STABILITY`], [`ENV_AB_WEIGHTS`], [`ENV_MPC`]; default [`Tuning::default`]).
    pub tuning: Tuning,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            move_ms: DEFAULT_MOVE_MS,
            log: false,
            profile: Profile::default(),
            memory_bytes: mib(DEFAULT_MEMORY_MB),
            tuning: Tuning::default(),
        }
    }
}

impl Settings {
    /// Reads the process environment; the first bad value is the error, one line.
    pub fn from_env() -> Result<Settings, String> {
        // Lossily, as envset reads it: a value that is not UTF-8 is a bad value, not unset.
        Settings::from_vars(|name| std::env::var_os(name).map(|v| v.to_string_lossy().into_owned()))
    }

    /// Reads the variables through `var` (the environment, or a table in tests); unset or
    /// empty ones keep their defaults, and the first bad value is the error, one line. The
    /// built-in pattern tables are checked first (their header and checksum): a binary whose
    /// tables do not match stops here, with their error, before any default uses them.
    pub fn from_vars(var: impl Fn(&str) -> Option<String>) -> Result<Settings, String> {
        patterns::ByRule::builtin()?;
        let mut s = Settings::read(&Vars::new(&var)).map_err(|e| e.to_string())?;
        if let Some(path) = var(ENV_PATTERNS).filter(|p| !p.trim().is_empty()) {
            s.tuning.patterns = patterns::ByRule::same(
                patterns::load(path.trim()).map_err(|e| format!("{ENV_PATTERNS}: {e}"))?,
            );
        }
        Ok(s)
    }

    /// The settings `vars` hold, each variable read once; the first bad value is the error.
    fn read(vars: &Vars<impl Fn(&str) -> Option<String>>) -> Result<Settings, envset::Error> {
        let mut s = Settings::default();
        vars.set(&mut s.move_ms, ENV_MOVE_MS, MOVE_MS)?;
        vars.set(&mut s.profile, ENV_PROFILE, PROFILE)?;
        vars.set(&mut s.log, ENV_LOG, envset::SWITCH)?;
        if let Some(mb) = vars.get(ENV_MEMORY_MB, MEMORY_MB)? {
            s.memory_bytes = mib(mb);
        }
        let strong = &mut s.tuning.strong;
        vars.set(&mut strong.exploration, ENV_STRONG_C, EXPLORATION)?;
        vars.set(
            &mut strong.leaf_solve_empties,
            ENV_LEAF_EMPTIES,
            LEAF_EMPTIES,
        )?;
        vars.set(&mut strong.cutoff_plies, ENV_CUTOFF, CUTOFF)?;
        vars.set(&mut strong.weights.stability, ENV_EVAL_STABILITY, STABILITY)?;
        vars.set(&mut s.tuning.alphabeta, ENV_AB_WEIGHTS, AB_WEIGHTS)?;
        vars.set(&mut s.tuning.mpc, ENV_MPC, ON_OFF)?;
        Ok(s)
    }
}

/// [`ENV_MOVE_MS`]: a positive number of ms.
const MOVE_MS: Kind<u64> = Kind {
    expected: "a positive integer (ms)",
    parse: |t| t.parse().ok().filter(|&ms| ms > 0),
};

/// [`ENV_PROFILE`]: an engine.
const PROFILE: Kind<Profile> = Kind {
    expected: "classic, strong, alphabeta or learned",
    parse: Profile::parse,
};

/// [`ENV_MEMORY_MB`]: a positive number of MiB.
const MEMORY_MB: Kind<u64> = Kind {
    expected: "a positive integer (MiB)",
    parse: |t| t.parse().ok().filter(|&mb| mb > 0),
};

/// [`ENV_STRONG_C`]: a number >= 0.
const EXPLORATION: Kind<f64> = Kind {
    expected: "a number >= 0",
    parse: |t| t.parse().ok().filter(|c: &f64| c.is_finite() && *c >= 0.0),
};

/// [`ENV_LEAF_EMPTIES`]: 0 to 60 empties.
const LEAF_EMPTIES: Kind<u32> = Kind {
    expected: "an integer from 0 to 60",
    parse: |t| t.parse().ok().filter(|&n| n <= 60),
};

/// [`ENV_CUTOFF`]: plies, or `full` (no cutoff).
const CUTOFF: Kind<Option<u32>> = Kind {
    expected: "a number of plies or full",
    parse: |t| match t {
        "full" => Some(None),
        _ => t.parse().ok().map(Some),
    },
};

/// [`ENV_EVAL_STABILITY`]: a finite number.
const STABILITY: Kind<f64> = Kind {
    expected: "a number",
    parse: |t| t.parse().ok().filter(|w: &f64| w.is_finite()),
};

/// [`ENV_AB_WEIGHTS`]: 16 integers.
const AB_WEIGHTS: Kind<Weights> = Kind {
    expected: "16 comma-separated integers",
    parse: |t| {
        let values: Option<Vec<i32>> = t.split(',').map(|w| w.trim().parse().ok()).collect();
        Some(Weights::from_values(values?.try_into().ok()?))
    },
};

/// [`ENV_MPC`]: a switch.
const ON_OFF: Kind<bool> = Kind {
    expected: "on or off",
    parse: |t| match t.to_ascii_lowercase().as_str() {
        "on" => Some(true),
        "off" => Some(false),
        _ => None,
    },
};

/// `mb` MiB in bytes (saturating: a cap past the address space is no cap).
fn mib(mb: u64) -> usize {
    usize::try_from(mb)
        .unwrap_or(usize::MAX)
        .saturating_mul(1 << 20)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The settings from a table of variables.
    fn from(vars: &[(&str, &str)]) -> Result<Settings, String> {
        Settings::from_vars(|name| {
            vars.iter()
                .find(|(k, _)| *k == name)
                .map(|(_, v)| (*v).to_owned())
        })
    }

    #[test]
    fn missing_or_empty_variables_keep_the_defaults() {
        let defaults = Settings::default();
        assert_eq!(from(&[]), Ok(defaults));
        let empty: Vec<(&str, &str)> = ENV_VARS.iter().map(|&k| (k, " ")).collect();
        assert_eq!(from(&empty), Ok(defaults));
        assert_eq!(defaults.move_ms, 5000);
        assert_eq!(defaults.memory_bytes, 256 << 20);
        assert_eq!(defaults.profile, Profile::Learned);
        assert!(!defaults.log);
        assert_eq!(defaults.tuning.strong.exploration, 0.3);
        assert_eq!(defaults.tuning.strong.leaf_solve_empties, 8);
        assert_eq!(defaults.tuning.strong.cutoff_plies, Some(0));
        assert_eq!(defaults.tuning.strong.weights.stability, 0.0);
        assert_eq!(defaults.tuning.alphabeta, Weights::DEFAULT);
        assert!(defaults.tuning.mpc);
    }

    #[test]
    fn good_values_are_read() {
        let weights = "1,2,3,4,5,6,7,8, 9,10,11,12,13,14,15,-16";
        let s = from(&[
            (ENV_MOVE_MS, " 1100 "),
            (ENV_PROFILE, "Alphabeta"),
            (ENV_LOG, "1"),
            (ENV_MEMORY_MB, "64"),
            (ENV_STRONG_C, "0.6"),
            (ENV_LEAF_EMPTIES, "0"),
            (ENV_CUTOFF, "2"),
            (ENV_EVAL_STABILITY, "1.5"),
            (ENV_AB_WEIGHTS, weights),
            (ENV_MPC, "Off"),
        ])
        .unwrap();
        assert_eq!(s.move_ms, 1100);
        assert_eq!(s.profile, Profile::Alphabeta);
        assert!(s.log);
        assert_eq!(s.memory_bytes, 64 << 20);
        assert_eq!(s.tuning.strong.exploration, 0.6);
        assert_eq!(s.tuning.strong.leaf_solve_empties, 0);
        assert_eq!(s.tuning.strong.cutoff_plies, Some(2));
        assert_eq!(s.tuning.strong.weights.stability, 1.5);
        assert_eq!(s.tuning.alphabeta.opening.mobility, 1);
        assert_eq!(s.tuning.alphabeta.opening.parity, 8);
        assert_eq!(s.tuning.alphabeta.ending.mobility, 9);
        assert_eq!(s.tuning.alphabeta.ending.parity, -16);
        assert!(!s.tuning.mpc);
        // The knobs change nothing else of the strong engine.
        let strong = crate::search::mcts::Config {
            exploration: 0.6,
            leaf_solve_empties: 0,
            cutoff_plies: Some(2),
            weights: crate::search::eval::Weights {
                stability: 1.5,
                ..crate::search::eval::Weights::DEFAULT
            },
            ..crate::search::mcts::Config::strong()
        };
        assert_eq!(s.tuning.strong, strong);
        assert_eq!(
            from(&[(ENV_CUTOFF, "full"), (ENV_LOG, "0")])
                .map(|s| (s.tuning.strong.cutoff_plies, s.log)),
            Ok((None, false))
        );
    }

    #[test]
    fn a_bad_value_is_one_line_naming_the_variable_the_value_and_what_was_expected() {
        for (name, value, expected) in [
            (ENV_MOVE_MS, "soon", "a positive integer (ms)"),
            (ENV_MOVE_MS, "0", "a positive integer (ms)"),
            (ENV_MOVE_MS, "-5", "a positive integer (ms)"),
            (ENV_PROFILE, "weak", "classic, strong, alphabeta or learned"),
            (ENV_LOG, "yes", "0 or 1"),
            (ENV_MEMORY_MB, "1.5", "a positive integer (MiB)"),
            (ENV_MEMORY_MB, "0", "a positive integer (MiB)"),
            (ENV_STRONG_C, "high", "a number >= 0"),
            (ENV_STRONG_C, "-0.1", "a number >= 0"),
            (ENV_STRONG_C, "NaN", "a number >= 0"),
            (ENV_LEAF_EMPTIES, "61", "an integer from 0 to 60"),
            (ENV_CUTOFF, "half", "a number of plies or full"),
            (ENV_EVAL_STABILITY, "inf", "a number"),
            (ENV_AB_WEIGHTS, "1,2,3", "16 comma-separated integers"),
            (ENV_MPC, "yes", "on or off"),
            (
                ENV_AB_WEIGHTS,
                "1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,x",
                "16 comma-separated integers",
            ),
        ] {
            let err = from(&[(name, value)]).unwrap_err();
            assert_eq!(err, format!("{name}={value:?}: expected {expected}"));
            assert!(!err.contains('\n'), "{err}");
        }
    }
}
