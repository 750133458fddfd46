//! A Go game as SGF records it: read from a game tree's main line, and built into one.
//!
//! The Go properties are those of the FF\[4\] Go page (<https://red-bean.com/sgf/go.html>)
//! and the general property list (<https://red-bean.com/sgf/properties.html>):
//! - root: `GM[1]` (Go; another game is refused), `SZ` (a Number, or `n:n`; 2..=25 here,
//!   19 when absent), `KM` (Real), `HA` (Number), `RE`, `PB`, `PW`, `DT`, `RU`, `GN`
//!   (SimpleText), `C` (Text);
//! - setup: `AB`, `AW`, `AE` (lists of points, compressed `aa:cc` rectangles allowed), `PL`;
//!   accepted in the nodes before the first move, refused after it; one point in both `AB`
//!   and `AW` of one node (`AB[ee]AW[ee]`) is refused, as FF\[4\] forbids it (an `AE` that
//!   clears a point of the node's own `AB`/`AW` is read in file order);
//! - moves: `B`, `W`; `[]` is a pass, and so is `[tt]` on boards up to 19x19 (FF\[3\]);
//!   `C` on a move node is the move's comment.
//!
//! Points are two letters, `a` = 0 from the left and from the top: [`Point`]'s own axes.
//! The written record is FF\[4\] with `CA[UTF-8]`, `AP[go-engine:version]` and passes as
//! `[]`; a resignation is no node but the result (`RE[W+R]`).

use std::fmt;

use super::error::SgfError;
use super::parse::parse;
use super::tree::{GameTree, Node, NodeId};
use super::value::Value;
use super::write::write_tree;
use crate::point::{Color, MAX_SIZE, MIN_SIZE, Move, Point};

/// One move of the main line.
#[derive(Clone, Debug, PartialEq)]
pub struct RecordedMove {
    /// Who played it.
    pub color: Color,
    /// The move (a resignation is only written as the result).
    pub mv: Move,
    /// The move's comment (`C`), e.g. the engine's search statistics.
    pub comment: Option<String>,
}

/// A Go game: the board, the setup, the main line of moves and the game information.
#[derive(Clone, Debug, PartialEq)]
pub struct GameRecord {
    /// Board side (`SZ`).
    pub size: usize,
    /// Komi (`KM`), when the file gives it.
    pub komi: Option<f64>,
    /// Number of handicap stones (`HA`); the stones themselves are in `setup`.
    pub handicap: usize,
    /// Stones on the board before the first move (`AB`/`AW`, less `AE`), in file order.
    pub setup: Vec<(Color, Point)>,
    /// Who plays first after the setup (`PL`), when the file says.
    pub to_play: Option<Color>,
    /// The main line.
    pub moves: Vec<RecordedMove>,
    /// The result (`RE`), e.g. `B+3.5`, `W+R`, `0` (a draw).
    pub result: Option<String>,
    /// Black's name (`PB`).
    pub black_player: Option<String>,
    /// White's name (`PW`).
    pub white_player: Option<String>,
    /// The date (`DT`).
    pub date: Option<String>,
    /// The rule set (`RU`).
    pub rules: Option<String>,
    /// The root comment (`C`).
    pub comment: Option<String>,
    /// The game's name (`GN`).
    pub game_name: Option<String>,
}

/// Why an SGF text is not a Go game this engine can play.
#[derive(Clone, Debug, PartialEq)]
pub enum RecordError {
    /// The text is not SGF.
    Syntax(SgfError),
    /// `GM` names another game.
    NotGo(String),
    /// `SZ` is not a square board of 2..=25.
    BadSize(String),
    /// A property value of the wrong type or off the board.
    BadValue {
        /// Node number (pre-order, 0 = root).
        node: usize,
        /// The property.
        ident: String,
        /// The value as written.
        value: String,
    },
    /// A node with both a black and a white move.
    BothColors {
        /// Node number.
        node: usize,
    },
    /// A setup property (`AB`, `AW`, `AE`, `PL`) after the first move.
    SetupAfterMoves {
        /// Node number.
        node: usize,
        /// The property.
        ident: String,
    },
    /// One point in both `AB` and `AW` of one node (`AB[ee]AW[ee]`): FF\[4\] forbids it,
    /// and nothing says which colour the file means.
    ConflictingSetup {
        /// Node number.
        node: usize,
        /// The point, as SGF writes it (`ee`).
        point: String,
        /// The two properties (`AB` and `AW`).
        idents: [String; 2],
    },
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RecordError::Syntax(e) => e.fmt(f),
            RecordError::NotGo(gm) => write!(f, "not a game of Go (GM[{gm}])"),
            RecordError::BadSize(sz) => {
                write!(
                    f,
                    "board size SZ[{sz}] is not a square of {MIN_SIZE} to {MAX_SIZE}"
                )
            }
            RecordError::BadValue { node, ident, value } => {
                write!(f, "node {node}: bad value {ident}[{value}]")
            }
            RecordError::BothColors { node } => {
                write!(f, "node {node}: a black and a white move in one node")
            }
            RecordError::SetupAfterMoves { node, ident } => {
                write!(
                    f,
                    "node {node}: setup property {ident} after the first move"
                )
            }
            RecordError::ConflictingSetup {
                node,
                point,
                idents: [a, b],
            } => {
                write!(f, "node {node}: point {point} is in both {a} and {b}")
            }
        }
    }
}

impl std::error::Error for RecordError {}

impl From<SgfError> for RecordError {
    fn from(e: SgfError) -> RecordError {
        RecordError::Syntax(e)
    }
}

/// The two letters of a point (`aa` top left).
pub fn format_point(p: Point) -> String {
    [(b'a' + p.x) as char, (b'a' + p.y) as char]
        .into_iter()
        .collect()
}

/// A point from its two letters, if it lies on a `size` x `size` board.
pub fn parse_point(text: &str, size: usize) -> Option<Point> {
    let &[x, y] = text.as_bytes() else {
        return None;
    };
    let coord = |c: u8| c.is_ascii_lowercase().then(|| usize::from(c - b'a'));
    let (x, y) = (coord(x)?, coord(y)?);
    (x < size && y < size).then(|| Point::new(x, y))
}

/// A move value: `[]` is a pass, and `[tt]` too on boards up to 19.
pub fn parse_move(value: &Value, size: usize) -> Option<Move> {
    let text = value.raw().trim();
    if text.is_empty() || (text == "tt" && size <= 19) {
        return Some(Move::Pass);
    }
    parse_point(text, size).map(Move::Play)
}

/// A list of points: single points and `aa:cc` rectangles (corners in any order).
fn parse_point_list<'a>(
    values: impl Iterator<Item = &'a Value>,
    size: usize,
) -> Result<Vec<Point>, &'a Value> {
    let mut points = Vec::new();
    for value in values {
        let (first, last) = match value.compose() {
            Some((a, b)) => (a.raw().trim().to_string(), b.raw().trim().to_string()),
            None => (
                value.raw().trim().to_string(),
                value.raw().trim().to_string(),
            ),
        };
        let (Some(a), Some(b)) = (parse_point(&first, size), parse_point(&last, size)) else {
            return Err(value);
        };
        for y in a.y.min(b.y)..=a.y.max(b.y) {
            for x in a.x.min(b.x)..=a.x.max(b.x) {
                points.push(Point { x, y });
            }
        }
    }
    Ok(points)
}

/// The error of a bad value of `ident` in node `id`.
fn bad(id: NodeId, ident: &str, value: &Value) -> RecordError {
    RecordError::BadValue {
        node: id.index(),
        ident: ident.to_string(),
        value: value.raw().to_string(),
    }
}

fn parse_color(text: &str) -> Option<Color> {
    match text.trim().to_ascii_uppercase().as_str() {
        "B" | "BLACK" => Some(Color::Black),
        "W" | "WHITE" => Some(Color::White),
        _ => None,
    }
}

fn color_letter(color: Color) -> &'static str {
    match color {
        Color::Black => "B",
        Color::White => "W",
    }
}

impl GameRecord {
    /// An empty game on a `size` board, no komi, no handicap.
    pub fn new(size: usize) -> GameRecord {
        GameRecord {
            size,
            komi: None,
            handicap: 0,
            setup: Vec::new(),
            to_play: None,
            moves: Vec::new(),
            result: None,
            black_player: None,
            white_player: None,
            date: None,
            rules: None,
            comment: None,
            game_name: None,
        }
    }

    /// The first game of an SGF collection (the others are ignored, as players do).
    pub fn from_sgf(input: &[u8]) -> Result<GameRecord, RecordError> {
        let trees = parse(input)?;
        GameRecord::from_tree(&trees[0])
    }

    /// The game on a tree's main line: the game information of the root, then the setup and
    /// the move of each node.
    pub fn from_tree(tree: &GameTree) -> Result<GameRecord, RecordError> {
        let mut game = GameRecord::from_root(tree)?;
        for id in tree.main_line() {
            let node = tree.node(id);
            game.read_setup(id, node)?;
            game.read_move(id, node, id == tree.root())?;
        }
        // Black's stones first, then White's, each in the file's order: the order
        // `to_tree` writes them in (one AB, one AW), so that a record read, written and
        // read again is the same record even when the file's setup spans several nodes.
        game.setup.sort_by_key(|&(color, _)| color != Color::Black);
        Ok(game)
    }

    /// An empty game with the root's game information: game, size, komi, handicap, result,
    /// players, date, rules and comment.
    fn from_root(tree: &GameTree) -> Result<GameRecord, RecordError> {
        let root_id = tree.root();
        let root = tree.node(root_id);
        if let Some(gm) = root.value("GM")
            && gm.number() != Some(1)
        {
            return Err(RecordError::NotGo(gm.raw().to_string()));
        }
        let size = match root.value("SZ") {
            None => 19,
            Some(sz) => board_size(sz).ok_or_else(|| RecordError::BadSize(sz.raw().into()))?,
        };
        let mut game = GameRecord::new(size);
        if let Some(km) = root.value("KM") {
            game.komi = Some(km.real().ok_or_else(|| bad(root_id, "KM", km))?);
        }
        if let Some(ha) = root.value("HA") {
            let n = ha.number().and_then(|n| usize::try_from(n).ok());
            game.handicap = n.ok_or_else(|| bad(root_id, "HA", ha))?;
        }
        let text = |ident: &str| root.value(ident).map(Value::simple_text);
        game.result = text("RE");
        game.black_player = text("PB");
        game.white_player = text("PW");
        game.date = text("DT");
        game.rules = text("RU");
        game.game_name = text("GN");
        game.comment = root.value("C").map(Value::text);
        Ok(game)
    }

    /// The setup of node `id` (`AB`, `AW`, `AE`, `PL`), refused once moves have been played.
    fn read_setup(&mut self, id: NodeId, node: &Node) -> Result<(), RecordError> {
        let after_moves = |ident: &str| RecordError::SetupAfterMoves {
            node: id.index(),
            ident: ident.to_string(),
        };
        // The points of this node's `AB` and `AW`, with the property naming each.
        let mut seen: Vec<(Point, &str)> = Vec::new();
        for (ident, color) in [
            ("AB", Some(Color::Black)),
            ("AW", Some(Color::White)),
            ("AE", None),
        ] {
            if node.get(ident).is_none() {
                continue;
            }
            if !self.moves.is_empty() {
                return Err(after_moves(ident));
            }
            let points =
                parse_point_list(node.values(ident), self.size).map_err(|v| bad(id, ident, v))?;
            let conflict = color.and_then(|_| seen.iter().find(|(q, _)| points.contains(q)));
            if let Some(&(p, other)) = conflict {
                return Err(RecordError::ConflictingSetup {
                    node: id.index(),
                    point: format_point(p),
                    idents: [other.to_string(), ident.to_string()],
                });
            }
            // `AE` may clear a point of this node's `AB`/`AW` (`AW[aa:cc]AE[bb]`, a hole in
            // a rectangle): the FF[4] text forbids it too, but what it means is plain.
            if color.is_some() {
                seen.extend(points.iter().map(|&p| (p, ident)));
            }
            for p in points {
                self.setup.retain(|&(_, q)| q != p);
                if let Some(color) = color {
                    self.setup.push((color, p));
                }
            }
        }
        if let Some(pl) = node.value("PL") {
            if !self.moves.is_empty() {
                return Err(after_moves("PL"));
            }
            self.to_play = Some(parse_color(pl.raw()).ok_or_else(|| bad(id, "PL", pl))?);
        }
        Ok(())
    }

    /// The move of node `id` (`B` or `W`, not both) with its comment (the root's comment is
    /// the game's, not the move's).
    fn read_move(&mut self, id: NodeId, node: &Node, is_root: bool) -> Result<(), RecordError> {
        let played = [("B", Color::Black), ("W", Color::White)]
            .into_iter()
            .filter_map(|(ident, color)| node.value(ident).map(|v| (ident, color, v)))
            .collect::<Vec<_>>();
        match played[..] {
            [] => {}
            [(ident, color, value)] => {
                let mv = parse_move(value, self.size).ok_or_else(|| bad(id, ident, value))?;
                let comment = (!is_root)
                    .then(|| node.value("C").map(Value::text))
                    .flatten();
                self.moves.push(RecordedMove { color, mv, comment });
            }
            _ => return Err(RecordError::BothColors { node: id.index() }),
        }
        Ok(())
    }

    /// The main line as (colour, move) pairs.
    pub fn move_list(&self) -> Vec<(Color, Move)> {
        self.moves.iter().map(|m| (m.color, m.mv)).collect()
    }

    /// The game as a tree: the game information and setup in the root, one node per move.
    pub fn to_tree(&self) -> GameTree {
        let mut root = Node::new();
        root.push_one("FF", Value::from_number(4));
        root.push_one("GM", Value::from_number(1));
        root.push_one("CA", Value::from_text("UTF-8"));
        root.push_one(
            "AP",
            Value::from_compose("go-engine", env!("CARGO_PKG_VERSION")),
        );
        root.push_one("SZ", Value::from_number(self.size as i64));
        if let Some(komi) = self.komi {
            root.push_one("KM", Value::from_real(komi));
        }
        if self.handicap > 0 {
            root.push_one("HA", Value::from_number(self.handicap as i64));
        }
        let resigned = self.moves.iter().find(|m| m.mv == Move::Resign);
        let result = self
            .result
            .clone()
            .or_else(|| resigned.map(|m| format!("{}+R", color_letter(m.color.opponent()))));
        let info = [
            ("GN", &self.game_name),
            ("RU", &self.rules),
            ("PB", &self.black_player),
            ("PW", &self.white_player),
            ("DT", &self.date),
            ("RE", &result),
            ("C", &self.comment),
        ];
        for (ident, text) in info {
            if let Some(text) = text {
                root.push_one(ident, Value::from_text(text));
            }
        }
        for color in [Color::Black, Color::White] {
            let points: Vec<Value> = self
                .setup
                .iter()
                .filter(|&&(c, _)| c == color)
                .map(|&(_, p)| Value::from_text(&format_point(p)))
                .collect();
            if !points.is_empty() {
                root.push(if color == Color::Black { "AB" } else { "AW" }, points);
            }
        }
        if let Some(color) = self.to_play {
            root.push_one("PL", Value::from_text(color_letter(color)));
        }
        let mut tree = GameTree::new(root);
        let mut at = tree.root();
        for m in &self.moves {
            let value = match m.mv {
                Move::Play(p) => Value::from_text(&format_point(p)),
                Move::Pass => Value::empty(),
                Move::Resign => continue,
            };
            let mut node = Node::new();
            node.push_one(color_letter(m.color), value);
            if let Some(comment) = &m.comment {
                node.push_one("C", Value::from_text(comment));
            }
            at = tree.add_child(at, node);
        }
        tree
    }

    /// The game as SGF text.
    pub fn to_sgf(&self) -> String {
        write_tree(&self.to_tree())
    }
}

/// `SZ[n]` or `SZ[n:n]` with n in 2..=25.
fn board_size(value: &Value) -> Option<usize> {
    let n = match value.compose() {
        Some((a, b)) if a.number()? == b.number()? => a.number()?,
        Some(_) => return None,
        None => value.number()?,
    };
    let n = usize::try_from(n).ok()?;
    (MIN_SIZE..=MAX_SIZE).contains(&n).then_some(n)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(s: &str) -> Point {
        parse_point(s, 25).unwrap()
    }

    #[test]
    fn points_are_letters_from_the_top_left() {
        assert_eq!(p("aa"), Point::new(0, 0));
        assert_eq!(p("cb"), Point::new(2, 1));
        assert_eq!(format_point(Point::new(18, 3)), "sd");
        assert_eq!(parse_point("ja", 9), None);
        assert_eq!(parse_point("aj", 9), None);
        assert_eq!(parse_point("ii", 9), Some(Point::new(8, 8)));
        assert_eq!(parse_point("a", 9), None);
        assert_eq!(parse_point("Aa", 9), None);
        assert_eq!(parse_point("aaa", 9), None);
    }

    #[test]
    fn passes_are_empty_or_tt_up_to_19() {
        let v = |s: &str| Value::from_raw(s).unwrap();
        assert_eq!(parse_move(&v(""), 19), Some(Move::Pass));
        assert_eq!(parse_move(&v("tt"), 19), Some(Move::Pass));
        assert_eq!(parse_move(&v("tt"), 9), Some(Move::Pass));
        assert_eq!(
            parse_move(&v("tt"), 21),
            Some(Move::Play(Point::new(19, 19)))
        );
        assert_eq!(parse_move(&v(""), 21), Some(Move::Pass));
        assert_eq!(parse_move(&v("zz"), 19), None);
    }

    #[test]
    fn setup_over_several_nodes_survives_writing() {
        // Found by the fuzz target go_sgf: White's stone came before Black's in the record,
        // and after writing (AB before AW) after it.
        let sgf = b"(;SZ[9]AW[aa];AB[cc];B[ee])";
        let game = GameRecord::from_sgf(sgf).unwrap();
        assert_eq!(
            game.setup,
            [(Color::Black, p("cc")), (Color::White, p("aa"))]
        );
        let again = GameRecord::from_sgf(game.to_sgf().as_bytes()).unwrap();
        assert_eq!(again, game);
    }

    #[test]
    fn reads_setup_moves_and_game_information() {
        let sgf = b"(;GM[1]FF[4]SZ[9]KM[6.5]HA[2]RE[W+R]PB[Black \\] man]PW[White]
            RU[Chinese]DT[2024-01-01]AB[cc][gg]AW[aa:bb]AE[ab]PL[W]C[Root\\
 comment]
            ;W[ee]C[first move]
            ;B[]
            ;C[no move here]
            ;W[tt](;B[dd])(;B[ff]))";
        let game = GameRecord::from_sgf(sgf).unwrap();
        assert_eq!(game.size, 9);
        assert_eq!(game.komi, Some(6.5));
        assert_eq!(game.handicap, 2);
        assert_eq!(game.result.as_deref(), Some("W+R"));
        assert_eq!(game.black_player.as_deref(), Some("Black ] man"));
        assert_eq!(game.rules.as_deref(), Some("Chinese"));
        assert_eq!(game.comment.as_deref(), Some("Root comment"));
        assert_eq!(game.to_play, Some(Color::White));
        let white = [p("aa"), p("ba"), p("bb")].map(|q| (Color::White, q));
        let black = [p("cc"), p("gg")].map(|q| (Color::Black, q));
        let mut expected = black.to_vec();
        expected.extend(white);
        assert_eq!(game.setup, expected);
        assert_eq!(
            game.move_list(),
            [
                (Color::White, Move::Play(p("ee"))),
                (Color::Black, Move::Pass),
                (Color::White, Move::Pass),
                (Color::Black, Move::Play(p("dd"))),
            ]
        );
        assert_eq!(game.moves[0].comment.as_deref(), Some("first move"));
        assert_eq!(game.moves[1].comment, None);
    }

    #[test]
    fn refuses_what_it_cannot_play() {
        let err = |s: &str| GameRecord::from_sgf(s.as_bytes()).unwrap_err();
        assert_eq!(err("(;GM[2])"), RecordError::NotGo("2".into()));
        assert_eq!(err("(;SZ[26])"), RecordError::BadSize("26".into()));
        assert_eq!(err("(;SZ[1])"), RecordError::BadSize("1".into()));
        assert_eq!(err("(;SZ[9:13])"), RecordError::BadSize("9:13".into()));
        assert_eq!(
            err("(;SZ[9];B[jj])"),
            RecordError::BadValue {
                node: 1,
                ident: "B".into(),
                value: "jj".into()
            }
        );
        assert_eq!(err("(;B[aa]W[bb])"), RecordError::BothColors { node: 0 });
        assert_eq!(
            err("(;B[aa];AB[bb])"),
            RecordError::SetupAfterMoves {
                node: 1,
                ident: "AB".into()
            }
        );
        assert_eq!(
            err("(;SZ[9]AB[cc][ee]AW[ee])"),
            RecordError::ConflictingSetup {
                node: 0,
                point: "ee".into(),
                idents: ["AB".into(), "AW".into()]
            }
        );
        assert_eq!(
            err("(;SZ[9];AW[aa:cc]AB[bb])").to_string(),
            "node 1: point bb is in both AB and AW"
        );
        // Across nodes a later property replaces an earlier one, as FF[4] has it.
        assert!(GameRecord::from_sgf(b"(;SZ[9]AB[ee];AW[ee])").is_ok());
        assert!(matches!(err("(;KM[seven])"), RecordError::BadValue { .. }));
        assert!(matches!(err("(;HA[-1])"), RecordError::BadValue { .. }));
        assert!(matches!(err("(;PL[X])"), RecordError::BadValue { .. }));
        assert!(matches!(err("(;AB[aa:zz])"), RecordError::BadValue { .. }));
        assert!(matches!(err("(;B[aa]"), RecordError::Syntax(_)));
        assert_eq!(GameRecord::from_sgf(b"(;SZ[13:13])").unwrap().size, 13);
        assert_eq!(GameRecord::from_sgf(b"(;FF[4])").unwrap().size, 19);
    }

    #[test]
    fn a_built_game_reads_back_as_itself() {
        let mut game = GameRecord::new(9);
        game.komi = Some(7.5);
        game.handicap = 2;
        game.setup = vec![(Color::Black, p("cg")), (Color::Black, p("gc"))];
        game.to_play = Some(Color::White);
        game.black_player = Some("gnugo [level 1]".into());
        game.white_player = Some("go-engine".into());
        game.date = Some("2024-05-01".into());
        game.rules = Some("Chinese".into());
        game.game_name = Some("a [named] game".into());
        game.comment = Some("root\ncomment".into());
        game.moves = vec![
            RecordedMove {
                color: Color::White,
                mv: Move::Play(p("ee")),
                comment: Some("playouts 1000\nwin rate 0.52\npv E5 D4 [x]\\".into()),
            },
            RecordedMove {
                color: Color::Black,
                mv: Move::Pass,
                comment: None,
            },
        ];
        let text = game.to_sgf();
        assert!(text.contains("AP[go-engine:"), "{text}");
        assert!(text.contains(";B[]"), "{text}");
        assert_eq!(GameRecord::from_sgf(text.as_bytes()).unwrap(), game);

        game.moves.push(RecordedMove {
            color: Color::White,
            mv: Move::Resign,
            comment: None,
        });
        let back = GameRecord::from_sgf(game.to_sgf().as_bytes()).unwrap();
        assert_eq!(back.result.as_deref(), Some("B+R"));
        assert_eq!(back.moves.len(), 2);
    }
}
