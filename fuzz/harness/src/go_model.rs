//! The Go engine's move-model reader (go/src/model/weights.rs), as `GO_MODEL=FILE` reaches it.
//!
//! Input: a model file without its last eight bytes; the target appends the right FNV-1a
//! checksum, since a checksum is a wall that random mutation never gets through and the
//! reader behind it is what needs the fuzzing (the bytes as given, checksum unfixed, are
//! read too). The promise: no panic; a refusal says why; a model that loads writes back
//! to the same bytes, and scores every legal move of a fixed 9x9 position with a finite
//! number (the priors' softmax needs finite scores).

use go_engine::board::Board;
use go_engine::model::{Model, fnv1a};
use go_engine::point::{Color, Point};

/// The target.
pub fn run(data: &[u8]) {
    if let Err(e) = Model::from_bytes(data) {
        assert!(!e.to_string().is_empty(), "an error saying nothing");
    }
    let mut bytes = data.to_vec();
    bytes.extend_from_slice(&fnv1a(data).to_le_bytes());
    let model = match Model::from_bytes(&bytes) {
        Ok(model) => model,
        Err(e) => {
            assert!(!e.to_string().is_empty(), "an error saying nothing");
            return;
        }
    };
    assert_eq!(
        model.to_bytes(),
        bytes,
        "the model does not write back the same"
    );
    let mut board = Board::new(9).expect("9x9");
    let mut recent = [None, None];
    for (k, (x, y)) in [(2, 2), (6, 6), (6, 2), (2, 6), (4, 4), (5, 4)]
        .iter()
        .enumerate()
    {
        let color = if k % 2 == 0 {
            Color::Black
        } else {
            Color::White
        };
        let i = board.index(Point::new(*x, *y));
        board.play(color, i);
        recent = [Some(i), recent[0]];
    }
    for &e in board.empties() {
        let i = usize::from(e);
        if board.is_legal(Color::Black, i) {
            let s = model.score_move(&board, Color::Black, i, recent);
            assert!(s.is_finite(), "score {s} at {i}");
        }
    }
}
