//! Fuzz target `go_gtp`: the body is `gravity4_fuzzing::go_gtp::run` (fuzz/harness).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| gravity4_fuzzing::go_gtp::run(data));
