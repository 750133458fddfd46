//! The Go engine's SGF reader (go/src/sgf) and the game record on top of it.
//!
//! Input: a file. The promise: it parses or fails with an error naming what and where,
//! never a panic (the reader is iterative, so no nesting exhausts the stack); what parses
//! writes back to text that parses to the same trees, and writing those again gives the
//! same text; a first tree that is a Go game record writes back (as the engine writes its
//! records) to an SGF that reads back to the same record. These are the round trips
//! go/tests/sgf.rs states for its corpus, here for any input.

use go_engine::sgf::{self, record::GameRecord};

/// The target.
pub fn run(data: &[u8]) {
    let trees = match sgf::parse(data) {
        Ok(trees) => trees,
        Err(error) => {
            assert!(!error.to_string().is_empty(), "an error saying nothing");
            return;
        }
    };
    let written = sgf::write_collection(&trees);
    let again = sgf::parse(written.as_bytes())
        .unwrap_or_else(|e| panic!("written SGF does not read ({e}):\n{written}"));
    assert_eq!(
        again, trees,
        "the trees changed through writing:\n{written}"
    );
    assert_eq!(
        sgf::write_collection(&again),
        written,
        "writing is not a function"
    );
    let Some(first) = trees.first() else {
        return;
    };
    if let Ok(record) = GameRecord::from_tree(first) {
        let text = record.to_sgf();
        let rebuilt = GameRecord::from_sgf(text.as_bytes())
            .unwrap_or_else(|e| panic!("the record's SGF does not read back ({e}):\n{text}"));
        assert_eq!(
            rebuilt, record,
            "the record changed through its SGF:\n{text}"
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_and_garbage_keep_the_promise() {
        run(b"(;GM[1]FF[4]SZ[9]KM[6.5];B[ee];W[ge](;B[cc])(;B[dd]C[a \\] b]))");
        run(b"(;SZ[19]AB[dd][pp]PL[W];W[]");
        run(b"((((");
        run(b"");
    }
}
