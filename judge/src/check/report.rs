//! What `judge check` shows and leaves: one line per item on stdout (then the commands
//! that reproduce its failures and a summary), `check.json` with every item, call and
//! series, and `report.html`, the checklist as a self-contained page.

use std::fmt::Write as _;
use std::path::Path;

use anyhow::{Context, Result};
use serde::Serialize;

use super::calls::Call;
use super::items::{Item, Verdict};

/// A series as `check.json` names it.
#[derive(Debug, Clone, Serialize)]
pub struct SeriesRef {
    /// Its run directory (`judge replay DIR --game ID`, `judge report DIR`).
    pub dir: String,
    /// Games played.
    pub games: usize,
    /// Games planned (fewer are played when it stops at the library's first fault).
    pub planned: usize,
    /// The opponents.
    pub opponents: Vec<String>,
}

/// `check.json`.
#[derive(Debug, Clone, Serialize)]
pub struct CheckJson<'a> {
    /// The library as given.
    pub library: String,
    /// Its SHA-256.
    pub sha256: String,
    /// Whether `--full` was given.
    pub full: bool,
    /// The judge's version.
    pub judge_version: &'static str,
    /// Wall time of the whole check, s.
    pub seconds: f64,
    /// The worst verdict of the items (`skip` counts as none).
    pub verdict: Verdict,
    /// The exit status: 0 when no item failed, 1 when one did.
    pub exit_status: i32,
    /// Every item, in checklist order.
    pub items: &'a [Item],
    /// Every single call, in order.
    pub calls: &'a [Call],
    /// The one-process series.
    pub series: Option<SeriesRef>,
    /// The strength gauntlet (`--full`).
    pub strength: Option<SeriesRef>,
}

impl CheckJson<'_> {
    /// Counts of `pass`, `warn`, `fail`, `skip`.
    fn counts(&self) -> [usize; 4] {
        let count = |v| self.items.iter().filter(|i| i.verdict == v).count();
        [
            count(Verdict::Pass),
            count(Verdict::Warn),
            count(Verdict::Fail),
            count(Verdict::Skip),
        ]
    }
}

/// The worst verdict among `items` (skips do not count), and the exit status.
pub fn overall(items: &[Item]) -> (Verdict, i32) {
    let worst = items
        .iter()
        .map(|i| i.verdict)
        .filter(|&v| v != Verdict::Skip)
        .max()
        .unwrap_or(Verdict::Skip);
    (worst, i32::from(worst == Verdict::Fail))
}

/// Commands shown per item on the terminal (`check.json` and the page have them all).
const SHOWN_COMMANDS: usize = 3;

/// The terminal report: one line per item (verdict, item, evidence, what to do), then
/// the commands that reproduce the failures, then the summary.
pub fn text(report: &CheckJson, dir: &Path) -> String {
    let mut out = String::new();
    for item in report.items {
        let _ = write!(
            out,
            "{:<4}  {:<11} {}",
            item.verdict.word(),
            item.id,
            item.evidence
        );
        if let Some(advice) = &item.advice {
            let _ = write!(out, ". To do: {advice}");
        }
        out.push('\n');
    }
    let with_commands: Vec<&Item> = report
        .items
        .iter()
        .filter(|i| i.verdict != Verdict::Pass && !i.reproduce.is_empty())
        .collect();
    if !with_commands.is_empty() {
        out.push_str("\nto see it again:\n");
        for item in with_commands {
            for command in item.reproduce.iter().take(SHOWN_COMMANDS) {
                let _ = writeln!(out, "  {:<11} {command}", item.id);
            }
            if item.reproduce.len() > SHOWN_COMMANDS {
                let _ = writeln!(
                    out,
                    "  {:<11} ... {} more in check.json",
                    item.id,
                    item.reproduce.len() - SHOWN_COMMANDS
                );
            }
        }
    }
    let [pass, warn, fail, skip] = report.counts();
    let _ = writeln!(
        out,
        "\n{pass} pass, {warn} warn, {fail} fail, {skip} skipped in {:.0} s: {}; exit status {}",
        report.seconds,
        match report.verdict {
            Verdict::Fail => "the course would count games lost",
            Verdict::Warn => "nothing fails, look at the warnings",
            _ => "ready to submit as far as this check sees",
        },
        report.exit_status
    );
    let _ = writeln!(out, "{}: check.json, report.html", dir.display());
    out
}

/// Writes `check.json` and `report.html` into `dir`.
pub fn write(report: &CheckJson, dir: &Path) -> Result<()> {
    let json = serde_json::to_string_pretty(report)?;
    let path = dir.join("check.json");
    std::fs::write(&path, json + "\n").with_context(|| format!("writing {}", path.display()))?;
    let path = dir.join("report.html");
    std::fs::write(&path, html(report)).with_context(|| format!("writing {}", path.display()))
}

/// `text` with `&`, `<`, `>` and quotes escaped for HTML.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

const STYLE: &str = "body{font:15px/1.45 system-ui,sans-serif;margin:2em auto;max-width:72em;padding:0 1em;color:#222}
h1{font-size:1.4em}h2{font-size:1.15em;margin-top:2em}
table{border-collapse:collapse;width:100%}td,th{border-bottom:1px solid #ddd;padding:.45em .6em;text-align:left;vertical-align:top}
.v{font-weight:bold;text-transform:uppercase;font-size:.85em;padding:.15em .5em;border-radius:.3em;color:#fff}
.pass{background:#2e7d32}.warn{background:#ef8f00}.fail{background:#c62828}.skip{background:#888}
code{background:#f4f4f4;padding:.1em .3em;border-radius:.2em;font-size:.9em;word-break:break-all}
.todo{color:#7a4b00}.small{color:#666;font-size:.9em}";

/// The checklist as a self-contained page (inline style, no script, nothing fetched).
pub fn html(report: &CheckJson) -> String {
    let mut out = String::new();
    let [pass, warn, fail, skip] = report.counts();
    let _ = write!(
        out,
        "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>judge check {lib}</title><style>{STYLE}</style></head><body>\n<h1>judge check <code>{lib}</code> <span class=\"v {v}\">{v}</span></h1>\n<p class=\"small\">sha256 {sha}; {mode}; {pass} pass, {warn} warn, {fail} fail, {skip} skipped in {secs:.0} s; exit status {exit}; judge {ver}</p>\n",
        lib = escape(&report.library),
        v = report.verdict.word(),
        sha = report.sha256,
        mode = if report.full {
            "full check (--full)"
        } else {
            "quick check (--full adds 100 games in one process and the strength against the ladder)"
        },
        secs = report.seconds,
        exit = report.exit_status,
        ver = report.judge_version,
    );
    out.push_str("<h2>Checklist</h2>\n<table><tr><th>verdict</th><th>item</th><th>evidence, and what to do</th></tr>\n");
    for item in report.items {
        let _ = write!(
            out,
            "<tr id=\"{id}\"><td><span class=\"v {v}\">{v}</span></td><td><b>{id}</b><br><span class=\"small\">{title}</span></td><td>{evidence}",
            id = item.id,
            v = item.verdict.word(),
            title = escape(item.title),
            evidence = escape(&item.evidence),
        );
        if let Some(advice) = &item.advice {
            let _ = write!(
                out,
                "<p class=\"todo\"><b>To do:</b> {}</p>",
                escape(advice)
            );
        }
        for command in &item.reproduce {
            let _ = write!(out, "<div><code>{}</code></div>", escape(command));
        }
        out.push_str("</td></tr>\n");
    }
    out.push_str("</table>\n");
    let _ = write!(
        out,
        "<h2>The single calls ({})</h2>\n<p class=\"small\">Each position in a fresh process, timed against the course's 3 s; repeat one with <code>judge check {} --position 'TEXT'</code>.</p>\n<table><tr><th>#</th><th>position</th><th>answer</th><th>time</th><th>peak memory</th></tr>\n",
        report.calls.len(),
        escape(&report.library)
    );
    for (i, call) in report.calls.iter().enumerate() {
        let _ = writeln!(
            out,
            "<tr><td>{}</td><td>{}<br><code>{}</code></td><td>{}</td><td>{}</td><td>{}</td></tr>",
            i + 1,
            escape(&call.name),
            escape(&call.position),
            escape(&call.describe()),
            call.wall_ms
                .map_or("-".into(), |ms| format!("{:.3} s", ms / 1e3)),
            call.peak_rss_kb
                .map_or("-".into(), |kb| format!("{:.0} MB", kb as f64 / 1024.0)),
        );
    }
    out.push_str("</table>\n");
    for (title, series) in [
        ("Games in one process", &report.series),
        ("Strength against the ladder", &report.strength),
    ] {
        if let Some(s) = series {
            let _ = write!(
                out,
                "<h2>{title}</h2>\n<p>{} of {} games against {}: every game, move by move, in <a href=\"{dir}/report.html\">{dir}/report.html</a>; in a terminal, <code>judge replay DIR/{dir} --game ID</code>.</p>\n",
                s.games,
                s.planned,
                escape(&s.opponents.join(", ")),
                dir = escape(&s.dir),
            );
        }
    }
    out.push_str("</body></html>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::calls::Outcome;

    fn item(id: &'static str, verdict: Verdict) -> Item {
        Item {
            id,
            title: "a title",
            verdict,
            evidence: format!("evidence <{id}>"),
            advice: (verdict != Verdict::Pass).then(|| "do this & that".to_string()),
            reproduce: vec!["judge check 'my lib.so' --position '9x9 ...'".into(); 4],
        }
    }

    #[test]
    fn the_worst_verdict_sets_the_exit_status() {
        assert_eq!(
            overall(&[item("a", Verdict::Pass), item("b", Verdict::Skip)]),
            (Verdict::Pass, 0)
        );
        assert_eq!(
            overall(&[item("a", Verdict::Warn), item("b", Verdict::Pass)]),
            (Verdict::Warn, 0)
        );
        assert_eq!(
            overall(&[item("a", Verdict::Warn), item("b", Verdict::Fail)]),
            (Verdict::Fail, 1)
        );
    }

    #[test]
    fn text_json_and_page_carry_every_item() {
        let items = [
            item("loading", Verdict::Pass),
            item("contract", Verdict::Fail),
        ];
        let calls = [Call {
            name: "first move <x>".into(),
            position: "9x9 ...".into(),
            outcome: Outcome::Null,
            wall_ms: Some(12.0),
            cpu_ms: None,
            peak_rss_kb: Some(2048),
            size: (9, 9),
            wrote: None,
            load_ms: Some(3.0),
        }];
        let (verdict, exit_status) = overall(&items);
        let report = CheckJson {
            library: "my lib.so".into(),
            sha256: "ab".into(),
            full: false,
            judge_version: "0",
            seconds: 3.0,
            verdict,
            exit_status,
            items: &items,
            calls: &calls,
            series: None,
            strength: None,
        };
        let text = text(&report, Path::new("runs/x"));
        let lines: Vec<&str> = text.lines().collect();
        assert!(
            lines[0].starts_with("pass  loading     evidence <loading>"),
            "{text}"
        );
        assert!(
            lines[1].starts_with("fail  contract    evidence <contract>. To do: do this & that"),
            "{text}"
        );
        assert_eq!(text.matches("--position").count(), 3, "{text}");
        assert!(text.contains("... 1 more in check.json"), "{text}");
        assert!(text.contains("1 pass, 0 warn, 1 fail, 0 skipped"), "{text}");
        let json: serde_json::Value = serde_json::to_value(&report).unwrap();
        assert_eq!(json["items"][1]["verdict"], "fail");
        assert_eq!(json["items"][1]["reproduce"].as_array().unwrap().len(), 4);
        assert_eq!(json["calls"][0]["outcome"]["kind"], "null");
        assert_eq!(json["exit_status"], 1);
        let page = html(&report);
        assert!(page.contains("evidence &lt;contract&gt;") && page.contains("do this &amp; that"));
        assert!(page.contains("first move &lt;x&gt;"));
        assert!(!page.contains("<x>") && !page.contains("http"));
    }
}
