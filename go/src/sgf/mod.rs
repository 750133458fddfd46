//! SGF, the Smart Game Format, file format FF\[4\] (<https://red-bean.com/sgf/sgf4.html>): a
//! reader into a game tree, a writer back to text, and the Go game record on top of both.
//!
//! - [`parse`] reads a *Collection* as section 2 of the FF\[4\] specification defines it (the
//!   EBNF: `Collection = GameTree { GameTree }`, `GameTree = "(" Sequence { GameTree } ")"`,
//!   `Sequence = Node { Node }`, `Node = ";" { Property }`, `Property = PropIdent PropValue
//!   { PropValue }`, white space allowed between tokens). Every game tree of a collection is
//!   kept, every node with its properties in file order, every variation. Property values are
//!   kept as written ([`Value`]), so a tree read, written and read again is the same tree.
//! - [`Value`] decodes the property value types of section 3 (SimpleText and Text with `\`
//!   escapes and soft line breaks, Number, Real, Compose) and builds values that escape what
//!   must be escaped.
//! - [`write_collection`] and [`write_tree`] write trees back.
//! - [`record`] extracts a Go game (FF\[4\] Go properties: SZ, KM, HA, AB/AW/AE, PL, B/W, RE)
//!   and builds an SGF from one.
//!
//! The reader is made for real files and for hostile input: it never panics, it reports the
//! byte offset of what it could not read, and it nests variations without recursion (a tree
//! is an arena of nodes), so no input can exhaust the stack.

mod error;
mod parse;
pub mod record;
mod tree;
mod value;
mod write;

pub use error::{SgfError, SgfErrorKind};
pub use parse::parse;
pub use tree::{GameTree, Node, NodeId, Property};
pub use value::Value;
pub use write::{write_collection, write_tree};
