//! The SGF writer: game trees back to text.
//!
//! A node with one child continues its sequence (`;B[dd];W[pp]`); a node with several opens
//! one game tree per child (`(;B[dd])(;B[pp])`), as the FF\[4\] EBNF has it. Values are
//! written as they are held ([`Value`](super::Value) keeps them escaped). Lines are broken
//! between nodes to keep them short; the breaks are white space between tokens.

use super::tree::{GameTree, NodeId};

/// Width after which the writer starts a new line before the next node.
const LINE_WIDTH: usize = 72;

/// Writes a collection: each tree on its own lines.
pub fn write_collection(trees: &[GameTree]) -> String {
    let mut out = String::new();
    for tree in trees {
        write_tree_into(tree, &mut out);
    }
    out
}

/// Writes one game tree.
pub fn write_tree(tree: &GameTree) -> String {
    let mut out = String::new();
    write_tree_into(tree, &mut out);
    out
}

/// What is left to write: a variation to open at a node, or a parenthesis to close.
enum Step {
    Open(NodeId),
    Close,
}

fn write_tree_into(tree: &GameTree, out: &mut String) {
    let mut line_start = out.len();
    let mut steps = vec![Step::Close, Step::Open(tree.root())];
    while let Some(step) = steps.pop() {
        match step {
            Step::Close => out.push(')'),
            Step::Open(first) => {
                if out.len() > line_start {
                    out.push('\n');
                    line_start = out.len();
                }
                out.push('(');
                let mut at = first;
                loop {
                    if out.len() - line_start > LINE_WIDTH {
                        out.push('\n');
                        line_start = out.len();
                    }
                    write_node(tree, at, out);
                    if at == tree.root() {
                        out.push('\n');
                        line_start = out.len();
                    }
                    match tree.children(at) {
                        [] => break,
                        [only] => at = *only,
                        several => {
                            for &child in several.iter().rev() {
                                steps.push(Step::Close);
                                steps.push(Step::Open(child));
                            }
                            break;
                        }
                    }
                }
            }
        }
    }
    out.push('\n');
}

fn write_node(tree: &GameTree, id: NodeId, out: &mut String) {
    out.push(';');
    for property in &tree.node(id).properties {
        out.push_str(&property.ident);
        for value in &property.values {
            out.push('[');
            out.push_str(value.raw());
            out.push(']');
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::parse;
    use super::*;

    #[test]
    fn sequences_and_variations_are_written_in_the_ebnf_shape() {
        let text = "(;FF[4]C[root](;C[a];C[b](;C[c])(;C[d];C[e]))(;C[f](;C[g];C[h];C[i])(;C[j])))";
        let trees = parse(text.as_bytes()).unwrap();
        let written = write_tree(&trees[0]);
        let compact: String = written.chars().filter(|&c| c != '\n').collect();
        assert_eq!(compact, text);
        assert_eq!(parse(written.as_bytes()).unwrap(), trees);
    }

    #[test]
    fn long_lines_are_broken_between_nodes_only() {
        let mut text = String::from("(;SZ[19]");
        for i in 0..200 {
            let c = (b'a' + (i % 19) as u8) as char;
            text.push_str(&format!(";B[{c}{c}]C[a bracket \\] and a backslash \\\\]"));
        }
        text.push(')');
        let trees = parse(text.as_bytes()).unwrap();
        let written = write_collection(&trees);
        assert!(written.lines().all(|l| l.len() < LINE_WIDTH + 60));
        assert_eq!(parse(written.as_bytes()).unwrap(), trees);
    }
}
