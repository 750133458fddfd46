//! The GTP engine: every command of [`super::KNOWN_COMMANDS`] answered over a [`Player`].
//!
//! Failures use GTP's standard messages (section 6.4: `unknown command`, `syntax error`,
//! `unacceptable size`, `illegal move`, `cannot undo`, `board not empty`, `bad vertex
//! list`, `invalid number of stones`, `cannot load file`), some followed by a detail after
//! a colon. Nothing a controller sends can stop the session: unreadable lines are answered
//! with `?`, and a panic inside a command is caught, answered `? internal error`, and the
//! game is put back as it was before the command (on a fresh engine, since the search's
//! tree may be half-built).

use std::io::{self, BufRead, Write};
use std::panic::{self, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};

use gtp_wire::column_letter;

use super::{
    Command, CommandReader, GtpError, KNOWN_COMMANDS, format_error, format_response, format_vertex,
    is_known_command, parse_color, parse_float, parse_int, parse_move, parse_vertex,
};
use crate::clock::TimeSystem;
use crate::game::{DEFAULT_KOMI, SetupError};
use crate::player::{Generate, Player, illegal_text};
use crate::point::{Color, Move, Point};
use crate::settings::Settings;
use crate::status::{Status, stones_with_status};

/// The commands after which the session ponders (when on): those that play our move.
const GENERATE: &[&str] = &["genmove", "kgs-genmove_cleanup"];

/// The board size before any `boardsize` (GTP's customary default).
pub const DEFAULT_SIZE: usize = 19;

/// One answer: the text of a success, or the message of a failure.
pub type Reply = Result<String, String>;

/// A GTP session.
#[derive(Debug)]
pub struct Session {
    player: Player,
    /// Search during the opponent's turn ([`Settings::ponder`]).
    ponder: bool,
}

fn syntax(usage: &str) -> String {
    format!("syntax error: {usage}")
}

/// Checks the argument count: `Err` with the usage when it is not in `counts`.
fn arity(args: &[String], counts: std::ops::RangeInclusive<usize>, usage: &str) -> Reply {
    if counts.contains(&args.len()) {
        Ok(String::new())
    } else {
        Err(syntax(usage))
    }
}

fn vertices(points: &[Point], size: usize) -> String {
    points
        .iter()
        .map(|&p| format_vertex(Move::Play(p), size))
        .collect::<Vec<_>>()
        .join(" ")
}

fn setup_error(e: SetupError) -> String {
    match e {
        SetupError::BoardNotEmpty => "board not empty".into(),
        SetupError::BadPoint(_) => "bad vertex list".into(),
        SetupError::BadCount(n) => format!("invalid number of stones: {n}"),
        SetupError::BoardTooSmall(_) => format!("invalid number of stones: {e}"),
    }
}

impl Session {
    /// A session on an empty 19x19 board with komi 7.5.
    pub fn new(settings: &Settings) -> Session {
        Session {
            player: Player::new(settings, DEFAULT_SIZE, DEFAULT_KOMI)
                .expect("the default size is valid"),
            ponder: settings.ponder,
        }
    }

    /// The player (for tests and the program's end).
    pub fn player(&self) -> &Player {
        &self.player
    }

    /// Reads commands from `input` until `quit` or the end of the input, writing each
    /// response to `output` as soon as it is ready. With pondering on, after each move we
    /// generate the search goes on (the opponent's turn) until the next line arrives.
    pub fn run<R: BufRead, W: Write>(&mut self, input: R, output: W) -> io::Result<()> {
        if !self.ponder {
            return gtp_wire::serve(input, output, |read| self.respond(read));
        }
        // The same loop as `serve`'s, with the ponder between a move and the next command.
        let mut reader = CommandReader::new(input);
        let mut output = output;
        let mut ponder = false;
        while let Some(read) = self.read_pondering(&mut reader, ponder)? {
            let generated = matches!(&read, Ok(c) if GENERATE.contains(&c.name.as_str()));
            let Some((text, quit)) = self.respond(read) else {
                continue;
            };
            output.write_all(text.as_bytes())?;
            output.flush()?;
            if quit {
                break;
            }
            ponder = generated && !self.player.engine().game().is_over();
        }
        Ok(())
    }

    /// The response to one line read (`None`: nothing to answer) and whether it quits.
    fn respond(&mut self, read: Result<Command, GtpError>) -> Option<(String, bool)> {
        match read {
            Ok(command) => {
                let reply = self.answer(&command);
                let text = format_response(command.id, reply.as_deref().map_err(|e| &**e));
                Some((text, command.name == "quit" && reply.is_ok()))
            }
            Err(e) => format_error(&e).map(|text| (text, false)),
        }
    }

    /// The next line of `reader`; when `ponder`, the search runs on another thread while
    /// this one waits for the line, and has stopped (joined) before the line is returned,
    /// so no command ever meets a running search. A panic in it restores the game.
    fn read_pondering<R: BufRead>(
        &mut self,
        reader: &mut CommandReader<R>,
        ponder: bool,
    ) -> io::Result<Option<Result<Command, GtpError>>> {
        if !ponder {
            return reader.read_command();
        }
        let before = self.player.engine().game().clone();
        let stop = AtomicBool::new(false);
        let player = &mut self.player;
        let (read, searched) = std::thread::scope(|s| {
            let search = s.spawn(|| player.ponder(&stop));
            let read = reader.read_command();
            stop.store(true, Ordering::Relaxed);
            (read, search.join())
        });
        if searched.is_err() {
            self.player.recover(before);
        }
        read
    }

    /// Answers one command; a panic inside it is `internal error`, with the game restored.
    pub fn answer(&mut self, command: &Command) -> Reply {
        self.guarded(|session| session.execute(command))
    }

    /// Runs `f`, catching a panic: the game is then put back as it was before.
    fn guarded(&mut self, f: impl FnOnce(&mut Session) -> Reply) -> Reply {
        let before = self.player.engine().game().clone();
        match panic::catch_unwind(AssertUnwindSafe(|| f(self))) {
            Ok(reply) => reply,
            Err(_) => {
                self.player.recover(before);
                Err("internal error".into())
            }
        }
    }

    /// The board size.
    fn size(&self) -> usize {
        self.player.engine().game().size()
    }

    /// Runs one command: the administrative ones here, the others in a method each.
    fn execute(&mut self, command: &Command) -> Reply {
        let (name, args) = (command.name.as_str(), &command.args[..]);
        match name {
            "protocol_version" => arity(args, 0..=0, "protocol_version").map(|_| "2".into()),
            "name" => arity(args, 0..=0, "name").map(|_| "go-engine".into()),
            "version" => arity(args, 0..=0, "version").map(|_| env!("CARGO_PKG_VERSION").into()),
            "known_command" => arity(args, 1..=1, "known_command command_name")
                .map(|_| is_known_command(&args[0]).to_string()),
            "list_commands" => {
                arity(args, 0..=0, "list_commands").map(|_| KNOWN_COMMANDS.join("\n"))
            }
            "quit" => arity(args, 0..=0, "quit"),
            "boardsize" => self.boardsize(args),
            "clear_board" => arity(args, 0..=0, "clear_board").map(|_| {
                self.player.clear();
                String::new()
            }),
            "komi" => self.komi(args),
            "play" => self.play(args),
            "genmove" => self.genmove(args, Generate::Play, "genmove color"),
            "reg_genmove" => self.genmove(args, Generate::Regression, "reg_genmove color"),
            "kgs-genmove_cleanup" => {
                self.genmove(args, Generate::Cleanup, "kgs-genmove_cleanup color")
            }
            "undo" => arity(args, 0..=0, "undo").and_then(|_| {
                self.player
                    .undo()
                    .map(|_| String::new())
                    .map_err(|_| "cannot undo".into())
            }),
            "showboard" => arity(args, 0..=0, "showboard").map(|_| self.showboard()),
            "final_score" => arity(args, 0..=0, "final_score").map(|_| self.player.final_score()),
            "final_status_list" => self.final_status_list(args),
            "fixed_handicap" | "place_free_handicap" => self.place_handicap(name, args),
            "set_free_handicap" => self.set_free_handicap(args),
            "time_settings" => self.time_settings(args),
            "kgs-time_settings" => kgs_time_settings(args).map(|system| {
                self.player.clock_mut().set_system(system);
                String::new()
            }),
            "time_left" => self.time_left(args),
            "loadsgf" => self.loadsgf(args),
            "printsgf" => self.printsgf(args),
            _ => Err("unknown command".into()),
        }
    }

    /// `boardsize size`: a new empty board of that size.
    fn boardsize(&mut self, args: &[String]) -> Reply {
        arity(args, 1..=1, "boardsize size")?;
        let n = parse_int(&args[0]).map_err(|e| syntax(&e.to_string()))?;
        if self.player.set_size(n as usize) {
            Ok(String::new())
        } else {
            Err("unacceptable size".into())
        }
    }

    /// `komi new_komi`.
    fn komi(&mut self, args: &[String]) -> Reply {
        arity(args, 1..=1, "komi new_komi")?;
        let komi = parse_float(&args[0]).map_err(|e| syntax(&e.to_string()))?;
        self.player.set_komi(komi);
        Ok(String::new())
    }

    /// `play color vertex`: the controller's move.
    fn play(&mut self, args: &[String]) -> Reply {
        let size = self.size();
        arity(args, 2..=2, "play color vertex")?;
        let (color, mv) =
            parse_move(&args[0], &args[1], size).map_err(|e| syntax(&e.to_string()))?;
        self.player
            .play(color, mv)
            .map(|_| String::new())
            .map_err(|e| format!("illegal move: {}", illegal_text(e, size)))
    }

    /// `fixed_handicap n` or `place_free_handicap n`: the engine places the stones and
    /// names them.
    fn place_handicap(&mut self, name: &str, args: &[String]) -> Reply {
        arity(args, 1..=1, &format!("{name} number_of_stones"))?;
        let n = parse_int(&args[0]).map_err(|e| syntax(&e.to_string()))? as usize;
        let placed = if name == "fixed_handicap" {
            self.player.fixed_handicap(n)
        } else {
            self.player.place_free_handicap(n)
        };
        placed
            .map(|p| vertices(&p, self.size()))
            .map_err(setup_error)
    }

    /// `set_free_handicap vertex...`: the controller places the stones.
    fn set_free_handicap(&mut self, args: &[String]) -> Reply {
        if args.is_empty() {
            return Err(syntax("set_free_handicap vertex..."));
        }
        let mut points = Vec::with_capacity(args.len());
        for a in args {
            match parse_vertex(a, self.size()) {
                Ok(Move::Play(p)) if !points.contains(&p) => points.push(p),
                _ => return Err("bad vertex list".into()),
            }
        }
        self.player
            .set_free_handicap(&points)
            .map(|_| String::new())
            .map_err(setup_error)
    }

    /// `final_status_list alive|dead|seki`: the stones of that status, a group a line.
    fn final_status_list(&self, args: &[String]) -> Reply {
        arity(args, 1..=1, "final_status_list alive|dead|seki")?;
        let status =
            Status::parse(&args[0]).ok_or_else(|| syntax("final_status_list alive|dead|seki"))?;
        let groups = stones_with_status(self.player.engine(), status);
        Ok(groups
            .iter()
            .map(|g| vertices(g, self.size()))
            .collect::<Vec<_>>()
            .join("\n"))
    }

    /// `time_settings main_time byo_yomi_time byo_yomi_stones` (Canadian byo-yomi).
    fn time_settings(&mut self, args: &[String]) -> Reply {
        let usage = "time_settings main_time byo_yomi_time byo_yomi_stones";
        arity(args, 3..=3, usage)?;
        let main = parse_float(&args[0]).map_err(|_| syntax(usage))?;
        let period = parse_float(&args[1]).map_err(|_| syntax(usage))?;
        let stones = parse_int(&args[2]).map_err(|_| syntax(usage))?;
        if main < 0.0 || period < 0.0 {
            return Err(syntax(usage));
        }
        let system = TimeSystem::from_gtp(main, period, stones);
        self.player.clock_mut().set_system(system);
        Ok(String::new())
    }

    /// `time_left color time stones`; a negative time is refused (the clock is unchanged).
    fn time_left(&mut self, args: &[String]) -> Reply {
        let usage = "time_left color time stones";
        arity(args, 3..=3, usage)?;
        let color = parse_color(&args[0]).map_err(|_| syntax(usage))?;
        let seconds = parse_float(&args[1]).map_err(|_| syntax(usage))?;
        let stones = parse_int(&args[2]).map_err(|_| syntax(usage))?;
        if seconds < 0.0 {
            // A clock does not run below zero: a controller's bug, not a time to play on.
            return Err(format!("negative time left: {}", args[1]));
        }
        self.player.clock_mut().time_left(color, seconds, stones);
        Ok(String::new())
    }

    /// `loadsgf filename [move_number]`: the game of an SGF file, up to before that move.
    fn loadsgf(&mut self, args: &[String]) -> Reply {
        arity(args, 1..=2, "loadsgf filename [move_number]")?;
        let moves = match args.get(1) {
            Some(n) => {
                let n = parse_int(n).map_err(|e| syntax(&e.to_string()))?;
                // The position before move `n`: its first n - 1 moves.
                Some((n as usize).saturating_sub(1))
            }
            None => None,
        };
        self.player
            .load_file(&args[0], moves)
            .map_err(|e| format!("cannot load file: {e}"))?;
        // As GNU Go answers: the colour to move.
        Ok(self.player.engine().game().to_move().to_string())
    }

    /// `printsgf [filename]`: the game as SGF, answered or written to the file.
    fn printsgf(&mut self, args: &[String]) -> Reply {
        arity(args, 0..=1, "printsgf [filename]")?;
        let text = self.player.sgf();
        match args.first() {
            None => Ok(text),
            Some(path) => std::fs::write(path, text)
                .map(|_| String::new())
                .map_err(|e| format!("cannot write {path}: {e}")),
        }
    }

    fn genmove(&mut self, args: &[String], kind: Generate, usage: &str) -> Reply {
        arity(args, 1..=1, usage)?;
        let color = parse_color(&args[0]).map_err(|e| syntax(&e.to_string()))?;
        let mv = self.player.genmove(color, kind);
        Ok(format_vertex(mv, self.size()))
    }

    /// The board with GTP's coordinates, the side to move and the captures.
    fn showboard(&self) -> String {
        let game = self.player.engine().game();
        let board = game.board();
        let size = game.size();
        let letters: String = (0..size)
            .map(|x| format!(" {}", column_letter(x)))
            .collect();
        let mut out = format!("\n   {letters}\n");
        for y in 0..size {
            let row = size - y;
            let mut line = format!("{row:>2} ");
            for x in 0..size {
                let c = match board.stone_at(Point::new(x, y)) {
                    Some(Color::Black) => 'X',
                    Some(Color::White) => 'O',
                    None => '.',
                };
                line.push(' ');
                line.push(c);
            }
            line.push_str(&format!(" {row:<2}"));
            match y {
                0 => line.push_str(&format!("    {} to move", game.to_move())),
                1 => line.push_str(&format!(
                    "    captured by black (X): {}",
                    board.captures(Color::Black)
                )),
                2 => line.push_str(&format!(
                    "    captured by white (O): {}",
                    board.captures(Color::White)
                )),
                3 => line.push_str(&format!("    komi {}", game.komi())),
                _ => {}
            }
            out.push_str(line.trim_end());
            out.push('\n');
        }
        out.push_str(&format!("   {letters}"));
        out
    }
}

/// KGS's `kgs-time_settings none | absolute main | byoyomi main period periods | canadian
/// main period stones`.
fn kgs_time_settings(args: &[String]) -> Result<Option<TimeSystem>, String> {
    let usage = "kgs-time_settings none|absolute|byoyomi|canadian [main [period count]]";
    let numbers = |n: usize| -> Result<(f64, f64, u32), String> {
        if args.len() != n + 1 {
            return Err(syntax(usage));
        }
        let main = parse_float(&args[1]).map_err(|_| syntax(usage))?;
        let (period, count) = if n == 3 {
            (
                parse_float(&args[2]).map_err(|_| syntax(usage))?,
                parse_int(&args[3]).map_err(|_| syntax(usage))?,
            )
        } else {
            (0.0, 0)
        };
        if main < 0.0 || period < 0.0 {
            return Err(syntax(usage));
        }
        Ok((main, period, count))
    };
    match args.first().map(|s| s.to_ascii_lowercase()).as_deref() {
        Some("none") if args.len() == 1 => Ok(None),
        Some("absolute") => {
            let (main, _, _) = numbers(1)?;
            Ok(TimeSystem::from_gtp(main, 0.0, 0))
        }
        Some("byoyomi") => {
            let (main, period, periods) = numbers(3)?;
            Ok(TimeSystem::japanese(main, period, periods))
        }
        Some("canadian") => {
            let (main, period, stones) = numbers(3)?;
            Ok(TimeSystem::from_gtp(main, period, stones))
        }
        _ => Err(syntax(usage)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gtp::parse_command;

    fn session() -> Session {
        let mut settings = Settings::from_vars(|_| None).unwrap();
        settings.move_ms = 20;
        settings.config.seed = Some(5);
        Session::new(&settings)
    }

    fn ask(s: &mut Session, line: &str) -> Reply {
        s.answer(&parse_command(line.as_bytes()).unwrap())
    }

    #[test]
    fn every_known_command_is_dispatched() {
        let mut s = session();
        for name in KNOWN_COMMANDS {
            if *name == "quit" {
                continue;
            }
            let reply = ask(&mut s, name);
            assert_ne!(reply, Err("unknown command".into()), "{name}");
        }
        assert_eq!(ask(&mut s, "frobnicate"), Err("unknown command".into()));
        assert_eq!(ask(&mut s, "PLAY b d4"), Err("unknown command".into()));
    }

    #[test]
    fn a_panic_is_an_internal_error_and_the_game_is_restored() {
        let mut s = session();
        ask(&mut s, "boardsize 9").unwrap();
        ask(&mut s, "play b e5").unwrap();
        let reply = s.guarded(|s| {
            s.player
                .play(Color::White, Move::Play(Point::new(0, 0)))
                .unwrap();
            panic!("a bug in a command");
        });
        assert_eq!(reply, Err("internal error".into()));
        assert_eq!(s.player.engine().moves().len(), 1);
        assert_eq!(s.player.comments().len(), 1);
        // The session goes on.
        assert!(ask(&mut s, "genmove w").is_ok());
        assert_eq!(s.player.engine().moves().len(), 2);
    }

    #[test]
    fn kgs_time_settings_name_every_system() {
        let k = |line: &str| {
            let args: Vec<String> = line.split_whitespace().map(str::to_string).collect();
            kgs_time_settings(&args)
        };
        assert_eq!(k("none"), Ok(None));
        assert_eq!(
            k("absolute 300"),
            Ok(Some(TimeSystem::Absolute { main: 300.0 }))
        );
        assert_eq!(
            k("byoyomi 60 10 5"),
            Ok(Some(TimeSystem::Japanese {
                main: 60.0,
                period: 10.0,
                periods: 5
            }))
        );
        assert_eq!(
            k("canadian 60 300 25"),
            Ok(Some(TimeSystem::Canadian {
                main: 60.0,
                period: 300.0,
                stones: 25
            }))
        );
        for bad in [
            "",
            "none 5",
            "absolute",
            "absolute x",
            "byoyomi 60 10",
            "fischer 60 5",
            "canadian 1 -2 3",
        ] {
            assert!(k(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn a_negative_time_left_is_refused() {
        let mut s = session();
        ask(&mut s, "time_settings 60 0 0").unwrap();
        assert_eq!(
            ask(&mut s, "time_left b -5 0"),
            Err("negative time left: -5".into())
        );
        assert_eq!(
            ask(&mut s, "time_left w -0.5 3"),
            Err("negative time left: -0.5".into())
        );
        assert_eq!(ask(&mut s, "time_left b 0 0"), Ok(String::new()));
        assert_eq!(ask(&mut s, "time_left b 5.5 2"), Ok(String::new()));
    }

    #[test]
    fn loadsgf_refuses_a_point_in_two_setup_properties_of_one_node() {
        let dir = std::env::temp_dir().join(format!("go-engine-setup-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("conflict.sgf");
        std::fs::write(&path, "(;GM[1]SZ[9]AB[ee]AW[ee];B[cc])").unwrap();
        let mut s = session();
        ask(&mut s, "boardsize 9").unwrap();
        ask(&mut s, "play b d4").unwrap();
        let reply = ask(&mut s, &format!("loadsgf {}", path.display()));
        std::fs::remove_dir_all(&dir).unwrap();
        assert_eq!(
            reply,
            Err("cannot load file: node 0: point ee is in both AB and AW".into())
        );
        // Nothing changed.
        assert_eq!(s.player.engine().moves().len(), 1);
    }

    #[test]
    fn after_a_resignation_undo_and_genmove_take_it_back() {
        let mut s = session();
        ask(&mut s, "boardsize 5").unwrap();
        ask(&mut s, "play b c3").unwrap();
        // As if `genmove w` had answered `resign`.
        s.player.play(Color::White, Move::Resign).unwrap();
        assert!(ask(&mut s, "showboard").unwrap().contains("white to move"));
        assert!(s.player.record().to_sgf().contains("RE[B+R]"));
        ask(&mut s, "undo").unwrap();
        assert_eq!(s.player.engine().moves().len(), 1);
        assert!(ask(&mut s, "showboard").unwrap().contains("white to move"));
        s.player.play(Color::White, Move::Resign).unwrap();
        let reply = ask(&mut s, "genmove w").unwrap();
        assert_ne!(reply, "pass");
        let moves = s.player.engine().moves();
        assert_eq!(moves.len(), 2, "the resignation was taken back");
        assert_eq!(format_vertex(moves[1].1, 5), reply);
        assert_eq!(s.player.comments().len(), 2);
    }

    #[test]
    fn printsgf_after_loadsgf_keeps_the_root_information() {
        let dir = std::env::temp_dir().join(format!("go-engine-root-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("root.sgf");
        let sgf = "(;GM[1]FF[4]SZ[9]KM[0.5]HA[2]GN[Club final]DT[2026-11-27]\
                   C[Black takes two \\] stones]AB[cc][gg]AW[ee];W[dd]C[first])";
        std::fs::write(&path, sgf).unwrap();
        let mut s = session();
        let reply = ask(&mut s, &format!("loadsgf {}", path.display()));
        std::fs::remove_dir_all(&dir).unwrap();
        assert_eq!(reply, Ok("black".into()));
        let text = ask(&mut s, "printsgf").unwrap();
        for property in [
            "HA[2]",
            "GN[Club final]",
            "DT[2026-11-27]",
            "C[Black takes two \\] stones]",
            "AW[ee]",
            ";W[dd]C[first]",
        ] {
            assert!(text.contains(property), "{property} in {text}");
        }
        // A new game forgets them.
        ask(&mut s, "clear_board").unwrap();
        let text = ask(&mut s, "printsgf").unwrap();
        assert!(!text.contains("GN[") && !text.contains("HA["), "{text}");
    }

    #[test]
    fn printsgf_after_loadsgf_keeps_the_variations_the_game_still_follows() {
        let dir = std::env::temp_dir().join(format!("go-engine-vars-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("vars.sgf");
        let sgf = "(;GM[1]FF[4]SZ[9](;B[ee];W[cc](;B[gg];W[dd])(;B[gc]C[idea]))\
                   (;B[dd];W[ff]))";
        std::fs::write(&path, sgf).unwrap();
        let mut s = session();
        let reply = ask(&mut s, &format!("loadsgf {}", path.display()));
        std::fs::remove_dir_all(&dir).unwrap();
        assert_eq!(reply, Ok("black".into()));
        let compact = |s: &mut Session| {
            let text = ask(s, "printsgf").unwrap();
            let start = text.find("\n").unwrap();
            text[start..].replace('\n', "")
        };
        assert_eq!(
            compact(&mut s),
            "(;B[ee];W[cc](;B[gg];W[dd])(;B[gc]C[idea]))(;B[dd];W[ff]))"
        );
        // The game leaves the file after its second move: the file's line from there is a
        // variation beside the file's own.
        for _ in 0..2 {
            ask(&mut s, "undo").unwrap();
        }
        ask(&mut s, "play b c3").unwrap();
        assert_eq!(
            compact(&mut s),
            "(;B[ee];W[cc](;B[cg])(;B[gg];W[dd])(;B[gc]C[idea]))(;B[dd];W[ff]))"
        );
        // Cut before the branch point's next move: the variations there are left out.
        ask(&mut s, "undo").unwrap();
        assert_eq!(compact(&mut s), "(;B[ee];W[cc])(;B[dd];W[ff]))");
    }

    #[test]
    fn showboard_labels_rows_from_the_bottom() {
        let mut s = session();
        ask(&mut s, "boardsize 5").unwrap();
        ask(&mut s, "play b a1").unwrap();
        ask(&mut s, "play w e5").unwrap();
        let board = ask(&mut s, "showboard").unwrap();
        let lines: Vec<&str> = board.lines().collect();
        assert_eq!(lines[0], "");
        assert_eq!(lines[1], "    A B C D E");
        assert!(lines[2].starts_with(" 5  . . . . O 5"), "{board}");
        assert!(lines[6].starts_with(" 1  X . . . . 1"), "{board}");
    }
}
