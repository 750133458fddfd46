//! `judge play LIB`: a person against a library in the terminal.
//!
//! The person is one more [`Player`] under the same referee as tournaments; the library
//! is the same course-ABI player in its isolated process, so a library that crashes or
//! hangs loses by its verdict and the terminal survives. The finished game can be appended to
//! a games.jsonl in the tournaments' schema, so `judge replay` reads it.

use std::cell::RefCell;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::Result;

use super::term::{self, Key, Term};
use super::versus::{self, DEFAULT_SAVE, Opponent, Sitting};
use super::{Shown, Typed};
use crate::games::{Cell, Game, Side, Termination};
use crate::players::{Answer, Fault, Lineup, LogSink, Player, Roster};
use crate::referee;

pub use super::versus::PlayOptions;

/// How long to wait for the library's telemetry line after its move arrives: it writes
/// the line before returning, but the judge drains the pipe on another thread.
const TELEMETRY_WAIT: Duration = Duration::from_millis(150);
/// What both players draw from: the terminal and the state of the screen.
struct Screen {
    term: Term,
    header: String,
    /// The person's side.
    human: Side,
    ai_name: String,
    /// What the library's last move came to (time, iterations, win-rate).
    status: String,
    /// The person pressed `q` (or closed the input).
    quit: bool,
}

impl Screen {
    /// Draws `position`, its last move marked (after a Reversi opening, the opening's),
    /// with `lines` under the board.
    fn frame<G: Shown>(&self, game: &G, position: &G::Position, lines: &[&str]) {
        let grid = game.grid(position);
        let mut out = String::new();
        self.term.begin_frame(&mut out);
        out.push_str(&self.header);
        out.push_str(&term::draw_board(
            &grid,
            game.last_cell(position),
            &[],
            self.term.color,
            game.labels(),
        ));
        for l in lines.iter().filter(|l| !l.is_empty()) {
            out.push_str(l);
            out.push('\n');
        }
        self.term.show(&out);
    }
}

/// The person at the keyboard.
struct Human<'a> {
    screen: &'a RefCell<Screen>,
}

impl<G: Shown> Player<G> for Human<'_> {
    fn start(&mut self, _: &G, _: &G::Setup, _: Side) -> Result<(), Fault> {
        Ok(())
    }

    fn next_move(
        &mut self,
        game: &G,
        position: &G::Position,
        _: Option<G::Move>,
        _: Duration,
    ) -> Answer<G::Move> {
        let start = Instant::now();
        let mut screen = self.screen.borrow_mut();
        let prompt = game.prompt(position, screen.term.raw());
        let mut hint = String::new();
        // Keys of a move typed so far (a Reversi file letter waiting for its row).
        let mut pending = String::new();
        screen.term.discard_typeahead();
        let reply = loop {
            let status = screen.status.clone();
            let typing = if pending.is_empty() {
                String::new()
            } else {
                format!("{pending}_")
            };
            screen.frame(game, position, &[&status, &hint, &prompt, &typing]);
            let key = screen.term.read_key();
            // Enter ends what was typed (a line, or the keys so far in raw mode).
            let entered = matches!(key, Key::Line(_));
            let typed = match key {
                Key::Quit => None,
                Key::Char(c) => Some(c.to_string()),
                Key::Line(s) => Some(s),
                Key::Left => Some("←".into()),
                Key::Right => Some("→".into()),
                Key::Home => Some("Home".into()),
                Key::End => Some("End".into()),
                Key::Other(s) => Some(s),
            };
            let Some(typed) = typed.filter(|t| !t.eq_ignore_ascii_case("q")) else {
                screen.quit = true;
                break Err(Fault::Crash("quit".into()));
            };
            pending.push_str(&typed);
            hint.clear();
            let read = if entered {
                game.read_entered(position, &pending)
            } else {
                game.read(position, &pending)
            };
            match read {
                Typed::Move(mv) => break Ok(mv),
                // Only a single key can be the start of a move; a whole line is complete.
                Typed::More if screen.term.raw() => continue,
                Typed::More => {
                    hint = format!("{pending:?} is only a column: add the row (like d3).")
                }
                Typed::Bad(why) => hint = why,
            }
            pending.clear();
        };
        Answer::timed(reply, start.elapsed().as_secs_f64() * 1e3)
    }
}

/// The library, through its isolated player, with its telemetry read back from its log.
struct Ai<'a, G: Game> {
    screen: &'a RefCell<Screen>,
    player: Box<dyn Player<G>>,
    log: Arc<LogSink>,
    /// Wait for a telemetry line: true until a move came without one.
    expect_telemetry: bool,
}

impl<G: Shown> Player<G> for Ai<'_, G> {
    fn start(&mut self, game: &G, setup: &G::Setup, side: Side) -> Result<(), Fault> {
        self.player.start(game, setup, side)
    }

    fn next_move(
        &mut self,
        game: &G,
        position: &G::Position,
        last: Option<G::Move>,
        limit: Duration,
    ) -> Answer<G::Move> {
        // Colour mode redraws the screen in place; a plain transcript (a pipe) gets
        // one board per move, from the person's turn.
        if self.screen.borrow().term.color {
            let s = self.screen.borrow();
            let thinking = format!("{} is thinking...", s.ai_name);
            s.frame(game, position, &[&s.status, &thinking]);
        }
        let (lines_before, _) = self.log.last_line();
        let t = self.player.next_move(game, position, last, limit);
        let mut telemetry = None;
        let deadline = Instant::now()
            + if self.expect_telemetry {
                TELEMETRY_WAIT
            } else {
                Duration::ZERO
            };
        loop {
            let (lines, line) = self.log.last_line();
            if lines > lines_before && line.contains("gravity4:") {
                telemetry = Some(line);
                break;
            }
            if Instant::now() >= deadline {
                break;
            }
            std::thread::sleep(Duration::from_millis(2));
        }
        self.expect_telemetry = telemetry.is_some();
        let mut s = self.screen.borrow_mut();
        let what = match &t.reply {
            Ok(mv) => game.answered(position, *mv),
            Err(Fault::NoMove) => "returned NULL".into(),
            Err(Fault::Timeout) => "did not answer".into(),
            Err(f) => format!("crashed ({})", f.detail().unwrap_or_default()),
        };
        s.status = format!("{} {what} in {:.1} ms", s.ai_name, t.wall_ms);
        if let Some(line) = telemetry {
            s.status.push_str(&describe_telemetry(&line));
        }
        t
    }

    fn game_over(&mut self, game: &G, position: &G::Position, last: Option<G::Move>) {
        self.player.game_over(game, position, last);
    }

    fn stop(&mut self) {
        self.player.stop();
    }
}

/// ` · 10423 iterations · win-rate 47.1%` from the library's `gravity4: k=v ...` line.
fn describe_telemetry(line: &str) -> String {
    let field = |key: &str| {
        line.split_whitespace()
            .find_map(|kv| kv.strip_prefix(key)?.strip_prefix('='))
    };
    let mut out = String::new();
    if let Some(it) = field("iterations") {
        out.push_str(&format!(" · {it} iterations"));
    }
    if let Some(w) = field("winrate").and_then(|w| w.parse::<f64>().ok()) {
        out.push_str(&format!(" · win-rate {:.1}%", w * 100.0));
    }
    out
}

/// `judge play`.
pub fn run(args: &PlayOptions) -> Result<()> {
    versus::sit_down(args, Terminal(args))
}

/// The person at the terminal.
struct Terminal<'a>(&'a PlayOptions);

impl Sitting for Terminal<'_> {
    fn sit<G: Shown>(self, game: &G, spec: G::Setup, seed: u64, board_seed: u64) -> Result<()>
    where
        Roster: Lineup<G>,
    {
        play_game(game, self.0, seed, spec, board_seed)
    }
}

/// `judge play` on `setup`, drawn from `seed` (as `board_seed`).
fn play_game<G: Shown>(
    game: &G,
    args: &PlayOptions,
    seed: u64,
    spec: G::Setup,
    board_seed: u64,
) -> Result<()>
where
    Roster: Lineup<G>,
{
    let opponent = Opponent::new(&args.lib, game.kind(), args.memory_limit_mb)?;
    let ai_side = if args.ai_first {
        Side::First
    } else {
        Side::Second
    };
    let human = ai_side.other();
    let library = opponent.start(game, &spec, ai_side)?;

    let term = Term::open();
    let color = term.color;
    let header = format!(
        "judge play: you {} ({}) against {} {}\n{}, seed {seed}\n\n",
        term::stone_label(color, Cell::of(human), G::STONES),
        if args.ai_first { "second" } else { "first" },
        opponent.name,
        term::stone_label(color, Cell::of(ai_side), G::STONES),
        game.setup_line(&spec),
    );
    let screen = RefCell::new(Screen {
        term,
        header,
        human,
        ai_name: opponent.name.clone(),
        status: String::new(),
        quit: false,
    });
    let limit = Duration::from_millis(args.move_limit_ms);
    let outcome = {
        let mut person = Human { screen: &screen };
        let mut ai = Ai {
            screen: &screen,
            player: library,
            log: opponent.log().clone(),
            expect_telemetry: true,
        };
        if args.ai_first {
            referee::play(game, &spec, [&mut ai, &mut person], limit)
        } else {
            referee::play(game, &spec, [&mut person, &mut ai], limit)
        }
        // The library's process ends here, with `ai`.
    };
    let mut screen = screen.into_inner();
    let (positions, _) = game.replay(&spec, &outcome.moves);
    let end = positions.last().expect("the start is always there");
    let grid = game.grid(end);
    let line = match outcome.termination {
        Termination::Four => game.winning_line(end),
        _ => Vec::new(),
    };
    let mut out = String::new();
    screen.term.begin_frame(&mut out);
    out.push_str(&screen.header);
    out.push_str(&term::draw_board(
        &grid,
        game.last_cell(end),
        &line,
        screen.term.color,
        game.labels(),
    ));
    if !screen.status.is_empty() {
        out.push_str(&screen.status);
        out.push('\n');
    }
    if screen.quit {
        out.push_str(&format!(
            "You quit after {} moves; the game is not saved.\n",
            outcome.moves.len()
        ));
        screen.term.show(&out);
        return Ok(());
    }
    out.push_str(&versus::result_text(
        &outcome,
        screen.human,
        &opponent.name,
        args.move_limit_ms,
    ));
    out.push('\n');
    let record = versus::record(&outcome, spec, human, &opponent, seed, board_seed);
    let save = match &args.save {
        Some(path) => Some(path.clone()),
        None if screen.term.raw() => {
            out.push_str(&format!(
                "Press s to save the game to {DEFAULT_SAVE}, any other key to leave.\n"
            ));
            screen.term.show(&std::mem::take(&mut out));
            screen.term.discard_typeahead();
            matches!(screen.term.read_key(), Key::Char('s' | 'S')).then(|| DEFAULT_SAVE.into())
        }
        None => None,
    };
    if let Some(path) = save {
        let index = versus::save_game::<G>(&path, record)?;
        out.push_str(&versus::saved_text(&path, index));
        out.push('\n');
    }
    screen.term.show(&out);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn telemetry_line_is_summarized() {
        let line = "gravity4: ms=201 iterations=10423 nodes=9000 move=4 winrate=0.4713 proof=None reused=0 profile=strong";
        assert_eq!(
            describe_telemetry(line),
            " · 10423 iterations · win-rate 47.1%"
        );
        assert_eq!(describe_telemetry("gravity4: nothing"), "");
    }
}
