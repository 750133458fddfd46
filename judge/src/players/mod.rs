//! The player seam: what the referee asks of a player, and how players are named on the
//! command line.
//!
//! A [`Player`] is started for a game, asked for moves under a time limit (the
//! opponent's last move in, a move out), and stopped; whatever goes wrong on its side
//! comes back as a [`Fault`], which the referee turns into a verdict. For Connect-4: a
//! course-ABI library hosted in its own child process ([`course_abi`]) and a program
//! speaking the Saiblo platform's protocol ([`saiblo`]); for Reversi: an engine speaking
//! GTP ([`gtp`]) and a bot speaking Botzone's JSON protocol ([`botzone`]); for Go: an
//! engine speaking GTP ([`gtp`] too). `judge check` also calls a library position by
//! position, outside any game ([`probe`]), and an [`Audit`] collects what its hosts wrote
//! to stdout and left in their working directories. The process layer underneath
//! (`process`: pipes, signals, rlimits, scratch directories) is private to this module, so
//! nothing in the tournament sees into it.
//!
//! A person at a board is a player too ([`person`]: the human-move loop that `judge play`
//! and `judge play --web` share).
//!
//! Other kinds plug in as new [`PlayerSpec`] variants and new `Player` implementations;
//! the referee and the tournament do not change.

pub mod botzone;
pub mod course_abi;
pub mod gtp;
pub mod person;
pub mod probe;
mod process;
pub mod saiblo;

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use anyhow::{Result, bail};

use crate::clock::Clock;
use crate::games::connect4::Connect4;
use crate::games::go::Go;
use crate::games::reversi::Reversi;
use crate::games::{Game, GameKind, Side, Termination};
pub use saiblo::Form;

pub use process::child::{HostSettings, run as run_host};
use process::pipes::Failure;
/// The framed messages between the judge and a library's host process; public for the
/// fuzz targets (`fuzz/`) that feed its readers arbitrary bytes.
pub use process::protocol;
pub use process::{Audit, LogSink, ProcessSettings, Seen};
pub use process::{die_on_closed_stdout, sweep_stale_scratch};

/// Something that plays games of `G`: a library, a program, a person.
pub trait Player<G: Game> {
    /// Gets ready for a game on `setup`, moving as `side` (waits for a library to load).
    /// `Err` is the reason it cannot play: it loses the game by that fault. A second call
    /// for the same game does nothing more (`judge play` starts its player early, to
    /// report a load error before drawing the board, and the referee starts it again).
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

    /// The player's game clock, told right before each [`Player::next_move`] in games
    /// played on one (the move's limit is then at most what it has left): a player whose
    /// protocol tells engines their time (GTP's `time_settings`, `time_left`) does so.
    /// Nothing by default.
    fn clock(&mut self, _clock: &Clock) {}

    /// The game ended by the rules in `position`, `last` its last move: a player whose
    /// protocol tells the game's end (or the last move, so that the player can see it)
    /// does so here. Not called when the game ends by a fault. Nothing by default.
    fn game_over(&mut self, _game: &G, _position: &G::Position, _last: Option<G::Move>) {}

    /// The peak resident memory of the player's process so far, KiB, read just before the
    /// game ends; `None` when unknown (no process of its own, a process already gone, or a
    /// system that does not say).
    fn peak_memory_kb(&self) -> Option<u64> {
        None
    }

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

impl<M> Answer<M> {
    /// The answer of a player already out of the game (it failed to start or broke on an
    /// earlier move): its fault again, at once, without asking anything.
    pub fn fault(fault: Fault) -> Answer<M> {
        Answer {
            reply: Err(fault),
            wall_ms: 0.0,
            cpu_ms: None,
        }
    }

    /// An answer timed by the judge's wall clock alone (`wall_ms`); its CPU time is
    /// unknown.
    pub fn timed(reply: Result<M, Fault>, wall_ms: f64) -> Answer<M> {
        Answer {
            reply,
            wall_ms,
            cpu_ms: None,
        }
    }
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
    /// Its program wrote something other than a framed answer; the text says what.
    Garbage(String),
}

impl Fault {
    /// The verdict this fault earns.
    pub fn termination(&self) -> Termination {
        match self {
            Fault::NoMove => Termination::Null,
            Fault::Timeout => Termination::Timeout,
            Fault::Crash(_) => Termination::Crash,
            Fault::Load(_) | Fault::MissingSymbol(_) => Termination::Load,
            Fault::Garbage(_) => Termination::Garbage,
        }
    }

    /// The log's `detail` for this fault, when the fault itself says more.
    pub fn detail(&self) -> Option<String> {
        match self {
            Fault::NoMove | Fault::Timeout => None,
            Fault::Crash(t) | Fault::Load(t) | Fault::MissingSymbol(t) | Fault::Garbage(t) => {
                Some(t.clone())
            }
        }
    }
}

/// At most 64 characters of what a program wrote, for the messages of its faults.
fn preview(text: &str) -> String {
    text.chars().take(64).collect()
}

/// The fault a program player earns when reading its answer failed; the program is killed
/// (a program whose stdout ended is reaped, and how it ended is the detail: the signal,
/// or `early exit (exit status N)`).
fn program_fault(program: &mut Result<process::Program, Fault>, failure: Failure) -> Fault {
    let Ok(program) = program else {
        return Fault::Load("the program is not running".into());
    };
    match failure {
        Failure::Ended => {
            let how = program.reap();
            if how.starts_with("exit status") {
                Fault::Crash(format!("early exit ({how})"))
            } else {
                Fault::Crash(how)
            }
        }
        Failure::Timeout => {
            program.kill();
            Fault::Timeout
        }
        Failure::Garbage(text) => {
            program.kill();
            Fault::Garbage(text)
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
    /// A program speaking the Saiblo platform's protocol (`saiblo:CMD ARGS...`, see
    /// [`saiblo`]), one process per game.
    Saiblo {
        /// The program and its arguments, split as a shell would.
        command: Vec<String>,
        /// Environment variables set for this player's process only.
        env: Vec<(String, String)>,
        /// What the judge sends before each move.
        form: Form,
    },
    /// A Reversi engine speaking GTP (`gtp:CMD ARGS...`, see [`gtp`]).
    Gtp {
        /// The program and its arguments, split as a shell would.
        command: Vec<String>,
        /// Environment variables set for this player's process only.
        env: Vec<(String, String)>,
    },
    /// A Reversi bot speaking Botzone's JSON protocol (`botzone:CMD ARGS...`, see
    /// [`botzone`]).
    Botzone {
        /// The program and its arguments, split as a shell would.
        command: Vec<String>,
        /// Environment variables set for this player's process only.
        env: Vec<(String, String)>,
    },
}

/// The program schemes that are not Saiblo's: `gtp:` and `botzone:`.
const REVERSI_SCHEMES: [&str; 2] = ["gtp", "botzone"];

/// `KEY=VALUE[,KEY=VALUE...]`. A piece without `=` continues the previous value, so
/// values may hold commas (`GRAVITY4_DISABLE=reuse,endgame,GRAVITY4_MOVE_MS=50`); a key
/// is a variable name (`[A-Za-z_][A-Za-z0-9_]*`). `Err` names the piece that does not fit.
fn parse_env(assignments: &str) -> Result<Vec<(String, String)>, String> {
    let is_name = |k: &str| {
        k.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
            && k.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
    };
    let mut env: Vec<(String, String)> = Vec::new();
    for piece in assignments.split(',') {
        match (piece.split_once('='), env.last_mut()) {
            (Some((k, v)), _) if is_name(k) => env.push((k.to_string(), v.to_string())),
            (None, Some((_, value))) => {
                value.push(',');
                value.push_str(piece);
            }
            _ => return Err(piece.to_string()),
        }
    }
    Ok(env)
}

/// The scheme of `scheme:rest` when the text before the first `:` looks like one (a
/// letter, then letters, digits, `+`, `-`, `.`; so no path with a `/` before its `:`).
fn scheme_of(text: &str) -> Option<(&str, &str)> {
    let (scheme, rest) = text.split_once(':')?;
    let ok = scheme.starts_with(|c: char| c.is_ascii_alphabetic())
        && scheme
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c));
    ok.then_some((scheme, rest))
}

impl PlayerSpec {
    /// Parses a player argument:
    /// - an argument naming an existing file is a plain library;
    /// - `saiblo:CMD ARGS...` (or another form's scheme, `saiblo-last:` and the like, see
    ///   [`Form::SCHEMES`]),
    ///   `gtp:CMD ARGS...` and `botzone:CMD ARGS...` are programs, the command split as a shell would (quotes and backslashes work), with an
    ///   optional environment suffix `@KEY=VALUE[,...]` after the last `@` — only when that
    ///   text parses as assignments; otherwise the `@` belongs to the command;
    /// - any other `WORD:...` is an unknown scheme (an error);
    /// - anything else is a library, `LIB.so@KEY=VALUE[,KEY=VALUE...]` giving its process
    ///   its own environment, so one file can play as several configurations (e.g.
    ///   `libgravity4.so@GRAVITY4_PROFILE=classic`).
    pub fn parse(arg: &Path) -> Result<PlayerSpec> {
        let text = arg.to_string_lossy();
        if arg.exists() {
            return Ok(PlayerSpec::CourseAbi {
                library: arg.to_path_buf(),
                env: Vec::new(),
            });
        }
        if let Some((scheme, rest)) = scheme_of(&text) {
            let form = Form::from_scheme(scheme);
            if form.is_none() && !REVERSI_SCHEMES.contains(&scheme) {
                let known: Vec<String> = Form::SCHEMES
                    .iter()
                    .map(|(s, _)| *s)
                    .chain(REVERSI_SCHEMES)
                    .map(|s| format!("{s}:"))
                    .collect();
                bail!(
                    "unknown player {text:?}: no file by that name, and {scheme:?} is not a player scheme (known: {}, or a library path)",
                    known.join(", ")
                );
            };
            let (line, env) = match rest.rsplit_once('@').map(|(c, a)| (c, parse_env(a))) {
                Some((command, Ok(env))) => (command, env),
                _ => (rest, Vec::new()),
            };
            let command = shlex::split(line)
                .ok_or_else(|| anyhow::anyhow!("bad player {text:?}: unbalanced quotes"))?;
            if command.is_empty() {
                bail!("bad player {text:?}: no command after {scheme}:");
            }
            return Ok(match (form, scheme) {
                (Some(form), _) => PlayerSpec::Saiblo { command, env, form },
                (None, "gtp") => PlayerSpec::Gtp { command, env },
                _ => PlayerSpec::Botzone { command, env },
            });
        }
        let Some((lib, assignments)) = text.rsplit_once('@') else {
            return Ok(PlayerSpec::CourseAbi {
                library: arg.to_path_buf(),
                env: Vec::new(),
            });
        };
        let env = parse_env(assignments).map_err(|piece| {
            anyhow::anyhow!(
                "bad player {text:?}: expected LIB.so@KEY=VALUE[,KEY=VALUE...], got {piece:?}"
            )
        })?;
        Ok(PlayerSpec::CourseAbi {
            library: PathBuf::from(lib),
            env,
        })
    }

    /// The player's display name before disambiguation: the library's file stem, or for
    /// a program the stem of its last argument that names an existing file (`main` for
    /// `python3 main.py --fast`), else of the program itself; plus `@` and its environment
    /// settings as `KEY=VALUE` with the key's namespace word dropped
    /// (`GRAVITY4_DISABLE=reuse` shows as `DISABLE=reuse`: the value alone would read the
    /// same for enabling and disabling).
    pub fn base_name(&self) -> String {
        let stem_of = |p: &Path| {
            p.file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_else(|| p.display().to_string())
        };
        let (stem, env) = match self {
            PlayerSpec::CourseAbi { library, env } => (stem_of(library), env),
            PlayerSpec::Saiblo { env, .. }
            | PlayerSpec::Gtp { env, .. }
            | PlayerSpec::Botzone { env, .. } => (stem_of(self.file()), env),
        };
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

    fn env_mut(&mut self) -> &mut Vec<(String, String)> {
        match self {
            PlayerSpec::CourseAbi { env, .. }
            | PlayerSpec::Saiblo { env, .. }
            | PlayerSpec::Gtp { env, .. }
            | PlayerSpec::Botzone { env, .. } => env,
        }
    }

    /// Sets `key` for the player's process unless the player sets it already.
    pub fn set_default_env(&mut self, key: &str, value: &str) {
        let env = self.env_mut();
        if !env.iter().any(|(k, _)| k == key) {
            env.push((key.into(), value.into()));
        }
    }

    /// Checks, before any game, that the player can be started at all: a library file
    /// exists, is readable and is an ELF shared object (its symbols are only checked when
    /// it is loaded: a missing one is a `load` verdict); a program resolves on `PATH` or as
    /// a path to an executable file. `Err` is a one-line usage error.
    pub fn check(&self) -> Result<(), String> {
        match self {
            PlayerSpec::CourseAbi { library, .. } => course_abi::check_library(library),
            PlayerSpec::Saiblo { command, .. }
            | PlayerSpec::Gtp { command, .. }
            | PlayerSpec::Botzone { command, .. } => {
                process::program::resolve_program(&command[0]).map(drop)
            }
        }
    }

    /// Checks, before any game, that this kind of player can play `game` at all: course-ABI
    /// libraries and Saiblo programs speak Connect-4 only, Botzone bots Reversi only, GTP
    /// engines Reversi and Go. `Err` is a one-line usage error.
    pub fn can_play(&self, game: GameKind) -> Result<(), String> {
        let wanted = match game {
            GameKind::Connect4 => "Connect-4 needs course-ABI libraries or saiblo: programs",
            GameKind::Reversi(_) => "Reversi needs gtp: or botzone: players",
            GameKind::Go(_) => "Go needs gtp: players",
        };
        match (self, game) {
            (PlayerSpec::CourseAbi { .. } | PlayerSpec::Saiblo { .. }, GameKind::Connect4)
            | (PlayerSpec::Gtp { .. }, GameKind::Reversi(_) | GameKind::Go(_))
            | (PlayerSpec::Botzone { .. }, GameKind::Reversi(_)) => Ok(()),
            (PlayerSpec::CourseAbi { library, .. }, _) => Err(format!(
                "`{}` is a Connect-4 course-ABI library; {wanted}",
                library.display()
            )),
            (PlayerSpec::Saiblo { command, .. }, _) => Err(format!(
                "`{}` is a Connect-4 Saiblo program; {wanted}",
                command.join(" ")
            )),
            (PlayerSpec::Gtp { command, .. }, _) => Err(format!(
                "`{}` is a GTP engine (Reversi or Go); {wanted} (add --game reversi or --game go)",
                command.join(" ")
            )),
            (PlayerSpec::Botzone { command, .. }, _) => Err(format!(
                "`{}` is a Reversi Botzone bot; {wanted}{}",
                command.join(" "),
                if game == GameKind::Connect4 {
                    " (add --game reversi)"
                } else {
                    ""
                }
            )),
        }
    }

    /// Starts the player (its process begins loading; [`Player::start`] waits for it),
    /// its output going to `log`.
    pub fn open(&self, settings: &ProcessSettings, log: Arc<LogSink>) -> Box<dyn Player<Connect4>> {
        match self {
            PlayerSpec::CourseAbi { library, env } => Box::new(
                course_abi::CourseAbiPlayer::launch(settings, library, env, log),
            ),
            PlayerSpec::Saiblo { command, env, form } => Box::new(saiblo::SaibloPlayer::launch(
                settings, command, env, *form, log,
            )),
            PlayerSpec::Gtp { .. } | PlayerSpec::Botzone { .. } => Box::new(Unable(
                self.can_play(GameKind::Connect4).err().unwrap_or_default(),
            )),
        }
    }

    /// Starts the player for Reversi: a GTP engine's process starts now; a Botzone bot's
    /// starts on its turns. Connect-4 players lose every game by `load`, saying why.
    pub fn open_reversi(
        &self,
        settings: &ProcessSettings,
        log: Arc<LogSink>,
    ) -> Box<dyn Player<Reversi>> {
        match self {
            PlayerSpec::Gtp { command, env } => Box::new(gtp::GtpPlayer::<Reversi>::launch(
                settings, command, env, log,
            )),
            PlayerSpec::Botzone { command, env } => {
                Box::new(botzone::BotzonePlayer::new(settings, command, env, log))
            }
            // Connect-4 kinds: commands refuse them before any game (`can_play`); one that
            // slips through still loses by a `load` verdict saying why, and never plays.
            PlayerSpec::CourseAbi { .. } | PlayerSpec::Saiblo { .. } => Box::new(Unable(
                self.can_play(GameKind::Reversi(Default::default()))
                    .err()
                    .unwrap_or_default(),
            )),
        }
    }

    /// Starts the player for Go: a GTP engine's process starts now ([`gtp`]). Other
    /// kinds lose every game by `load`, saying why.
    pub fn open_go(&self, settings: &ProcessSettings, log: Arc<LogSink>) -> Box<dyn Player<Go>> {
        match self {
            PlayerSpec::Gtp { command, env } => {
                Box::new(gtp::GtpPlayer::<Go>::launch(settings, command, env, log))
            }
            // Commands refuse these before any game (`can_play`); one that slips through
            // still loses by a `load` verdict saying why, and never plays.
            PlayerSpec::CourseAbi { .. }
            | PlayerSpec::Saiblo { .. }
            | PlayerSpec::Botzone { .. } => Box::new(Unable(
                self.can_play(GameKind::Go(Default::default()))
                    .err()
                    .unwrap_or_default(),
            )),
        }
    }

    /// The file the player runs (for messages and names): the library; for a program, its
    /// last argument naming an existing file (the script of `python3 main.py`), else the
    /// program as written.
    pub fn file(&self) -> &Path {
        match self {
            PlayerSpec::CourseAbi { library, .. } => library,
            PlayerSpec::Saiblo { command, .. }
            | PlayerSpec::Gtp { command, .. }
            | PlayerSpec::Botzone { command, .. } => command[1..]
                .iter()
                .rev()
                .map(Path::new)
                .find(|p| p.is_file())
                .unwrap_or(Path::new(&command[0])),
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

impl Lineup<Reversi> for Roster {
    fn open(&self, who: usize) -> Box<dyn Player<Reversi>> {
        self.specs[who].open_reversi(&self.settings, self.logs[who].clone())
    }
}

impl Lineup<Go> for Roster {
    fn open(&self, who: usize) -> Box<dyn Player<Go>> {
        self.specs[who].open_go(&self.settings, self.logs[who].clone())
    }
}

/// A player that cannot play the game it was opened for: it fails to start.
struct Unable(String);

impl<G: Game> Player<G> for Unable {
    fn start(&mut self, _: &G, _: &G::Setup, _: Side) -> Result<(), Fault> {
        Err(Fault::Load(self.0.clone()))
    }

    fn next_move(
        &mut self,
        _: &G,
        _: &G::Position,
        _: Option<G::Move>,
        _: Duration,
    ) -> Answer<G::Move> {
        Answer::fault(Fault::Load(self.0.clone()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env_of(spec: &PlayerSpec) -> &[(String, String)] {
        match spec {
            PlayerSpec::CourseAbi { env, .. }
            | PlayerSpec::Saiblo { env, .. }
            | PlayerSpec::Gtp { env, .. }
            | PlayerSpec::Botzone { env, .. } => env,
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
    fn program_players_parse_with_forms_env_and_names() {
        let s = PlayerSpec::parse(Path::new("saiblo:python3 'my bot.py' --fast")).unwrap();
        assert_eq!(
            s,
            PlayerSpec::Saiblo {
                command: vec!["python3".into(), "my bot.py".into(), "--fast".into()],
                env: vec![],
                form: Form::Counted
            }
        );
        assert_eq!(s.file(), Path::new("python3"));
        // No file named `my bot.py` here: the program names it.
        assert_eq!(s.base_name(), "python3");
        let s = PlayerSpec::parse(Path::new("saiblo-last:./bot -v@BOT_DEPTH=3,BOT_X=a,b")).unwrap();
        assert_eq!(
            s,
            PlayerSpec::Saiblo {
                command: vec!["./bot".into(), "-v".into()],
                env: vec![
                    ("BOT_DEPTH".into(), "3".into()),
                    ("BOT_X".into(), "a,b".into())
                ],
                form: Form::Last
            }
        );
        assert_eq!(s.base_name(), "bot@DEPTH=3,X=a,b");
        // An `@` whose suffix is not KEY=VALUE belongs to the command.
        let s = PlayerSpec::parse(Path::new("saiblo-lines:bot --mail=me@host")).unwrap();
        assert!(matches!(
            &s,
            PlayerSpec::Saiblo { command, env, form: Form::Lines }
                if command[1] == "--mail=me@host" && env.is_empty()
        ));
        let s = PlayerSpec::parse(Path::new("saiblo-uncounted:./bot")).unwrap();
        assert!(matches!(
            &s,
            PlayerSpec::Saiblo {
                form: Form::Uncounted,
                ..
            }
        ));
        // The last argument naming a file gives the name.
        let dir = tempfile::tempdir().unwrap();
        let script = dir.path().join("main.py");
        std::fs::write(&script, "").unwrap();
        let s = PlayerSpec::parse(Path::new(&format!(
            "saiblo:python3 {} --level 3",
            script.display()
        )))
        .unwrap();
        assert_eq!(s.base_name(), "main");
        assert_eq!(s.file(), script);
        for bad in [
            "saiblo:",
            "saiblo:  ",
            "saiblo:bot 'open",
            "foo:bar",
            "gtp:",
            "botzone: ",
            "gtp:engine 'open",
        ] {
            assert!(PlayerSpec::parse(Path::new(bad)).is_err(), "{bad}");
        }
        let err = PlayerSpec::parse(Path::new("foo:bar"))
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("not a player scheme")
                && err.contains("saiblo:")
                && err.contains("gtp:")
                && err.contains("botzone:"),
            "{err}"
        );
        // Paths with a `/` before their `:` are paths, not schemes.
        assert!(matches!(
            PlayerSpec::parse(Path::new("runs/a:b.so")).unwrap(),
            PlayerSpec::CourseAbi { .. }
        ));
        assert!(
            PlayerSpec::parse(Path::new("saiblo:no-such-program-xyz"))
                .unwrap()
                .check()
                .is_err()
        );
        assert!(
            PlayerSpec::parse(Path::new("saiblo:sh -c true"))
                .unwrap()
                .check()
                .is_ok()
        );
    }

    #[test]
    fn connect4_kinds_cannot_play_reversi() {
        let lib = PlayerSpec::parse(Path::new("x.so")).unwrap();
        let reversi = GameKind::Reversi(Default::default());
        assert_eq!(lib.can_play(GameKind::Connect4), Ok(()));
        assert_eq!(
            lib.can_play(reversi).unwrap_err(),
            "`x.so` is a Connect-4 course-ABI library; Reversi needs gtp: or botzone: players"
        );
        let program = PlayerSpec::parse(Path::new("saiblo:python3 bot.py")).unwrap();
        assert!(
            program
                .can_play(reversi)
                .unwrap_err()
                .contains("Saiblo program")
        );
        // Past the check, the roster's player fails to start with the same words.
        let dir = tempfile::tempdir().unwrap();
        let log = Arc::new(LogSink::open(&dir.path().join("x.log"), 1 << 10).unwrap());
        let roster = Roster::new(vec![lib], vec![log], ProcessSettings::current(0).unwrap());
        let mut p = <Roster as Lineup<Reversi>>::open(&roster, 0);
        let game = Reversi::default();
        let setup = game.setup(1);
        assert!(matches!(
            p.start(&game, &setup, Side::First),
            Err(Fault::Load(why)) if why.contains("course-ABI library")
        ));
    }

    #[test]
    fn gtp_and_botzone_players_parse_like_saiblo_ones() {
        let s = PlayerSpec::parse(Path::new(
            "gtp:/usr/games/gtp-rhino -l 3@REVERSI_MOVE_MS=50",
        ))
        .unwrap();
        assert_eq!(
            s,
            PlayerSpec::Gtp {
                command: vec!["/usr/games/gtp-rhino".into(), "-l".into(), "3".into()],
                env: vec![("REVERSI_MOVE_MS".into(), "50".into())],
            }
        );
        assert_eq!(s.base_name(), "gtp-rhino@MOVE_MS=50");
        let reversi = GameKind::Reversi(Default::default());
        assert_eq!(s.can_play(reversi), Ok(()));
        assert!(
            s.can_play(GameKind::Connect4)
                .unwrap_err()
                .contains("is a GTP engine (Reversi or Go)")
        );
        let s = PlayerSpec::parse(Path::new("botzone:'my bot' --keep-running --mail=a@b")).unwrap();
        assert_eq!(
            s,
            PlayerSpec::Botzone {
                command: vec![
                    "my bot".into(),
                    "--keep-running".into(),
                    "--mail=a@b".into()
                ],
                env: vec![],
            }
        );
        assert_eq!(s.base_name(), "my bot");
        assert_eq!(s.can_play(reversi), Ok(()));
        assert!(
            s.can_play(GameKind::Connect4)
                .unwrap_err()
                .contains("is a Reversi Botzone bot")
        );
        assert!(
            PlayerSpec::parse(Path::new("botzone:no-such-program-xyz"))
                .unwrap()
                .check()
                .is_err()
        );
    }

    #[test]
    fn players_of_the_other_game_lose_by_load_saying_why() {
        let settings = ProcessSettings {
            exe: PathBuf::from("/nonexistent"),
            memory_limit_mb: 0,
        };
        let dir = tempfile::tempdir().unwrap();
        let log = Arc::new(LogSink::open(&dir.path().join("l.log"), 1 << 10).unwrap());
        let gtp = PlayerSpec::parse(Path::new("gtp:sh -c true")).unwrap();
        let game = Connect4;
        let setup = game.setup(1);
        match gtp
            .open(&settings, log.clone())
            .start(&game, &setup, Side::First)
        {
            Err(Fault::Load(why)) => {
                assert!(why.contains("is a GTP engine (Reversi or Go)"), "{why}")
            }
            other => panic!("{other:?}"),
        }
        let saiblo = PlayerSpec::parse(Path::new("saiblo:sh -c true")).unwrap();
        let game = Reversi::default();
        let setup = game.setup(1);
        match saiblo
            .open_reversi(&settings, log)
            .start(&game, &setup, Side::First)
        {
            Err(Fault::Load(why)) => {
                assert!(why.contains("Reversi needs gtp: or botzone:"), "{why}")
            }
            other => panic!("{other:?}"),
        }
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
