//! Reporters: what a run shows and leaves behind once its games are played. The
//! terminal table ([`table`]), the live progress bar ([`progress`]), `report.html`
//! ([`html`]), and [`ReportWriter`], the observer that writes `summary.json` and
//! `report.html` at the end of a tournament and prints the table.
//!
//! Reporters sit below the tournament in the data flow: they are handed records through
//! [`Observer`] or read the run directory, and never call back into the tournament.

pub mod html;
pub mod progress;
pub mod table;

use std::io::Write;

use anyhow::{Context, Result};

use crate::games::Game;
use crate::record::{GameRecord, Observer};
use crate::results::{self, SprtReading};
use crate::run_dir::RunDir;
use crate::schedule::{Entrant, Mode, Pairing};
use crate::stats::SprtParams;

/// At the end of a tournament: writes `summary.json` and `report.html` into the run
/// directory, prints the table and where the run is.
pub struct ReportWriter<'a, G: Game> {
    /// The game played (the page replays its games by its rules).
    pub game: &'a G,
    /// Where the run's files go.
    pub dir: &'a RunDir,
    /// The kind of tournament.
    pub mode: Mode,
    /// Its players.
    pub entrants: &'a [Entrant],
    /// Who met whom.
    pub pairings: &'a [Pairing],
    /// The SPRT, for a match that runs one.
    pub sprt: Option<&'a SprtParams>,
    /// How the summary reads the SPRT (pooled for a shard).
    pub sprt_reading: SprtReading,
}

impl<G: Game> Observer<G> for ReportWriter<'_, G> {
    fn game_finished(&mut self, _: &GameRecord<G>) -> Result<()> {
        Ok(())
    }

    fn tournament_finished(&mut self, records: &[GameRecord<G>]) -> Result<()> {
        let summary = results::summarize(
            self.mode,
            self.entrants,
            self.pairings,
            records,
            self.sprt,
            self.sprt_reading,
        );
        self.dir.write_summary(&summary)?;
        html::write(self.game, self.dir)?;
        // The games and the report are saved by now; a closed stdout (`judge match ... |
        // head`) is then one line of error, not a panic in `println!`.
        let mut out = std::io::stdout().lock();
        write!(out, "{}", table::render(&summary))
            .and_then(|()| {
                writeln!(
                    out,
                    "\nrun directory: {} (open report.html in a browser)",
                    self.dir.path().display()
                )
            })
            .context("printing the results table")?;
        Ok(())
    }
}
