//! The engine as a player, whatever the protocol: the search, the clock that sets each
//! move's budget, and the game's SGF record with the search statistics of our moves.
//!
//! Everything that changes the game goes through here, so that the comments of our moves
//! (one slot per move of the game, `None` for the other side's) stay in step with the moves.

use std::time::{Duration, Instant};

use crate::clock::Clock;
use crate::engine::Engine;
use crate::game::{Game, IllegalMove, SetupError, UndoError};
use crate::gtp::format_vertex;
use crate::point::{Color, Move, Point};
use crate::search::{Limits, SearchStats};
use crate::settings::Settings;
use crate::sgf::record::{GameRecord, RecordedMove};
use crate::sgf::{GameTree, write_tree};
use crate::status::score_text;

/// Our name in SGF files (`PB`/`PW` of the colours we played).
pub const NAME: &str = "go-engine";

/// The largest SGF file `loadsgf` reads (far beyond any game; a guard against reading a
/// device or a huge file whole).
pub const MAX_SGF_BYTES: u64 = 16 << 20;

/// Which kind of move generation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Generate {
    /// `genmove`: choose and play.
    Play,
    /// `reg_genmove`: choose without playing; the clock is not charged.
    Regression,
    /// `kgs-genmove_cleanup`: choose and play, never passing while dead stones remain.
    Cleanup,
}

/// The engine, its clock and its record.
#[derive(Debug)]
pub struct Player {
    engine: Engine,
    clock: Clock,
    /// The comment of each move of the game (ours carry the search statistics).
    comments: Vec<Option<String>>,
    /// The players' names for the SGF: ours on the colours we generated moves for, or
    /// those of a loaded file.
    names: [Option<String>; 2],
    sgf_stats: bool,
    log: bool,
    /// Playouts per generated move instead of the clock ([`Settings::playouts`]).
    playouts: Option<u64>,
    /// The root's game information of a loaded SGF file that the game itself does not
    /// keep, written back by [`Player::record`] until the next new game.
    loaded: LoadedInfo,
}

/// What `loadsgf` read from a file's root that [`Game`] has no place for.
#[derive(Clone, Debug, Default)]
struct LoadedInfo {
    /// The root comment (`C`).
    comment: Option<String>,
    /// The game's name (`GN`).
    game_name: Option<String>,
    /// The date (`DT`).
    date: Option<String>,
    /// The file's game tree and its main line's moves: its variations are written back
    /// where the game still follows the file.
    tree: Option<(GameTree, Vec<(Color, Move)>)>,
    /// `HA`: kept when the setup is not plain handicap stones (`AW` too, say), which the
    /// game then holds as setup stones of no handicap.
    handicap: usize,
}

/// The search statistics of a move as its SGF comment: playouts, win rate, visits and the
/// principal variation in GTP's vertices.
pub fn stats_comment(stats: &SearchStats, size: usize) -> String {
    let pv: Vec<String> = stats.pv.iter().map(|&m| format_vertex(m, size)).collect();
    format!(
        "playouts {}, win rate {:.1}%, visits {}, {} ms\npv {}",
        stats.playouts,
        100.0 * stats.win_rate,
        stats.visits,
        stats.elapsed.as_millis(),
        pv.join(" ")
    )
}

/// Why a move is illegal, with the point as GTP writes it (`D4 is occupied`).
pub fn illegal_text(e: IllegalMove, size: usize) -> String {
    let at = |p: Point| format_vertex(Move::Play(p), size);
    match e {
        IllegalMove::OffBoard(p) => format!("{} is off the board", at(p)),
        IllegalMove::Occupied(p) => format!("{} is occupied", at(p)),
        IllegalMove::Suicide(p) => format!("{} is suicide", at(p)),
        IllegalMove::Ko(p) => format!("{} retakes a ko", at(p)),
        IllegalMove::Superko(p) => {
            format!("{} repeats an earlier position (positional superko)", at(p))
        }
        IllegalMove::GameOver => "the game is over".into(),
    }
}

impl Player {
    /// A player on an empty `size` board with `komi`; `None` for a size outside 2..=25.
    pub fn new(settings: &Settings, size: usize, komi: f64) -> Option<Player> {
        Some(Player {
            engine: Engine::with_config(size, komi, settings.config.clone())?,
            clock: Clock::new(Duration::from_millis(settings.move_ms)),
            comments: Vec::new(),
            names: [None, None],
            sgf_stats: settings.sgf_stats,
            log: settings.log,
            playouts: settings.playouts,
            loaded: LoadedInfo::default(),
        })
    }

    /// The engine (game, board, search statistics).
    pub fn engine(&self) -> &Engine {
        &self.engine
    }

    /// The clock, to set the time system and report times.
    pub fn clock_mut(&mut self) -> &mut Clock {
        &mut self.clock
    }

    /// The comments of the moves, one per move of the game.
    pub fn comments(&self) -> &[Option<String>] {
        &self.comments
    }

    /// Replaces the game after a failure inside the engine: a fresh engine (same
    /// configuration) on `game`, the comments cut to its moves.
    pub fn recover(&mut self, game: Game) {
        let config = self.engine.config().clone();
        let mut engine =
            Engine::with_config(game.size(), game.komi(), config).expect("the size was valid");
        engine.set_game(game);
        self.engine = engine;
        self.comments.resize(self.engine.moves().len(), None);
    }

    /// A new game: the players' names are forgotten and both clocks start afresh.
    fn new_game(&mut self) {
        self.comments.clear();
        self.names = [None, None];
        self.loaded = LoadedInfo::default();
        self.clock.restart();
    }

    /// GTP `boardsize`: a new empty board of `size`; false (nothing changed) outside 2..=25.
    pub fn set_size(&mut self, size: usize) -> bool {
        let ok = self.engine.set_size(size);
        if ok {
            self.new_game();
        }
        ok
    }

    /// GTP `clear_board`.
    pub fn clear(&mut self) {
        self.engine.clear();
        self.new_game();
    }

    /// GTP `komi`.
    pub fn set_komi(&mut self, komi: f64) {
        self.engine.set_komi(komi);
    }

    /// Plays the other side's (or the controller's) move.
    pub fn play(&mut self, color: Color, mv: Move) -> Result<(), IllegalMove> {
        self.engine.play(color, mv)?;
        self.comments.push(None);
        Ok(())
    }

    /// Takes back the last move.
    pub fn undo(&mut self) -> Result<(), UndoError> {
        self.engine.undo()?;
        self.comments.pop();
        Ok(())
    }

    /// GTP `fixed_handicap`.
    pub fn fixed_handicap(&mut self, count: usize) -> Result<Vec<Point>, SetupError> {
        self.engine.fixed_handicap(count)
    }

    /// GTP `place_free_handicap`.
    pub fn place_free_handicap(&mut self, count: usize) -> Result<Vec<Point>, SetupError> {
        self.engine.place_free_handicap(count)
    }

    /// GTP `set_free_handicap`.
    pub fn set_free_handicap(&mut self, points: &[Point]) -> Result<(), SetupError> {
        self.engine.set_free_handicap(points)
    }

    /// Chooses a move for `color` within the clock's budget, and plays it unless `kind` is
    /// [`Generate::Regression`].
    pub fn genmove(&mut self, color: Color, kind: Generate) -> Move {
        // After a resignation the controller wants the game to go on: take it back (with
        // its comment) before searching. `reg_genmove` keeps it (the engine searches the
        // position before it).
        if kind != Generate::Regression && self.engine.game().resigned().is_some() {
            self.undo().expect("a resignation is a move to take back");
        }
        let game = self.engine.game();
        let budget = self.clock.budget(color, game.size(), game.moves().len());
        let played_before = game.moves().len();
        let start = Instant::now();
        let limits = match self.playouts {
            Some(n) => Limits::playouts(n),
            None => Limits::time(budget),
        };
        let mv = match kind {
            Generate::Play => self.engine.genmove(color, &limits),
            Generate::Regression => self.engine.reg_genmove(color, &limits),
            // After passes too: the engine judges and searches without the trailing passes.
            Generate::Cleanup => self.engine.genmove_cleanup(color, &limits),
        };
        let elapsed = start.elapsed();
        if kind == Generate::Regression {
            return mv;
        }
        self.clock.spent(color, elapsed);
        self.names[color.index()] = Some(NAME.to_string());
        let size = self.engine.game().size();
        let stats = self.engine.last_stats();
        if self.log {
            let what = stats.map_or_else(|| "no search".to_string(), |s| stats_comment(s, size));
            eprintln!(
                "go-engine: {color} {} (budget {} ms) {}",
                format_vertex(mv, size),
                budget.as_millis(),
                what.replace('\n', ", ")
            );
        }
        if self.engine.moves().len() > played_before {
            let comment = stats
                .filter(|_| self.sgf_stats)
                .map(|s| stats_comment(s, size));
            self.comments.push(comment);
        }
        mv
    }

    /// Searches during the opponent's turn until `stop` is set ([`Engine::ponder`]); the
    /// clock is not charged. Returns the playouts run.
    pub fn ponder(&mut self, stop: &std::sync::atomic::AtomicBool) -> u64 {
        self.engine.ponder(stop)
    }

    /// GTP `final_score`: the score with the dead stones removed, as `B+n`, `W+n` or `0`.
    pub fn final_score(&mut self) -> String {
        score_text(crate::status::final_score(&self.engine))
    }

    /// The game as an SGF record: setup, handicap, komi, moves with their comments, the
    /// result when the game is over, our name on the colours we played.
    pub fn record(&mut self) -> GameRecord {
        let game = self.engine.game();
        let mut record = GameRecord::new(game.size());
        record.komi = Some(game.komi());
        record.handicap = match game.handicap() {
            0 => self.loaded.handicap,
            n => n,
        };
        record.comment = self.loaded.comment.clone();
        record.game_name = self.loaded.game_name.clone();
        record.date = self.loaded.date.clone();
        record.setup = game.setup().to_vec();
        if !record.setup.is_empty() {
            record.to_play = Some(game.moves().first().map_or(game.to_move(), |m| m.0));
        }
        record.rules = Some("Chinese".into());
        record.moves = game
            .moves()
            .iter()
            .zip(self.comments.iter().chain(std::iter::repeat(&None)))
            .map(|(&(color, mv), comment)| RecordedMove {
                color,
                mv,
                comment: comment.clone(),
            })
            .collect();
        [record.black_player, record.white_player] = self.names.clone();
        // A resignation is written by the record itself; two passes are scored here.
        if game.resigned().is_none() && game.is_over() {
            record.result = Some(self.final_score());
        }
        record
    }

    /// Replaces the game by the main line of `record`, up to `moves` moves (all of them
    /// when `None`); komi from the record when it has one. On an error nothing changes.
    pub fn load(&mut self, record: &GameRecord, moves: Option<usize>) -> Result<(), String> {
        let komi = record.komi.unwrap_or(self.engine.game().komi());
        let mut game = Game::new(record.size, komi).ok_or("bad board size")?;
        let first = record
            .to_play
            .or_else(|| record.moves.first().map(|m| m.color));
        let all_black = record.setup.iter().all(|&(c, _)| c == Color::Black);
        let setup = if record.handicap >= 2 && all_black && record.setup.len() == record.handicap {
            let points: Vec<Point> = record.setup.iter().map(|&(_, p)| p).collect();
            game.set_free_handicap(&points)
        } else if record.setup.is_empty() {
            Ok(())
        } else {
            game.set_stones(&record.setup, first.unwrap_or(Color::Black))
        };
        setup.map_err(|e| format!("setup: {e}"))?;
        let count = moves.unwrap_or(usize::MAX).min(record.moves.len());
        for (n, m) in record.moves[..count].iter().enumerate() {
            game.play(m.color, m.mv)
                .map_err(|e| format!("move {}: {}", n + 1, illegal_text(e, record.size)))?;
        }
        self.engine.set_game(game);
        self.new_game();
        self.comments = record.moves[..count]
            .iter()
            .map(|m| m.comment.clone())
            .collect();
        self.names = [record.black_player.clone(), record.white_player.clone()];
        self.loaded = LoadedInfo {
            comment: record.comment.clone(),
            game_name: record.game_name.clone(),
            date: record.date.clone(),
            handicap: record.handicap,
            tree: None,
        };
        Ok(())
    }

    /// Reads and loads an SGF file (GTP `loadsgf`), up to `moves` moves.
    pub fn load_file(&mut self, path: &str, moves: Option<usize>) -> Result<(), String> {
        use std::io::Read;
        let file = std::fs::File::open(path).map_err(|e| format!("{path}: {e}"))?;
        let mut bytes = Vec::new();
        file.take(MAX_SGF_BYTES + 1)
            .read_to_end(&mut bytes)
            .map_err(|e| format!("{path}: {e}"))?;
        if bytes.len() as u64 > MAX_SGF_BYTES {
            return Err(format!("{path}: larger than {MAX_SGF_BYTES} bytes"));
        }
        let trees = crate::sgf::parse(&bytes).map_err(|e| e.to_string())?;
        let record = GameRecord::from_tree(&trees[0]).map_err(|e| e.to_string())?;
        self.load(&record, moves)?;
        let tree = trees
            .into_iter()
            .next()
            .expect("a collection has a game tree");
        self.loaded.tree = Some((tree, record.move_list()));
        Ok(())
    }

    /// The game as SGF text (GTP `printsgf`): [`Player::record`], with the variations of a
    /// file loaded by [`Player::load_file`] where the game still follows the file's main
    /// line: each branches after the same moves as in the file, after the game's own move;
    /// where the game left the file's main line, the file's line from there is one more
    /// variation. A variation whose branch point is the game's last position is left out
    /// (it would become the main line).
    pub fn sgf(&mut self) -> String {
        let mut tree = self.record().to_tree();
        if let Some((file, file_moves)) = &self.loaded.tree {
            let game_moves = self.engine.game().moves();
            let written = tree.main_line();
            let mut played = 0;
            for id in file.main_line() {
                if file.node(id).get("B").is_some() || file.node(id).get("W").is_some() {
                    played += 1;
                }
                // The game's own next move must be written, to stay the main line.
                let follows = written.len() > played + 1
                    && game_moves.len() >= played
                    && file_moves.len() >= played
                    && game_moves[..played] == file_moves[..played];
                if !follows {
                    break;
                }
                // Where the game leaves the file, the file's own line is a variation too.
                let diverges = file_moves.get(played) != game_moves.get(played);
                for &variation in file.children(id).iter().skip(usize::from(!diverges)) {
                    tree.graft(written[played], file, variation);
                }
                if diverges {
                    break;
                }
            }
        }
        write_tree(&tree)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn player(size: usize) -> Player {
        let mut settings = Settings::from_vars(|_| None).unwrap();
        settings.move_ms = 20;
        settings.sgf_stats = true;
        settings.config.seed = Some(3);
        Player::new(&settings, size, 7.5).unwrap()
    }

    fn at(x: usize, y: usize) -> Move {
        Move::Play(Point::new(x, y))
    }

    #[test]
    fn our_moves_carry_their_statistics_and_undo_keeps_them_in_step() {
        let mut p = player(9);
        p.play(Color::Black, at(4, 4)).unwrap();
        let mv = p.genmove(Color::White, Generate::Play);
        assert!(matches!(mv, Move::Play(_)), "{mv:?}");
        assert_eq!(p.comments().len(), 2);
        assert_eq!(p.comments()[0], None);
        let comment = p.comments()[1].clone().unwrap();
        assert!(comment.starts_with("playouts "), "{comment}");
        assert!(comment.contains("win rate") && comment.contains("\npv "));
        p.genmove(Color::Black, Generate::Regression);
        assert_eq!(p.comments().len(), 2, "reg_genmove plays nothing");
        p.undo().unwrap();
        assert_eq!(p.comments().len(), 1);
        let record = p.record();
        assert_eq!(record.white_player.as_deref(), Some(NAME));
        assert_eq!(record.black_player, None);
        assert_eq!(record.moves.len(), 1);
    }

    #[test]
    fn a_record_loads_back_with_its_setup_moves_and_comments() {
        let mut p = player(9);
        p.fixed_handicap(2).unwrap();
        p.set_komi(0.5);
        p.genmove(Color::White, Generate::Play);
        p.play(Color::Black, Move::Pass).unwrap();
        p.play(Color::White, Move::Pass).unwrap();
        let record = p.record();
        assert_eq!(record.handicap, 2);
        assert_eq!(record.to_play, Some(Color::White));
        assert!(record.result.is_some(), "two passes: scored");
        let text = record.to_sgf();
        let back = GameRecord::from_sgf(text.as_bytes()).unwrap();
        let mut q = player(19);
        q.load(&back, None).unwrap();
        assert_eq!(q.engine().game().handicap(), 2);
        assert_eq!(q.engine().game().komi(), 0.5);
        assert_eq!(q.engine().moves(), p.engine().moves());
        assert_eq!(q.comments(), p.comments());
        // Up to a move: the position before it.
        q.load(&back, Some(1)).unwrap();
        assert_eq!(q.engine().moves().len(), 1);
        assert_eq!(q.engine().game().to_move(), Color::Black);
    }

    #[test]
    fn cleanup_after_two_passes_plays_on_while_dead_stones_remain() {
        // White's lone stone on the left is dead in Black's area; both sides passed.
        let rows = [
            "..XO...", "..XO...", "..XO...", "O.XO...", "..XO...", "..XO...", "..XO...",
        ];
        let mut record = GameRecord::new(7);
        for (y, row) in rows.iter().enumerate() {
            for (x, c) in row.chars().enumerate() {
                match c {
                    'X' => record.setup.push((Color::Black, Point::new(x, y))),
                    'O' => record.setup.push((Color::White, Point::new(x, y))),
                    _ => {}
                }
            }
        }
        for color in [Color::Black, Color::White] {
            record.moves.push(RecordedMove {
                color,
                mv: Move::Pass,
                comment: None,
            });
        }
        let mut p = player(7);
        p.load(&record, None).unwrap();
        assert!(p.engine().game().is_over());
        assert_eq!(p.final_score(), "W+14.5", "the invader is taken off");
        let mv = p.genmove(Color::Black, Generate::Cleanup);
        assert_ne!(mv, Move::Pass);
        assert_eq!(p.engine().moves().len(), 3);
        assert!(
            p.comments()[2]
                .as_deref()
                .is_some_and(|c| c.starts_with("playouts "))
        );
    }

    #[test]
    fn a_bad_record_changes_nothing() {
        let mut p = player(9);
        p.play(Color::Black, at(0, 0)).unwrap();
        let mut record = GameRecord::new(9);
        for _ in 0..2 {
            record.moves.push(RecordedMove {
                color: Color::White,
                mv: at(3, 3),
                comment: None,
            });
        }
        let e = p.load(&record, None).unwrap_err();
        assert!(e.starts_with("move 2:"), "{e}");
        assert_eq!(p.engine().moves().len(), 1);
        assert_eq!(p.engine().game().size(), 9);
        assert!(p.load_file("/nonexistent/file.sgf", None).is_err());
    }
}
