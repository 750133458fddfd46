//! The playouts' local model: how a strong player answers the last move, among the 8 points
//! around it and one more candidate, "elsewhere" (a move anywhere else, as the playout's
//! random step plays it). It is the same Bradley-Terry model as the search's, fitted by the
//! same MM ([`super::train`], `go-engine train --playout`), on fewer features, all cheap
//! enough for every playout move: the 3x3 pattern, the capture, the escape from atari
//! (without its ladder), the self-atari and whether the point is orthogonal or diagonal to
//! the last move (the distance group, 1 or 2). "Elsewhere" is the candidate with no pattern
//! and the farthest distance value, so its strength is fitted with the others'.
//!
//! Training on these competitions (rather than on all legal moves) gives the playout's
//! question its answer directly: the chance of each local point and of a move elsewhere.

use super::Model;
use super::features::{Extractor, Features};
use super::records::{self, Position};
use super::train::{Competitions, Rates};
use crate::board::{Board, EMPTY};
use crate::sgf::record::GameRecord;

/// The distance value of "elsewhere": beyond both local values (1 orthogonal, 2 diagonal).
pub const ELSEWHERE_DISTANCE: u16 = 16;

/// The features of "elsewhere".
pub const ELSEWHERE: Features = [0, 0, 0, 0, 0, ELSEWHERE_DISTANCE, 0, 0];

/// The 8 points around `i`, the 4 orthogonal first.
#[inline]
pub fn around(board: &Board, i: usize) -> [usize; 8] {
    let s = board.stride();
    [
        i - s,
        i - 1,
        i + 1,
        i + s,
        i - s - 1,
        i - s + 1,
        i + s - 1,
        i + s + 1,
    ]
}

/// A local candidate's features as the playouts read them: the search model's features
/// with the atari, second-distance and line groups dropped and the ladder escape (value 3,
/// a ladder read) counted as a plain escape to two liberties.
pub fn local_features(f: Features) -> Features {
    let escape = if f[2] == 3 { 1 } else { f[2] };
    [f[0], f[1], escape, f[3], 0, f[5], 0, 0]
}

/// The competitions of a position after a stone: the candidates around the last move that
/// the playouts may play (empty, legal, not an own true eye) and "elsewhere", the move
/// played (or "elsewhere" when it is not local) first. `None` after a pass.
fn competition(extractor: &Extractor, p: &Position<'_>, out: &mut Vec<Features>) -> bool {
    let Some(last) = p.recent[0] else {
        return false;
    };
    let near = around(p.board, last);
    let features = |i| local_features(extractor.features(p.board, p.color, i, p.recent));
    let local = near.contains(&p.played);
    out.push(if local { features(p.played) } else { ELSEWHERE });
    for &n in &near {
        if n != p.played
            && p.board.at(n) == EMPTY
            && p.board.is_legal(p.color, n)
            && !p.board.is_true_eye(p.color, n)
        {
            out.push(features(n));
        }
    }
    if local {
        out.push(ELSEWHERE);
    }
    true
}

/// Every position of `games` after a stone as a local competition.
pub(super) fn compete(extractor: &Extractor, games: &[&GameRecord]) -> Competitions {
    let mut data = Competitions {
        candidates: Vec::new(),
        starts: vec![0],
    };
    for game in games {
        records::replay(game, |p| {
            if competition(extractor, p, &mut data.candidates) {
                data.starts.push(data.candidates.len() as u32);
            }
        });
    }
    data
}

/// How well `model` (a local model) predicts the answers to the last move of `games`:
/// top-1 is the share of positions where its first choice among the local points and
/// "elsewhere" is the one played.
pub fn measure(model: &Model, games: &[&GameRecord]) -> Rates {
    let mut rates = Rates {
        games: games.len(),
        ..Rates::default()
    };
    let mut candidates = Vec::new();
    for game in games {
        records::replay(game, |p| {
            candidates.clear();
            if !competition(model.extractor(), p, &mut candidates) {
                return;
            }
            let played = model.score(&candidates[0]);
            let others = candidates[1..].iter().map(|f| model.score(f));
            let mut better = 0;
            let mut total = 1.0f64;
            for s in others {
                better += usize::from(s > played);
                total += f64::from(s - played).exp();
            }
            rates.positions += 1;
            rates.top1 += usize::from(better == 0);
            rates.top5 += usize::from(better < 5);
            rates.log_likelihood -= total.ln();
        });
    }
    rates
}

/// The number of 3x3 codes (2 bits for each of the 8 points around the centre).
pub const CODES: usize = 1 << 16;

/// The pattern value (in `model`'s dictionary, 0 when unknown) of every 3x3 code, for Black
/// (`[..CODES]`) and White (`[CODES..]`) to move. A code holds the board's content of the 8
/// points (0 empty, 1 black, 2 white, 3 edge) in the order of `cells` as (dx, dy) offsets,
/// 2 bits each from the lowest.
pub fn pattern_values(model: &Model, cells: &[(i32, i32); 8]) -> Vec<u16> {
    let shapes = model.extractor().shapes();
    let dictionary = model.extractor().dictionary();
    let mut out = vec![0u16; 2 * CODES];
    for (k, value) in out.iter_mut().enumerate() {
        let (code, me) = (k % CODES, 1 + (k / CODES) as u8);
        // The mover's view of each point, by (dy + 1) * 3 + dx + 1.
        let mut grid = [0u8; 9];
        for (cell, &(dx, dy)) in cells.iter().enumerate() {
            grid[((dy + 1) * 3 + dx + 1) as usize] = match (code >> (2 * cell)) as u8 & 3 {
                0 => 0,
                3 => 3,
                c if c == me => 1,
                _ => 2,
            };
        }
        let key = shapes.key_3x3(|dx, dy| grid[((dy + 1) * 3 + dx + 1) as usize]);
        *value = dictionary.get(&key).copied().unwrap_or(0);
    }
    out
}
