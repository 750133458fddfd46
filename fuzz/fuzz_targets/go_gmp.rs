//! Fuzz target `go_gmp`: the body is `gravity4_fuzzing::go_gmp::run` (fuzz/harness).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| gravity4_fuzzing::go_gmp::run(data));
