//! A client for UCI chess engines (Stockfish and any other), speaking the protocol over a child
//! process's pipes: the search's `uci` leaf scores positions with it, as the paper scored its
//! leaves with a chess engine.
//!
//! The engine is always reaped. [`UciEngine`]'s `Drop` sends `quit`, waits briefly, then kills
//! and waits for the process, so an error, a panic (unwinding) or a stopped search never leaves
//! it behind. It runs in its own process group, so a Ctrl-C at the terminal reaches only us (the
//! search then stops and drops the engine); if our process dies outright, the engine reads
//! end-of-file on its input and quits (Stockfish does).
//!
//! Only what the leaf needs is spoken: `uci`/`uciok`, `setoption`, `isready`/`readyok`,
//! `position fen`, `go depth [nodes]`, the last `info ... score` before `bestmove`, `stop`
//! and `quit`. Engines search one position at
//! a time, so positions are asked one after another; the search caches the answers by position.

use std::fmt;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use crate::chess::{pawn_attacks, Board, Move, PieceType};
use crate::stop::Limits;

/// Where Debian and Ubuntu install Stockfish, outside the usual `PATH` of a non-login shell.
const EXTRA_DIRS: [&str; 1] = ["/usr/games"];
/// How long an engine may take to answer `uci` or `isready` (loading a network file included).
const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(20);
/// How often a search in the engine looks at the stop flag.
const STOP_POLL: Duration = Duration::from_millis(20);
/// How long `quit` may take before the engine is killed.
const QUIT_GRACE: Duration = Duration::from_millis(500);

/// What went wrong with an engine; the message says what to do about it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum UciError {
    /// No engine of that name on `PATH` (nor in /usr/games), or no such file.
    NotFound { engine: String },
    /// The process could not be started.
    Spawn { engine: String, reason: String },
    /// The engine closed its output or stopped answering.
    Died { engine: String, during: String },
    /// The engine answered something that is not UCI.
    Protocol { engine: String, reason: String },
    /// The caller raised the stop flag.
    Stopped,
}

impl fmt::Display for UciError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UciError::NotFound { engine } => write!(
                f,
                "the uci leaf needs a UCI chess engine: {engine:?} was not found on PATH or in \
                 /usr/games (install Stockfish, e.g. with scripts/install.sh, or set uci_engine \
                 to the engine's path)"
            ),
            UciError::Spawn { engine, reason } => {
                write!(f, "cannot start the UCI engine {engine}: {reason}")
            }
            UciError::Died { engine, during } => {
                write!(
                    f,
                    "the UCI engine {engine} stopped answering during {during}"
                )
            }
            UciError::Protocol { engine, reason } => {
                write!(f, "the UCI engine {engine} does not speak UCI: {reason}")
            }
            UciError::Stopped => write!(f, "the engine's search was stopped"),
        }
    }
}

impl std::error::Error for UciError {}

/// The executable for `engine`: a path (anything with a `/`) that exists, or the first
/// executable of that name on `PATH`, then in /usr/games.
pub fn find_engine(engine: &str) -> Result<PathBuf, UciError> {
    let not_found = || UciError::NotFound {
        engine: engine.to_string(),
    };
    if engine.is_empty() {
        return Err(not_found());
    }
    if engine.contains('/') {
        let path = PathBuf::from(engine);
        return if is_executable(&path) {
            Ok(path)
        } else {
            Err(not_found())
        };
    }
    let path_dirs = std::env::var_os("PATH")
        .map(|p| std::env::split_paths(&p).collect::<Vec<_>>())
        .unwrap_or_default();
    path_dirs
        .into_iter()
        .chain(EXTRA_DIRS.iter().map(PathBuf::from))
        .map(|dir| dir.join(engine))
        .find(|candidate| is_executable(candidate))
        .ok_or_else(not_found)
}

fn is_executable(path: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        path.metadata()
            .is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
    }
    #[cfg(not(unix))]
    {
        path.is_file()
    }
}

/// `board` as an engine is shown it: the e.p. square only where an e.p. capture is legal
/// (an RBC board can have a check that no last move explains, and an engine that trusts the e.p.
/// square then plays an illegal capture and may die), and the half-move clock at 0: the
/// searches cache scores by position, which leaves the clock out.
pub fn engine_position(board: &Board) -> String {
    let fen = board.fen();
    let mut fields: Vec<&str> = fen.split_whitespace().take(4).collect();
    if let Some(ep) = board.ep_square() {
        let mover = board.turn();
        let capturers = pawn_attacks(mover.other(), ep) & board.pieces_of(PieceType::Pawn, mover);
        let legal = Iterator::any(&mut capturers.into_iter(), |from| {
            let mut after = board.clone();
            after.push(Some(Move::new(from, ep, None)));
            !after.king_attacked(mover)
        });
        if !legal {
            fields[3] = "-";
        }
    }
    format!("{} 0 1", fields.join(" "))
}

/// How much search the engine spends on each position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchLimit {
    pub depth: u32,
    /// 0: no node budget.
    pub nodes: u64,
}

impl SearchLimit {
    fn go_command(self) -> String {
        if self.nodes > 0 {
            format!("go depth {} nodes {}", self.depth, self.nodes)
        } else {
            format!("go depth {}", self.depth)
        }
    }
}

/// An engine's score of a position, from the side to move's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    Centipawns(i32),
    /// Mate in this many moves: positive when the side to move mates, negative when it is mated
    /// (0: it is mated now).
    Mate(i32),
}

/// Reads the score from one `info` line, if it carries one (`score cp X` or `score mate N`;
/// `lowerbound`/`upperbound` scores are left for the final, exact one).
pub fn parse_info_score(line: &str) -> Option<Score> {
    let mut words = line.split_whitespace();
    if words.next() != Some("info") {
        return None;
    }
    let words: Vec<&str> = words.collect();
    let at = words.iter().position(|&w| w == "score")?;
    if words[at + 1..]
        .iter()
        .take(3)
        .any(|&w| w == "lowerbound" || w == "upperbound")
    {
        return None;
    }
    let value: i32 = words.get(at + 2)?.parse().ok()?;
    match *words.get(at + 1)? {
        "cp" => Some(Score::Centipawns(value)),
        "mate" => Some(Score::Mate(value)),
        _ => None,
    }
}

/// A running UCI engine.
pub struct UciEngine {
    name: String,
    child: Child,
    input: Option<ChildStdin>,
    lines: Receiver<String>,
    reader: Option<JoinHandle<()>>,
}

impl UciEngine {
    /// Starts the engine at `path`, completes the UCI handshake and sets it to one search thread
    /// (the search runs one engine per worker thread instead).
    pub fn start(path: &Path) -> Result<UciEngine, UciError> {
        let name = path.display().to_string();
        let mut command = Command::new(path);
        command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        #[cfg(unix)]
        {
            use std::os::unix::process::CommandExt;
            // Its own process group: a Ctrl-C meant for us must not kill it mid-answer.
            command.process_group(0);
        }
        let mut child = command.spawn().map_err(|e| UciError::Spawn {
            engine: name.clone(),
            reason: e.to_string(),
        })?;
        let input = child.stdin.take();
        let output = child.stdout.take().expect("stdout was piped");
        let (send, lines) = mpsc::channel();
        // A reader thread turns the engine's output into lines we can wait for with a timeout.
        let reader = std::thread::Builder::new()
            .name("fogsearch-uci-reader".to_string())
            .spawn(move || {
                for line in BufReader::new(output).lines() {
                    let Ok(line) = line else { break };
                    if send.send(line).is_err() {
                        break;
                    }
                }
            })
            .map_err(|e| UciError::Spawn {
                engine: name.clone(),
                reason: e.to_string(),
            })?;
        let mut engine = UciEngine {
            name,
            child,
            input,
            lines,
            reader: Some(reader),
        };
        engine.send("uci")?;
        engine.wait_for("uciok", "the handshake (uci)")?;
        engine.send("setoption name Threads value 1")?;
        engine.send("isready")?;
        engine.wait_for("readyok", "the handshake (isready)")?;
        Ok(engine)
    }

    /// The engine's score of the position `fen` (side to move's view) after searching it within
    /// `limit`. A raised stop or a passed deadline in `halt` ends the engine's search within
    /// milliseconds ([`UciError::Stopped`]).
    pub fn score(
        &mut self,
        fen: &str,
        limit: SearchLimit,
        halt: Limits<'_>,
    ) -> Result<Score, UciError> {
        let mut last = None;
        self.search(fen, limit, halt, |line| {
            if let Some(score) = parse_info_score(line) {
                last = Some(score);
            }
        })?;
        last.ok_or_else(|| UciError::Protocol {
            engine: self.name.clone(),
            reason: format!("no score before bestmove for {fen}"),
        })
    }

    /// Searches `fen` within `limit`, handing each line before `bestmove` to `on_line`; a raised
    /// stop or a passed deadline in `halt` sends `stop` and ends in [`UciError::Stopped`].
    fn search(
        &mut self,
        fen: &str,
        limit: SearchLimit,
        halt: Limits<'_>,
        mut on_line: impl FnMut(&str),
    ) -> Result<(), UciError> {
        self.send(&format!("position fen {fen}"))?;
        self.send(&limit.go_command())?;
        let mut stopping = false;
        loop {
            match self.lines.recv_timeout(STOP_POLL) {
                Ok(line) if line.starts_with("bestmove") => {
                    return if stopping {
                        Err(UciError::Stopped)
                    } else {
                        Ok(())
                    };
                }
                Ok(line) => on_line(&line),
                Err(RecvTimeoutError::Timeout) => {
                    if !stopping && halt.halt().is_some() {
                        stopping = true;
                        self.send("stop")?;
                    }
                }
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(self.died(&format!("the search of {fen}")));
                }
            }
        }
    }

    fn send(&mut self, command: &str) -> Result<(), UciError> {
        let name = &self.name;
        let input = self.input.as_mut().ok_or_else(|| UciError::Died {
            engine: name.clone(),
            during: command.to_string(),
        })?;
        writeln!(input, "{command}")
            .and_then(|_| input.flush())
            .map_err(|_| UciError::Died {
                engine: name.clone(),
                during: command.to_string(),
            })
    }

    fn wait_for(&mut self, token: &str, during: &str) -> Result<(), UciError> {
        let deadline = Instant::now() + HANDSHAKE_TIMEOUT;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) if line.trim() == token => return Ok(()),
                Ok(_) => {}
                Err(RecvTimeoutError::Timeout) => {
                    return Err(UciError::Protocol {
                        engine: self.name.clone(),
                        reason: format!("no {token:?} within {HANDSHAKE_TIMEOUT:?} of {during}"),
                    })
                }
                Err(RecvTimeoutError::Disconnected) => return Err(self.died(during)),
            }
        }
    }

    fn died(&self, during: &str) -> UciError {
        UciError::Died {
            engine: self.name.clone(),
            during: during.to_string(),
        }
    }

    /// The engine's process id (for tests that check it is reaped).
    pub fn process_id(&self) -> u32 {
        self.child.id()
    }
}

impl Drop for UciEngine {
    fn drop(&mut self) {
        let _ = self.send("quit");
        // Closing its input makes an engine that ignores `quit` read end-of-file.
        self.input = None;
        let deadline = Instant::now() + QUIT_GRACE;
        loop {
            match self.child.try_wait() {
                Ok(Some(_)) => break,
                Ok(None) if Instant::now() < deadline => {
                    std::thread::sleep(Duration::from_millis(5))
                }
                _ => {
                    let _ = self.child.kill();
                    let _ = self.child.wait();
                    break;
                }
            }
        }
        // The process is gone, so its output is closed and the reader ends.
        if let Some(reader) = self.reader.take() {
            let _ = reader.join();
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_engine_sees_an_ep_square_only_where_the_capture_is_legal() {
        // Black in check from b3, a check c2-c4 cannot have given: dxc3 e.p. would leave it.
        let checked = "8/4b3/2p1p1r1/2p2p1p/k1Pp4/PP4P1/5P1P/2B1RR1K b - c3 0 1";
        let board = Board::from_fen(checked).unwrap();
        assert_eq!(board.ep_square(), Some(18));
        assert!(engine_position(&board).contains(" b - - 0 1"));
        let open = Board::from_fen("4k3/8/8/8/2Pp4/8/8/4K3 b - c3 7 40").unwrap();
        assert_eq!(engine_position(&open), "4k3/8/8/8/2Pp4/8/8/4K3 b - c3 0 1");
    }

    use super::*;
    use crate::stop::Stop;

    #[test]
    fn info_lines_give_exact_scores_only() {
        assert_eq!(
            parse_info_score("info depth 5 seldepth 7 score cp -23 nodes 900 pv e2e4"),
            Some(Score::Centipawns(-23))
        );
        assert_eq!(
            parse_info_score("info depth 9 score mate -3 nodes 10"),
            Some(Score::Mate(-3))
        );
        assert_eq!(
            parse_info_score("info depth 9 score cp 40 lowerbound"),
            None
        );
        assert_eq!(parse_info_score("info string NNUE loaded"), None);
        assert_eq!(parse_info_score("bestmove e2e4"), None);
    }

    #[test]
    fn a_missing_engine_is_named_with_what_to_do() {
        let err = find_engine("no-such-engine-fogsearch").unwrap_err();
        let text = err.to_string();
        assert!(
            text.contains("no-such-engine-fogsearch") && text.contains("PATH"),
            "{text}"
        );
        assert!(find_engine("/nonexistent/stockfish").is_err());
        assert!(find_engine("").is_err());
    }

    #[test]
    fn go_commands_carry_the_node_budget_only_when_set() {
        let limit = SearchLimit { depth: 4, nodes: 0 };
        assert_eq!(limit.go_command(), "go depth 4");
        let limit = SearchLimit {
            depth: 4,
            nodes: 5000,
        };
        assert_eq!(limit.go_command(), "go depth 4 nodes 5000");
    }

    /// Runs only where an engine is installed (CI installs Stockfish with scripts/install.sh).
    #[test]
    fn stockfish_scores_a_position_and_is_reaped() {
        let Ok(path) = find_engine("stockfish") else {
            eprintln!("no stockfish: skipped");
            return;
        };
        let stop = Stop::new();
        let limit = SearchLimit { depth: 3, nodes: 0 };
        let mut engine = UciEngine::start(&path).unwrap();
        // White to move with an extra queen.
        let score = engine
            .score(
                "4k3/8/8/8/8/8/8/3QK3 w - - 0 1",
                limit,
                Limits::new(&stop, None),
            )
            .unwrap();
        assert!(
            matches!(score, Score::Centipawns(cp) if cp > 500)
                || matches!(score, Score::Mate(m) if m > 0)
        );
        let pid = engine.process_id();
        drop(engine);
        // Waited for, so not even a zombie is left.
        assert!(
            !Path::new(&format!("/proc/{pid}")).exists(),
            "engine {pid} not reaped"
        );
    }

    #[test]
    fn a_raised_stop_or_a_passed_deadline_ends_the_engines_search() {
        let Ok(path) = find_engine("stockfish") else {
            return;
        };
        let stop = Stop::new();
        stop.request();
        let mut engine = UciEngine::start(&path).unwrap();
        let deep = SearchLimit {
            depth: 40,
            nodes: 0,
        };
        let started = Instant::now();
        let result = engine.score(
            "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
            deep,
            Limits::new(&stop, None),
        );
        assert_eq!(result, Err(UciError::Stopped));
        // A passed deadline stops it as well, and the engine answers again afterwards.
        let soon = Instant::now() + Duration::from_millis(200);
        let result = engine.score(
            "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
            deep,
            Limits::new(&crate::stop::NEVER, Some(soon)),
        );
        assert_eq!(result, Err(UciError::Stopped));
        assert!(started.elapsed() < Duration::from_secs(20));
        let shallow = SearchLimit { depth: 2, nodes: 0 };
        assert!(engine
            .score(
                "4k3/8/8/8/8/8/8/3QK3 w - - 0 1",
                shallow,
                Limits::new(&crate::stop::NEVER, None)
            )
            .is_ok());
    }

    #[test]
    fn a_program_that_is_no_engine_is_refused() {
        // `cat` echoes "uci" back but never says "uciok"; `true` exits at once.
        if let Ok(path) = find_engine("true") {
            assert!(matches!(
                UciEngine::start(&path),
                Err(UciError::Died { .. }) | Err(UciError::Protocol { .. })
            ));
        }
    }
}
