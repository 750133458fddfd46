//! The player seam: what the referee asks of a player, and how players are named on the
//! command line.
//!
//! A [`Player`] is started for a game, asked for moves under a time limit (the
//! opponent's last move in, a move out), and stopped; whatever goes wrong on its side
//! comes back as a [`Fault`], which the referee turns into a verdict. Today's one kind of
//! player is a course-ABI library hosted in its own child process ([`course_abi`]); the
//! process layer underneath (`process`: pipes, signals, rlimits, scratch directories)
//! is private to this module, so nothing in the tournament sees into it.
//!
//! Other kinds (programs over stdin/stdout: `saiblo:`, `gtp:`, `botzone:`) plug in as
//! new [`PlayerSpec`] variants and new `Player` implementations; the referee and the
//! tournament do not change.

pub mod course_abi;
mod process;

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use anyhow::{Result, bail};

use crate::games::connect4::Connect4;
use crate::games::{Game, Side, Termination};

pub use process::child::{HostSettings, run as run_host};
pub use process::sweep_stale_scratch;
pub use process::{LogSink, ProcessSettings};

/// Something that plays games of `G`: a library, a program, a person.
pub trait Player<G: Game> {
    /// Gets ready for a game on `setup`, moving as `side` (waits for a library to load).
    /// `Err` is the reason it cannot play: it loses the game by that fault.
    fn start(&mut self, game: &G, setup: &G::Setup, side: Side) -> Result<(), Fault>;

    /// The move for the side to move in `position`, given the opponent's last move, within
    /// `limit` of wall time. The referee checks the move; the player only reports it.
    fn next_move(
        &mut self,
        game: &G,
        position: &G::Position,
        last: Option<G::Move>,
        limit: Duration,
    ) -> Answer<G::Move>;

    /// The game is over. A player that runs one process per game ends it here.
    fn stop(&mut self) {}

    /// Whether this player can start another game as it is (its process is alive), for
    /// runs that keep one process per player across games.
    fn reusable(&self) -> bool {
        false
    }
}

/// One answer with its timing.
#[derive(Debug, Clone)]
pub struct Answer<M> {
    /// The move, or what went wrong.
    pub reply: Result<M, Fault>,
    /// Wall time from asking to the answer (monotonic clock, judge side), ms.
    pub wall_ms: f64,
    /// The player's CPU time for the answer, ms, when known.
    pub cpu_ms: Option<f64>,
}

/// Misbehaviour on a player's side; each loses the game with its verdict.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Fault {
    /// It answered without a move (`getPoint` returned NULL).
    NoMove,
    /// No answer within the limit; its process was killed.
    Timeout,
    /// Its process died or broke the protocol; the text names the signal or exit status.
    Crash(String),
    /// It could not be loaded or started; the text says why (e.g. `dlerror()`'s).
    Load(String),
    /// It loaded but lacks a required symbol; the text names it.
    MissingSymbol(String),
}

impl Fault {
    /// The verdict this fault earns.
    pub fn termination(&self) -> Termination {
        match self {
            Fault::NoMove => Termination::Null,
            Fault::Timeout => Termination::Timeout,
            Fault::Crash(_) => Termination::Crash,
            Fault::Load(_) | Fault::MissingSymbol(_) => Termination::Load,
        }
    }

    /// The log's `detail` for this fault, when the fault itself says more.
    pub fn detail(&self) -> Option<String> {
        match self {
            Fault::NoMove | Fault::Timeout => None,
            Fault::Crash(t) | Fault::Load(t) | Fault::MissingSymbol(t) => Some(t.clone()),
        }
    }
}

/// A player as named on the command line.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum PlayerSpec {
    /// A course-ABI shared library (`LIB.so`, or `LIB.so@KEY=VALUE,...` with environment
    /// variables for its own process only).
    CourseAbi {
        /// The library file.
        library: PathBuf,
        /// Environment variables set for this player's process only.
        env: Vec<(String, String)>,
    },
}

impl PlayerSpec {
    /// Parses a player argument. `LIB.so@KEY=VALUE[,KEY=VALUE...]` gives the library's
    /// process its own environment, so one file can play as several configurations
    /// (e.g. `libgravity4.so@GRAVITY4_PROFILE=classic`). An argument naming an existing
    /// file, or without `@`, is a plain library.
    pub fn parse(arg: &Path) -> Result<PlayerSpec> {
        // Program players will be told apart here by their scheme (`saiblo:CMD ARGS`,
        // `gtp:CMD`, `botzone:CMD`), before the library form below.
        let text = arg.to_string_lossy();
        let Some((lib, assignments)) = text.rsplit_once('@').filter(|_| !arg.exists()) else {
            return Ok(PlayerSpec::CourseAbi {
                library: arg.to_path_buf(),
                env: Vec::new(),
            });
        };
        // A piece without `=` continues the previous value, so values may hold commas:
        // `@GRAVITY4_DISABLE=reuse,endgame,GRAVITY4_MOVE_MS=50`.
        let mut env: Vec<(String, String)> = Vec::new();
        for piece in assignments.split(',') {
            match (piece.split_once('='), env.last_mut()) {
                (Some((k, v)), _) if !k.is_empty() && !k.contains(char::is_whitespace) => {
                    env.push((k.to_string(), v.to_string()));
                }
                (None, Some((_, value))) => {
                    value.push(',');
                    value.push_str(piece);
                }
                _ => bail!(
                    "bad player {text:?}: expected LIB.so@KEY=VALUE[,KEY=VALUE...], got {piece:?}"
                ),
            }
        }
        Ok(PlayerSpec::CourseAbi {
            library: PathBuf::from(lib),
            env,
        })
    }

    /// The player's display name before disambiguation: the file stem, plus `@` and its
    /// environment settings as `KEY=VALUE` with the key's namespace word dropped
    /// (`GRAVITY4_DISABLE=reuse` shows as `DISABLE=reuse`: the value alone would read the
    /// same for enabling and disabling).
    pub fn base_name(&self) -> String {
        match self {
            PlayerSpec::CourseAbi { library, env } => {
                let stem = library
                    .file_stem()
                    .map(|s| s.to_string_lossy().into_owned())
                    .unwrap_or_else(|| library.display().to_string());
                if env.is_empty() {
                    return stem;
                }
                let settings: Vec<String> = env
                    .iter()
                    .map(|(k, v)| {
                        let key = k.split_once('_').map_or(k.as_str(), |(_, rest)| rest);
                        format!("{key}={v}")
                    })
                    .collect();
                format!("{stem}@{}", settings.join(","))
            }
        }
    }

    /// Sets `key` for the player's process unless the player sets it already.
    pub fn set_default_env(&mut self, key: &str, value: &str) {
        match self {
            PlayerSpec::CourseAbi { env, .. } => {
                if !env.iter().any(|(k, _)| k == key) {
                    env.push((key.into(), value.into()));
                }
            }
        }
    }

    /// Starts the player (its process begins loading; [`Player::start`] waits for it),
    /// its output going to `log`.
    pub fn open(&self, settings: &ProcessSettings, log: Arc<LogSink>) -> Box<dyn Player<Connect4>> {
        match self {
            PlayerSpec::CourseAbi { library, env } => Box::new(
                course_abi::CourseAbiPlayer::launch(settings, library, env, log),
            ),
        }
    }

    /// The file the player runs (for messages).
    pub fn file(&self) -> &Path {
        match self {
            PlayerSpec::CourseAbi { library, .. } => library,
        }
    }
}

/// Opens players of a run by entrant index; the tournament asks it for a fresh player
/// whenever it has none to reuse, and knows nothing else about how players are made.
pub trait Lineup<G: Game>: Sync {
    /// A new player for entrant `who`, starting to load (not yet waited for, so both
    /// players of a game load at once).
    fn open(&self, who: usize) -> Box<dyn Player<G>>;
}

/// The run's players as specs, each with its output log: today's [`Lineup`].
pub struct Roster {
    specs: Vec<PlayerSpec>,
    logs: Vec<Arc<LogSink>>,
    settings: ProcessSettings,
}

impl Roster {
    /// Players `specs`, entrant `i` writing its output to `logs[i]`.
    pub fn new(
        specs: Vec<PlayerSpec>,
        logs: Vec<Arc<LogSink>>,
        settings: ProcessSettings,
    ) -> Roster {
        Roster {
            specs,
            logs,
            settings,
        }
    }
}

impl Lineup<Connect4> for Roster {
    fn open(&self, who: usize) -> Box<dyn Player<Connect4>> {
        self.specs[who].open(&self.settings, self.logs[who].clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env_of(spec: &PlayerSpec) -> &[(String, String)] {
        match spec {
            PlayerSpec::CourseAbi { env, .. } => env,
        }
    }

    #[test]
    fn specs_parse_with_their_environment() {
        let s = PlayerSpec::parse(Path::new(
            "lib/g.so@GRAVITY4_PROFILE=strong,GRAVITY4_MOVE_MS=50",
        ))
        .unwrap();
        assert_eq!(s.file(), Path::new("lib/g.so"));
        assert_eq!(
            env_of(&s),
            [
                ("GRAVITY4_PROFILE".to_string(), "strong".to_string()),
                ("GRAVITY4_MOVE_MS".to_string(), "50".to_string())
            ]
        );
        assert_eq!(s.base_name(), "g@PROFILE=strong,MOVE_MS=50");
        assert!(PlayerSpec::parse(Path::new("g.so@NOEQUALS")).is_err());
        let s = PlayerSpec::parse(Path::new(
            "g.so@GRAVITY4_DISABLE=reuse,endgame,GRAVITY4_MOVE_MS=5",
        ))
        .unwrap();
        assert_eq!(env_of(&s)[0].1, "reuse,endgame");
        let mut s = PlayerSpec::parse(Path::new("g.so")).unwrap();
        assert_eq!(s.base_name(), "g");
        s.set_default_env("GRAVITY4_LOG", "1");
        s.set_default_env("GRAVITY4_LOG", "0");
        assert_eq!(env_of(&s), [("GRAVITY4_LOG".to_string(), "1".to_string())]);
    }

    #[test]
    fn faults_map_to_verdicts() {
        assert_eq!(Fault::NoMove.termination(), Termination::Null);
        assert_eq!(Fault::Timeout.detail(), None);
        assert_eq!(
            Fault::MissingSymbol("missing symbol getPoint".into()).termination(),
            Termination::Load
        );
        assert_eq!(
            Fault::Crash("SIGSEGV".into()).detail().as_deref(),
            Some("SIGSEGV")
        );
    }
}
