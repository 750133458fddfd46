//! The repository's documents as a reader of a fresh clone meets them (issue 48).
//!
//! - Every commit they cite resolves and is on main's history (an ancestor of HEAD), so
//!   that `git show HASH` works in any full clone: tags and rebased branches do not travel.
//!   A citation has one form, the word `commit` and then 7 to 40 lowercase hex digits
//!   (`commit abc1234`; a line break may stand between the two). A document may go on
//!   naming a commit by its bare hash once it has cited it in that form, so a hash-like word
//!   (hex digits with at least one digit and one letter) that the document never cites
//!   fails the test: no commit a document names escapes the check. Digests are not commits:
//!   a hex word after `SHA-256 `, before `...`, 64 digits long, or opening a quoted string is
//!   passed over.
//! - README.md stays within 200 lines and STRENGTH.md within 300.
//!
//! Read: README.md, STRENGTH.md, every Markdown file under docs/, the Markdown files at the
//! top of the crates (judge/, reversi/, go/, saiblo/, ladder/, fuzz/), and, for citations
//! only, the library's sources under src/ (its messages, such as the one for a removed
//! switch). Without a git checkout (a source archive) or in a shallow clone the citation
//! test says why and passes.

use std::collections::{BTreeMap, HashSet};
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

const README_LIMIT: usize = 200;
const STRENGTH_LIMIT: usize = 300;

/// The crates whose top-level Markdown files are read.
const CRATES: [&str; 6] = ["judge", "reversi", "go", "saiblo", "ladder", "fuzz"];

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// A hex word of a text: its byte range and its digits.
#[derive(Debug, PartialEq, Eq)]
struct HexWord<'a> {
    start: usize,
    end: usize,
    hex: &'a str,
}

/// The maximal runs of ASCII letters and digits in `text` that are all lowercase hex digits,
/// 7 to 40 of them or 64 (a SHA-256 digest).
fn hex_words(text: &str) -> Vec<HexWord<'_>> {
    let bytes = text.as_bytes();
    let mut words = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if !bytes[i].is_ascii_alphanumeric() {
            i += 1;
            continue;
        }
        let start = i;
        while i < bytes.len() && bytes[i].is_ascii_alphanumeric() {
            i += 1;
        }
        let word = &text[start..i];
        let hex = word
            .bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b));
        if hex && ((7..=40).contains(&word.len()) || word.len() == 64) {
            words.push(HexWord {
                start,
                end: i,
                hex: word,
            });
        }
    }
    words
}

/// Whether the hex word at `start` is cited: `commit`, whitespace, then the word.
fn is_citation(text: &str, start: usize) -> bool {
    let before = text[..start].trim_end();
    if before.len() == text[..start].len() {
        return false; // no whitespace between
    }
    before
        .strip_suffix("commit")
        .is_some_and(|rest| !rest.ends_with(|c: char| c.is_ascii_alphanumeric()))
}

/// Whether the hex word is a digest or data rather than a commit's name.
fn is_digest(text: &str, word: &HexWord) -> bool {
    word.hex.len() == 64
        || text[word.end..].starts_with("...")
        || text[..word.start].ends_with("SHA-256 ")
        || text[..word.start].ends_with('"')
}

/// Whether a bare hex word looks like an abbreviated commit hash: a digit and a letter.
fn hash_like(hex: &str) -> bool {
    hex.bytes().any(|b| b.is_ascii_digit()) && hex.bytes().any(|b| b.is_ascii_alphabetic())
}

/// The 1-based line of byte `at` in `text`.
fn line_of(text: &str, at: usize) -> usize {
    text[..at].bytes().filter(|&b| b == b'\n').count() + 1
}

/// Hashes found in a text, each with its 1-based line.
type Found = Vec<(usize, String)>;

/// What one document cites and names: (line, hash) of each citation, and of each
/// hash-like bare word that the document does not cite anywhere.
fn read_document(text: &str) -> (Found, Found) {
    let words = hex_words(text);
    let cited: Found = words
        .iter()
        .filter(|w| is_citation(text, w.start))
        .map(|w| (line_of(text, w.start), w.hex.to_string()))
        .collect();
    let covered = |hex: &str| {
        cited
            .iter()
            .any(|(_, c)| c.starts_with(hex) || hex.starts_with(c.as_str()))
    };
    let uncited = words
        .iter()
        .filter(|w| !is_citation(text, w.start) && !is_digest(text, w) && hash_like(w.hex))
        .filter(|w| !covered(w.hex))
        .map(|w| (line_of(text, w.start), w.hex.to_string()))
        .collect();
    (cited, uncited)
}

/// The Markdown documents the test reads, relative to the root.
fn documents() -> Vec<PathBuf> {
    let mut docs = vec![PathBuf::from("README.md"), PathBuf::from("STRENGTH.md")];
    let mut markdown_in = |dir: &Path, deep: bool| {
        let mut found = Vec::new();
        collect(&root().join(dir), deep, "md", &mut found);
        found.sort();
        docs.extend(found);
    };
    markdown_in(Path::new("docs"), true);
    for krate in CRATES {
        markdown_in(Path::new(krate), false);
    }
    docs
}

/// The library's Rust sources, relative to the root.
fn sources() -> Vec<PathBuf> {
    let mut found = Vec::new();
    collect(&root().join("src"), true, "rs", &mut found);
    found.sort();
    found
}

/// Files with extension `ext` in `dir` (and below it when `deep`), relative to the root.
fn collect(dir: &Path, deep: bool, ext: &str, found: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            if deep {
                collect(&path, deep, ext, found);
            }
        } else if path.extension().is_some_and(|e| e == ext) {
            found.push(
                path.strip_prefix(root())
                    .expect("under the root")
                    .to_path_buf(),
            );
        }
    }
}

/// Runs git in the root with `args` (and `input` on its standard input); its output, or
/// None when git could not run or failed.
fn git(args: &[&str], input: Option<&str>) -> Option<String> {
    let mut child = Command::new("git")
        .args(args)
        .current_dir(root())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .ok()?;
    let mut stdin = child.stdin.take().expect("piped");
    if let Some(input) = input {
        stdin.write_all(input.as_bytes()).ok()?;
    }
    drop(stdin);
    let output = child.wait_with_output().ok()?;
    output
        .status
        .success()
        .then(|| String::from_utf8_lossy(&output.stdout).into_owned())
}

/// Why the citations cannot be checked here, if they cannot: no git checkout, or a shallow
/// one.
fn no_history() -> Option<String> {
    match git(&["rev-parse", "--is-shallow-repository"], None) {
        None => Some("not a git checkout (or no git): the citations are not checked".into()),
        Some(out) if out.trim() == "true" => {
            Some("a shallow clone lacks the history the citations name: not checked".into())
        }
        Some(_) => None,
    }
}

/// For each hash, what is wrong with it as a citation of a commit on main (None: nothing):
/// it must name one commit (`git cat-file -e HASH^{commit}`) that is an ancestor of HEAD.
fn check_commits(hashes: &[String]) -> BTreeMap<String, Option<String>> {
    let input: String = hashes.iter().map(|h| format!("{h}^{{commit}}\n")).collect();
    let answers = git(&["cat-file", "--batch-check"], Some(&input)).expect("git cat-file runs");
    let history: HashSet<String> = git(&["rev-list", "HEAD"], None)
        .expect("git rev-list HEAD runs")
        .lines()
        .map(str::to_string)
        .collect();
    hashes
        .iter()
        .zip(answers.lines())
        .map(|(hash, answer)| {
            let problem = match answer.split_whitespace().collect::<Vec<_>>()[..] {
                [full, "commit", _] if history.contains(full) => None,
                [_, "commit", _] => Some("a commit, but not on main's history (HEAD)".into()),
                [_, "ambiguous"] => Some("ambiguous: give more digits".into()),
                _ => Some("no such commit in this clone".into()),
            };
            (hash.clone(), problem)
        })
        .collect()
}

#[test]
fn every_cited_commit_is_on_main() {
    if let Some(why) = no_history() {
        eprintln!("docs: {why}");
        return;
    }
    let mut citations: Vec<(PathBuf, usize, String)> = Vec::new();
    let mut failures = Vec::new();
    for doc in documents() {
        let text = fs::read_to_string(root().join(&doc)).expect("read a document");
        let (cited, uncited) = read_document(&text);
        citations.extend(cited.into_iter().map(|(line, h)| (doc.clone(), line, h)));
        for (line, hex) in uncited {
            failures.push(format!(
                "{}:{line}: {hex} is named but never cited: write `commit {hex}` once in \
                 this document (or `SHA-256 {hex}` for a digest)",
                doc.display()
            ));
        }
    }
    for source in sources() {
        let text = fs::read_to_string(root().join(&source)).expect("read a source");
        let (cited, _) = read_document(&text);
        citations.extend(cited.into_iter().map(|(line, h)| (source.clone(), line, h)));
    }
    assert!(
        citations.len() > 100,
        "the documents cite {} commits: is the citation reader broken?",
        citations.len()
    );
    let mut unique: Vec<String> = citations.iter().map(|(_, _, h)| h.clone()).collect();
    unique.sort();
    unique.dedup();
    let verdicts = check_commits(&unique);
    for (file, line, hash) in &citations {
        if let Some(Some(problem)) = verdicts.get(hash) {
            failures.push(format!(
                "{}:{line}: commit {hash}: {problem}",
                file.display()
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of the documents' commit references do not resolve on main (a removed \
         experiment is cited by the last commit on main that has it; work that never \
         reached main is \"not kept\", without a hash):\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn readme_and_strength_stay_within_their_limits() {
    for (doc, limit) in [("README.md", README_LIMIT), ("STRENGTH.md", STRENGTH_LIMIT)] {
        let lines = fs::read_to_string(root().join(doc))
            .expect("read")
            .lines()
            .count();
        assert!(
            lines <= limit,
            "{doc} has {lines} lines, over its limit of {limit}: move detail to \
             docs/notebook.md (or docs/) rather than raise the limit"
        );
    }
}

#[test]
fn the_reader_knows_a_citation_from_a_name_and_a_digest() {
    let text = "Old is commit 488d092 (SHA-256 92cfc078), at\ncommit\ne803a46 too;\n\
                488d092's bench, then 5dc8eb7 alone, 2ad5476c... and \"c4c3c2e6f4b3\",\n\
                recommit 1234abc, commit 1234abcz, 2026112, and the full \
                {}.\n";
    let text = text.replace("{}", &"ab12".repeat(16));
    let (cited, uncited) = read_document(&text);
    assert_eq!(
        cited,
        [(1, "488d092".to_string()), (3, "e803a46".to_string())]
    );
    assert_eq!(
        uncited,
        [(4, "5dc8eb7".to_string()), (5, "1234abc".to_string())]
    );
}

#[test]
fn a_commit_off_main_is_reported() {
    if let Some(why) = no_history() {
        eprintln!("docs: {why}");
        return;
    }
    let head = git(&["rev-parse", "--short=12", "HEAD"], None).expect("HEAD");
    let hashes = [head.trim().to_string(), "0000000deadbeef".to_string()];
    let verdicts = check_commits(&hashes);
    assert_eq!(verdicts[&hashes[0]], None);
    assert!(verdicts[&hashes[1]].is_some());
}
