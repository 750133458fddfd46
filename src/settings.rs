//! The numbers that matter, with where they come from, and their environment overrides.

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

/// Which search plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Profile {
    /// The plain two-board UCT of the course report: UCB1 with c = 0.8, random playouts,
    /// best-mean final move. Kept unchanged as the baseline every improvement is measured on.
    Classic,
    /// The strongest configuration: UCT with proofs, tactical expansion and playouts.
    Strong,
}

impl Profile {
    /// The name used in `GRAVITY4_PROFILE` and in telemetry.
    pub fn name(self) -> &'static str {
        match self {
            Profile::Classic => "classic",
            Profile::Strong => "strong",
        }
    }

    /// Parses a profile name (`default` means [`Profile::Strong`]).
    pub fn parse(text: &str) -> Option<Profile> {
        match text.trim() {
            "classic" => Some(Profile::Classic),
            "strong" | "default" => Some(Profile::Strong),
            _ => None,
        }
    }
}

/// Settings read from the environment at each call (cheap, and tests can change them).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Settings {
    /// Wall-clock budget per call, counted from entry into `getPoint`.
    pub budget: Duration,
    /// Bytes of tree nodes the search may allocate.
    pub tree_bytes: usize,
    /// Print one `key=value` line per call on stderr.
    pub log: bool,
    /// The search that plays.
    pub profile: Profile,
}

impl Settings {
    /// Reads the overrides; a malformed value is reported once per call and ignored.
    pub fn from_env() -> Settings {
        let budget_ms = match std::env::var(ENV_MOVE_MS) {
            Ok(text) => match text.trim().parse::<u64>() {
                Ok(ms) if ms > 0 => ms,
                _ => {
                    eprintln!(
                        "gravity4: ignoring {ENV_MOVE_MS}={text:?}: expected milliseconds > 0"
                    );
                    DEFAULT_MOVE_MS
                }
            },
            Err(_) => DEFAULT_MOVE_MS,
        };
        let profile = match std::env::var(ENV_PROFILE) {
            Ok(text) => Profile::parse(&text).unwrap_or_else(|| {
                eprintln!("gravity4: ignoring {ENV_PROFILE}={text:?}: expected strong or classic");
                Profile::Strong
            }),
            Err(_) => Profile::Strong,
        };
        Settings {
            budget: Duration::from_millis(budget_ms),
            tree_bytes: DEFAULT_TREE_BYTES,
            log: std::env::var(ENV_LOG).is_ok_and(|v| v == "1"),
            profile,
        }
    }
}
