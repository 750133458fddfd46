//! The terminal table of a run: players, crosstable (round-robin), pairings with their
//! pentanomial counts, a gauntlet's opponents compared through its hero, and the SPRT.

use std::fmt::Write;

use crate::games::Termination;
use crate::results::{Crosstable, Summary, WdlJson};
use crate::schedule::Mode;

/// The most comparisons through a gauntlet's first player the table shows (those of four
/// opponents); more are only in the summary and the report page.
const MAX_SHOWN: usize = 6;

/// The terminal report.
pub fn render(s: &Summary) -> String {
    let mut out = String::new();
    let width = s
        .players
        .iter()
        .map(|p| p.name.len())
        .max()
        .unwrap_or(4)
        .max(6);
    render_players(&mut out, s, width);
    render_discs(&mut out, s);
    render_time_and_memory(&mut out, s, width);
    if let Some(c) = &s.crosstable {
        render_crosstable(&mut out, c, width);
    }
    if s.mode != Mode::RoundRobin {
        render_pairings(&mut out, s);
    }
    render_comparisons(&mut out, s);
    if let Some(t) = &s.sprt {
        let _ = writeln!(
            out,
            "SPRT elo0={} elo1={} alpha={} beta={}: LLR {:.3} [{:.3}, {:.3}] ({}) after {} pairs -> {}",
            t.elo0, t.elo1, t.alpha, t.beta, t.llr, t.lower, t.upper, t.model, t.pairs, t.decision
        );
    }
    out
}

/// The players' table: results, score, Elo, LOS, by colour, and their losses by verdict.
fn render_players(out: &mut String, s: &Summary, width: usize) {
    let verdicts: Vec<Termination> = Termination::ALL
        .into_iter()
        .filter(|t| *t != Termination::Full)
        .collect();
    let _ = writeln!(
        out,
        "{:<width$} {:>5} {:>5} {:>5} {:>5} {:>7} {:>6} {:>18} {:>5}  {:<13} {:<13} losses by verdict",
        "player",
        "games",
        "W",
        "D",
        "L",
        "score%",
        "points",
        "Elo ± 95%",
        "LOS",
        "as first WDL",
        "as second WDL"
    );
    for p in &s.players {
        let losses: Vec<String> = verdicts
            .iter()
            .filter_map(|v| p.losses_by.get(v).map(|c| format!("{} {c}", v.name())))
            .collect();
        let wdl = |w: &WdlJson| format!("{}-{}-{}", w.wins, w.draws, w.losses);
        let _ = writeln!(
            out,
            "{:<width$} {:>5} {:>5} {:>5} {:>5} {:>7.2} {:>6} {:>18} {:>5.2}  {:<13} {:<13} {}",
            p.name,
            p.games,
            p.wdl.wins,
            p.wdl.draws,
            p.wdl.losses,
            p.score_pct,
            p.points,
            p.elo.display(),
            p.los,
            wdl(&p.as_first),
            wdl(&p.as_second),
            if losses.is_empty() {
                "-".into()
            } else {
                losses.join(", ")
            }
        );
    }
}

/// The mean disc difference of players whose games were scored by discs (Reversi).
fn render_discs(out: &mut String, s: &Summary) {
    let discs: Vec<String> = s
        .players
        .iter()
        .filter_map(|p| Some(format!("{} {:+.2}", p.name, p.disc_diff_mean?)))
        .collect();
    if !discs.is_empty() {
        let _ = writeln!(
            out,
            "\nmean disc difference per game scored by discs: {}",
            discs.join(", ")
        );
    }
}

/// A round-robin's crosstable: each row's results against each column.
fn render_crosstable(out: &mut String, c: &Crosstable, width: usize) {
    let _ = writeln!(out, "\ncrosstable (row's score against column, W-D-L)");
    let cw = 9usize;
    let _ = write!(out, "{:<width$}", "");
    for name in &c.names {
        let short: String = name.chars().take(cw).collect();
        let _ = write!(out, " {short:>cw$}");
    }
    let _ = writeln!(out);
    for (i, row) in c.results.iter().enumerate() {
        let _ = write!(out, "{:<width$}", c.names[i]);
        for cell in row {
            let text = cell.map_or("-".into(), |w| {
                format!("{}-{}-{}", w.wins, w.draws, w.losses)
            });
            let _ = write!(out, " {text:>cw$}");
        }
        let _ = writeln!(out);
    }
}

/// Each pairing's results, pentanomial counts, Elo and LOS.
fn render_pairings(out: &mut String, s: &Summary) {
    let _ = writeln!(out);
    for p in &s.pairings {
        if p.fixed_colours {
            // No board was played in both colours: the games' figures, and no pairs.
            let _ = writeln!(
                out,
                "{} vs {}: {}-{}-{}  Elo {}  LOS {:.2}  colours fixed ({} first in every game): no pentanomial pairs",
                p.a,
                p.b,
                p.wdl.wins,
                p.wdl.draws,
                p.wdl.losses,
                p.elo.display(),
                p.los,
                p.a
            );
            continue;
        }
        let _ = writeln!(
            out,
            "{} vs {}: {}-{}-{}  Elo {}  pentanomial [0, ½, 1, 1½, 2] = {:?}  Elo {}  nElo {}  LOS {:.2}",
            p.a,
            p.b,
            p.wdl.wins,
            p.wdl.draws,
            p.wdl.losses,
            p.elo.display(),
            p.penta,
            p.elo_pentanomial.display(),
            p.nelo_pentanomial.display(),
            p.los
        );
    }
}

/// A gauntlet's opponents compared through its first player, board by board (or, past
/// [`MAX_SHOWN`] of them, where to find them).
fn render_comparisons(out: &mut String, s: &Summary) {
    if let Some(first) = s
        .comparisons
        .first()
        .filter(|_| s.comparisons.len() > MAX_SHOWN)
    {
        // A pool of numbered opponents makes dozens of pairs: they stay in the files.
        let _ = writeln!(
            out,
            "\n{} pairs of opponents compared through {} on the same boards: in summary.json and report.html",
            s.comparisons.len(),
            first.via
        );
    } else if let Some(first) = s.comparisons.first() {
        let _ = writeln!(
            out,
            "\nthrough {} on the same boards (score per game against it, board by board):",
            first.via
        );
        for c in &s.comparisons {
            let margin = c
                .margin95_pct
                .map_or_else(|| "inf".to_string(), |m| format!("{m:.1}"));
            let _ = writeln!(
                out,
                "{} - {}: {:+.1} ± {} points over {} boards  LOS {:.2}",
                c.a, c.b, c.score_diff_pct, margin, c.boards, c.los
            );
        }
    }
}

/// Each player's time per move (wall mean and longest, CPU mean) and peak memory: what
/// decides whether it keeps to a time limit and a memory limit.
fn render_time_and_memory(out: &mut String, s: &Summary, width: usize) {
    let title = "time, memory";
    let width = width.max(title.len());
    let _ = writeln!(
        out,
        "\n{:<width$} {:>9} {:>9} {:>11} {:>8}",
        title, "ms/move", "longest", "CPU ms/move", "peak MB"
    );
    let tenths = |x: Option<f64>| x.map_or_else(|| "-".to_string(), |x| format!("{x:.1}"));
    for p in &s.players {
        let (cpu, peak) = (tenths(p.cpu_ms_mean), tenths(p.peak_rss_mb));
        let _ = writeln!(
            out,
            "{:<width$} {:>9.1} {:>9.1} {:>11} {:>8}",
            p.name, p.move_ms_mean, p.move_ms_max, cpu, peak
        );
    }
}
