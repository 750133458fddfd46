//! `go-engine`: the Go engine as a program (GTP on stdin/stdout; GMP).

fn main() {
    eprintln!("go-engine: not yet a player; the protocols arrive with issue 37");
    std::process::exit(2);
}
