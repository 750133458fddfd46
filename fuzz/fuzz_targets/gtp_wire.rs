//! Fuzz target `gtp_wire`: the body is `gravity4_fuzzing::gtp_wire::run` (fuzz/harness).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| gravity4_fuzzing::gtp_wire::run(data));
