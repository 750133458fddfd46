//! A person against an AI, whatever draws the board: what `judge play` (the terminal)
//! and `judge play --web` (a page in the browser) share.
//!
//! That is the options, the board, the AI opened exactly as tournaments open a player
//! (its own process, the same memory limit, time limit and verdicts), the result in
//! words, and the finished game as a games.jsonl record that `judge replay` reads.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use anyhow::{Context, Result, bail};
use rand::{Rng, SeedableRng, rngs::StdRng};

use super::Shown;
use crate::games::connect4::{BoardSpec, Connect4};
use crate::games::go::Go;
use crate::games::reversi::Reversi;
use crate::games::{Game, GameKind, Side, Termination};
use crate::players::{Lineup, LogSink, Player, PlayerSpec, ProcessSettings, Roster};
use crate::record::{GameLog, GameRecord, GameResult, course_code, round_ms};
use crate::referee::{self, Outcome};
use crate::schedule;

/// Where a game is saved when the person asks for it (a run directory of its own, so
/// `judge replay runs/play/games.jsonl` finds it).
pub const DEFAULT_SAVE: &str = "runs/play/games.jsonl";
/// The name the person plays under in the game log.
pub const HUMAN: &str = "human";

/// What `judge play` is asked to do, in the terminal or on the web.
#[derive(Debug, Clone)]
pub struct PlayOptions {
    /// The game (`--game`, `--rule`).
    pub game: GameKind,
    /// The player to play against (`LIB.so`, `saiblo:CMD`, each with `@KEY=VALUE,...`).
    pub lib: PathBuf,
    /// Let the AI move first.
    pub ai_first: bool,
    /// Board size `MxN` (each 4..=12; default: drawn from the seed). Connect-4 only.
    pub size: Option<String>,
    /// The blocked cell `X,Y`, row 0 on top (default: drawn from the seed). Connect-4 only.
    pub blocked: Option<String>,
    /// Seed for the board draw (default: random, printed).
    pub seed: Option<u64>,
    /// Wall-clock limit per AI move, ms.
    pub move_limit_ms: u64,
    /// Address-space limit of the AI's process, MiB (0: none).
    pub memory_limit_mb: u64,
    /// Append finished games to this games.jsonl without asking.
    pub save: Option<PathBuf>,
}

/// `seed`, or one from the clock and the process id when none was given.
pub fn seed_or_clock(seed: Option<u64>) -> u64 {
    seed.unwrap_or_else(|| {
        let t = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap_or_default();
        t.as_nanos() as u64 ^ u64::from(std::process::id()) << 32
    })
}

/// Parses `MxN` (rows by columns).
fn parse_size(text: &str) -> Result<(i32, i32)> {
    let (m, n) = text
        .split_once(['x', 'X', ','])
        .with_context(|| format!("--size {text:?}: expected ROWSxCOLUMNS, e.g. 9x12"))?;
    let parse = |s: &str| {
        s.trim()
            .parse::<i32>()
            .ok()
            .filter(|v| (4..=12).contains(v))
    };
    match (parse(m), parse(n)) {
        (Some(m), Some(n)) => Ok((m, n)),
        _ => bail!("--size {text:?}: rows and columns must each be 4..=12"),
    }
}

/// Picks the Connect-4 board: drawn from the seed like a tournament's board 0, then
/// `--size` and `--blocked` override (a new size without `--blocked` redraws the blocked
/// cell). Returns the board and the seed it was drawn from.
pub fn choose_board(args: &PlayOptions, seed: u64) -> Result<(BoardSpec, u64)> {
    let (mut spec, board_seed) = schedule::board(&Connect4, seed, 0);
    if let Some(size) = &args.size {
        (spec.m, spec.n) = parse_size(size)?;
        let mut rng = StdRng::seed_from_u64(board_seed);
        spec.no_x = rng.random_range(0..spec.m);
        spec.no_y = rng.random_range(0..spec.n);
    }
    if let Some(text) = &args.blocked {
        let cell = text.split_once(',').and_then(|(x, y)| {
            Some((x.trim().parse::<i32>().ok()?, y.trim().parse::<i32>().ok()?))
        });
        match cell {
            Some((x, y)) if (0..spec.m).contains(&x) && (0..spec.n).contains(&y) => {
                (spec.no_x, spec.no_y) = (x, y);
            }
            _ => bail!(
                "--blocked {text:?}: expected ROW,COLUMN inside the {}x{} board (row 0 is the top)",
                spec.m,
                spec.n
            ),
        }
    }
    Ok((spec, board_seed))
}

/// What to do with the game a person plays, once it is known: the terminal and the web
/// board each play it their way.
pub(super) trait Sitting {
    /// Plays `game` on `setup`, drawn from `seed` (as `board_seed`).
    fn sit<G: Shown>(self, game: &G, setup: G::Setup, seed: u64, board_seed: u64) -> Result<()>
    where
        Roster: Lineup<G>,
        G::Position: Send,
        G::Move: Send;
}

/// Draws the game `args` asks for (seed from the clock unless given; Connect-4's board by
/// [`choose_board`], Reversi's and Go's opening from the seed) and has `sitting` play it.
pub(super) fn sit_down(args: &PlayOptions, sitting: impl Sitting) -> Result<()> {
    let seed = seed_or_clock(args.seed);
    match args.game {
        GameKind::Connect4 => {
            let (spec, board_seed) = choose_board(args, seed)?;
            sitting.sit(&Connect4, spec, seed, board_seed)
        }
        GameKind::Reversi(rule) => {
            if args.size.is_some() || args.blocked.is_some() {
                bail!(
                    "--size and --blocked shape a Connect-4 board; Reversi is 8x8 from an opening drawn from --seed"
                );
            }
            let game = Reversi { rule };
            let (setup, board_seed) = schedule::board(&game, seed, 0);
            sitting.sit(&game, setup, seed, board_seed)
        }
        GameKind::Go(rules) => {
            // `--size` was Go's board side, already in `rules`.
            if args.blocked.is_some() {
                bail!("--blocked shapes a Connect-4 board; Go's board is --size N");
            }
            let game = Go { rules };
            let (setup, board_seed) = schedule::board(&game, seed, 0);
            sitting.sit(&game, setup, seed, board_seed)
        }
    }
}

/// The AI a person plays: checked before any game like a tournament's player, and
/// opened in a fresh isolated process for each game, its output kept in one log.
pub struct Opponent {
    /// Its display name (as a tournament would name it).
    pub name: String,
    /// The argument as given, what the game log records as its path.
    pub path: PathBuf,
    /// The file it runs, for messages.
    file: PathBuf,
    /// It, as the one entrant of a roster: players are opened as tournaments open them.
    roster: Roster,
    log: Arc<LogSink>,
    /// Holds the log file; removed with the opponent.
    _log_dir: tempfile::TempDir,
}

impl Opponent {
    /// Parses and checks the player argument `lib` for `game` (a usage error if it cannot
    /// be started or cannot play that game) and prepares its log; its process is limited
    /// to `memory_limit_mb` MiB of address space (0: none).
    pub fn new(lib: &Path, game: GameKind, memory_limit_mb: u64) -> Result<Opponent> {
        let mut entrant = schedule::entrants(std::slice::from_ref(&lib.to_path_buf()))?.remove(0);
        if let Err(why) = entrant
            .spec
            .check()
            .and_then(|()| entrant.spec.can_play(game))
        {
            bail!("player {}: {why}", lib.display());
        }
        // Ask a gravity4 library for its per-move telemetry line, unless the player sets it.
        entrant.spec.set_default_env("GRAVITY4_LOG", "1");
        crate::players::sweep_stale_scratch();
        let log_dir = tempfile::tempdir().context("creating a directory for the player's log")?;
        let log = Arc::new(LogSink::open(&log_dir.path().join("ai.log"), 1 << 20)?);
        let settings =
            ProcessSettings::current(memory_limit_mb).context("locating the judge executable")?;
        let file = entrant.spec.file().to_path_buf();
        let spec: PlayerSpec = entrant.spec;
        Ok(Opponent {
            name: entrant.name,
            path: entrant.path,
            file,
            roster: Roster::new(vec![spec], vec![log.clone()], settings),
            log,
            _log_dir: log_dir,
        })
    }

    /// Its stdout and stderr, as it wrote them.
    pub fn log(&self) -> &Arc<LogSink> {
        &self.log
    }

    /// A fresh process of the player, loading (the referee's start waits for it).
    pub fn open<G: Game>(&self) -> Box<dyn Player<G>>
    where
        Roster: Lineup<G>,
    {
        Lineup::<G>::open(&self.roster, 0)
    }

    /// A fresh process of the player, loaded for a game of `game` on `setup` as `side`: a
    /// player that cannot play at all stops the command with one line.
    pub fn start<G: Game>(
        &self,
        game: &G,
        setup: &G::Setup,
        side: Side,
    ) -> Result<Box<dyn Player<G>>>
    where
        Roster: Lineup<G>,
    {
        let mut player = self.open::<G>();
        player.start(game, setup, side).map_err(|why| {
            anyhow::anyhow!(
                "{} cannot play: {}",
                self.file.display(),
                why.detail().unwrap_or_default()
            )
        })?;
        Ok(player)
    }
}

/// One game between the person (on `human`'s side) and the AI they play, the referee
/// playing it as in tournaments.
pub fn play_against<G: Game>(
    game: &G,
    setup: &G::Setup,
    human: Side,
    person: &mut dyn Player<G>,
    ai: &mut dyn Player<G>,
    limit: Duration,
) -> Outcome<G> {
    match human {
        Side::First => referee::play(game, setup, [person, ai], limit),
        Side::Second => referee::play(game, setup, [ai, person], limit),
    }
}

/// The last line of a game: who won and why, from the person's side.
pub fn result_text<G: Game>(o: &Outcome<G>, human: Side, ai: &str, limit_ms: u64) -> String {
    let Some(winner) = o.winner else {
        return match o.termination {
            Termination::Discs => "Draw: equal discs.".into(),
            Termination::Score => "Draw: equal scores (Tromp-Taylor, with komi).".into(),
            _ => "Tie: the board is full.".into(),
        };
    };
    let you_won = winner == human;
    let by = o.margin.unwrap_or(0);
    let result = o.detail.as_deref().unwrap_or_default();
    match (o.termination, you_won) {
        (Termination::Four, true) => "You win: four in a row!".into(),
        (Termination::Four, false) => format!("{ai} wins: four in a row."),
        (Termination::Discs, true) => format!("You win by {by} discs!"),
        (Termination::Discs, false) => format!("{ai} wins by {by} discs."),
        (Termination::Score, true) => format!("You win, {result} (Tromp-Taylor, with komi)!"),
        (Termination::Score, false) => {
            format!("{ai} wins, {result} (Tromp-Taylor, with komi).")
        }
        (Termination::Resign, true) => format!("{ai} resigns: you win!"),
        (Termination::Resign, false) => format!("You resigned: {ai} wins."),
        (t, _) => {
            let why = match (t, &o.detail) {
                (Termination::Timeout, _) => format!("no answer within {limit_ms} ms"),
                (Termination::Null, _) => "getPoint returned NULL".into(),
                (_, Some(d)) => d.clone(),
                (_, None) => String::new(),
            };
            format!("{ai} loses by {} ({why}): you win.", t.name())
        }
    }
}

/// The finished game as a games.jsonl record: the person (`human`) on `human`'s side,
/// the AI on the other; id and pair are set when it is saved.
pub fn record<G: Game>(
    outcome: &Outcome<G>,
    setup: G::Setup,
    human: Side,
    ai: &Opponent,
    seed: u64,
    board_seed: u64,
) -> GameRecord<G> {
    let person = (HUMAN.to_string(), PathBuf::from(HUMAN));
    let machine = (ai.name.clone(), ai.path.clone());
    let (first, second) = match human {
        Side::First => (person, machine),
        Side::Second => (machine, person),
    };
    let loser = outcome.winner.map(Side::other);
    GameRecord {
        id: String::new(),
        pairing: 0,
        pair: 0,
        game: u8::from(human == Side::Second),
        first: first.0,
        second: second.0,
        first_path: first.1,
        second_path: second.1,
        result: GameResult::of(outcome.winner),
        termination: outcome.termination,
        course_code: course_code(outcome.termination, loser, outcome.detail.as_deref()),
        loser,
        detail: outcome.detail.clone(),
        illegal_point: outcome.illegal_point,
        board: setup,
        moves: outcome.moves.clone(),
        move_ms: outcome.move_ms.iter().map(|&ms| round_ms(ms)).collect(),
        cpu_ms: outcome.cpu_ms.iter().map(|c| c.map(round_ms)).collect(),
        seed,
        board_seed,
        margin: outcome.margin,
        peak_rss_kb: outcome.peak_kb,
    }
}

/// Appends the game to `path` (creating its directory) as the next game of the file;
/// returns its line number, which `judge replay --game` takes.
pub fn save_game<G: Game>(path: &Path, mut record: GameRecord<G>) -> Result<usize> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    }
    let index = crate::record::read::<G>(path)?.len();
    record.pair = index as u32;
    record.id = schedule::game_id(0, record.pair, record.game);
    GameLog::open(path)?.append(&record)?;
    Ok(index)
}

/// Where a saved game went, and how to replay it.
pub fn saved_text(path: &Path, index: usize) -> String {
    format!(
        "Saved as game {index} of {} (judge replay {} --game {index}).",
        path.display(),
        path.display()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_and_blocked_cells_are_checked() {
        assert_eq!(parse_size("9x12").unwrap(), (9, 12));
        assert!(parse_size("3x9").is_err());
        assert!(parse_size("9").is_err());
        let args = |size: Option<&str>, blocked: Option<&str>| PlayOptions {
            game: GameKind::Connect4,
            lib: "x.so".into(),
            ai_first: false,
            size: size.map(Into::into),
            blocked: blocked.map(Into::into),
            seed: None,
            move_limit_ms: 3000,
            memory_limit_mb: 0,
            save: None,
        };
        let (spec, _) = choose_board(&args(Some("6x7"), Some("5,0")), 1).unwrap();
        assert_eq!((spec.m, spec.n, spec.no_x, spec.no_y), (6, 7, 5, 0));
        let (spec, _) = choose_board(&args(Some("6x7"), None), 1).unwrap();
        assert!(spec.no_x < 6 && spec.no_y < 7);
        assert!(choose_board(&args(Some("6x7"), Some("6,0")), 1).is_err());
        // Without options the board is the tournaments' board 0 of the seed.
        assert_eq!(
            choose_board(&args(None, None), 7).unwrap(),
            schedule::board(&Connect4, 7, 0)
        );
    }

    #[test]
    fn results_read_from_the_persons_side() {
        let mut o: Outcome<Connect4> = Outcome {
            winner: Some(Side::Second),
            termination: Termination::Four,
            detail: None,
            illegal_point: None,
            margin: None,
            moves: vec![],
            move_ms: vec![],
            cpu_ms: vec![],
            peak_kb: [None, None],
        };
        assert_eq!(
            result_text(&o, Side::Second, "ai", 3000),
            "You win: four in a row!"
        );
        assert_eq!(
            result_text(&o, Side::First, "ai", 3000),
            "ai wins: four in a row."
        );
        o.termination = Termination::Timeout;
        assert_eq!(
            result_text(&o, Side::Second, "ai", 3000),
            "ai loses by timeout (no answer within 3000 ms): you win."
        );
        o.winner = None;
        o.termination = Termination::Full;
        assert_eq!(
            result_text(&o, Side::First, "ai", 3000),
            "Tie: the board is full."
        );
    }
}
