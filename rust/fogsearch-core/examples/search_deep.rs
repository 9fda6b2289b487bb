//! A deep information-set search from one position, for profiling the search's inner loop without
//! Python: exact tables, the pruned full sense search, one thread, iterative deepening under a
//! time budget; prints each root request as it finishes at the deepest depth reached.
//! `--root-margin M` asks only for the requests within M centipawns of the best; `--mode` and
//! `--sense-mode` take the names `RbcSearchConfig` takes (default: exact, finest);
//! `--reply-entries N` sizes the reply table (default: `RbcSearchConfig`'s).
//!
//! Run: `cargo run --release -p fogsearch-core --example search_deep -- [DEPTH] [SECONDS]
//! [--root-margin M] [--mode MODE] [--sense-mode SENSE_MODE] [--reply-entries N] [FEN]`

use std::time::Duration;

use fogsearch_core::chess::Board;
use fogsearch_core::search::{Mode, RbcSearchConfig, Searcher, SenseMode};

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// Removes `--name VALUE` from `args` and returns VALUE, if the option is there.
fn take_option(args: &mut Vec<String>, name: &str) -> Option<String> {
    let at = args.iter().position(|a| a == name)?;
    let value = args
        .get(at + 1)
        .unwrap_or_else(|| panic!("{name} takes a value"))
        .clone();
    args.drain(at..at + 2);
    Some(value)
}

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let root_margin = take_option(&mut args, "--root-margin")
        .map(|m| m.parse().expect("the root margin is a number"));
    let mode = take_option(&mut args, "--mode").map_or(Mode::Exact, |m| {
        Mode::from_name(&m).expect("a mode RbcSearchConfig knows")
    });
    let sense_mode = take_option(&mut args, "--sense-mode").map_or(SenseMode::Finest, |m| {
        SenseMode::from_name(&m).expect("a sense mode RbcSearchConfig knows")
    });
    let reply_entries = take_option(&mut args, "--reply-entries")
        .map_or(RbcSearchConfig::default().reply_entries, |n| {
            n.parse().expect("the reply entries are a number")
        });
    let mut args = args.into_iter();
    let depth: u32 = args
        .next()
        .map_or(4, |d| d.parse().expect("DEPTH is a number"));
    let seconds: f64 = args
        .next()
        .map_or(60.0, |s| s.parse().expect("SECONDS is a number"));
    let fen = args.next().unwrap_or_else(|| START.to_string());
    let board = Board::from_fen(&fen).expect("a valid FEN");
    let config = RbcSearchConfig {
        mode,
        sense_mode,
        root_margin,
        reply_entries,
        ..RbcSearchConfig::default()
    };
    let mut searcher = Searcher::new(config).expect("a valid config");
    let stop = fogsearch_core::stop::Stop::new();
    let result = searcher
        .search_within(
            &[board],
            depth,
            Some(Duration::from_secs_f64(seconds)),
            &stop,
        )
        .expect("the search runs");
    let deepest = result.timeline.iter().map(|c| c.depth).max().unwrap_or(0);
    for c in result.timeline.iter().filter(|c| c.depth == deepest) {
        let name = c.request.map_or("pass".to_string(), |m| m.to_string());
        let bound = if c.exact { "" } else { " (upper bound)" };
        println!(
            "depth {} {name} {}{bound} at {:.1} s, {} nodes",
            c.depth, c.value, c.seconds, c.nodes
        );
    }
    println!(
        "completed depth {}, best {:?} {}; {} nodes, {} reply table hits, {} leaves in {:.1} s; tables {:?}",
        result.depth,
        result.best_move.map(|m| m.to_string()),
        result.value,
        result.stats.nodes,
        result.stats.reply_table_hits,
        result.stats.leaf_evaluations,
        result.stats.elapsed_seconds,
        searcher.table_sizes()
    );
}
