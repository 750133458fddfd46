//! The command line.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};
use gravity4_judge::clock::ClockSettings;
use gravity4_judge::games::GameKind;
use gravity4_judge::games::go;
use gravity4_judge::games::reversi::Rule;
use gravity4_judge::schedule::Shard;

/// Isolated, statistically honest tournaments of Connect-4 players (course-ABI libraries
/// and programs speaking the Saiblo platform's protocol, freely mixed) and, with `--game
/// reversi` or `--game go`, of Reversi and Go players.
///
/// Every player runs in its own child process; a player that crashes, hangs, returns
/// garbage or fails to load loses its game with a verdict, and the run goes on.
///
/// PLAYERS: `LIB.so` is a course-ABI library. `saiblo:CMD ARGS...` is a program run as the
/// Saiblo platform runs it, one process per game (quote it: `"saiblo:python3 main.py"`;
/// the command is split as a shell would): it gets `M N noX noY`, then before each move
/// `lastX lastY N top... MN board...` on one line (each block after its count, as the
/// platform's template reads it), and answers with a frame (4-byte big-endian length, then
/// ASCII `x y`); a framed `ok` before its first answer is taken silently.
/// `saiblo-uncounted:` sends `lastX lastY top... board...` without the counts,
/// `saiblo-lines:` `top` and each board row on lines of their own, `saiblo-blocks:` `top`
/// and the board on a line each, `saiblo-counted-blocks:` `N top...` and `MN board...` on
/// a line each, `saiblo-counted-split:` `lastX lastY N top...` then `MN board...`,
/// `saiblo-counts-apart:` each count and block on a line of its own, `saiblo-scattered:`
/// every number on a line of its own, `saiblo-last:` only `lastX lastY`. When a game ends
/// by the rules, the program that did not make the last move is sent it; then its input
/// closes, and it has a second to exit before it is killed.
///
/// Reversi players (`--game reversi`): `gtp:CMD ARGS...` is an engine speaking GTP (one
/// process per game, or kept with `--reuse-process`; `boardsize 8`, `clear_board`, the
/// opening as `play` commands, then `play` / `genmove` per move); `botzone:CMD ARGS...` is
/// a bot speaking Botzone's JSON protocol (a process per turn fed the whole history, or
/// kept running after it prints `>>>BOTZONE_REQUEST_KEEP_RUNNING<<<`). The judge does not
/// tell programs the rule: put `--rule no-adjacent` in their commands too.
///
/// Go players (`--game go`): `gtp:CMD ARGS...` is an engine speaking GTP (`boardsize`,
/// `clear_board`, `komi`, `fixed_handicap` or `set_free_handicap`, the opening as `play`
/// commands, then `play` / `genmove` per move; on a game clock `time_settings` and
/// `time_left`). Games end by two passes (Tromp-Taylor area scoring: capture the dead
/// stones before passing) or resignation; each is kept as DIR/sgf/ID.sgf too.
///
/// Any player may carry environment variables for its own process: `PLAYER@KEY=VALUE[,...]`,
/// e.g. `libgravity4.so@GRAVITY4_PROFILE=classic` plays the same file as another
/// configuration (named `libgravity4@PROFILE=classic`); for programs the text after the
/// last `@` is the environment only if it parses as KEY=VALUE pairs.
#[derive(Debug, Parser)]
#[command(name = "judge", version, propagate_version = true)]
pub struct Cli {
    /// What to run.
    #[command(subcommand)]
    pub command: Command,
}

/// Subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Two players, many paired games, optional SPRT.
    Match(MatchArgs),
    /// Everyone against everyone.
    RoundRobin(RoundRobinArgs),
    /// One player against a pool (directories expand to their *.so files).
    Gauntlet(GauntletArgs),
    /// Play against a library or program in the terminal (Connect-4: columns by key;
    /// Reversi: squares like d3; q quits), or with --web on a page in the browser (served
    /// on 127.0.0.1).
    Play(PlayArgs),
    /// Step through a recorded game in the terminal (n/p or arrows, q quits).
    Replay(ReplayArgs),
    /// Print the table of a run and write DIR/report.html again from DIR/games.jsonl (a run
    /// that was stopped or is still running gets its summary.json from its complete pairs).
    /// Several DIRs, independent runs of the same players (other seeds), print one table of
    /// all their whole pairs and write nothing.
    Report(ReportArgs),
    /// Put the shards of a run (`--shard I/N`) back together into one run directory, as
    /// the unsharded run would have written it; refuses parts of different runs or
    /// builds, and warns about missing shards.
    Merge(MergeArgs),
    /// Games done per shard and overall, the table and the SPRT over all shards (read
    /// only). Exit status: 0, or 10 when the SPRT accepted H0 and 11 when it accepted H1.
    Status(StatusArgs),
    /// Check a course library before you submit it: loading, every answer legal on edge
    /// and hostile positions, time, many games in one process, memory, nothing on stdout
    /// (with --full: 100 games in one process and the strength against the ladder). One
    /// line per item; exit status 0 when nothing fails, 1 when an item fails, 2 on a usage
    /// error (no such file, or one that cannot be read).
    Check(CheckArgs),
    /// Internal: the child process that hosts one library.
    #[command(hide = true)]
    Host(HostArgs),
}

/// `judge match`.
#[derive(Debug, Args)]
pub struct MatchArgs {
    /// First player (moves first in the first game of every pair; Black in Reversi and Go):
    /// `LIB.so`, `saiblo:CMD ARGS...` (or another `saiblo-*:` form), or for Reversi
    /// `gtp:CMD ARGS...` / `botzone:CMD ARGS...`, for Go `gtp:CMD ARGS...`, each with an
    /// optional `@KEY=VALUE,...` environment.
    pub a: PathBuf,
    /// Second player, in the same forms.
    pub b: PathBuf,
    /// Sequential test, e.g. `--sprt elo0=0 elo1=10 alpha=0.05 beta=0.05`; stops the
    /// match once a hypothesis is accepted. Put it after the libraries.
    #[arg(long, num_args = 1..=4, value_name = "KEY=VALUE")]
    pub sprt: Option<Vec<String>>,
    #[command(flatten)]
    pub common: Common,
}

/// `judge round-robin`.
#[derive(Debug, Args)]
pub struct RoundRobinArgs {
    /// Players (at least two): `LIB.so`, `saiblo:CMD ARGS...` (or another
    /// `saiblo-*:` form), or for Reversi `gtp:CMD ARGS...` / `botzone:CMD
    /// ARGS...`, for Go `gtp:CMD ARGS...`, each with an optional `@KEY=VALUE,...`
    /// environment.
    #[arg(required = true, num_args = 2..)]
    pub libs: Vec<PathBuf>,
    #[command(flatten)]
    pub common: Common,
}

/// `judge gauntlet`.
#[derive(Debug, Args)]
pub struct GauntletArgs {
    /// The player under test: `LIB.so` or `saiblo:CMD ARGS...` (or another
    /// `saiblo-*:` form), or for Reversi `gtp:CMD ARGS...` / `botzone:CMD
    /// ARGS...`, for Go `gtp:CMD ARGS...`, with an optional `@KEY=VALUE,...`
    /// environment.
    pub lib: PathBuf,
    /// Opponents: players, or directories (every *.so, numbered files in numeric order).
    #[arg(long, required = true, num_args = 1..)]
    pub vs: Vec<PathBuf>,
    #[command(flatten)]
    pub common: Common,
}

/// `judge play`.
#[derive(Debug, Args)]
pub struct PlayArgs {
    /// The player to play against (`LIB.so`, `saiblo:CMD ARGS...`, for Reversi `gtp:CMD
    /// ARGS...` or `botzone:CMD ARGS...`, for Go `gtp:CMD ARGS...`, each with an optional
    /// `@KEY=VALUE,...`).
    pub lib: PathBuf,
    #[command(flatten)]
    pub game: GameArgs,
    /// Let the library move first.
    #[arg(long)]
    pub ai_first: bool,
    /// Connect-4's board size, rows x columns, e.g. `9x12` (each 4..=12; default: drawn
    /// from the seed); Go's board side, e.g. `9` or `19` (2..=25; default 9).
    #[arg(long, value_name = "MxN")]
    pub size: Option<String>,
    /// Connect-4's blocked cell, row (0 = top) and column, e.g. `3,5` (default: drawn from
    /// the seed).
    #[arg(long, value_name = "X,Y", allow_hyphen_values = true)]
    pub blocked: Option<String>,
    /// Seed for the board (Reversi, Go: the opening) draw (default: random, printed).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Wall-clock limit per library move in milliseconds (default: Connect-4 3000, the
    /// course's; Reversi and Go 6000, a 5 s budget plus the same margin).
    #[arg(long)]
    pub move_limit_ms: Option<u64>,
    /// Address-space limit of the library's process, MiB (0: none).
    #[arg(long, default_value_t = 1024)]
    pub memory_limit_mb: u64,
    /// Append the finished game to this games.jsonl without asking (default: ask at the
    /// end, in a terminal, whether to save it to runs/play/games.jsonl).
    #[arg(long, value_name = "FILE")]
    pub save: Option<PathBuf>,
    /// Play on a page in the browser instead of the terminal: serves it on 127.0.0.1 and
    /// prints its URL; the page shows the legal moves, the last move, each AI move's time,
    /// the AI's total time and the result, and starts new games (colours swapped or
    /// not). With --save, every finished game is appended to FILE; without, none is kept.
    #[arg(long)]
    pub web: bool,
    /// With --web: the port on 127.0.0.1 (0: any free port).
    #[arg(long, default_value_t = 0, requires = "web")]
    pub port: u16,
    /// With --web: also try to open the page with xdg-open.
    #[arg(long, requires = "web")]
    pub open: bool,
}

/// `judge check`.
#[derive(Debug, Args)]
pub struct CheckArgs {
    /// The library to check (a course-ABI `.so`; it keeps its own time budget).
    pub lib: PathBuf,
    /// Also play 100 games in one process and the ladder for the course's score (long:
    /// every game at the library's own budget).
    #[arg(long, conflicts_with = "position")]
    pub full: bool,
    /// The numbered opponents (`1.so`, `2.so`, ...: the ladder, or the course's numbered
    /// AIs); `none` for the judge's built-in random mover (default: `target/ladder` next
    /// to the judge, else the built-in).
    #[arg(long, value_name = "DIR")]
    pub ladder: Option<PathBuf>,
    /// The check's directory: check.json, report.html, the games (default: a fresh
    /// runs/DATE-TIME-check).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Address-space limit of the library's processes, MiB (the platform allows about
    /// 1 GB).
    #[arg(long, default_value_t = 1024)]
    pub memory_limit_mb: u64,
    /// Seed of the games' boards (default: from the clock, printed).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Call the library once on this position and judge the answer, as the check prints
    /// it for a failure: `MxN blocked=X,Y last=X,Y top=T,... board=ROW/ROW/...`.
    #[arg(long, value_name = "TEXT", allow_hyphen_values = true)]
    pub position: Option<String>,
}

/// `judge replay`.
#[derive(Debug, Args)]
pub struct ReplayArgs {
    /// A games.jsonl file, or a run directory holding one.
    pub log: PathBuf,
    /// Which game: its id (e.g. `0-3-1`) or its line number counted from 0.
    #[arg(long, default_value = "0")]
    pub game: String,
}

/// `judge report`.
#[derive(Debug, Args)]
pub struct ReportArgs {
    /// A run directory (with run.json and games.jsonl), or several to pool.
    #[arg(required = true, num_args = 1..)]
    pub dirs: Vec<PathBuf>,
}

/// `judge merge`.
#[derive(Debug, Args)]
pub struct MergeArgs {
    /// The shards' run directories.
    #[arg(required = true, num_args = 1..)]
    pub dirs: Vec<PathBuf>,
    /// The merged run directory to write (must not hold a run).
    #[arg(long)]
    pub out: PathBuf,
}

/// `judge status`.
#[derive(Debug, Args)]
pub struct StatusArgs {
    /// The shards' run directories (running, stopped or done).
    #[arg(required = true, num_args = 1..)]
    pub dirs: Vec<PathBuf>,
}

/// Which game to play.
#[derive(Debug, Args, Clone)]
pub struct GameArgs {
    /// The game: `connect4` (the course's gravity Connect-4 with a blocked cell),
    /// `reversi` (8x8 Othello from an opening drawn per pair; players `gtp:` or `botzone:`)
    /// or `go` (Go on a square board, 2 or 4 opening stones drawn per pair; `gtp:` players).
    #[arg(long, default_value = "connect4", value_parser = ["connect4", "reversi", "go"])]
    pub game: String,
    /// Reversi's rule: `standard`, or `no-adjacent` (no move orthogonally next to the
    /// opponent's last move; not after a pass). Only with `--game reversi`.
    #[arg(long)]
    pub rule: Option<Rule>,
    /// Go's komi, added to White's area (a multiple of 0.5; default 7.5). Only with
    /// `--game go`.
    #[arg(long, allow_hyphen_values = true)]
    pub komi: Option<f64>,
    /// Go's handicap: H Black stones where GTP's `fixed_handicap` puts them, White moving
    /// first (0, or 2..=9; 4 on even boards; default 0). Only with `--game go`.
    #[arg(long, value_name = "H")]
    pub handicap: Option<u32>,
}

impl GameArgs {
    /// The game asked for, with Go's board side `size` (`9` or `9x9`) when given;
    /// `--rule` without `--game reversi`, Go's options without `--game go`, or a bad Go
    /// option is an error (before anything runs).
    pub fn kind(&self, size: Option<&str>) -> anyhow::Result<GameKind> {
        let go = if size.is_some() || self.komi.is_some() || self.handicap.is_some() {
            let size = match size {
                None => go::DEFAULT_SIZE,
                Some(text) => go_size(text)?,
            };
            Some(
                go::Rules::new(
                    size,
                    self.komi.unwrap_or(go::DEFAULT_KOMI),
                    self.handicap.unwrap_or(0),
                )
                .map_err(anyhow::Error::msg)?,
            )
        } else {
            None
        };
        GameKind::new(&self.game, self.rule, go).map_err(anyhow::Error::msg)
    }
}

/// Go's board side from `--size`: `N` or `NxN`.
fn go_size(text: &str) -> anyhow::Result<u32> {
    let side = |s: &str| s.trim().parse::<u32>().ok();
    let n = match text.split_once(['x', 'X']) {
        None => side(text),
        Some((a, b)) if side(a) == side(b) => side(a),
        Some(_) => None,
    };
    n.ok_or_else(|| anyhow::anyhow!("--size {text:?}: a Go board is square, e.g. 9, 13 or 19"))
}

/// A game clock for each side (Go): `--main-time`, then byo-yomi.
#[derive(Debug, Args, Clone)]
pub struct ClockArgs {
    /// Go: each side's main time in seconds (decimals allowed); with it or --byoyomi the
    /// game is played on a clock, told to engines by `time_settings` and `time_left`, and
    /// a side whose clock runs out loses by timeout.
    #[arg(long, value_name = "S")]
    pub main_time: Option<f64>,
    /// Go: after main time, Canadian byo-yomi periods of S seconds (0: none, absolute
    /// time), each for --byoyomi-stones moves.
    #[arg(long, value_name = "S")]
    pub byoyomi: Option<f64>,
    /// Go: moves to play in each byo-yomi period (default 1).
    #[arg(long, value_name = "N", requires = "byoyomi")]
    pub byoyomi_stones: Option<u32>,
}

impl ClockArgs {
    /// The clock asked for, `None` without one; a clock outside Go, or one without time,
    /// is an error.
    pub fn settings(&self, game: GameKind) -> anyhow::Result<Option<ClockSettings>> {
        if self.main_time.is_none() && self.byoyomi.is_none() {
            return Ok(None);
        }
        if !matches!(game, GameKind::Go(_)) {
            anyhow::bail!("--main-time and --byoyomi are Go's game clock: give --game go");
        }
        let ms = |s: Option<f64>, flag: &str| -> anyhow::Result<u64> {
            match s {
                None => Ok(0),
                Some(s) if (0.0..=1e7).contains(&s) => Ok((s * 1e3).round() as u64),
                Some(s) => anyhow::bail!("{flag} {s}: seconds, 0 or more"),
            }
        };
        ClockSettings::new(
            ms(self.main_time, "--main-time")?,
            ms(self.byoyomi, "--byoyomi")?,
            self.byoyomi_stones.unwrap_or(1),
        )
        .map(Some)
        .map_err(anyhow::Error::msg)
    }
}

/// Options every tournament takes.
#[derive(Debug, Args, Clone)]
pub struct Common {
    #[command(flatten)]
    pub game: GameArgs,
    /// Boards per pairing (at least 1); each board is played twice, colours swapped
    /// (unless --fixed-colours).
    #[arg(long, default_value_t = 20)]
    pub pairs: u32,
    /// Keep each pairing's colours for the whole run: its first player moves first (Black
    /// in Go) in both games of every board, instead of the colours swapping. For handicap
    /// matches (`--game go --handicap 4`: the first player takes the stones in every
    /// game). The statistics are then W/D/L, Elo and LOS only: no pentanomial pairs, no
    /// --sprt. Recorded in run.json; --resume must repeat it.
    #[arg(long)]
    pub fixed_colours: bool,
    /// Seed for the boards (Reversi, Go: the openings) (default: random, printed and
    /// recorded in run.json).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Go's board side, e.g. 9, 13 or 19 (2..=25; default 9). Only with `--game go`
    /// (Connect-4's boards are drawn per pair).
    #[arg(long, value_name = "N")]
    pub size: Option<String>,
    /// Wall-clock limit per move in milliseconds (default: Connect-4 3000, the course's;
    /// Reversi and Go 6000, a 5 s budget plus the same margin; on a Go clock, the whole
    /// clock: main time and one byo-yomi period).
    #[arg(long)]
    pub move_limit_ms: Option<u64>,
    #[command(flatten)]
    pub clock: ClockArgs,
    /// Games played at once (default: the number of cores).
    #[arg(long)]
    pub concurrency: Option<usize>,
    /// Address-space limit of each player's process, MiB (0: none).
    #[arg(long, default_value_t = 1024)]
    pub memory_limit_mb: u64,
    /// Keep one process per library per worker across games, like the course's runner
    /// (globals persist between games); default is a fresh process per game. GTP engines
    /// are kept the same way while they stay in step; Saiblo and Botzone programs always
    /// run one process per game, as on their platforms.
    #[arg(long)]
    pub reuse_process: bool,
    /// Run directory (default: a fresh timestamped directory under runs/).
    #[arg(long, conflicts_with = "resume")]
    pub out: Option<PathBuf>,
    /// Continue the run in DIR: play only the games missing from DIR/games.jsonl
    /// (a board with one of its two games done is replayed whole).
    #[arg(long, value_name = "DIR")]
    pub resume: Option<PathBuf>,
    /// Play only part I of N of the schedule (whole boards; needs --seed, so that every
    /// shard draws the same schedule). Put the parts together with `judge merge`.
    #[arg(long, value_name = "I/N")]
    pub shard: Option<Shard>,
    /// No progress bar.
    #[arg(long, short)]
    pub quiet: bool,
}

/// The hidden `judge host` subcommand's arguments (set by the parent, not by users).
#[derive(Debug, Args)]
pub struct HostArgs {
    /// Library to load.
    #[arg(long)]
    pub library: PathBuf,
    /// Scratch working directory.
    #[arg(long)]
    pub scratch: PathBuf,
    /// Address-space limit in MiB.
    #[arg(long)]
    pub memory_limit_mb: u64,
    /// The parent's pid.
    #[arg(long)]
    pub parent_pid: u32,
    /// A descriptor for the library's stdout (default: stdout joins stderr).
    #[arg(long)]
    pub stdout_fd: Option<i32>,
}
