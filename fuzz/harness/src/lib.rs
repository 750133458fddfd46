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
//! - [`reversi_gtp`], [`reversi_botzone`]: the Reversi engine's two protocols;
//! - [`judge_gtp`], [`judge_botzone`], [`judge_worker`]: what the judge reads back from
//!   players (GTP answers, Botzone JSON, the library host's frames and the points they
//!   carry);
//! - [`judge_files`]: the judge's own files, `run.json` and `games.jsonl`, as `report`,
//!   `merge`, `status` and `--resume` read them.
//!
//! Not here yet: the Saiblo readers (the program's and the judge's framed answers), which
//! are being rewritten.

mod engine;
pub mod get_point;
pub mod judge_botzone;
pub mod judge_files;
pub mod judge_gtp;
pub mod judge_worker;
mod panics;
mod referee;
pub mod reversi_botzone;
pub mod reversi_gtp;

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
];
