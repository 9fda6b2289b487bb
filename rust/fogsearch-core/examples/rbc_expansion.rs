//! Board-set expansion (`handle_opponent_move_result`, no capture) on a set read from a file:
//! first line `w` or `b` (the tracking player's colour), then one FEN per line. Single thread
//! unless `RAYON_NUM_THREADS` says otherwise; meant for profiling the expansion's inner loop.
//!
//! Run: `cargo run --release -p fogsearch-core --example rbc_expansion -- FILE [REPEATS]`

use std::time::Instant;

use fogsearch_core::chess::Color;
use fogsearch_core::rbc::BoardSet;

fn main() {
    let mut args = std::env::args().skip(1);
    let path = args.next().expect("usage: rbc_expansion FILE [REPEATS]");
    let repeats: usize = args
        .next()
        .map_or(20, |r| r.parse().expect("REPEATS is a number"));
    let text = std::fs::read_to_string(&path).expect("readable FEN file");
    let mut lines = text.lines();
    let color = match lines.next() {
        Some("w") => Color::White,
        Some("b") => Color::Black,
        other => panic!("first line must be w or b, not {other:?}"),
    };
    let fens: Vec<&str> = lines.filter(|l| !l.is_empty()).collect();
    let parents = BoardSet::from_fens(color, &fens).expect("valid FENs");
    let start = Instant::now();
    let mut children = 0;
    for _ in 0..repeats {
        let mut set = parents.clone();
        set.handle_opponent_move_result(false, None)
            .expect("consistent");
        children = set.len();
    }
    let seconds = start.elapsed().as_secs_f64() / repeats as f64;
    println!(
        "{} parents -> {children} children: {:.1} ms, {:.0} parent boards/s",
        parents.len(),
        seconds * 1e3,
        parents.len() as f64 / seconds
    );
}
