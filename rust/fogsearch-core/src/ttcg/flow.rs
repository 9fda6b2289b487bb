//! Construction of a consistent deal (Lemma 2): integer max flow on source -> suits -> players and
//! the undealt pile -> sink, with the edges of revealed voids removed. A full flow is a suit-length
//! matrix; handing each suit's hidden cards out per that matrix gives a consistent deal.

use super::constraints::{DealConstraints, Owner};
use super::error::{invalid, TtcgError};
use super::maxflow::FlowNetwork;

/// `lengths[s][o]`: how many hidden cards of suit `s` owner `o` (players, then the undealt pile)
/// holds.
pub type SuitLengths = Vec<Vec<usize>>;

pub const SUIT_NAMES: [char; 4] = ['C', 'D', 'S', 'H'];

/// Checks that the constraints are well formed (sizes, owner codes, counts adding up).
pub fn validate_constraints(c: &DealConstraints) -> Result<(), TtcgError> {
    if !(1..=4).contains(&c.num_suits) || !(1..=13).contains(&c.num_ranks) {
        return invalid(format!(
            "the deck must have 1-4 suits and 1-13 ranks, got {} suits and {} ranks",
            c.num_suits, c.num_ranks
        ));
    }
    if c.num_players == 0 || c.num_players > 7 {
        return invalid(format!(
            "num_players must be in 1..=7, got {}",
            c.num_players
        ));
    }
    if c.known_owner.len() != c.num_cards() {
        return invalid(format!(
            "known_owner has {} entries but the deck has {} cards",
            c.known_owner.len(),
            c.num_cards()
        ));
    }
    if let Some((card, o)) = c
        .known_owner
        .iter()
        .enumerate()
        .find_map(|(i, o)| o.filter(|&o| o > c.trump_card()).map(|o| (i, o)))
    {
        return invalid(format!(
            "card {card} has owner code {o}, but codes run 0..={} (players, undealt pile {}, trump card {})",
            c.trump_card(),
            c.undealt(),
            c.trump_card()
        ));
    }
    if c.hidden_counts.len() != c.num_players + 1 {
        return invalid(format!(
            "hidden_counts needs {} entries (players then the undealt pile), got {}",
            c.num_players + 1,
            c.hidden_counts.len()
        ));
    }
    let hidden = c.hidden_cards().len();
    let wanted: usize = c.hidden_counts.iter().sum();
    if wanted != hidden {
        return invalid(format!(
            "hidden_counts sum to {wanted} but {hidden} cards are hidden (not of known owner)"
        ));
    }
    if c.voids.len() != c.num_players || c.voids.iter().any(|v| v.len() != c.num_suits) {
        return invalid(format!(
            "voids must be {} rows (players) of {} booleans (suits)",
            c.num_players, c.num_suits
        ));
    }
    Ok(())
}

fn suit_list(suits: impl Iterator<Item = usize>) -> String {
    let names: Vec<String> = suits.map(|s| SUIT_NAMES[s].to_string()).collect();
    if names.is_empty() {
        "no suit".to_string()
    } else {
        names.join(", ")
    }
}

/// A suit-length matrix satisfying the constraints, or [`TtcgError::Infeasible`] naming the
/// binding constraint (read off a minimum cut).
pub fn construct_suit_lengths(c: &DealConstraints) -> Result<SuitLengths, TtcgError> {
    validate_constraints(c)?;
    let suits = c.num_suits;
    let owners = c.num_players + 1;
    let source = 0;
    let suit_node = |s: usize| 1 + s;
    let owner_node = |o: usize| 1 + suits + o;
    let sink = 1 + suits + owners;
    let mut supply = vec![0usize; suits];
    for card in c.hidden_cards() {
        supply[c.suit_of(card)] += 1;
    }
    let total: usize = supply.iter().sum();
    let mut network = FlowNetwork::new(sink + 1);
    for (s, &n) in supply.iter().enumerate() {
        network.add_edge(source, suit_node(s), n);
    }
    let mut edge_ids = vec![vec![None; owners]; suits];
    for (s, ids) in edge_ids.iter_mut().enumerate() {
        for (o, id) in ids.iter_mut().enumerate() {
            let void = o < c.num_players && c.voids[o][s];
            if !void {
                *id = Some(network.add_edge(suit_node(s), owner_node(o), supply[s]));
            }
        }
    }
    for (o, &n) in c.hidden_counts.iter().enumerate() {
        network.add_edge(owner_node(o), sink, n);
    }
    let flow = network.max_flow(source, sink);
    if flow < total {
        let reachable = network.residual_reachable(source);
        return Err(TtcgError::Infeasible(explain_cut(
            c, &supply, &reachable, owner_node, suit_node,
        )));
    }
    Ok(edge_ids
        .iter()
        .map(|ids| {
            ids.iter()
                .map(|id| id.map_or(0, |e| network.flow(e)))
                .collect()
        })
        .collect())
}

/// The binding constraint behind a minimum cut: the players on the sink side are void in every
/// suit on the source side, and need more hidden cards than the other suits have.
fn explain_cut(
    c: &DealConstraints,
    supply: &[usize],
    reachable: &[bool],
    owner_node: impl Fn(usize) -> usize,
    suit_node: impl Fn(usize) -> usize,
) -> String {
    let stuck: Vec<usize> = (0..c.num_players)
        .filter(|&p| !reachable[owner_node(p)])
        .collect();
    let open_suits: Vec<usize> = (0..c.num_suits)
        .filter(|&s| !reachable[suit_node(s)])
        .collect();
    let closed_suits: Vec<usize> = (0..c.num_suits)
        .filter(|&s| reachable[suit_node(s)])
        .collect();
    let need: usize = stuck.iter().map(|&p| c.hidden_counts[p]).sum();
    let have: usize = open_suits.iter().map(|&s| supply[s]).sum();
    let who = match stuck.len() {
        1 => format!("player {}", stuck[0]),
        _ => format!(
            "players {}",
            stuck
                .iter()
                .map(|p| p.to_string())
                .collect::<Vec<_>>()
                .join(" and ")
        ),
    };
    format!(
        "no deal is consistent with the constraints: {who} {} {need} hidden card{} but, being void in {}, \
         only {have} hidden card{} of {} remain{}",
        if stuck.len() == 1 { "needs" } else { "need" },
        if need == 1 { "" } else { "s" },
        suit_list(closed_suits.into_iter()),
        if have == 1 { "" } else { "s" },
        suit_list(open_suits.into_iter()),
        if have == 1 { "s" } else { "" },
    )
}

/// A deal assignment (owner per card id) consistent with `constraints`: known cards keep their
/// owners, hidden cards are handed out per [`construct_suit_lengths`] in ascending id order.
pub fn construct_assignment(constraints: &DealConstraints) -> Result<Vec<Owner>, TtcgError> {
    let lengths = construct_suit_lengths(constraints)?;
    Ok(assignment_from_lengths(constraints, &lengths))
}

/// Hands out each suit's hidden cards, ascending, to owners in order per `lengths`.
pub fn assignment_from_lengths(constraints: &DealConstraints, lengths: &SuitLengths) -> Vec<Owner> {
    let mut assignment: Vec<Owner> = constraints
        .known_owner
        .iter()
        .map(|o| o.unwrap_or(Owner::MAX))
        .collect();
    let hidden = constraints.hidden_cards();
    for (s, row) in lengths.iter().enumerate() {
        let mut cards = hidden.iter().filter(|&&c| constraints.suit_of(c) == s);
        for (owner, &n) in row.iter().enumerate() {
            for _ in 0..n {
                let c = cards.next().expect("suit lengths match the hidden cards");
                assignment[*c as usize] = owner as Owner;
            }
        }
    }
    assignment
}

/// Whether `assignment` satisfies `constraints` (known owners, counts, voids).
pub fn is_consistent(c: &DealConstraints, assignment: &[Owner]) -> bool {
    if assignment.len() != c.num_cards() {
        return false;
    }
    let mut counts = vec![0usize; c.num_players + 1];
    for (card, &owner) in assignment.iter().enumerate() {
        match c.known_owner[card] {
            Some(k) => {
                if k != owner {
                    return false;
                }
            }
            None => {
                let o = owner as usize;
                if o > c.num_players {
                    return false;
                }
                if o < c.num_players && c.voids[o][c.suit_of(card as u8)] {
                    return false;
                }
                counts[o] += 1;
            }
        }
    }
    counts == c.hidden_counts
}
