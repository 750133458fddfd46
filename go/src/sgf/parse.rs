//! The SGF reader: bytes to game trees (FF\[4\] section 2, the EBNF).
//!
//! Lenient where real files are sloppy and the meaning is clear: anything before the first
//! `(;` (a byte-order mark, mail headers) and after the last game tree is ignored; any byte
//! up to the space (tabs, line breaks, other control characters) is white space between
//! tokens; FF\[3\]-style identifiers with lower-case letters (`AddBlack`) keep their
//! upper-case letters (`AB`). Strict where the structure would be guessed: an unclosed tree
//! or value, a property without a value, an empty sequence or a node after a variation is an
//! error at its byte offset.
//!
//! Text is UTF-8 when the whole input is; otherwise each byte is read as ISO-8859-1 (the
//! FF\[4\] default character set, CA), which loses nothing.

use super::error::{SgfError, SgfErrorKind};
use super::tree::{GameTree, Node, NodeId, Property};
use super::value::Value;

/// Reads every game tree of an SGF collection.
pub fn parse(input: &[u8]) -> Result<Vec<GameTree>, SgfError> {
    let mut reader = Reader {
        bytes: input,
        pos: 0,
        utf8: std::str::from_utf8(input).is_ok(),
    };
    reader.pos = first_tree(input).ok_or(SgfError {
        offset: 0,
        kind: SgfErrorKind::NoGameTree,
    })?;
    let mut trees = vec![reader.game_tree()?];
    loop {
        reader.skip_white();
        if reader.peek() != Some(b'(') {
            return Ok(trees);
        }
        trees.push(reader.game_tree()?);
    }
}

/// The offset of the first `(` followed (after white space) by `;`.
fn first_tree(bytes: &[u8]) -> Option<usize> {
    (0..bytes.len()).find(|&i| {
        bytes[i] == b'('
            && bytes[i + 1..]
                .iter()
                .find(|&&b| !is_white(b))
                .is_some_and(|&b| b == b';')
    })
}

fn is_white(b: u8) -> bool {
    b <= b' ' || b == 0x7f
}

/// One level of open parentheses while reading a game tree.
struct Level {
    /// Offset of the `(`.
    open: usize,
    /// The node the next node attaches to (`None` before the root).
    attach: Option<NodeId>,
    /// A node has been read at this level.
    has_nodes: bool,
    /// A variation has been opened at this level.
    has_variations: bool,
}

struct Reader<'a> {
    bytes: &'a [u8],
    pos: usize,
    utf8: bool,
}

impl Reader<'_> {
    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }

    fn skip_white(&mut self) {
        while self.peek().is_some_and(is_white) {
            self.pos += 1;
        }
    }

    fn error(&self, offset: usize, kind: SgfErrorKind) -> SgfError {
        SgfError { offset, kind }
    }

    /// Reads one game tree starting at its `(`, variations by an explicit stack.
    fn game_tree(&mut self) -> Result<GameTree, SgfError> {
        let mut tree: Option<GameTree> = None;
        let mut stack = vec![Level {
            open: self.pos,
            attach: None,
            has_nodes: false,
            has_variations: false,
        }];
        self.pos += 1;
        loop {
            self.skip_white();
            let at = self.pos;
            let Some(level) = stack.last_mut() else {
                unreachable!("the loop returns when the outer level closes");
            };
            match self.peek() {
                None => return Err(self.error(level.open, SgfErrorKind::UnclosedTree)),
                Some(b';') => {
                    if level.has_variations {
                        return Err(self.error(at, SgfErrorKind::NodeAfterVariation));
                    }
                    self.pos += 1;
                    let node = self.node()?;
                    let level = stack.last_mut().expect("still open");
                    let id = match (level.attach, tree.as_mut()) {
                        (Some(parent), Some(tree)) => tree.add_child(parent, node),
                        _ => {
                            let root = GameTree::new(node);
                            let id = root.root();
                            tree = Some(root);
                            id
                        }
                    };
                    level.attach = Some(id);
                    level.has_nodes = true;
                }
                Some(b'(') => {
                    if !level.has_nodes {
                        return Err(self.error(level.open, SgfErrorKind::EmptySequence));
                    }
                    level.has_variations = true;
                    let attach = level.attach;
                    stack.push(Level {
                        open: at,
                        attach,
                        has_nodes: false,
                        has_variations: false,
                    });
                    self.pos += 1;
                }
                Some(b')') => {
                    if !level.has_nodes {
                        return Err(self.error(level.open, SgfErrorKind::EmptySequence));
                    }
                    stack.pop();
                    self.pos += 1;
                    if stack.is_empty() {
                        return Ok(tree.expect("a closed level has nodes"));
                    }
                }
                Some(found) => {
                    return Err(self.error(
                        at,
                        SgfErrorKind::Unexpected {
                            found,
                            expected: "';', '(' or ')'",
                        },
                    ));
                }
            }
        }
    }

    /// Reads the properties of a node (after its `;`).
    fn node(&mut self) -> Result<Node, SgfError> {
        let mut node = Node::new();
        loop {
            self.skip_white();
            match self.peek() {
                Some(b) if b.is_ascii_alphabetic() => node.properties.push(self.property()?),
                _ => return Ok(node),
            }
        }
    }

    fn property(&mut self) -> Result<Property, SgfError> {
        let start = self.pos;
        while self.peek().is_some_and(|b| b.is_ascii_alphabetic()) {
            self.pos += 1;
        }
        let ident: String = self.bytes[start..self.pos]
            .iter()
            .filter(|b| b.is_ascii_uppercase())
            .map(|&b| b as char)
            .collect();
        if ident.is_empty() {
            return Err(self.error(start, SgfErrorKind::LowercaseIdent));
        }
        let mut values = Vec::new();
        loop {
            self.skip_white();
            if self.peek() != Some(b'[') {
                break;
            }
            values.push(self.value()?);
        }
        if values.is_empty() {
            return Err(self.error(self.pos, SgfErrorKind::MissingValue));
        }
        Ok(Property { ident, values })
    }

    /// Reads one `[...]`, escapes kept.
    fn value(&mut self) -> Result<Value, SgfError> {
        let open = self.pos;
        let start = open + 1;
        let mut i = start;
        loop {
            match self.bytes.get(i) {
                None => return Err(self.error(open, SgfErrorKind::UnterminatedValue)),
                Some(b'\\') => i += 2,
                Some(b']') => break,
                Some(_) => i += 1,
            }
        }
        self.pos = i + 1;
        Ok(Value::from_raw_unchecked(self.text(&self.bytes[start..i])))
    }

    /// Bytes of a value as text: UTF-8 when the input is, ISO-8859-1 otherwise.
    fn text(&self, bytes: &[u8]) -> String {
        if self.utf8 {
            // The input is UTF-8 and the value is cut at ASCII brackets: still UTF-8.
            String::from_utf8_lossy(bytes).into_owned()
        } else {
            bytes.iter().map(|&b| b as char).collect()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(input: &str) -> SgfError {
        parse(input.as_bytes()).unwrap_err()
    }

    #[test]
    fn reads_the_spec_example_tree_in_pre_order() {
        let text =
            "(;FF[4]C[root](;C[a];C[b](;C[c])\n(;C[d];C[e]))\n(;C[f](;C[g];C[h];C[i])\n(;C[j])))";
        let trees = parse(text.as_bytes()).unwrap();
        assert_eq!(trees.len(), 1);
        let tree = &trees[0];
        let names: Vec<String> = tree
            .ids()
            .map(|id| tree.node(id).value("C").unwrap().text())
            .collect();
        // FF[4] section 1: "root=0, a=1, b=2, c=3, d=4, e=5, f=6, g=7, h=8, i=9 and j=10".
        assert_eq!(
            names,
            ["root", "a", "b", "c", "d", "e", "f", "g", "h", "i", "j"]
        );
        let c = |id: NodeId| tree.node(id).value("C").unwrap().text();
        let main: Vec<String> = tree.main_line().into_iter().map(c).collect();
        assert_eq!(main, ["root", "a", "b", "c"]);
        let root_children: Vec<String> =
            tree.children(tree.root()).iter().map(|&id| c(id)).collect();
        assert_eq!(root_children, ["a", "f"]);
    }

    #[test]
    fn white_space_lowercase_identifiers_and_junk_around_trees() {
        let text = "\u{feff}Subject: a game\n\n (\n ; AddBlack [aa]\n [bb] CoPyright[x]\t;W[cc] ) trailing";
        let trees = parse(text.as_bytes()).unwrap();
        let tree = &trees[0];
        let root = tree.node(tree.root());
        assert_eq!(root.properties[0].ident, "AB");
        assert_eq!(root.properties[0].values.len(), 2);
        assert_eq!(root.properties[1].ident, "CP");
        assert_eq!(tree.len(), 2);
    }

    #[test]
    fn a_collection_keeps_every_tree() {
        let trees = parse(b"(;GM[1];B[aa])\n(;GM[1];W[bb];B[cc])").unwrap();
        assert_eq!(trees.len(), 2);
        assert_eq!(trees[1].len(), 3);
    }

    #[test]
    fn latin1_input_keeps_every_byte() {
        let trees = parse(b"(;C[caf\xe9])").unwrap();
        assert_eq!(
            trees[0].node(trees[0].root()).value("C").unwrap().text(),
            "caf\u{e9}"
        );
    }

    #[test]
    fn errors_name_what_and_where() {
        assert_eq!(err("no tree here").kind, SgfErrorKind::NoGameTree);
        assert_eq!(err("(x;B[aa])").kind, SgfErrorKind::NoGameTree);
        let e = err("(;B[aa]");
        assert_eq!((e.offset, e.kind), (0, SgfErrorKind::UnclosedTree));
        let e = err("(;B[aa](;W[bb])");
        assert_eq!((e.offset, e.kind), (0, SgfErrorKind::UnclosedTree));
        let e = err("(;B[aa](;W[bb]");
        assert_eq!((e.offset, e.kind), (7, SgfErrorKind::UnclosedTree));
        let e = err("(;C[abc\\]");
        assert_eq!((e.offset, e.kind), (3, SgfErrorKind::UnterminatedValue));
        let e = err("(;C[abc\\");
        assert_eq!((e.offset, e.kind), (3, SgfErrorKind::UnterminatedValue));
        let e = err("(;B[aa]W)");
        assert_eq!((e.offset, e.kind), (8, SgfErrorKind::MissingValue));
        let e = err("(;B[aa]add[bb])");
        assert_eq!((e.offset, e.kind), (7, SgfErrorKind::LowercaseIdent));
        let e = err("(;B[aa]())");
        assert_eq!((e.offset, e.kind), (7, SgfErrorKind::EmptySequence));
        let e = err("(;B[aa](;W[bb]);W[cc])");
        assert_eq!((e.offset, e.kind), (15, SgfErrorKind::NodeAfterVariation));
        let e = err("(;B[aa]?)");
        assert_eq!(
            (e.offset, e.kind),
            (
                7,
                SgfErrorKind::Unexpected {
                    found: b'?',
                    expected: "';', '(' or ')'"
                }
            )
        );
        // A broken second tree is an error too, at its own offset.
        let e = err("(;B[aa]) (;W[bb]");
        assert_eq!((e.offset, e.kind), (9, SgfErrorKind::UnclosedTree));
        assert_eq!(
            err("(;B[aa]?)").to_string(),
            "SGF error at byte 7: expected ';', '(' or ')', found '?'"
        );
    }

    #[test]
    fn deep_nesting_needs_no_stack() {
        let depth = 200_000;
        let mut text = String::from("(;FF[4]");
        for _ in 0..depth {
            text.push_str("(;B[aa]");
        }
        text.push_str(&")".repeat(depth + 1));
        let trees = parse(text.as_bytes()).unwrap();
        assert_eq!(trees[0].len(), depth + 1);
        assert_eq!(trees[0].main_line().len(), depth + 1);
    }
}
