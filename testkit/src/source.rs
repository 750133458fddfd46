//! Reading Rust source as text, for the layering tests (the library's `tests/layering.rs`
//! and the judge's): a file's code without comments, and the paths a `use` tree names.

/// `code` without its line comments (doc links name modules without importing them).
pub fn without_comments(code: &str) -> String {
    code.lines()
        .map(|line| match line.find("//") {
            Some(at) => &line[..at],
            None => line,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The paths a `use` tree names, with braces expanded and renames dropped:
/// `a::{b, c::{d as e}}` -> `a::b`, `a::c::d`.
pub fn use_paths(tree: &str) -> Vec<String> {
    let tree = tree.trim();
    let Some(open) = tree.find('{') else {
        return vec![tree.split(" as ").next().unwrap_or("").trim().to_string()];
    };
    let close = tree.rfind('}').unwrap_or(tree.len());
    let (prefix, inner) = (&tree[..open], &tree[open + 1..close.max(open + 1)]);
    // Split the group at its top-level commas.
    let (mut parts, mut depth, mut start) = (vec![], 0, 0);
    for (i, c) in inner.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(&inner[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&inner[start..]);
    parts
        .into_iter()
        .filter(|p| !p.trim().is_empty())
        .flat_map(|p| use_paths(p).into_iter().map(|s| format!("{prefix}{s}")))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_use_tree_expands_to_its_paths() {
        assert_eq!(
            use_paths("super::{a::{b, c as d}, e}"),
            ["super::a::b", "super::a::c", "super::e"]
        );
        assert_eq!(use_paths("crate::x as y"), ["crate::x"]);
    }

    #[test]
    fn comments_are_left_out() {
        assert_eq!(
            without_comments("use a; // see crate::b\n//! crate::c"),
            "use a; \n"
        );
    }
}
