//! Noticing panics that the code under test catches itself.
//!
//! The library catches every panic at the C boundary and answers a fallback move, so a
//! panic inside the search would look like a good answer. Under libFuzzer every panic
//! aborts (libfuzzer-sys installs a hook that does), caught or not; the replay tests run
//! without that hook, so this one records, per thread, that a panic happened.

use std::cell::Cell;
use std::sync::Once;

thread_local! {
    /// A panic started on this thread since [`watch`] last reset it.
    static PANICKED: Cell<bool> = const { Cell::new(false) };
}

/// Runs `f` and says whether it panicked anywhere on this thread, caught or not (the
/// panic's own message is printed as before, by the hook this one wraps).
pub fn watch<T>(f: impl FnOnce() -> T) -> (T, bool) {
    static HOOK: Once = Once::new();
    HOOK.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            PANICKED.with(|p| p.set(true));
            previous(info);
        }));
    });
    PANICKED.with(|p| p.set(false));
    let out = f();
    (out, PANICKED.with(Cell::get))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn caught_panics_are_seen_and_quiet_runs_are_not() {
        let (v, panicked) = watch(|| std::panic::catch_unwind(|| panic!("inside")).is_err());
        assert!(v && panicked);
        let (v, panicked) = watch(|| 7);
        assert!(v == 7 && !panicked);
    }
}
