//! The bodies of the fuzz targets, one function per reader of outside input.
//!
//! `fuzz/fuzz_targets/NAME.rs` (cargo-fuzz, libFuzzer, nightly) hands each input to the
//! function of the same name here; `tests/replay.rs` hands it every file of
//! `fuzz/corpus/NAME/` on the stable toolchain, so the corpora (seeds from real traffic plus
//! what the fuzzer kept) are a regression suite that CI runs. A function panics exactly
//! when its reader broke its promise (a panic of its own, an answer that is not well-formed,
//! an illegal move); malformed input that is refused cleanly is not a failure.
//!
//! The readers:
//! - [`get_point`]: the library's C ABI, `getPoint`/`clearPoint`;
//! - [`saiblo_reader`]: the Saiblo program (the platform's messages in every form);
//! - [`gtp_wire`]: the GTP wire layer the engines and the judge share (commands read,
//!   responses written and read back);
//! - [`reversi_gtp`], [`reversi_botzone`]: the Reversi engine's two protocols;
//! - [`go_gtp`], [`go_gmp`], [`go_sgf`], [`go_model`]: the Go engine's two protocols, its
//!   files and its move model's weights (`GO_MODEL=FILE`);
//! - [`judge_gtp`], [`judge_botzone`], [`judge_saiblo`], [`judge_worker`]: what the judge
//!   reads back from players (GTP answers with Reversi's and Go's moves, Botzone JSON,
//!   Saiblo frames, the library host's frames and the points they carry);
//! - [`judge_files`]: the judge's own files, `run.json` and `games.jsonl`, as `report`,
//!   `merge`, `status` and `--resume` read them.
//!
//! The Saiblo upload's Python reader (saiblo/package/main.py) is fuzzed with atheris by
//! `fuzz/python/saiblo_main_py.py`, which replays its corpus itself (`tests/replay.rs`
//! runs it).

mod engine;
pub mod get_point;
mod go_engine;
pub mod go_gmp;
pub mod go_gtp;
pub mod go_model;
pub mod go_sgf;
pub mod gtp_wire;
pub mod judge_botzone;
pub mod judge_files;
pub mod judge_gtp;
pub mod judge_saiblo;
pub mod judge_worker;
mod panics;
mod referee;
pub mod reversi_botzone;
pub mod reversi_gtp;
pub mod saiblo_reader;

/// A target's body: takes the fuzzer's bytes, panics when the reader broke its promise.
pub type Target = fn(&[u8]);

/// Every target by name: the file `fuzz/fuzz_targets/NAME.rs` and the corpus directory
/// `fuzz/corpus/NAME/`.
pub const TARGETS: &[(&str, Target)] = &[
    ("get_point", get_point::run),
    ("reversi_gtp", reversi_gtp::run),
    ("reversi_botzone", reversi_botzone::run),
    ("judge_gtp", judge_gtp::run),
    ("judge_botzone", judge_botzone::run),
    ("judge_worker", judge_worker::run),
    ("judge_files", judge_files::run),
    ("saiblo_reader", saiblo_reader::run),
    ("judge_saiblo", judge_saiblo::run),
    ("go_sgf", go_sgf::run),
    ("go_gtp", go_gtp::run),
    ("go_gmp", go_gmp::run),
    ("go_model", go_model::run),
    ("gtp_wire", gtp_wire::run),
];
