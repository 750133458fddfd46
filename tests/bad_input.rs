//! Every bad input the course ABI can be handed, through the loaded cdylib.
//!
//! The contract: when a legal move exists (judged by `top` and the blocked cell alone, as the
//! judge judges it) the library returns one; when none can be determined it returns NULL and
//! writes exactly one line to stderr saying what was wrong; it never crashes or reads out of
//! bounds. The cases run in one child process so a crash fails the test cleanly (naming the
//! case) and so the library's stderr can be read back per case.

mod common;

use common::cdylib::{CPoint, lib};
use common::referee::Board;
use common::{report, reports, run_child, stderr_lines};
use std::collections::BTreeMap;
use std::ffi::c_int;

/// A pointer argument.
#[derive(Clone, Debug)]
enum Arg {
    Null,
    /// Non-null but unreadable: reading it would fault, so it proves nothing is read.
    Dangling,
    Data(Vec<i32>),
}

/// What the library must do.
#[derive(Clone, Debug)]
enum Expect {
    /// Return NULL with one stderr line containing this word (case-insensitive).
    Null(&'static str),
    /// Return a move legal under `top` and the blocked cell.
    Legal,
    /// Return exactly this point (the only legal one).
    Exactly(i32, i32),
}

#[derive(Clone, Debug)]
struct Case {
    name: String,
    m: i32,
    n: i32,
    top: Arg,
    board: Arg,
    last: (i32, i32),
    no: (i32, i32),
    expect: Expect,
}

/// A quiet mid-game on 9x9 with the blocked cell at (5, 4), the mover (2) to play.
fn midgame() -> Board {
    let mut b = Board::new(9, 9, 5, 4);
    for y in [4, 4, 3, 5, 4, 4, 2, 6, 0, 8] {
        b.play(y);
    }
    assert_eq!(b.winner(), None);
    b
}

fn case(name: &str, b: &Board, top: Arg, board: Arg, expect: Expect) -> Case {
    Case {
        name: name.to_owned(),
        m: b.m as i32,
        n: b.n as i32,
        top,
        board,
        last: b.last(),
        no: (b.no_x as i32, b.no_y as i32),
        expect,
    }
}

fn cases() -> Vec<Case> {
    let b = midgame();
    let top = || Arg::Data(b.top.clone());
    let view = || Arg::Data(b.view(b.to_move()));
    let mut cases = vec![
        case("valid midgame", &b, top(), view(), Expect::Legal),
        case("null top", &b, Arg::Null, view(), Expect::Null("top")),
        case("null board", &b, top(), Arg::Null, Expect::Legal),
        case(
            "null top and board",
            &b,
            Arg::Null,
            Arg::Null,
            Expect::Null("top"),
        ),
    ];

    // Sizes outside 4..=12: nothing may be read, so the pointers are unreadable.
    for (m, n) in [(3, 9), (9, 3), (13, 9), (9, 13), (0, 0), (-1, 9), (9, -7)] {
        cases.push(Case {
            name: format!("size {m}x{n}"),
            m,
            n,
            top: Arg::Dangling,
            board: Arg::Dangling,
            last: (-1, -1),
            no: (0, 0),
            expect: Expect::Null("size"),
        });
    }
    for (m, n) in [(i32::MIN, 9), (9, i32::MAX), (i32::MAX, i32::MAX)] {
        cases.push(Case {
            name: format!("size {m}x{n}"),
            m,
            n,
            top: Arg::Dangling,
            board: Arg::Dangling,
            last: (-1, -1),
            no: (0, 0),
            expect: Expect::Null("size"),
        });
    }
    // The smallest and the largest sizes the library accepts (the judge draws 9..=12).
    for (m, n) in [(4, 4), (4, 12), (12, 4), (12, 12)] {
        let e = Board::new(m, n, m - 1, 0);
        cases.push(case(
            &format!("size {m}x{n} is fine"),
            &e,
            Arg::Data(e.top.clone()),
            Arg::Data(e.view(1)),
            Expect::Legal,
        ));
    }

    // `top` out of 0..=M in one column: the other columns are still legal moves.
    for bad in [b.m as i32 + 1, -1, i32::MIN, i32::MAX] {
        let mut t = b.top.clone();
        t[3] = bad;
        cases.push(case(
            &format!("top[3] = {bad}"),
            &b,
            Arg::Data(t),
            view(),
            Expect::Legal,
        ));
    }
    // Every column out of range: no move can be determined.
    for bad in [b.m as i32 + 1, -1] {
        cases.push(case(
            &format!("every top = {bad}"),
            &b,
            Arg::Data(vec![bad; b.n]),
            view(),
            Expect::Null("top"),
        ));
    }
    // `top` in range but disagreeing with the stones: the judge goes by `top`.
    let mut t = b.top.clone();
    t[0] = b.m as i32;
    cases.push(case(
        "top disagrees with the board",
        &b,
        Arg::Data(t),
        view(),
        Expect::Legal,
    ));
    // `top` pointing at the blocked cell: that column is not a legal move for the judge.
    let only = {
        let mut t = vec![0; b.n];
        t[b.no_y] = b.no_x as i32 + 1;
        t
    };
    cases.push(case(
        "the only top points at the blocked cell",
        &b,
        Arg::Data(only.clone()),
        view(),
        Expect::Null("move"),
    ));
    let mut t = only;
    t[8] = 3;
    cases.push(case(
        "top at the blocked cell and one real move",
        &b,
        Arg::Data(t),
        view(),
        Expect::Exactly(2, 8),
    ));

    // Board values outside 0..=2.
    for (cell, value) in [(0, 3), (40, -1), (80, i32::MAX), (44, i32::MIN)] {
        let mut v = b.view(b.to_move());
        v[cell] = value;
        cases.push(case(
            &format!("board[{cell}] = {value}"),
            &b,
            top(),
            Arg::Data(v),
            Expect::Legal,
        ));
    }
    // A stone on the blocked cell.
    let mut v = b.view(b.to_move());
    v[b.no_x * b.n + b.no_y] = 1;
    cases.push(case(
        "stone on the blocked cell",
        &b,
        top(),
        Arg::Data(v),
        Expect::Legal,
    ));

    // The blocked cell off the board: every column's top is then a legal move.
    let plain = Board::new(9, 9, 0, 0);
    for no in [(-1, -1), (9, 4), (4, 9), (-1, 4), (i32::MIN, i32::MAX)] {
        let mut c = case(
            &format!("blocked cell {no:?}"),
            &plain,
            Arg::Data(vec![9; 9]),
            Arg::Data(vec![0; 81]),
            Expect::Legal,
        );
        c.no = no;
        cases.push(c);
    }

    // A full board (one with the blocked cell in the top row, where top skips it to 0).
    for no in [(4, 4), (0, 4), (8, 0)] {
        let mut full = Board::filled_except(9, 9, no.0, no.1, 4);
        for x in (0..9).filter(|&x| (x, 4) != no) {
            full.cells[x * 9 + 4] = if (x / 2 + 4) % 2 == 0 { 1 } else { 2 };
        }
        full.top[4] = 0;
        assert_eq!(full.winner(), None);
        cases.push(case(
            &format!("full board, blocked {no:?}"),
            &full,
            Arg::Data(full.top.clone()),
            Arg::Data(full.view(1)),
            Expect::Null("full"),
        ));
    }

    // A position that already holds four in a row, for either side: `top` still has moves.
    for (owner, whose) in [(1, "the mover's"), (2, "the opponent's")] {
        let mut w = Board::new(9, 9, 0, 0);
        // First player: bottom row 0..3; second player stacked on top of them.
        for y in [0, 0, 1, 1, 2, 2, 3] {
            w.play(y);
        }
        assert_eq!(w.winner(), Some(1));
        cases.push(case(
            &format!("four in a row already, {whose}"),
            &w,
            Arg::Data(w.top.clone()),
            Arg::Data(w.view(owner)),
            Expect::Legal,
        ));
    }

    // The opponent's last move is never trusted for anything that matters.
    for last in [(99, 99), (-5, 3), (0, 0), (i32::MIN, i32::MAX)] {
        let mut c = case(
            &format!("last move {last:?}"),
            &b,
            top(),
            view(),
            Expect::Legal,
        );
        c.last = last;
        cases.push(c);
    }
    cases
}

/// The pointer for an argument: NULL, an unreadable address, or the data.
fn ptr(arg: &Arg) -> *const c_int {
    match arg {
        Arg::Null => std::ptr::null(),
        // Page zero is never mapped on Linux: any read through this faults.
        Arg::Dangling => 16 as *const c_int,
        Arg::Data(v) => v.as_ptr(),
    }
}

#[test]
fn child_bad_input() {
    if !common::is_child() {
        return;
    }
    let lib = lib();
    for c in cases() {
        // Marks the start of each case's stderr; the library writes to the same fd in order.
        eprintln!("CASE {}", c.name);
        // SAFETY: the data slices have the lengths the sizes claim; the other pointers are
        // the bad input under test, which the library promises never to dereference wrongly.
        let p = unsafe { lib.call_raw(c.m, c.n, ptr(&c.top), ptr(&c.board), c.last, c.no) };
        match p {
            None => report(&format!("{}|null", c.name)),
            Some(CPoint { x, y }) => report(&format!("{}|{x},{y}", c.name)),
        }
    }
}

/// True iff `(x, y)` is a move the judge would accept for this case.
fn legal_for(c: &Case, x: i32, y: i32) -> bool {
    let Arg::Data(top) = &c.top else { return false };
    (0..c.n).contains(&y) && {
        let t = top[y as usize];
        (1..=c.m).contains(&t) && x == t - 1 && (x, y) != c.no
    }
}

/// Each case's answer (`null` or `x,y`) and stderr lines, from one child process.
type Outcomes = BTreeMap<String, (String, Vec<String>)>;

fn run_cases() -> Outcomes {
    let out = run_child("child_bad_input", &[("GRAVITY4_MOVE_MS", "20")]);
    let results: BTreeMap<String, String> = reports(&out)
        .into_iter()
        .filter_map(|l| l.split_once('|').map(|(a, b)| (a.to_owned(), b.to_owned())))
        .collect();
    // Split the child's stderr into each case's lines.
    let mut stderr: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut current = String::new();
    for line in stderr_lines(&out) {
        match line.strip_prefix("CASE ") {
            Some(name) => current = name.to_owned(),
            None => stderr.entry(current.clone()).or_default().push(line),
        }
    }
    results
        .into_iter()
        .map(|(name, r)| {
            let lines = stderr.remove(&name).unwrap_or_default();
            (name, (r, lines))
        })
        .collect()
}

#[test]
fn bad_input_never_crashes_and_answers_as_the_contract_says() {
    let outcomes = run_cases();
    let mut failures = Vec::new();
    for c in cases() {
        let Some((result, lines)) = outcomes.get(&c.name) else {
            failures.push(format!("{}: no result (did the child die?)", c.name));
            continue;
        };
        let point = result
            .split_once(',')
            .map(|(x, y)| (x.parse::<i32>().unwrap(), y.parse::<i32>().unwrap()));
        match (&c.expect, point) {
            (Expect::Null(word), None) => {
                let ok = lines.len() == 1 && lines[0].to_lowercase().contains(word);
                if !ok {
                    failures.push(format!(
                        "{}: NULL is right, but stderr must be one line mentioning {word:?}, \
                         got {lines:?}",
                        c.name
                    ));
                }
            }
            (Expect::Null(_), Some(p)) => {
                failures.push(format!("{}: expected NULL, got {p:?}", c.name))
            }
            (Expect::Legal, Some((x, y))) if legal_for(&c, x, y) => {}
            (Expect::Exactly(ex, ey), Some(p)) if (*ex, *ey) == p => {}
            (expect, p) => failures.push(format!(
                "{}: expected {expect:?}, got {p:?} (stderr {lines:?})",
                c.name
            )),
        }
    }
    assert!(
        failures.is_empty(),
        "bad-input contract broken:\n  {}",
        failures.join("\n  ")
    );
}

#[test]
fn null_for_bad_tops_says_the_tops_are_bad() {
    let outcomes = run_cases();
    for name in [
        "every top = 10",
        "every top = -1",
        "the only top points at the blocked cell",
    ] {
        let (result, lines) = &outcomes[name];
        assert_eq!(result, "null", "{name}");
        assert!(
            lines.len() == 1 && !lines[0].contains("full"),
            "{name}: the board is not full, yet stderr says {lines:?}"
        );
    }
}

#[test]
fn top_of_i32_min_still_gets_a_legal_move_in_every_build() {
    // Through the rlib, so the check runs with this test's own overflow-check setting.
    use gravity4::ffi::{RawArgs, answer, free_point};
    let b = midgame();
    let mut top = b.top.clone();
    top[3] = i32::MIN;
    let view = b.view(b.to_move());
    let args = RawArgs {
        rows: b.m as i32,
        cols: b.n as i32,
        top: top.as_ptr(),
        board: view.as_ptr(),
        last_row: -1,
        last_col: -1,
        blocked_row: b.no_x as i32,
        blocked_col: b.no_y as i32,
    };
    // SAFETY: `top` and `view` have the lengths the sizes claim.
    let p = unsafe { answer(args, |_| 0) };
    assert!(!p.is_null(), "NULL although columns other than 3 are legal");
    // SAFETY: non-null, from `answer`, freed once.
    let point = unsafe { *p };
    unsafe { free_point(p) };
    assert!(point.y != 3 && b.is_legal(point.x, point.y), "{point:?}");
}
