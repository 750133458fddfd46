//! The numbers that matter, with where they come from, and their environment overrides.
//!
//! [`Settings::from_env`] is the one place the environment is read: the budget, the log
//! switch and the search, parsed into the [`SearchConfig`] the search reads (the same type
//! the bench and the tests build with [`SearchConfig::strong`] and
//! [`SearchConfig::classic`]). The reading is [`envset`]'s, shared with the other games'
//! programs; a bad value is reported and its default kept, as the library cannot stop.

use crate::search::config::{ADAPTATION_RATE, MODEL_DEPTH, MODEL_PRIOR, STRONG_EXPLORATION};
use crate::search::parallel::MAX_THREADS;
use crate::search::{Profile, SearchConfig, Techniques};
use envset::{Kind, Vars};
use std::time::Duration;

/// Default thinking time per move: 2 s leaves a full second of the course's 3 s limit for
/// the judge's thread start-up and a loaded machine.
pub const DEFAULT_MOVE_MS: u64 = 2000;

/// Tree memory cap: 256 MiB keeps the whole library far below the online platform's ~1 GB.
pub const DEFAULT_TREE_BYTES: usize = 256 << 20;

/// Environment variable overriding the per-move budget in milliseconds.
pub const ENV_MOVE_MS: &str = "GRAVITY4_MOVE_MS";
/// Environment variable that turns on one telemetry line per call on stderr when `1`.
pub const ENV_LOG: &str = "GRAVITY4_LOG";

/// Environment variable choosing the search profile: `strong` (default) or `classic`.
pub const ENV_PROFILE: &str = "GRAVITY4_PROFILE";

/// Environment variable switching techniques of the strong profile off, for measuring each
/// one on its own: a comma list of the names in [`Techniques::SWITCHES`]
/// (`tactical-playouts`, `keep-threats`, `reuse`, `endgame`, `threat-sequences`,
/// `early-stop`, `last-good-reply`, `policy-adaptation`, `ppa-pairs`, `value-model`). A name
/// that is not one is reported on stderr and ignored; the others apply.
pub const ENV_DISABLE: &str = "GRAVITY4_DISABLE";

/// Environment variable switching techniques on (the same names as [`ENV_DISABLE`]; applied
/// before it): of the ten, only `early-stop` and `value-model` are off by default.
pub const ENV_ENABLE: &str = "GRAVITY4_ENABLE";

/// Environment variable overriding the strong profile's UCB1 exploration constant (a tuning
/// knob; `classic` always uses the course's 0.8).
pub const ENV_EXPLORATION: &str = "GRAVITY4_EXPLORATION";

/// Environment variable overriding the step of playout policy adaptation on a log-weight
/// (a tuning knob, [`ADAPTATION_RATE`] by default): a number in (0, 2].
pub const ENV_ADAPTATION_RATE: &str = "GRAVITY4_PPA_RATE";

/// Environment variable overriding the virtual visits a new node's learned value counts for
/// with `GRAVITY4_ENABLE=value-model` (a tuning knob, [`MODEL_PRIOR`] by default): a whole
/// number in 1..=256.
pub const ENV_MODEL_PRIOR: &str = "GRAVITY4_MODEL_PRIOR";

/// Environment variable limiting the prior of `value-model` to nodes at most this many
/// plies below the root (a tuning knob, [`MODEL_DEPTH`], every node, by default): a whole
/// number in 1..=144.
pub const ENV_MODEL_DEPTH: &str = "GRAVITY4_MODEL_DEPTH";

/// Environment variable asking for a fixed number of search iterations per move instead of
/// the clock, so that a move can be reproduced (with [`ENV_SEED`]); the budget is then not
/// enforced. The endgame solver gets [`ENDGAME_NODES_PER_ITERATION`] nodes per iteration
/// instead of its share of the time.
pub const ENV_ITERATIONS: &str = "GRAVITY4_ITERATIONS";

/// Environment variable seeding the search's random generator (a number), instead of the
/// operating system's entropy: with [`ENV_ITERATIONS`], the same position gets the same move.
pub const ENV_SEED: &str = "GRAVITY4_SEED";

/// Environment variable asking the strong search for N threads over one tree (tree
/// parallelism with virtual loss, [`crate::search::parallel`]): a whole number in
/// 1..=[`MAX_THREADS`], 1 by default (the course platform's share of the CPU is unknown, and
/// the judge runs both players on one machine). `classic` always searches on one.
pub const ENV_THREADS: &str = "GRAVITY4_THREADS";

/// With a fixed iteration count, the endgame solver's node budget per iteration: a solver
/// node costs about a tenth of an iteration of the strong search, so 16 gives it roughly the
/// share of the work [`ENDGAME_SHARE`](crate::session) gives it of the time.
pub const ENDGAME_NODES_PER_ITERATION: u64 = 16;

/// Settings read from the environment at each call (cheap, and tests can change them).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Settings {
    /// Wall-clock budget per call, counted from entry into `getPoint`.
    pub budget: Duration,
    /// Bytes of tree nodes the search may allocate.
    pub tree_bytes: usize,
    /// Print one `key=value` line per call on stderr.
    pub log: bool,
    /// Search exactly this many iterations per move, whatever the clock ([`ENV_ITERATIONS`]).
    pub iterations: Option<u64>,
    /// Seed the search's generator with this instead of the OS ([`ENV_SEED`]).
    pub seed: Option<u64>,
    /// Threads of the strong search, 1 (the default) to [`MAX_THREADS`] ([`ENV_THREADS`]).
    pub threads: usize,
    /// The search that plays: [`SearchConfig::strong`] unless the environment says otherwise.
    pub search: SearchConfig,
}

impl Settings {
    /// Reads the overrides; a malformed value is reported once per call and ignored.
    pub fn from_env() -> Settings {
        Settings::from_vars(&Vars::env())
    }

    /// The settings `vars` (the environment, or a table in tests) ask for; a malformed value
    /// is reported on stderr and its default used. An unset or blank variable keeps its
    /// default.
    fn from_vars(vars: &Vars<impl Fn(&str) -> Option<String>>) -> Settings {
        let budget_ms = reported(vars.get(ENV_MOVE_MS, MOVE_MS)).unwrap_or(DEFAULT_MOVE_MS);
        Settings {
            budget: Duration::from_millis(budget_ms),
            tree_bytes: DEFAULT_TREE_BYTES,
            log: vars.raw(ENV_LOG).is_some_and(|v| v == "1"),
            iterations: reported(vars.get(ENV_ITERATIONS, ITERATIONS)),
            seed: reported(vars.get(ENV_SEED, SEED)),
            threads: reported(vars.get(ENV_THREADS, THREADS)).unwrap_or(1),
            search: search_config(vars),
        }
    }
}

impl Default for Settings {
    /// What the library plays with when the environment sets nothing.
    fn default() -> Settings {
        Settings {
            budget: Duration::from_millis(DEFAULT_MOVE_MS),
            tree_bytes: DEFAULT_TREE_BYTES,
            log: false,
            iterations: None,
            seed: None,
            threads: 1,
            search: SearchConfig::strong(),
        }
    }
}

/// [`ENV_MOVE_MS`]: milliseconds, at least 1.
const MOVE_MS: Kind<u64> = Kind {
    expected: "milliseconds > 0",
    parse: |t| t.parse().ok().filter(|&ms| ms > 0),
};

/// [`ENV_ITERATIONS`]: a whole number, at least 1.
const ITERATIONS: Kind<u64> = Kind {
    expected: "a whole number >= 1",
    parse: |t| t.parse().ok().filter(|&n| n >= 1),
};

/// [`ENV_SEED`]: any whole number.
const SEED: Kind<u64> = Kind {
    expected: "a whole number >= 0",
    parse: |t| t.parse().ok(),
};

/// [`ENV_THREADS`]: a whole number in 1..=[`MAX_THREADS`].
const THREADS: Kind<usize> = Kind {
    expected: "a whole number in 1..=16",
    parse: |t| t.parse().ok().filter(|n| (1..=MAX_THREADS).contains(n)),
};

/// [`ENV_PROFILE`]: `strong` or `classic`.
const PROFILE: Kind<Profile> = Kind {
    expected: "strong or classic",
    parse: Profile::parse,
};

/// [`ENV_EXPLORATION`]: a number >= 0.
const EXPLORATION: Kind<f32> = Kind {
    expected: "a number >= 0",
    parse: |t| t.parse().ok().filter(|c: &f32| c.is_finite() && *c >= 0.0),
};

/// [`ENV_ADAPTATION_RATE`]: a number in (0, 2].
const RATE: Kind<f32> = Kind {
    expected: "a number in (0, 2]",
    parse: |t| t.parse().ok().filter(|r: &f32| *r > 0.0 && *r <= 2.0),
};

/// [`ENV_MODEL_PRIOR`]: a whole number in 1..=256.
const PRIOR: Kind<u32> = Kind {
    expected: "a whole number in 1..=256",
    parse: |t| t.parse().ok().filter(|k| (1..=256).contains(k)),
};

/// [`ENV_MODEL_DEPTH`]: a whole number in 1..=144.
const DEPTH: Kind<u32> = Kind {
    expected: "a whole number in 1..=144",
    parse: |t| t.parse().ok().filter(|d| (1..=144).contains(d)),
};

/// The value of a read, the error reported on stderr (`gravity4: ignoring NAME="value":
/// expected ...`) and read as unset: the library cannot stop its host.
fn reported<T>(read: Result<Option<T>, envset::Error>) -> Option<T> {
    read.unwrap_or_else(|e| {
        eprintln!("gravity4: ignoring {e}");
        None
    })
}

/// The [`SearchConfig`] that `GRAVITY4_PROFILE`, `GRAVITY4_ENABLE`, `GRAVITY4_DISABLE`,
/// `GRAVITY4_EXPLORATION`, `GRAVITY4_PPA_RATE`, `GRAVITY4_MODEL_PRIOR` and `GRAVITY4_MODEL_DEPTH` ask for, read through
/// `vars` (the environment, or a table in tests); a malformed value is reported on stderr and
/// its default used.
fn search_config(vars: &Vars<impl Fn(&str) -> Option<String>>) -> SearchConfig {
    let profile = reported(vars.get(ENV_PROFILE, PROFILE)).unwrap_or(Profile::Strong);
    let enable = vars.raw(ENV_ENABLE).unwrap_or_default();
    let disable = vars.raw(ENV_DISABLE).unwrap_or_default();
    let (techniques, unknown) = Techniques::parse(&enable, &disable);
    for name in unknown {
        eprintln!("gravity4: ignoring a name in {ENV_ENABLE} or {ENV_DISABLE}: {name}");
    }
    let strong_exploration =
        reported(vars.get(ENV_EXPLORATION, EXPLORATION)).unwrap_or(STRONG_EXPLORATION);
    let adaptation_rate = reported(vars.get(ENV_ADAPTATION_RATE, RATE)).unwrap_or(ADAPTATION_RATE);
    let model_prior = reported(vars.get(ENV_MODEL_PRIOR, PRIOR)).unwrap_or(MODEL_PRIOR);
    let model_depth = reported(vars.get(ENV_MODEL_DEPTH, DEPTH)).unwrap_or(MODEL_DEPTH);
    // Every variable is read (and a bad one reported) whichever profile plays; classic
    // takes none of the strong profile's knobs.
    match profile {
        Profile::Classic => SearchConfig::classic(),
        Profile::Strong => SearchConfig {
            profile,
            exploration: strong_exploration,
            techniques,
            adaptation_rate,
            model_prior,
            model_depth,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The variables of a table of (name, value) pairs.
    fn table<'a>(vars: &'a [(&str, &str)]) -> Vars<impl Fn(&str) -> Option<String> + 'a> {
        Vars::new(move |name| {
            vars.iter()
                .find(|(known, _)| *known == name)
                .map(|(_, value)| value.to_string())
        })
    }

    /// The search `vars` (name, value pairs) ask for.
    fn search_with(vars: &[(&str, &str)]) -> SearchConfig {
        search_config(&table(vars))
    }

    #[test]
    fn no_variables_ship_the_strong_default() {
        assert_eq!(search_with(&[]), SearchConfig::strong());
        assert_eq!(
            search_with(&[(ENV_PROFILE, "bogus")]),
            SearchConfig::strong()
        );
    }

    #[test]
    fn classic_takes_none_of_the_strong_knobs() {
        let vars = [
            (ENV_PROFILE, "classic"),
            (ENV_EXPLORATION, "0.3"),
            (ENV_ENABLE, "early-stop"),
        ];
        assert_eq!(search_with(&vars), SearchConfig::classic());
    }

    #[test]
    fn the_strong_knobs_change_the_default() {
        let vars = [
            (ENV_EXPLORATION, "0.3"),
            (ENV_ENABLE, "early-stop"),
            (ENV_DISABLE, "reuse"),
        ];
        let config = search_with(&vars);
        assert_eq!(config.exploration, 0.3);
        assert!(config.techniques.early_stop && !config.techniques.reuse);
        let bad = search_with(&[(ENV_EXPLORATION, "-1"), (ENV_DISABLE, "bogus")]);
        assert_eq!(bad, SearchConfig::strong());
        // A removed or unknown name is left out; the rest of the lists apply.
        let some = search_with(&[(ENV_ENABLE, "graph,early-stop"), (ENV_DISABLE, "fpu,reuse")]);
        assert!(some.techniques.early_stop && !some.techniques.reuse);
    }

    #[test]
    fn the_model_prior_is_a_whole_number_up_to_256() {
        let prior = |text| search_with(&[(ENV_MODEL_PRIOR, text)]).model_prior;
        assert_eq!(prior("16"), 16);
        for bad in ["0", "257", "2.5", "-1"] {
            assert_eq!(prior(bad), MODEL_PRIOR, "{bad}");
        }
        assert_eq!(search_with(&[(ENV_MODEL_DEPTH, "3")]).model_depth, 3);
        assert_eq!(
            search_with(&[(ENV_MODEL_DEPTH, "0")]).model_depth,
            MODEL_DEPTH
        );
        let on = search_with(&[(ENV_ENABLE, "value-model")]);
        assert!(on.techniques.value_model && !SearchConfig::strong().techniques.value_model);
    }

    #[test]
    fn iterations_and_seed_are_whole_numbers() {
        let read = |name, text| {
            let settings = Settings::from_vars(&table(&[(name, text)]));
            (settings.iterations, settings.seed)
        };
        assert_eq!(read(ENV_ITERATIONS, " 500"), (Some(500), None));
        assert_eq!(read(ENV_ITERATIONS, "0"), (None, None));
        assert_eq!(read(ENV_SEED, "0"), (None, Some(0)));
        for bad in ["-3", "1e3", "many", ""] {
            assert_eq!(read(ENV_SEED, bad), (None, None), "{bad}");
        }
        let e = ITERATIONS.read("0").unwrap_err();
        assert_eq!(e, "expected a whole number >= 1");
        let defaults = Settings::default();
        assert_eq!((defaults.iterations, defaults.seed), (None, None));
        assert_eq!(defaults.search, SearchConfig::strong());
    }

    #[test]
    fn the_adaptation_rate_is_positive_and_at_most_two() {
        let rate = |text| search_with(&[(ENV_ADAPTATION_RATE, text)]).adaptation_rate;
        assert_eq!(rate(" 1.0"), 1.0);
        assert_eq!(rate("2"), 2.0);
        for bad in ["0", "-0.3", "2.5", "NaN", "fast"] {
            assert_eq!(rate(bad), ADAPTATION_RATE, "{bad}");
        }
        let classic = [(ENV_PROFILE, "classic"), (ENV_ADAPTATION_RATE, "1")];
        assert_eq!(search_with(&classic), SearchConfig::classic());
    }

    #[test]
    fn threads_are_one_to_sixteen_and_one_by_default() {
        let threads = |text| Settings::from_vars(&table(&[(ENV_THREADS, text)])).threads;
        assert_eq!(threads(" 2"), 2);
        assert_eq!(threads("16"), MAX_THREADS);
        for bad in ["0", "17", "-1", "2.0", "two", ""] {
            assert_eq!(threads(bad), 1, "{bad}");
        }
        assert_eq!(Settings::default().threads, 1);
        assert_eq!(Settings::from_vars(&table(&[])).threads, 1);
        assert_eq!(
            THREADS.read("0").unwrap_err(),
            "expected a whole number in 1..=16"
        );
    }
}
