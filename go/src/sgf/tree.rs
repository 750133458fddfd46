//! The game tree: nodes holding properties, linked into variations.
//!
//! A tree is an arena: nodes live in a vector in pre-order (the order of the file, which is
//! the node numbering section 1 of FF\[4\] suggests), each with its parent and children.
//! Nothing walks it recursively, so a tree of any depth is safe to build, compare, write
//! and drop. The first child of a node is the main line, the others are variations.

use super::value::Value;

/// One property: an identifier (upper-case letters, `B`, `AB`, `KM`...) and its values.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Property {
    /// The identifier, upper-case letters only.
    pub ident: String,
    /// The values, in order (at least one when read from a file).
    pub values: Vec<Value>,
}

/// A node: its properties in file order (a file may repeat an identifier; all are kept).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Node {
    /// The properties, in order.
    pub properties: Vec<Property>,
}

impl Node {
    /// A node without properties.
    pub fn new() -> Node {
        Node::default()
    }

    /// The first property named `ident`.
    pub fn get(&self, ident: &str) -> Option<&Property> {
        self.properties.iter().find(|p| p.ident == ident)
    }

    /// The first value of the first property named `ident`.
    pub fn value(&self, ident: &str) -> Option<&Value> {
        self.get(ident).and_then(|p| p.values.first())
    }

    /// Every value of every property named `ident`, in order.
    pub fn values<'a>(&'a self, ident: &'a str) -> impl Iterator<Item = &'a Value> + 'a {
        self.properties
            .iter()
            .filter(move |p| p.ident == ident)
            .flat_map(|p| p.values.iter())
    }

    /// Appends a property (after any of the same name).
    pub fn push(&mut self, ident: &str, values: Vec<Value>) {
        self.properties.push(Property {
            ident: ident.to_string(),
            values,
        });
    }

    /// Appends a property with one value.
    pub fn push_one(&mut self, ident: &str, value: Value) {
        self.push(ident, vec![value]);
    }
}

/// A node's place in its [`GameTree`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct NodeId(usize);

impl NodeId {
    /// The node's number: its position in pre-order, 0 for the root.
    pub fn index(self) -> usize {
        self.0
    }
}

/// A game tree: a root node and its descendants, the first child of each node being the
/// main line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameTree {
    nodes: Vec<Node>,
    parents: Vec<Option<NodeId>>,
    children: Vec<Vec<NodeId>>,
}

impl GameTree {
    /// A tree of one node.
    pub fn new(root: Node) -> GameTree {
        GameTree {
            nodes: vec![root],
            parents: vec![None],
            children: vec![Vec::new()],
        }
    }

    /// The root node's id.
    pub fn root(&self) -> NodeId {
        NodeId(0)
    }

    /// The number of nodes.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Always false: a tree has its root.
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// The node `id`.
    pub fn node(&self, id: NodeId) -> &Node {
        &self.nodes[id.0]
    }

    /// The node `id`, to change its properties.
    pub fn node_mut(&mut self, id: NodeId) -> &mut Node {
        &mut self.nodes[id.0]
    }

    /// The parent of `id` (`None` for the root).
    pub fn parent(&self, id: NodeId) -> Option<NodeId> {
        self.parents[id.0]
    }

    /// The children of `id`, main line first.
    pub fn children(&self, id: NodeId) -> &[NodeId] {
        &self.children[id.0]
    }

    /// Adds `node` as the last child of `parent` and returns its id.
    pub fn add_child(&mut self, parent: NodeId, node: Node) -> NodeId {
        let id = NodeId(self.nodes.len());
        self.nodes.push(node);
        self.parents.push(Some(parent));
        self.children.push(Vec::new());
        self.children[parent.0].push(id);
        id
    }

    /// Copies the subtree of `from` rooted at `subtree` as the last child of `parent`
    /// (without recursion); returns the copy's id. The copied nodes come after the
    /// existing ones, so the ids are no longer in pre-order; a tree written and read again
    /// numbers them afresh.
    pub fn graft(&mut self, parent: NodeId, from: &GameTree, subtree: NodeId) -> NodeId {
        let top = self.add_child(parent, from.node(subtree).clone());
        let mut stack = vec![(subtree, top)];
        while let Some((source, copy)) = stack.pop() {
            for &child in from.children(source) {
                let id = self.add_child(copy, from.node(child).clone());
                stack.push((child, id));
            }
        }
        top
    }

    /// The main line: the root, its first child, that node's first child, and so on.
    pub fn main_line(&self) -> Vec<NodeId> {
        let mut line = vec![self.root()];
        let mut at = self.root();
        while let Some(&next) = self.children(at).first() {
            line.push(next);
            at = next;
        }
        line
    }

    /// Every node id, in pre-order.
    pub fn ids(&self) -> impl Iterator<Item = NodeId> {
        (0..self.nodes.len()).map(NodeId)
    }
}
