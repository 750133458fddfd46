//! When the engine passes, resigns or cleans up: the rules the front end applies around
//! the search's answer.

use std::time::Instant;

use super::Engine;
use crate::point::{Color, Move};
use crate::search::{Config, Limits, RootMove, SearchStats, resign_visits};

/// The status playouts behind the check for dead stones made after a search chose to pass:
/// a twentieth of the search's playouts (its time is spent after the move's budget, and
/// the clock keeps back 5 % of it), at least 64 (or [`Config::score_playouts`] if fewer), at
/// most [`Config::score_playouts`].
fn after_search_playouts(search_playouts: u64, config: &Config) -> u32 {
    let share = u32::try_from(search_playouts / 20).unwrap_or(u32::MAX);
    share.clamp(64.min(config.score_playouts), config.score_playouts)
}

/// What [`Engine::end_phase`] decided.
enum Ending {
    /// Play this move (a directed capture or a pass) without a search.
    Play(Move),
    /// Search; `dead`: whether the opponent has dead stones on the board.
    Search {
        /// The opponent has dead stones on the board.
        dead: bool,
    },
}

/// How much lower a win rate than the pass's a move may have and still be played instead of
/// passing while the opponent's dead stones are on the board.
const PASS_MARGIN: f64 = 0.05;

impl Engine {
    /// The search behind the genmove calls, and the rules on its answer: after the
    /// opponent's pass and under cleanup, take the opponent's dead stones by directed moves
    /// ([`super::cleanup`]) and pass once none are left and the board as it stands wins;
    /// take the dead stones before passing after a search too; resign a lost game (not when
    /// cleaning up).
    pub(super) fn think(&mut self, color: Color, limits: &Limits, cleanup: bool) -> Move {
        self.stats = None;
        let start = Instant::now();
        let opponent_passed =
            matches!(self.game.moves().last(), Some(&(c, Move::Pass)) if c != color);
        // Whether the opponent has dead stones on the board, once estimated.
        let mut dead_opponents = None;
        if opponent_passed || cleanup {
            match self.end_phase(color, cleanup, start) {
                Ending::Play(mv) => return mv,
                Ending::Search { dead } => dead_opponents = Some(dead),
            }
        }
        if cleanup && self.game.passes() > 0 {
            // The search's playouts stop at the game's two passes: search a copy without
            // the trailing passes (the same board, the same earlier positions).
            let mut copy = self.without_trailing_passes();
            let mv = copy.search_move(color, limits, cleanup, dead_opponents, start);
            self.stats = copy.stats.take();
            return mv;
        }
        self.search_move(color, limits, cleanup, dead_opponents, start)
    }

    /// The end of the game, after the opponent's pass or under cleanup: judged by the status
    /// playouts, the directed capture of the opponent's dead stones when there are some and
    /// the game is won once they are off (or cleaning up); a pass when there are none and the
    /// board as it stands wins (or, cleaning up, the game has had its passes: KGS sends
    /// `kgs-genmove_cleanup` only then); otherwise a search. Scored as it stands
    /// (Tromp-Taylor, as the judge and CGOS score), a dead stone is the opponent's point and
    /// makes the region around it nobody's: it is taken before passing.
    fn end_phase(&mut self, color: Color, cleanup: bool, start: Instant) -> Ending {
        let (judged, fresh) = self.judge(color);
        let dead = judged.has_dead(self.game.board(), color.opponent());
        if !dead {
            let pass = if cleanup {
                self.game.moves().iter().any(|&(_, mv)| mv == Move::Pass)
            } else {
                self.wins_as_is(color)
            };
            return if pass {
                Ending::Play(Move::Pass)
            } else {
                Ending::Search { dead }
            };
        }
        let worth_it =
            cleanup || self.wins_as_is(color) || judged.wins_without_dead(&self.game, color);
        match worth_it.then(|| self.directed_cleanup(color, judged, fresh, start)) {
            Some(Some(mv)) => Ending::Play(mv),
            _ => Ending::Search { dead },
        }
    }

    /// The search for `color` and the rules on its answer: cleaning up, no pass while the
    /// opponent's dead stones (`dead_opponents`, judged when `None` and needed) remain;
    /// otherwise a chosen pass gives way to a capture ([`Engine::instead_of_passing`]);
    /// resign a lost game unless cleaning up.
    fn search_move(
        &mut self,
        color: Color,
        limits: &Limits,
        cleanup: bool,
        dead_opponents: Option<bool>,
        start: Instant,
    ) -> Move {
        // Cleaning up, the pass is not among the root's moves while dead stones remain (KGS's
        // rule); otherwise the search may choose it, and the choice is weighed below.
        let no_pass = cleanup && dead_opponents == Some(true);
        let searched = self
            .search
            .run(&self.game, color, limits, no_pass, &mut self.rng);
        let mut best = self.search.best(self.game.board());
        if best.mv == Move::Pass && !cleanup {
            let dead = match dead_opponents {
                Some(known) => known,
                None => {
                    let playouts = after_search_playouts(searched.playouts, self.config());
                    self.has_dead_stones(color.opponent(), playouts)
                }
            };
            if dead {
                best = self.instead_of_passing(best).unwrap_or(best);
            }
        }
        let chosen = if !cleanup && self.resigns(best) {
            Move::Resign
        } else {
            best.mv
        };
        self.stats = Some(SearchStats {
            chosen,
            playouts: searched.playouts,
            win_rate: best.win_rate,
            visits: best.visits,
            pv: self.search.pv(self.game.board()),
            nodes: self.search.nodes(),
            reused_visits: searched.reused_visits,
            elapsed: start.elapsed(),
        });
        chosen
    }

    /// True when the search's choice `best` loses so clearly, after enough playouts, that
    /// the engine resigns ([`Config::resign_threshold`]): the root has the visits
    /// [`resign_visits`] asks of the last search (fewer under a short clock, never fewer than
    /// [`crate::search::RESIGN_MIN_VISITS`]), and `best`'s win rate is below the threshold
    /// by two standard errors of its own visits (its rate taken as at least half the
    /// threshold, so that a move of few visits, all lost, is no proof).
    fn resigns(&self, best: RootMove) -> bool {
        let threshold = self.config().resign_threshold;
        let needed = resign_visits(self.search.last_run().and_then(|r| r.budget_playouts));
        let p = best.win_rate.max(threshold / 2.0);
        let error = (p * (1.0 - p) / f64::from(best.visits.max(1))).sqrt();
        threshold > 0.0
            && best.win_rate + 2.0 * error < threshold
            && self.search.root_visits() >= needed
    }

    /// The root's most visited move other than the pass, when the search chose to pass
    /// (`pass`) while the opponent's dead stones are on the board: taking them costs nothing
    /// under area scoring, and left there they count for the opponent. `None` (pass after
    /// all) when that move's win rate is clearly below the pass's, as when the "dead" stones
    /// are in fact alive (a seki the playouts misread) and playing in would lose.
    fn instead_of_passing(&self, pass: RootMove) -> Option<RootMove> {
        let play = self.search.best_play(self.game.board())?;
        (play.visits > 0 && play.win_rate >= pass.win_rate - PASS_MARGIN).then_some(play)
    }

    /// True when `color` wins the game if it ends now, scored as the board stands.
    pub(super) fn wins_as_is(&self, color: Color) -> bool {
        let score = self.game.score();
        match color {
            Color::Black => score > 0.0,
            Color::White => score < 0.0,
        }
    }
}
