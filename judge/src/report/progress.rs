//! The live progress bar: games done, and the first entrant's running score and Elo.

use anyhow::Result;
use indicatif::{ProgressBar, ProgressStyle};

use crate::games::Game;
use crate::record::{GameRecord, Observer};
use crate::results::{EloJson, WdlJson};
use crate::stats;

/// The live progress bar: games done, and the first entrant's running score and Elo.
pub struct Progress {
    bar: ProgressBar,
    focus: String,
    wdl: WdlJson,
}

impl Progress {
    /// A bar for `total` games, following `focus` (a player name).
    pub fn new(total: u64, done: u64, focus: &str) -> Progress {
        let bar = ProgressBar::new(total);
        bar.set_style(
            ProgressStyle::with_template(
                "{bar:30} {pos}/{len} games  {elapsed_precise} (eta {eta})  {msg}",
            )
            .expect("valid template"),
        );
        bar.set_position(done);
        Progress {
            bar,
            focus: focus.to_string(),
            wdl: WdlJson::default(),
        }
    }

    /// Counts one game.
    pub fn record<G: Game>(&mut self, r: &GameRecord<G>) {
        if r.first == self.focus {
            self.wdl.add(r.first_score());
        } else if r.second == self.focus {
            self.wdl.add(1.0 - r.first_score());
        }
        let g = self.wdl.games();
        if g > 0 {
            let e: EloJson = stats::trinomial_elo(&self.wdl.stats()).into();
            self.bar.set_message(format!(
                "{}: {}-{}-{} score {:.1}%  Elo {}",
                self.focus,
                self.wdl.wins,
                self.wdl.draws,
                self.wdl.losses,
                100.0 * self.wdl.score() / g as f64,
                e.display()
            ));
        }
        self.bar.inc(1);
    }

    /// Hides the bar (`--quiet`).
    pub fn hide(&mut self) {
        self.bar
            .set_draw_target(indicatif::ProgressDrawTarget::hidden());
    }

    /// Removes the bar.
    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}

impl<G: Game> Observer<G> for Progress {
    fn game_finished(&mut self, record: &GameRecord<G>) -> Result<()> {
        self.record(record);
        Ok(())
    }

    fn tournament_finished(&mut self, _: &[GameRecord<G>]) -> Result<()> {
        self.finish();
        Ok(())
    }
}
