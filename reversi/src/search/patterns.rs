//! The learned evaluation: pattern (n-tuple) tables by game phase, after Buro (1998, "From
//! simple features to sophisticated evaluation functions") and Logistello/Edax.
//!
//! A pattern is an ordered list of squares; its index on a board is the base-3 number of its
//! squares (0 empty, 1 the side to move's, 2 the other side's). The board holds every image
//! of a pattern under its 8 symmetries (rotations, reflections): the edge with both X-squares
//! (10 squares), the 3x3 and 2x5 corners, the 2nd, 3rd and 4th rows and columns, and the
//! diagonals of 4 to 8 squares: [`PATTERNS`], 46 instances in all. Every instance of a pattern
//! shares one table, and an index and its mirror image (when a symmetry maps the pattern onto
//! itself) share one weight, so the evaluation is the same under all 8 symmetries. Each phase
//! ([`STAGE_EMPTIES`] empties wide) has its own tables, plus a weight per move of mobility
//! difference and a constant; the score is their sum, in hundredths of a disc of final margin
//! for the side to move.
//!
//! The tables are fitted by `reversi train fit` ([`crate::learned`]) and ship inside the
//! binary ([`builtin`], one set per rule set), in the [`Tables::parse`] format: a header that names the layout and a
//! checksum of the weights, checked at start-up; `REVERSI_PATTERNS` names another file for
//! experiments ([`crate::settings`]).

use std::fmt;
use std::sync::OnceLock;

use crate::bitboard;
use crate::position::{Position, Rule};

/// The patterns, each an ordered list of (row, column) squares.
pub const PATTERNS: [&[(u8, u8)]; 11] = [
    // The edge with both X-squares.
    &[
        (0, 0),
        (0, 1),
        (0, 2),
        (0, 3),
        (0, 4),
        (0, 5),
        (0, 6),
        (0, 7),
        (1, 1),
        (1, 6),
    ],
    // The 3x3 corner.
    &[
        (0, 0),
        (0, 1),
        (0, 2),
        (1, 0),
        (1, 1),
        (1, 2),
        (2, 0),
        (2, 1),
        (2, 2),
    ],
    // The 2x5 corner.
    &[
        (0, 0),
        (0, 1),
        (0, 2),
        (0, 3),
        (0, 4),
        (1, 0),
        (1, 1),
        (1, 2),
        (1, 3),
        (1, 4),
    ],
    // The second, third and fourth rows.
    &[
        (1, 0),
        (1, 1),
        (1, 2),
        (1, 3),
        (1, 4),
        (1, 5),
        (1, 6),
        (1, 7),
    ],
    &[
        (2, 0),
        (2, 1),
        (2, 2),
        (2, 3),
        (2, 4),
        (2, 5),
        (2, 6),
        (2, 7),
    ],
    &[
        (3, 0),
        (3, 1),
        (3, 2),
        (3, 3),
        (3, 4),
        (3, 5),
        (3, 6),
        (3, 7),
    ],
    // The diagonals of 8, 7, 6, 5 and 4 squares.
    &[
        (0, 0),
        (1, 1),
        (2, 2),
        (3, 3),
        (4, 4),
        (5, 5),
        (6, 6),
        (7, 7),
    ],
    &[(0, 1), (1, 2), (2, 3), (3, 4), (4, 5), (5, 6), (6, 7)],
    &[(0, 2), (1, 3), (2, 4), (3, 5), (4, 6), (5, 7)],
    &[(0, 3), (1, 4), (2, 5), (3, 6), (4, 7)],
    &[(0, 4), (1, 5), (2, 6), (3, 7)],
];

/// Empties per phase: 5 gives 13 phases (0-4 empties, ..., 60), so that each has data from
/// a few hundred thousand positions of a run of tens of thousands of games.
pub const STAGE_EMPTIES: u32 = 5;
/// Phases: empties 0 to 60.
pub const STAGES: usize = 60 / STAGE_EMPTIES as usize + 1;
/// Weights per phase besides the patterns': the mobility difference's and a constant.
pub const SCALARS: usize = 2;

/// The phase of a position with `empties` empty squares.
pub fn stage(empties: u32) -> usize {
    (empties / STAGE_EMPTIES) as usize
}

/// A map of the board onto itself, on (row, column).
type Symmetry = fn(u8, u8) -> (u8, u8);

/// The eight symmetries of the board.
const SYMMETRIES: [Symmetry; 8] = [
    |r, c| (r, c),
    |r, c| (r, 7 - c),
    |r, c| (7 - r, c),
    |r, c| (7 - r, 7 - c),
    |r, c| (c, r),
    |r, c| (7 - c, r),
    |r, c| (c, 7 - r),
    |r, c| (7 - c, 7 - r),
];

/// One pattern's layout: where its instances lie and how its indices share weights.
struct Pattern {
    /// Each instance's squares (bit indices), in the pattern's order.
    instances: Vec<Vec<u8>>,
    /// For each index, the number of its shared weight among the pattern's (dense, from 0).
    shared: Vec<u32>,
    /// Distinct weights.
    weights: usize,
}

impl Pattern {
    fn new(base: &[(u8, u8)]) -> Pattern {
        let len = base.len();
        let mut instances: Vec<Vec<u8>> = Vec::new();
        // Permutations of the pattern's own order that map it onto itself.
        let mut perms: Vec<Vec<usize>> = Vec::new();
        for sym in SYMMETRIES {
            let image: Vec<u8> = base
                .iter()
                .map(|&(r, c)| sym(r, c))
                .map(|(r, c)| r * 8 + c)
                .collect();
            let squares: Vec<u8> = base.iter().map(|&(r, c)| r * 8 + c).collect();
            let same_set = |a: &[u8], b: &[u8]| {
                let (mut a, mut b) = (a.to_vec(), b.to_vec());
                a.sort_unstable();
                b.sort_unstable();
                a == b
            };
            if same_set(&image, &squares) {
                perms.push(
                    image
                        .iter()
                        .map(|s| squares.iter().position(|t| t == s).expect("same set"))
                        .collect(),
                );
            }
            if !instances.iter().any(|i| same_set(i, &image)) {
                instances.push(image);
            }
        }
        let size = 3usize.pow(len as u32);
        let mut shared = vec![u32::MAX; size];
        let mut weights = 0u32;
        for index in 0..size {
            if shared[index] != u32::MAX {
                continue;
            }
            for p in &perms {
                shared[permute(index, p)] = weights;
            }
            weights += 1;
        }
        Pattern {
            instances,
            shared,
            weights: weights as usize,
        }
    }
}

/// `index` with its digits moved: digit `i` of the result is digit `perm[i]` of `index`.
fn permute(index: usize, perm: &[usize]) -> usize {
    let digit = |i: usize| (index / 3usize.pow(i as u32)) % 3;
    perm.iter()
        .rev()
        .fold(0, |acc, &from| acc * 3 + digit(from))
}

/// Every pattern's layout, and where each pattern's weights start in a phase's weights.
pub struct Geometry {
    patterns: Vec<Pattern>,
    /// Start of each pattern's shared weights in a phase's weight list.
    starts: Vec<usize>,
    /// Shared weights per phase, all patterns (without the scalars).
    pattern_weights: usize,
    /// Every instance: its squares and its pattern.
    instances: Vec<(Vec<u8>, usize)>,
    /// Per square, what a disc there adds to each instance's index: (instance, 3^position),
    /// flattened; square `q`'s terms are `terms[term_starts[q]..term_starts[q + 1]]`. Adding
    /// per disc, independent sums, is about twice as fast as folding each instance's squares.
    terms: Vec<(u16, u32)>,
    term_starts: Vec<usize>,
}

impl Geometry {
    /// The layout (computed once).
    pub fn get() -> &'static Geometry {
        static GEOMETRY: OnceLock<Geometry> = OnceLock::new();
        GEOMETRY.get_or_init(|| {
            let patterns: Vec<Pattern> = PATTERNS.iter().map(|p| Pattern::new(p)).collect();
            let mut starts = Vec::new();
            let mut total = 0;
            for p in &patterns {
                starts.push(total);
                total += p.weights;
            }
            let instances: Vec<(Vec<u8>, usize)> = patterns
                .iter()
                .enumerate()
                .flat_map(|(k, p)| p.instances.iter().map(move |i| (i.clone(), k)))
                .collect();
            let (mut terms, mut term_starts) = (Vec::new(), vec![0]);
            for q in 0..64u8 {
                for (k, (squares, _)) in instances.iter().enumerate() {
                    if let Some(i) = squares.iter().position(|&s| s == q) {
                        terms.push((k as u16, 3u32.pow(i as u32)));
                    }
                }
                term_starts.push(terms.len());
            }
            Geometry {
                patterns,
                starts,
                pattern_weights: total,
                instances,
                terms,
                term_starts,
            }
        })
    }

    /// Pattern instances on the board.
    pub fn instances(&self) -> usize {
        self.instances.len()
    }

    /// Weights per phase: the patterns' shared weights, then the [`SCALARS`].
    pub fn weights_per_stage(&self) -> usize {
        self.pattern_weights + SCALARS
    }

    /// The shared weight each instance reads for (`own`, `opp`), as indices into a phase's
    /// weights, into `out` (one per instance).
    pub fn features(&self, own: u64, opp: u64, out: &mut [u32]) {
        let indices = self.indices(own, opp);
        for (slot, ((_, k), &index)) in out.iter_mut().zip(self.instances.iter().zip(&indices)) {
            *slot = (self.starts[*k] + self.patterns[*k].shared[index as usize] as usize) as u32;
        }
    }

    /// Every instance's index for (`own`, `opp`): digit 1 for own discs, 2 for the other's.
    #[inline]
    fn indices(&self, own: u64, opp: u64) -> [u32; INSTANCES] {
        let mut indices = [0u32; INSTANCES];
        for (discs, digit) in [(own, 1), (opp, 2)] {
            let mut m = discs;
            while m != 0 {
                let q = m.trailing_zeros() as usize;
                m &= m - 1;
                for &(k, power) in &self.terms[self.term_starts[q]..self.term_starts[q + 1]] {
                    indices[k as usize] += digit * power;
                }
            }
        }
        indices
    }
}

/// Pattern instances on the board (checked against the layout by a test).
const INSTANCES: usize = 46;

/// The mobility difference the scalar weight multiplies: the side to move's moves (`moves`,
/// the house rule included) minus the other side's.
#[inline]
pub fn mobility(own: u64, opp: u64, moves: u64) -> i32 {
    moves.count_ones() as i32 - bitboard::legal_moves(opp, own).count_ones() as i32
}

/// The file's first bytes: the format's name and version.
pub const MAGIC: &[u8; 8] = b"RVPAT01\n";
/// Header bytes: magic, stages, empties per stage, weights per stage, scalars (u32 each),
/// checksum (u64).
const HEADER_BYTES: usize = 8 + 4 * 4 + 8;

/// FNV-1a, 64 bits: the weights' checksum (a corrupt or truncated file, or one fitted for
/// other patterns, is refused at start-up).
pub fn checksum(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// The fitted tables of every phase, expanded for lookup.
pub struct Tables {
    /// Per phase: every instance's table flattened (pattern tables one after another, each
    /// `3^len` long, so an instance reads `offset + index`).
    full: Vec<Vec<i16>>,
    /// Per phase: the mobility weight and the constant (hundredths of a disc).
    scalars: Vec<[i32; SCALARS]>,
    /// Where each instance's pattern table starts in a phase's `full`.
    offsets: Vec<usize>,
    /// The file's checksum.
    checksum: u64,
}

impl fmt::Debug for Tables {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Tables {{ stages: {}, checksum: {:016x} }}",
            self.full.len(),
            self.checksum
        )
    }
}

impl PartialEq for Tables {
    fn eq(&self, other: &Self) -> bool {
        self.checksum == other.checksum
    }
}

impl Tables {
    /// Writes weights in the file format: `weights` holds, per phase, the shared pattern
    /// weights then the scalars (hundredths of a disc).
    pub fn serialize(weights: &[Vec<i16>]) -> Vec<u8> {
        let g = Geometry::get();
        let mut payload = Vec::new();
        for stage in weights {
            assert_eq!(stage.len(), g.weights_per_stage(), "weights per stage");
            for w in stage {
                payload.extend_from_slice(&w.to_le_bytes());
            }
        }
        let mut out = MAGIC.to_vec();
        for v in [
            weights.len(),
            STAGE_EMPTIES as usize,
            g.weights_per_stage(),
            SCALARS,
        ] {
            out.extend_from_slice(&(v as u32).to_le_bytes());
        }
        out.extend_from_slice(&checksum(&payload).to_le_bytes());
        out.extend_from_slice(&payload);
        out
    }

    /// Reads a weights file: the header must name this build's layout and the checksum must
    /// match the weights; else an error saying what did not match.
    pub fn parse(bytes: &[u8]) -> Result<Tables, String> {
        let g = Geometry::get();
        if bytes.len() < HEADER_BYTES || &bytes[..8] != MAGIC {
            return Err("not a pattern weights file (no RVPAT01 header)".into());
        }
        let u32_at =
            |i: usize| u32::from_le_bytes(bytes[i..i + 4].try_into().expect("4 bytes")) as usize;
        let header = [u32_at(8), u32_at(12), u32_at(16), u32_at(20)];
        let expected = [
            STAGES,
            STAGE_EMPTIES as usize,
            g.weights_per_stage(),
            SCALARS,
        ];
        if header != expected {
            return Err(format!(
                "pattern weights layout {header:?} (stages, empties per stage, weights, scalars) is not this build's {expected:?}"
            ));
        }
        let payload = &bytes[HEADER_BYTES..];
        if payload.len() != STAGES * g.weights_per_stage() * 2 {
            return Err(format!(
                "pattern weights: {} bytes of weights, expected {}",
                payload.len(),
                STAGES * g.weights_per_stage() * 2
            ));
        }
        let stored = u64::from_le_bytes(bytes[24..32].try_into().expect("8 bytes"));
        let actual = checksum(payload);
        if stored != actual {
            return Err(format!(
                "pattern weights: checksum mismatch (header {stored:016x}, weights {actual:016x})"
            ));
        }
        let values: Vec<i16> = payload
            .chunks_exact(2)
            .map(|c| i16::from_le_bytes([c[0], c[1]]))
            .collect();
        Ok(Tables::expand(&values, actual))
    }

    /// The lookup tables from the per-phase shared weights.
    fn expand(values: &[i16], checksum: u64) -> Tables {
        let g = Geometry::get();
        let mut pattern_offsets = Vec::new();
        let mut len = 0;
        for p in &g.patterns {
            pattern_offsets.push(len);
            len += p.shared.len();
        }
        let (mut full, mut scalars) = (Vec::new(), Vec::new());
        for stage in values.chunks_exact(g.weights_per_stage()) {
            let mut table = Vec::with_capacity(len);
            for (p, start) in g.patterns.iter().zip(&g.starts) {
                table.extend(p.shared.iter().map(|&s| stage[start + s as usize]));
            }
            full.push(table);
            let s = &stage[g.pattern_weights..];
            scalars.push([i32::from(s[0]), i32::from(s[1])]);
        }
        let offsets = g
            .instances
            .iter()
            .map(|(_, k)| pattern_offsets[*k])
            .collect();
        Tables {
            full,
            scalars,
            offsets,
            checksum,
        }
    }

    /// The weights file's checksum.
    pub fn checksum(&self) -> u64 {
        self.checksum
    }

    /// The score of `pos` (not over) for the side to move, in hundredths of a disc, given
    /// `moves`, its [`Position::move_mask`].
    pub fn evaluate(&self, pos: &Position, moves: u64) -> i32 {
        let (own, opp) = (pos.own(), pos.opp());
        let s = stage(pos.empties());
        let table = &self.full[s];
        let indices = Geometry::get().indices(own, opp);
        let mut sum = 0i32;
        for (&offset, &index) in self.offsets.iter().zip(&indices) {
            sum += i32::from(table[offset + index as usize]);
        }
        let [mobility_weight, constant] = self.scalars[s];
        sum + mobility_weight * mobility(own, opp, moves) + constant
    }
}

/// The tables that ship inside the binary, one set per rule set (fitted by
/// `scripts/reversi-train.sh` on each rule's own games: the house rule changes which shapes
/// are safe, so it gets tables of its own).
const BUILTIN_STANDARD: &[u8] = include_bytes!("../../weights/standard.bin");
/// The `no-adjacent` rule set's tables (see [`BUILTIN_STANDARD`]).
const BUILTIN_NO_ADJACENT: &[u8] = include_bytes!("../../weights/no-adjacent.bin");

/// The built-in tables of `rule`, checked once; the error names the file and what did not
/// match.
pub fn builtin(rule: Rule) -> Result<&'static Tables, String> {
    static TABLES: [OnceLock<Result<Tables, String>>; 2] = [OnceLock::new(), OnceLock::new()];
    let (slot, bytes, name) = match rule {
        Rule::Standard => (0, BUILTIN_STANDARD, "standard"),
        Rule::NoAdjacent => (1, BUILTIN_NO_ADJACENT, "no-adjacent"),
    };
    TABLES[slot]
        .get_or_init(|| Tables::parse(bytes).map_err(|e| format!("built-in {name} {e}")))
        .as_ref()
        .map_err(Clone::clone)
}

/// The tables the `learned` engine scores with, one set per rule set; the position's rule
/// picks them, so one engine plays either rule.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ByRule {
    /// For [`Rule::Standard`].
    pub standard: &'static Tables,
    /// For [`Rule::NoAdjacent`].
    pub no_adjacent: &'static Tables,
}

impl ByRule {
    /// The built-in tables of both rule sets, checked.
    pub fn builtin() -> Result<ByRule, String> {
        Ok(ByRule {
            standard: builtin(Rule::Standard)?,
            no_adjacent: builtin(Rule::NoAdjacent)?,
        })
    }

    /// One set for both rule sets (an experiment's `REVERSI_PATTERNS`).
    pub fn same(tables: &'static Tables) -> ByRule {
        ByRule {
            standard: tables,
            no_adjacent: tables,
        }
    }

    /// The tables of `rule`.
    #[inline]
    pub fn get(&self, rule: Rule) -> &'static Tables {
        match rule {
            Rule::Standard => self.standard,
            Rule::NoAdjacent => self.no_adjacent,
        }
    }

    /// The score of `pos` (not over) by its rule's tables ([`Tables::evaluate`]).
    #[inline]
    pub fn evaluate(&self, pos: &Position, moves: u64) -> i32 {
        self.get(pos.rule()).evaluate(pos, moves)
    }
}

/// Tables read from the file at `path` (for experiments), kept for the program's life.
pub fn load(path: &str) -> Result<&'static Tables, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{path}: {e}"))?;
    let tables = Tables::parse(&bytes).map_err(|e| format!("{path}: {e}"))?;
    Ok(Box::leak(Box::new(tables)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::Color;

    #[test]
    fn layout_has_46_instances_and_halved_tables() {
        let g = Geometry::get();
        assert_eq!(g.instances(), INSTANCES);
        assert_eq!(INSTANCES, 46);
        // The edge has a mirror symmetry: about half its 3^10 indices share a weight.
        let edge = &g.patterns[0];
        assert_eq!(edge.weights, (59049 + 243) / 2);
        // The 2x5 corner has none.
        assert_eq!(g.patterns[2].weights, 59049);
    }

    #[test]
    fn the_evaluation_is_the_same_under_the_eight_symmetries() {
        let mut values: Vec<i16> = Vec::new();
        let g = Geometry::get();
        // Arbitrary weights: a symmetric evaluation must come from the layout, not the data.
        for i in 0..STAGES * g.weights_per_stage() {
            values.push(((i * 7919) % 2001) as i16 - 1000);
        }
        let tables = Tables::expand(&values, 0);
        let own = 0x0000_3c1c_0c04_0301u64;
        let opp = 0x0081_4020_1008_0400u64 & !own;
        let transform = |b: u64, sym: Symmetry| {
            (0..64u8).filter(|i| b >> i & 1 == 1).fold(0u64, |acc, i| {
                let (r, c) = sym(i / 8, i % 8);
                acc | 1 << (r * 8 + c)
            })
        };
        let eval = |own, opp| {
            let pos = Position::from_parts(own, opp, Color::Black, None, Rule::Standard).unwrap();
            tables.evaluate(&pos, pos.move_mask())
        };
        let reference = eval(own, opp);
        for sym in SYMMETRIES {
            assert_eq!(eval(transform(own, sym), transform(opp, sym)), reference);
        }
    }

    #[test]
    fn the_checksum_and_the_header_are_checked() {
        let g = Geometry::get();
        let weights: Vec<Vec<i16>> = (0..STAGES)
            .map(|s| vec![s as i16; g.weights_per_stage()])
            .collect();
        let mut bytes = Tables::serialize(&weights);
        assert!(Tables::parse(&bytes).is_ok());
        let last = bytes.len() - 1;
        bytes[last] ^= 1;
        assert!(
            Tables::parse(&bytes)
                .unwrap_err()
                .contains("checksum mismatch")
        );
        bytes[last] ^= 1;
        bytes[8] += 1;
        assert!(Tables::parse(&bytes).unwrap_err().contains("layout"));
        assert!(Tables::parse(b"RVPAT01").unwrap_err().contains("header"));
        assert!(ByRule::builtin().is_ok());
    }
}
