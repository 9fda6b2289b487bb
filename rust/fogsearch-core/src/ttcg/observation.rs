//! Public and information states of Oh Hell, from an action sequence and an observer.
//!
//! The observer (a player, or none for the public state) sees the number of tricks, the dealer, the
//! trump card, every bid and every card played, and its own dealt hand. From these follow the
//! [`DealConstraints`] (who must hold what, revealed voids, how many hidden cards each hand and the
//! undealt pile hold) and the [`HistoryTemplate`] that reach probabilities are computed along.

use super::constraints::{Card, DealConstraints, Owner};
use super::error::{invalid, TtcgError};
use super::ohhell::{Action, OhHellParams, OhHellState, Phase};
use super::policy::{extend_public_key, initial_public_key};

/// One public decision: a bid or a card played, by whom.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PublicEvent {
    pub player: u8,
    /// OpenSpiel action id (`num_cards + bid` for bids, the card id for plays).
    pub action: Action,
}

/// Everything public about a history after the deal: what every deal consistent with it must
/// reproduce, decision by decision, and what reach probabilities are computed along.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HistoryTemplate {
    pub params: OhHellParams,
    pub num_tricks: usize,
    pub dealer: usize,
    pub trump_card: Card,
    /// Bids and plays in order.
    pub events: Vec<PublicEvent>,
    /// The events' action ids, and the public key before each event: fixed by the template, so
    /// reach evaluations (millions per second) read them instead of rebuilding them.
    actions: Vec<Action>,
    public_keys: Vec<u64>,
}

impl HistoryTemplate {
    pub fn new(
        params: OhHellParams,
        num_tricks: usize,
        dealer: usize,
        trump_card: Card,
        events: Vec<PublicEvent>,
    ) -> HistoryTemplate {
        let actions: Vec<Action> = events.iter().map(|e| e.action).collect();
        let mut key = initial_public_key(num_tricks, dealer, trump_card);
        let public_keys = actions
            .iter()
            .map(|&a| {
                let before = key;
                key = extend_public_key(key, a);
                before
            })
            .collect();
        HistoryTemplate {
            params,
            num_tricks,
            dealer,
            trump_card,
            events,
            actions,
            public_keys,
        }
    }

    /// Action ids of the events, in order (the public action sequence).
    pub fn public_actions(&self) -> &[Action] {
        &self.actions
    }

    /// The public key before event `i` (see [`super::policy::InfoStateView::public_key`]).
    pub fn public_key_before(&self, i: usize) -> u64 {
        self.public_keys[i]
    }

    /// The OpenSpiel action sequence of the history in which `assignment` is dealt in one
    /// particular order: ascending card id within each hand, round-robin from player 0.
    pub fn openspiel_actions(&self, assignment: &[Owner]) -> Vec<Action> {
        let players = self.params.players;
        let mut hands: Vec<Vec<Card>> = vec![Vec::new(); players];
        for (card, &owner) in assignment.iter().enumerate() {
            if (owner as usize) < players {
                hands[owner as usize].push(card as Card);
            }
        }
        let mut actions = vec![self.num_tricks as Action, self.dealer as Action];
        for i in 0..self.num_tricks {
            for hand in &hands {
                actions.push(hand[i] as Action);
            }
        }
        actions.push(self.trump_card as Action);
        actions.extend(self.events.iter().map(|e| e.action));
        actions
    }
}

/// What an observer knows at a point of the game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Observation {
    pub observer: Option<usize>,
    pub constraints: DealConstraints,
    pub template: HistoryTemplate,
    /// The observer's true deal assignment is not part of the observation; this is the assignment
    /// of the history the observation was taken from (a consistent deal, useful as a chain start).
    pub actual_assignment: Vec<Owner>,
}

/// Observes the history `actions` (OpenSpiel ids, chance actions included) as `observer` (`None`:
/// the public state). The history must have reached the bidding phase (trump card turned up).
pub fn observe(
    params: &OhHellParams,
    actions: &[Action],
    observer: Option<usize>,
) -> Result<Observation, TtcgError> {
    let state = OhHellState::from_actions(params.clone(), actions)?;
    if let Some(p) = observer {
        if p >= params.players {
            return invalid(format!(
                "observer must be a player in 0..{} or None, got {p}",
                params.players
            ));
        }
    }
    if matches!(
        state.phase(),
        Phase::ChooseNumTricks | Phase::Dealer | Phase::Deal
    ) {
        return invalid(
            "the history must include the whole deal and the trump card before it can be observed",
        );
    }
    let players = params.players;
    let num_cards = params.num_cards();
    let num_tricks = state.num_tricks();
    let trump_card = state.trump().expect("trump is dealt once bidding starts");
    let deal_len = 2 + players * num_tricks + 1;

    let mut known_owner: Vec<Option<Owner>> = vec![None; num_cards];
    let mut actual_assignment = vec![players as Owner; num_cards];
    for (card, owner) in state.initial_deal().iter().enumerate() {
        if let Some(o) = owner {
            actual_assignment[card] = *o;
            if Some(*o as usize) == observer {
                known_owner[card] = Some(*o);
            }
        }
    }
    actual_assignment[trump_card as usize] = players as Owner + 1;
    known_owner[trump_card as usize] = Some(players as Owner + 1);

    let mut events = Vec::new();
    let mut voids = vec![vec![false; params.num_suits]; players];
    let mut played_by = vec![0usize; players];
    // Replay the public part to learn who made each decision and which leads went unfollowed.
    let mut replay = OhHellState::from_actions(params.clone(), &actions[..deal_len])?;
    let mut lead: Option<Card> = None;
    for &a in &actions[deal_len..] {
        let player = match replay.actor() {
            super::ohhell::Actor::Player(p) => p,
            _ => unreachable!("after the deal only players act"),
        };
        if replay.phase() == Phase::Play {
            let card = a as Card;
            known_owner[card as usize] = Some(player as Owner);
            played_by[player] += 1;
            match lead {
                None => lead = Some(card),
                Some(l) => {
                    if params.suit_of(l) != params.suit_of(card) {
                        voids[player][params.suit_of(l)] = true;
                    }
                }
            }
        }
        events.push(PublicEvent {
            player: player as u8,
            action: a,
        });
        replay.apply_action(a)?;
        if replay.phase() == Phase::Play || replay.phase() == Phase::GameOver {
            let in_trick = events
                .iter()
                .filter(|e| (e.action as usize) < num_cards)
                .count()
                % players;
            if in_trick == 0 {
                lead = None;
            }
        }
    }

    let mut hidden_counts = vec![0usize; players + 1];
    for p in 0..players {
        hidden_counts[p] = if Some(p) == observer {
            0
        } else {
            num_tricks - played_by[p]
        };
    }
    hidden_counts[players] = num_cards - players * num_tricks - 1;

    let constraints = DealConstraints {
        num_players: players,
        num_suits: params.num_suits,
        num_ranks: params.num_cards_per_suit,
        known_owner,
        hidden_counts,
        voids,
    };
    Ok(Observation {
        observer,
        constraints,
        template: HistoryTemplate::new(
            params.clone(),
            num_tricks,
            state.dealer(),
            trump_card,
            events,
        ),
        actual_assignment,
    })
}
