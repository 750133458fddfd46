//! The move-prediction model: how likely a strong player is to play each legal move, learned
//! from game records. It is Coulom's generalized Bradley-Terry model (2007, "Computing Elo
//! Ratings of Move Patterns in the Game of Go"): each candidate move is a team of features
//! ([`features`]: its largest known spatial pattern, captures, ataris, escapes, self-ataris,
//! ladders, the distances to the last two moves, the line), each feature has a strength γ,
//! a team's strength is the product of its members', and the move played wins among the
//! legal moves with probability `γ(move) / Σ γ(candidates)`. The strengths are fitted by
//! minorization-maximization ([`train`]) and kept here as `ln γ`.
//!
//! The search uses the model for its priors and progressive widening (`crate::search`).
//! The weights ship inside the binary ([`shipped`]); `GO_MODEL=FILE` loads another file.

pub mod features;
pub mod ladder;
pub mod pattern;
pub mod records;
pub mod train;
mod weights;

use std::path::Path;
use std::sync::{Arc, OnceLock};

use crate::board::Board;
use crate::point::Color;
pub use features::{Dictionary, Extractor, Features, GROUPS, Recent};
pub use weights::{MAX_MODEL_BYTES, ModelError};

/// The model: the feature extractor and the weight (`ln γ`) of every value of every group.
#[derive(Debug)]
pub struct Model {
    extractor: Extractor,
    /// Per group, the weight of each value.
    weights: [Vec<f32>; GROUPS],
}

impl Model {
    /// A model from a dictionary of patterns (value `1 + k` for the `k`-th key) and weights
    /// per group; the pattern group's weights must number the dictionary's keys plus one.
    pub fn new(keys: &[u64], weights: [Vec<f32>; GROUPS]) -> Result<Model, ModelError> {
        if weights[0].len() != keys.len() + 1 {
            return Err(ModelError::Shape(format!(
                "{} pattern weights for {} patterns",
                weights[0].len(),
                keys.len()
            )));
        }
        for (g, w) in weights.iter().enumerate().skip(1) {
            if w.len() != features::TACTICAL_VALUES[g] {
                return Err(ModelError::Shape(format!(
                    "group {g} has {} values, not {}",
                    w.len(),
                    features::TACTICAL_VALUES[g]
                )));
            }
        }
        if weights.iter().flatten().any(|w| !w.is_finite()) {
            return Err(ModelError::Shape("a weight is not finite".into()));
        }
        let mut dictionary = Dictionary::default();
        for (k, &key) in keys.iter().enumerate() {
            let value = u16::try_from(k + 1)
                .map_err(|_| ModelError::Shape(format!("{} patterns", keys.len())))?;
            if dictionary.insert(key, value).is_some() {
                return Err(ModelError::Shape(format!("pattern {key:#x} twice")));
            }
        }
        Ok(Model {
            extractor: Extractor::new(dictionary),
            weights,
        })
    }

    /// The model in `bytes` (the format of [`Model::to_bytes`]), its checksum verified.
    pub fn from_bytes(bytes: &[u8]) -> Result<Model, ModelError> {
        let (keys, weights) = weights::decode(bytes)?;
        Model::new(&keys, weights)
    }

    /// The model in the file at `path`.
    pub fn load(path: &Path) -> Result<Model, ModelError> {
        let bytes =
            std::fs::read(path).map_err(|e| ModelError::Io(format!("{}: {e}", path.display())))?;
        Model::from_bytes(&bytes)
    }

    /// The model as bytes: a header, the dictionary, the weights, a checksum.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut keys = vec![0u64; self.extractor.dictionary().len()];
        for (&key, &value) in self.extractor.dictionary() {
            keys[usize::from(value) - 1] = key;
        }
        weights::encode(&keys, &self.weights)
    }

    /// The feature extractor.
    pub fn extractor(&self) -> &Extractor {
        &self.extractor
    }

    /// Number of patterns the model knows.
    pub fn patterns(&self) -> usize {
        self.extractor.dictionary().len()
    }

    /// `ln γ` of a candidate with features `f`.
    #[inline]
    pub fn score(&self, f: &Features) -> f32 {
        let mut s = 0.0;
        for (g, &v) in f.iter().enumerate() {
            s += self.weights[g].get(usize::from(v)).copied().unwrap_or(0.0);
        }
        s
    }

    /// `ln γ` of `color` playing at the empty, legal point `i`.
    pub fn score_move(&self, board: &Board, color: Color, i: usize, recent: Recent) -> f32 {
        self.score(&self.extractor.features(board, color, i, recent))
    }
}

/// The model's file inside the binary.
const SHIPPED: &[u8] = include_bytes!("../../weights/moves.bin");

/// The model shipped inside the binary, decoded and checked once. An error here means the
/// binary itself is broken (the build embedded a bad file).
pub fn shipped() -> Result<Arc<Model>, ModelError> {
    static MODEL: OnceLock<Result<Arc<Model>, ModelError>> = OnceLock::new();
    MODEL
        .get_or_init(|| Model::from_bytes(SHIPPED).map(Arc::new))
        .clone()
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::point::Point;

    /// A board from rows of `X` (black), `O` (white) and `.`, played row by row (the
    /// model's unit tests share it).
    pub(crate) fn board(rows: &[&str]) -> Board {
        let mut b = Board::new(rows.len()).unwrap();
        for (y, row) in rows.iter().enumerate() {
            for (x, c) in row.chars().enumerate() {
                let color = match c {
                    'X' => Color::Black,
                    'O' => Color::White,
                    _ => continue,
                };
                let i = b.index(Point::new(x, y));
                b.play(color, i);
            }
        }
        b
    }

    #[test]
    fn the_shipped_model_loads_and_fits_its_size_cap() {
        assert!(SHIPPED.len() <= MAX_MODEL_BYTES, "{} bytes", SHIPPED.len());
        let model = shipped().expect("the shipped weights load");
        assert!(model.patterns() > 1000, "{} patterns", model.patterns());
        let again = Model::from_bytes(&model.to_bytes()).unwrap();
        assert_eq!(again.to_bytes(), model.to_bytes());
    }

    #[test]
    fn the_shipped_model_prefers_capturing_a_cutting_stone_in_atari() {
        let model = shipped().unwrap();
        // 9x9: White has just played at (4, 4) into atari among black stones; the capture
        // at (5, 4) must be among the model's five best moves for Black.
        let mut b = Board::new(9).unwrap();
        for (c, x, y) in [
            (Color::Black, 4, 3),
            (Color::White, 6, 6),
            (Color::Black, 3, 4),
            (Color::White, 2, 6),
            (Color::Black, 4, 5),
            (Color::White, 4, 4),
        ] {
            let i = b.index(Point::new(x, y));
            b.play(c, i);
        }
        let last = b.index(Point::new(4, 4));
        let before = b.index(Point::new(4, 5));
        let mut scored: Vec<(f32, usize)> = b
            .empties()
            .iter()
            .map(|&e| usize::from(e))
            .filter(|&i| b.is_legal(Color::Black, i))
            .map(|i| {
                (
                    model.score_move(&b, Color::Black, i, [Some(last), Some(before)]),
                    i,
                )
            })
            .collect();
        scored.sort_by(|a, b| b.0.total_cmp(&a.0));
        let capture = b.index(Point::new(5, 4));
        let rank = scored.iter().position(|&(_, i)| i == capture).unwrap();
        assert!(rank < 5, "the capture ranks {rank}");
    }
}
