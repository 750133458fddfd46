//! Test support the workspace's crates share, in one place: a dev-only crate (every crate
//! takes it as a `[dev-dependency]`; nothing shipped links it).
//!
//! - [`partner`]: the partner programs tests play against or run (GNU Go, GNU parallel,
//!   python3), where they are, and the CI policy for a missing one: skip on a developer's
//!   machine, fail under `CI=true`.
//! - [`process`]: child processes: a GTP controller over a child's pipes, waiting with a
//!   deadline, killing on drop, feeding stdin, finding processes left behind.
//! - [`build`]: release builds of workspace packages a test needs (the course library, a
//!   program), and the target directory the test binary runs from.
//! - [`chromium`]: headless Chromium, to run the judge's pages.
//! - [`source`]: Rust source read as text, for the layering tests.
//!
//! What only one crate's tests need stays in that crate's `tests/common`.

pub mod build;
pub mod chromium;
pub mod partner;
pub mod process;
pub mod source;
