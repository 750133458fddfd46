//! The judge's data flows one way (`../shared/DESIGN.md`: CLI -> schedule -> referee ->
//! players -> game log -> statistics -> report and views), and no module reaches back up:
//! checked here on the source, so that the layering holds by test and not by habit (the
//! library's own `tests/layering.rs` does the same for `src/`).
//!
//! Every path that names a module of the judge is an edge from the file's module to the
//! module the path names (the longest prefix that is a module): the `use` lines, and the
//! paths written inline in the code (`crate::a::f()`, `super::b::T`, and in the binary
//! `gravity4_judge::c`). Unit tests (from a file's first `#[cfg(test)]` on, and `tests.rs`
//! files) and comments are left out. Two rules: a top-level module imports only its own
//! group or the layers below it in [`LAYERS`], and the import graph over all modules has
//! no circle (a child's imports of its parent aside, see [`circle`]).

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use testkit::source::{use_paths, without_comments};

/// The judge's top-level modules, layer by layer from the top down. A module may import
/// its own group and any group of a layer below; groups side by side on one layer do not
/// know each other. (`lib.rs`, which only declares the modules, is above them all.)
///
/// The chain of DESIGN.md is the order the data moves in. A stage that drives the next one
/// imports it (the tournament calls the referee, which calls the players); a stage that
/// reads what an earlier one wrote imports the types it reads (the report imports the
/// results it shows, the results the game log and the statistics). So the report and the
/// views, last in the data's path, sit high in the import order, beside the tournament:
/// the commands hand them plain data, the tournament never renders, and they never call
/// back into the tournament or the commands, nor see the CLI's argument structures.
const LAYERS: &[&[&[&str]]] = &[
    // CLI: the binary parses the command line (`main`, `cli`).
    &[&["main", "cli"]],
    // Wires each command: runs a tournament, hands its results to the report.
    &[&["commands"]],
    // `judge check`: a command's own pipeline (calls, series of games, its report).
    &[&["check"]],
    // Schedule, played (the tournament) or read back from shards; beside them, the report
    // and the views (`judge play` drives one game through the referee itself).
    &[&["tournament"], &["shards"], &["report", "view"]],
    // Referee: one game between two players under a game's rules.
    &[&["referee"]],
    // Statistics of a run: standings, Elo, SPRT read from the game log.
    &[&["results"]],
    // The game log: records, `games.jsonl`, the games' own record files.
    &[&["record"]],
    // The run directory: where a run's files live, `run.json`.
    &[&["run_dir"]],
    // The schedule itself: pairings, boards, seeds, shards (which `run.json` records).
    &[&["schedule"]],
    // Players: one child process each, protocols, limits, verdicts.
    &[&["players"]],
    // At the bottom, side by side: the statistics' mathematics (numbers in, numbers out),
    // and the rules and the clock that every layer speaks of.
    &[&["stats"], &["games", "clock"]],
];

/// Each module of `src/` (as `a::b`; `lib.rs` as "", `main.rs` as "main") with its source
/// outside the unit tests and comments.
fn modules() -> BTreeMap<String, String> {
    fn walk(dir: &Path, prefix: &[String], out: &mut BTreeMap<String, String>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            let stem = path.file_stem().unwrap().to_string_lossy().to_string();
            if path.is_dir() {
                let mut inner = prefix.to_vec();
                inner.push(stem);
                walk(&path, &inner, out);
            } else if path.extension().is_some_and(|e| e == "rs") && stem != "tests" {
                let mut name = prefix.to_vec();
                if stem != "mod" && stem != "lib" {
                    name.push(stem);
                }
                let text = std::fs::read_to_string(&path).unwrap();
                out.insert(name.join("::"), code_of(&text));
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("src"),
        &[],
        &mut out,
    );
    out
}

/// A file's code: what comes before its first `#[cfg(test)]`, without comments (doc links
/// name modules without importing them).
fn code_of(text: &str) -> String {
    without_comments(text.split("#[cfg(test)]").next().unwrap())
}

/// The paths written inline in `code` that start at one of `roots` (`crate`, `super`, a
/// child module's name...), each where a path starts (not inside another path such as
/// `super::super::`).
fn inline_paths(code: &str, roots: &[&str]) -> Vec<String> {
    let is_path_char = |c: char| c.is_alphanumeric() || c == '_' || c == ':';
    let mut paths = vec![];
    for root in roots {
        for (i, _) in code.match_indices(&format!("{root}::")) {
            if code[..i].chars().next_back().is_some_and(is_path_char) {
                continue;
            }
            paths.push(code[i..].chars().take_while(|&c| is_path_char(c)).collect());
        }
    }
    paths
}

/// The modules `code` (of module `module`) imports, among `known`.
fn imports(module: &str, code: &str, known: &BTreeSet<String>) -> BTreeSet<String> {
    let mut paths = vec![];
    for statement in code.split(';') {
        let statement = statement.trim_start();
        let body = ["pub use ", "pub(crate) use ", "pub(super) use ", "use "]
            .iter()
            .find_map(|p| statement.strip_prefix(p));
        if let Some(body) = body {
            paths.extend(use_paths(
                &body.split_whitespace().collect::<Vec<_>>().join(" "),
            ));
        }
    }
    // Inline paths from the crate (in the binary: the library's name), from this module
    // or its parent, and from a child module's name.
    let children: Vec<&str> = known
        .iter()
        .filter_map(|k| {
            let rest = match module {
                "" => k.as_str(),
                _ => k.strip_prefix(module)?.strip_prefix("::")?,
            };
            (!rest.contains("::")).then_some(rest)
        })
        .collect();
    let mut roots = vec!["crate", "super", "self", "gravity4_judge"];
    roots.extend(children);
    paths.extend(inline_paths(code, &roots));
    let parent = |m: &str| {
        m.rsplit_once("::")
            .map_or(String::new(), |(p, _)| p.to_string())
    };
    let mut out = BTreeSet::new();
    for path in paths {
        let mut segments: Vec<&str> = path
            .split("::")
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .collect();
        let mut base = match segments.first() {
            Some(&"crate") | Some(&"gravity4_judge") => String::new(),
            Some(&"super") => parent(module),
            Some(&"self") => module.to_string(),
            // A child module named from its parent (`use process::Child` in `players`).
            Some(first) if known.contains(&join(module, first)) => {
                segments.insert(0, "self");
                module.to_string()
            }
            _ => continue, // another crate, or an item of this module
        };
        segments.remove(0);
        while segments.first() == Some(&"super") {
            base = parent(&base);
            segments.remove(0);
        }
        // The longest prefix that is a module.
        let mut target = base;
        for segment in segments {
            let next = join(&target, segment);
            if !known.contains(&next) {
                break;
            }
            target = next;
        }
        if target != module && !target.is_empty() {
            out.insert(target);
        }
    }
    out
}

/// `module::segment` (just `segment` under the crate root).
fn join(module: &str, segment: &str) -> String {
    if module.is_empty() {
        segment.to_string()
    } else {
        format!("{module}::{segment}")
    }
}

/// Every module's imports.
fn graph_of(modules: &BTreeMap<String, String>) -> BTreeMap<String, BTreeSet<String>> {
    let known: BTreeSet<String> = modules.keys().cloned().collect();
    modules
        .iter()
        .map(|(name, code)| (name.clone(), imports(name, code, &known)))
        .collect()
}

/// The layer of a module (the index in [`LAYERS`] of its top-level module) and its group
/// there.
fn place(module: &str) -> (usize, usize) {
    let top = module.split("::").next().unwrap();
    LAYERS
        .iter()
        .enumerate()
        .find_map(|(layer, groups)| {
            let group = groups.iter().position(|g| g.contains(&top))?;
            Some((layer, group))
        })
        .unwrap_or_else(|| panic!("module {module} is in no layer: add it to LAYERS"))
}

/// Every import that reaches up a layer or across to a group beside its own, as
/// "`module` imports `import`, ...".
fn upward_imports(graph: &BTreeMap<String, BTreeSet<String>>) -> Vec<String> {
    let mut faults = vec![];
    for (module, imports) in graph {
        if module.is_empty() {
            continue; // lib.rs declares the modules on top of everything
        }
        let (layer, group) = place(module);
        for import in imports {
            let (to_layer, to_group) = place(import);
            if to_layer < layer {
                faults.push(format!("{module} imports {import}, a layer above it"));
            } else if to_layer == layer && to_group != group {
                faults.push(format!("{module} imports {import}, beside it on its layer"));
            }
        }
    }
    faults
}

/// A circle in the import graph, as the modules around it (the first one again at the
/// end), if there is one. A module's imports of its own ancestors are left out: a parent
/// (`mod.rs`) is the face of its children, re-exporting and dispatching to them, and the
/// children use the types it defines for all of them (`players::saiblo` and
/// `players::Player`). Every other edge counts, so a circle between two top-level modules
/// is found wherever in them its imports are written.
fn circle(graph: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    // Depth-first search; a module met again while on the stack closes a circle.
    fn visit(
        module: &str,
        graph: &BTreeMap<String, BTreeSet<String>>,
        stack: &mut Vec<String>,
        done: &mut BTreeSet<String>,
    ) -> Option<Vec<String>> {
        if done.contains(module) {
            return None;
        }
        if let Some(at) = stack.iter().position(|m| m == module) {
            let mut found = stack[at..].to_vec();
            found.push(module.to_string());
            return Some(found);
        }
        stack.push(module.to_string());
        let ancestor = |next: &String| module.starts_with(&format!("{next}::"));
        for next in graph
            .get(module)
            .into_iter()
            .flatten()
            .filter(|n| !ancestor(n))
        {
            if let Some(found) = visit(next, graph, stack, done) {
                return Some(found);
            }
        }
        stack.pop();
        done.insert(module.to_string());
        None
    }
    let mut done = BTreeSet::new();
    graph
        .keys()
        .find_map(|module| visit(module, graph, &mut vec![], &mut done))
}

#[test]
fn no_module_reaches_up_a_layer() {
    let faults = upward_imports(&graph_of(&modules()));
    assert!(faults.is_empty(), "{}", faults.join("\n"));
}

#[test]
fn the_imports_have_no_circle() {
    if let Some(found) = circle(&graph_of(&modules())) {
        panic!("import circle: {}", found.join(" -> "));
    }
}

#[test]
fn every_layer_names_a_module_of_the_judge() {
    let tops: BTreeSet<String> = modules()
        .keys()
        .filter(|m| !m.is_empty())
        .map(|m| m.split("::").next().unwrap().to_string())
        .collect();
    for name in LAYERS.iter().flat_map(|l| l.iter()).flat_map(|g| g.iter()) {
        assert!(
            tops.contains(*name),
            "LAYERS names {name}, which src/ does not have"
        );
    }
    for top in &tops {
        place(top); // panics on a module in no layer
    }
}

/// The checker finds what it must: paths of every kind, and a circle and an upward import
/// planted in a copy of the real source through one inline `crate::` path.
#[test]
fn the_checks_see_planted_faults() {
    let known: BTreeSet<String> = [
        "players",
        "players::process",
        "players::process::child",
        "view",
        "view::web",
        "view::web::live",
        "record",
    ]
    .map(String::from)
    .into();
    let imported = |module: &str, code: &str| -> Vec<String> {
        imports(module, code, &known).into_iter().collect()
    };
    assert_eq!(
        imported("view::web::live", "use super::super::{A, web::B};"),
        ["view", "view::web"]
    );
    assert_eq!(
        imported("view::web::live", "let x = super::super::record::f();"),
        ["view"],
        "view::record is no module"
    );
    assert_eq!(
        imported("view::web", "fn f() { crate::record::read(p) }"),
        ["record"]
    );
    assert_eq!(
        imported("players", "pub use process::child::Child;"),
        ["players::process::child"]
    );
    assert_eq!(
        imported("players::process", "self::child::start(); other::x();"),
        ["players::process::child"]
    );
    assert_eq!(imported("main", "gravity4_judge::record::x()"), ["record"]);
    assert_eq!(code_of("use a; // see crate::b\n//! crate::c"), "use a; \n");

    // The real source, with one inline path planted in `run_dir` that names the game log
    // (which imports the run directory): a circle, and an import a layer up.
    let mut planted = modules();
    let real = graph_of(&planted);
    assert!(
        real["record"].contains("run_dir"),
        "the plant needs this edge"
    );
    assert!(!real["run_dir"].contains("record"));
    planted
        .get_mut("run_dir")
        .unwrap()
        .push_str("\nfn planted(p: &Path) { let _ = crate::record::read::<Connect4>(p); }\n");
    let graph = graph_of(&planted);
    let found = circle(&graph).expect("the planted circle is found");
    assert!(
        found.windows(2).any(|w| w == ["run_dir", "record"]),
        "{found:?}"
    );
    assert_eq!(
        upward_imports(&graph),
        ["run_dir imports record, a layer above it"]
    );
    // And one in a view that calls back into the tournament, beside it.
    let mut planted = modules();
    planted
        .get_mut("view::play")
        .unwrap()
        .push_str("\nfn planted() { super::super::tournament::play(); }\n");
    assert_eq!(
        upward_imports(&graph_of(&planted)),
        ["view::play imports tournament, beside it on its layer"]
    );
}
