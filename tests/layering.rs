//! The library's data flows one way, rules -> search -> session -> FFI, and no module reaches
//! back up: checked here on the source, so that the layering holds by test and not by habit.
//!
//! Every `use` of `crate::` or `super::` paths outside the unit tests is an edge from the
//! file's module to the module the path names (its longest prefix that is a module). Two
//! rules: the top-level modules import only their own layer or the layers below them in
//! [`LAYERS`], and the import graph over all modules has no circle.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use testkit::source::{use_paths, without_comments};

/// The top-level modules from the bottom up; a module may import its own layer and those
/// below it. (`lib.rs` itself, which wires the exported symbols, is the top.)
const LAYERS: [&str; 7] = [
    "position", "threats", "search", "request", "settings", "session", "ffi",
];

/// Each module of `src/` (as `a::b`, the crate root as "") with its source outside the
/// unit tests.
fn modules() -> BTreeMap<String, String> {
    fn walk(dir: &Path, prefix: &[String], out: &mut BTreeMap<String, String>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            let stem = path.file_stem().unwrap().to_string_lossy().to_string();
            if path.is_dir() {
                let mut inner = prefix.to_vec();
                inner.push(stem);
                walk(&path, &inner, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let mut name = prefix.to_vec();
                if stem != "mod" && stem != "lib" {
                    name.push(stem);
                }
                let text = std::fs::read_to_string(&path).unwrap();
                let code = text.split("#[cfg(test)]").next().unwrap();
                out.insert(name.join("::"), without_comments(code));
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

/// The modules `code` (of module `module`) imports, among `known`.
fn imports(module: &str, code: &str, known: &BTreeSet<String>) -> BTreeSet<String> {
    let mut paths = vec![];
    for statement in code.split(';') {
        let statement = statement.trim_start();
        let body = statement
            .strip_prefix("pub use ")
            .or_else(|| statement.strip_prefix("use "))
            .or_else(|| statement.strip_prefix("pub(crate) use "));
        if let Some(body) = body {
            paths.extend(use_paths(
                &body.split_whitespace().collect::<Vec<_>>().join(" "),
            ));
        }
    }
    // Paths written inline, outside `use`.
    for (i, _) in code.match_indices("crate::") {
        let rest: String = code[i..]
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == ':')
            .collect();
        paths.push(rest);
    }
    let parent = |m: &str| {
        m.rsplit_once("::")
            .map_or(String::new(), |(p, _)| p.to_string())
    };
    let mut out = BTreeSet::new();
    for path in paths {
        let mut segments: Vec<&str> = path.split("::").map(str::trim).collect();
        let mut base = match segments.first() {
            Some(&"crate") => String::new(),
            Some(&"super") => parent(module),
            Some(&"self") => module.to_string(),
            _ => continue, // another crate
        };
        segments.remove(0);
        while segments.first() == Some(&"super") {
            base = parent(&base);
            segments.remove(0);
        }
        // The longest prefix that is a module.
        let mut target = base.clone();
        for segment in segments {
            let next = if target.is_empty() {
                segment.to_string()
            } else {
                format!("{target}::{segment}")
            };
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

/// Every module's imports.
fn graph() -> BTreeMap<String, BTreeSet<String>> {
    let modules = modules();
    let known: BTreeSet<String> = modules.keys().cloned().collect();
    modules
        .iter()
        .map(|(name, code)| (name.clone(), imports(name, code, &known)))
        .collect()
}

/// The layer of a module: the index of its top-level module in [`LAYERS`].
fn layer(module: &str) -> usize {
    let top = module.split("::").next().unwrap();
    LAYERS
        .iter()
        .position(|&l| l == top)
        .unwrap_or_else(|| panic!("module {module} is in no layer: add it to LAYERS"))
}

#[test]
fn no_module_reaches_up_a_layer() {
    for (module, imports) in graph() {
        if module.is_empty() {
            continue; // lib.rs wires the exports on top of everything
        }
        for import in imports {
            assert!(
                layer(&import) <= layer(&module),
                "{module} imports {import}, a layer above it"
            );
        }
    }
}

#[test]
fn the_imports_have_no_circle() {
    let graph = graph();
    // Depth-first search; a module met again while on the stack closes a circle.
    fn visit(
        module: &str,
        graph: &BTreeMap<String, BTreeSet<String>>,
        stack: &mut Vec<String>,
        done: &mut BTreeSet<String>,
    ) {
        if done.contains(module) {
            return;
        }
        if let Some(at) = stack.iter().position(|m| m == module) {
            panic!("import circle: {} -> {module}", stack[at..].join(" -> "));
        }
        stack.push(module.to_string());
        for next in &graph[module] {
            visit(next, graph, stack, done);
        }
        stack.pop();
        done.insert(module.to_string());
    }
    let mut done = BTreeSet::new();
    for module in graph.keys() {
        visit(module, &graph, &mut vec![], &mut done);
    }
}

/// The checker finds what it must: a circle and an upward import planted in a copy.
#[test]
fn the_checks_see_planted_faults() {
    let known: BTreeSet<String> = ["search", "search::a", "search::b", "session", "position"]
        .map(String::from)
        .into();
    let a = imports("search::a", "use super::b::{X, y::Z};", &known);
    assert_eq!(a, ["search::b".to_string()].into());
    let b = imports(
        "search::b",
        "use crate::search::a::Y;\nuse crate::session;",
        &known,
    );
    assert!(b.contains("search::a") && b.contains("session"));
    assert!(layer("session") > layer("search"));
    // The real source names what this test expects to see.
    let real = graph();
    assert!(real["search::strong"].contains("search::learned"));
    assert!(real["session"].contains("search::strong"));
}
