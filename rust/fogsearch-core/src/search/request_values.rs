//! Values of the root requests computed board by board, beside the set search: the mean one-reply
//! outcome that breaks the worst case's ties, the value of each sense's information to the next
//! move, and per-board perfect-information searches.

use crate::chess::{Board, Move};
use crate::stop::{Halt, Limits};

use super::board_search::{self, BoardTable};
use super::reply;
use super::requests::known_requests;
use super::sense_value::{self, SenseValues};
use super::{LeafMode, SearchError};
use crate::pool;

/// The per-board values here score leaves without an engine: the engine leaf is for the search.
fn check_leaf(leaf: LeafMode) -> Result<(), SearchError> {
    if leaf == LeafMode::Uci {
        return Err(SearchError::InvalidConfig(
            "leaf \"uci\" is only for the search; per-board values use \"static\", \"exchange\" \
             or \"king_safety\""
                .to_string(),
        ));
    }
    Ok(())
}

/// Per request (default: [`root_requests`](super::root_requests)), the mean over `boards` of its
/// one-reply outcome: a tie-break for requests whose worst-case values are equal (see the `reply`
/// module). `leaf` scores the board after the reply, as in the search; with `mate_threats` a
/// board where a reply forces the capture of our king scores `-MATE / 2`.
pub fn mean_reply_values(
    boards: &[Board],
    requests: Option<Vec<Option<Move>>>,
    leaf: LeafMode,
    mate_threats: bool,
) -> Result<Vec<(Option<Move>, f64)>, SearchError> {
    check_leaf(leaf)?;
    let requests = known_requests(boards, requests)?;
    let means = reply::mean_outcomes(boards, &requests, leaf, mate_threats);
    Ok(requests.into_iter().zip(means).collect())
}

/// Each request with its value on each board, in the boards' order.
pub type RequestBoardValues = Vec<(Option<Move>, Vec<i32>)>;

/// Deeper per-board searches take minutes per board; refuse them rather than hang.
pub const MAX_BOARD_PLIES: u32 = 8;

/// Per request (default: the root requests), its value on each board of `boards` if both sides
/// then saw the board: `plies` further plies of perfect-information alpha-beta after the request,
/// captures resolved at the leaves (see `board_search`). `Ok(None)` when the deadline in `limits`
/// passed first; [`SearchError::Interrupted`] when its stop was raised. Meant for small sets: the
/// work grows with boards x requests.
pub fn board_values(
    boards: &[Board],
    requests: Option<Vec<Option<Move>>>,
    plies: u32,
    limits: Limits<'_>,
) -> Result<Option<RequestBoardValues>, SearchError> {
    if plies > MAX_BOARD_PLIES {
        return Err(SearchError::InvalidConfig(format!(
            "plies must be at most {MAX_BOARD_PLIES} (deeper searches take minutes per board), \
             got {plies}"
        )));
    }
    let requests = known_requests(boards, requests)?;
    match board_search::request_board_values(boards, &requests, plies, limits) {
        Ok(rows) => Ok(Some(requests.into_iter().zip(rows).collect())),
        Err(Halt::DeadlinePassed) => Ok(None),
        Err(Halt::Stopped) => Err(SearchError::Interrupted),
    }
}

/// The value of information of each sense square for the next move: the expected best mean
/// one-reply outcome (as in [`mean_reply_values`]) over `requests` (default: the root requests)
/// once the sense's result is known, and the best mean without sensing (see `sense_value`).
pub fn sense_values(
    boards: &[Board],
    requests: Option<Vec<Option<Move>>>,
    leaf: LeafMode,
) -> Result<SenseValues, SearchError> {
    check_leaf(leaf)?;
    let requests = known_requests(boards, requests)?;
    if requests.is_empty() {
        return Err(SearchError::NoRequests);
    }
    Ok(sense_value::sense_values(boards, &requests, leaf))
}

/// Every request's value on every board by iterative deepening (see `board_search`): plies
/// `0..=least_plies` whatever the deadline (`None`: none, boards the deadline cut before their
/// capture search keep their static values), then deeper while `limits` allow, up to
/// `most_plies`, in the shared pool of `threads` workers. The requests default to the root
/// requests. A raised stop gives [`SearchError::Interrupted`].
pub fn board_table(
    boards: &[Board],
    requests: Option<Vec<Option<Move>>>,
    least_plies: Option<u32>,
    most_plies: u32,
    threads: usize,
    limits: Limits<'_>,
) -> Result<(Vec<Option<Move>>, BoardTable), SearchError> {
    if most_plies > MAX_BOARD_PLIES || least_plies.is_some_and(|least| least > most_plies) {
        return Err(SearchError::InvalidConfig(format!(
            "plies must satisfy least_plies <= most_plies <= {MAX_BOARD_PLIES} (deeper searches \
             take minutes per board; least_plies None: no depth is certain, the time limit \
             bounds the call), got least_plies {}, most_plies {most_plies}",
            least_plies.map_or("None".to_string(), |least| least.to_string())
        )));
    }
    let requests = known_requests(boards, requests)?;
    let table = pool::install(threads, || {
        board_search::request_board_table(boards, &requests, least_plies, most_plies, limits)
    })
    .map_err(|e| SearchError::InvalidConfig(e.to_string()))?;
    match table {
        Ok(table) => Ok((requests, table)),
        Err(_) => Err(SearchError::Interrupted),
    }
}
