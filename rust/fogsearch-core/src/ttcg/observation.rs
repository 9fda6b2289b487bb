//! Public and information states of any game on the layer, from the deal and the public actions.
//!
//! The observer (a player, or none for the public state) sees the table (number of tricks, dealer,
//! face-up trump card), every bid and every card played, and its own dealt hand. From these follow
//! the [`DealConstraints`] (who must hold what, revealed voids, how many hidden cards each hand and
//! the undealt pile hold) and the [`HistoryTemplate`] that reach probabilities are computed along.
//! [`observe`] reads an OpenSpiel oh_hell history, [`observe_gongzhu`] a Gongzhu one; both end in
//! [`observe_play`], which knows nothing of either game.

use std::sync::Arc;

use super::cards::{Card, Deck, Hand};
use super::constraints::{DealConstraints, Owner};
use super::error::{invalid, TtcgError};
use super::game::{Action, Table, TrickGame};
use super::gongzhu::{Gongzhu, GongzhuState};
use super::ohhell::{OhHellParams, OhHellPhase, OhHellState};
use super::play::{Phase, TableState};
use super::policy::{extend_public_key, initial_public_key};

/// One public decision: a bid or a card played, by whom.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PublicEvent {
    pub player: u8,
    pub action: Action,
}

/// Everything public about a history after the deal: what every deal consistent with it must
/// reproduce, decision by decision, and what reach probabilities are computed along.
#[derive(Clone, Debug)]
pub struct HistoryTemplate {
    pub game: Arc<dyn TrickGame>,
    pub table: Table,
    /// Bids and plays in order.
    pub events: Vec<PublicEvent>,
    /// The events' action ids, and the public key before each event: fixed by the template, so
    /// reach evaluations (millions per second) read them instead of rebuilding them.
    actions: Vec<Action>,
    public_keys: Vec<u64>,
    /// The table before the first bid or play with no hands dealt, built once: a reach
    /// evaluation copies it and deals the hands instead of asking the game for its deck again.
    start: TableState,
}

impl HistoryTemplate {
    pub fn new(game: Arc<dyn TrickGame>, table: Table, events: Vec<PublicEvent>) -> Self {
        let actions: Vec<Action> = events.iter().map(|e| e.action).collect();
        let mut key = initial_public_key(&table);
        let public_keys = actions
            .iter()
            .map(|&a| {
                let before = key;
                key = extend_public_key(key, a);
                before
            })
            .collect();
        let start = TableState::new(&*game, table, &[0; super::game::MAX_PLAYERS]);
        HistoryTemplate {
            game,
            table,
            events,
            actions,
            public_keys,
            start,
        }
    }

    /// Play about to start with `hands` dealt.
    #[inline]
    pub fn start_with(&self, hands: &[u64; super::game::MAX_PLAYERS]) -> TableState {
        let mut state = self.start;
        state.hands = *hands;
        state
    }

    pub fn num_tricks(&self) -> usize {
        self.table.num_tricks
    }

    /// Action ids of the events, in order (the public action sequence).
    pub fn public_actions(&self) -> &[Action] {
        &self.actions
    }

    /// The public key before event `i` (see [`super::policy::InfoStateView::public_key`]).
    pub fn public_key_before(&self, i: usize) -> u64 {
        self.public_keys[i]
    }

    /// The public key after every event.
    pub fn public_key_now(&self) -> u64 {
        self.actions
            .last()
            .map_or(initial_public_key(&self.table), |&a| {
                extend_public_key(self.public_keys[self.actions.len() - 1], a)
            })
    }
}

/// What an observer knows at a point of the game.
#[derive(Clone, Debug)]
pub struct Observation {
    pub observer: Option<usize>,
    pub constraints: DealConstraints,
    pub template: HistoryTemplate,
    /// The observer's true deal assignment is not part of the observation; this is the assignment
    /// of the history the observation was taken from (a consistent deal, useful as a chain start).
    pub actual_assignment: Vec<Owner>,
}

/// Observes play at `table` after the hands `dealt` (one per seat) as `observer` (`None`: the
/// public state), `public_actions` being the bids and plays so far, which must be legal.
pub fn observe_play(
    game: Arc<dyn TrickGame>,
    table: Table,
    dealt: &[Hand],
    public_actions: &[Action],
    observer: Option<usize>,
) -> Result<Observation, TtcgError> {
    let players = game.num_players();
    let num_cards = game.deck().num_cards();
    check_deal(players, &table, dealt, observer)?;
    let (actual_assignment, mut known_owner) = dealt_owners(num_cards, &table, dealt, observer);
    let replayed = replay_public(&game, &table, dealt, public_actions, &mut known_owner)?;
    let constraints = deal_constraints(
        &game.deck(),
        &table,
        observer,
        &replayed.played_by,
        known_owner,
        replayed.voids,
    );
    Ok(Observation {
        observer,
        constraints,
        template: HistoryTemplate::new(game, table, replayed.events),
        actual_assignment,
    })
}

/// What `observer` knows of the deal: `known_owner`, the suits each seat showed void in, and how
/// many cards each seat still hides (its dealt cards less the `played_by` it played; none for
/// the observer itself), the rest of the deck undealt.
fn deal_constraints(
    deck: &Deck,
    table: &Table,
    observer: Option<usize>,
    played_by: &[usize],
    known_owner: Vec<Option<Owner>>,
    voids: Vec<Vec<bool>>,
) -> DealConstraints {
    let players = played_by.len();
    let mut hidden_counts: Vec<usize> = (0..players)
        .map(|p| {
            if Some(p) == observer {
                0
            } else {
                table.num_tricks - played_by[p]
            }
        })
        .collect();
    let face_up = table.trump_card.map_or(0, |_| 1);
    hidden_counts.push(deck.num_cards() - players * table.num_tricks - face_up);
    DealConstraints {
        num_players: players,
        num_suits: deck.num_suits,
        num_ranks: deck.num_ranks,
        known_owner,
        hidden_counts,
        voids,
    }
}

/// Checks [`observe_play`]'s observer and deal: one hand a seat, each of the table's size, no
/// card in two hands or face up.
fn check_deal(
    players: usize,
    table: &Table,
    dealt: &[Hand],
    observer: Option<usize>,
) -> Result<(), TtcgError> {
    if let Some(p) = observer {
        if p >= players {
            return invalid(format!(
                "observer must be a player in 0..{players} or None, got {p}"
            ));
        }
    }
    if dealt.len() != players
        || dealt
            .iter()
            .any(|h| h.count_ones() as usize != table.num_tricks)
    {
        return invalid(format!(
            "the deal must give each of the {players} players {} cards",
            table.num_tricks
        ));
    }
    let face_up = table.trump_card.map_or(0u64, |c| 1u64 << c);
    let dealt_all = dealt.iter().fold(0u64, |a, &h| a | h);
    if dealt_all.count_ones() as usize != players * table.num_tricks || dealt_all & face_up != 0 {
        return invalid("the hands of the deal overlap, or hold the face-up card");
    }
    Ok(())
}

/// Every card's owner in the deal `dealt` (the undealt and the face-up card have owners of their
/// own past the seats), and the owners `observer` knows before any play: its own hand's and the
/// face-up card's.
fn dealt_owners(
    num_cards: usize,
    table: &Table,
    dealt: &[Hand],
    observer: Option<usize>,
) -> (Vec<Owner>, Vec<Option<Owner>>) {
    let players = dealt.len();
    let undealt = players as Owner;
    let face_up_owner = players as Owner + 1;
    let mut actual_assignment = vec![undealt; num_cards];
    let mut known_owner: Vec<Option<Owner>> = vec![None; num_cards];
    for (p, &hand) in dealt.iter().enumerate() {
        for card in super::cards::cards_of(hand) {
            actual_assignment[card as usize] = p as Owner;
            if Some(p) == observer {
                known_owner[card as usize] = Some(p as Owner);
            }
        }
    }
    if let Some(c) = table.trump_card {
        actual_assignment[c as usize] = face_up_owner;
        known_owner[c as usize] = Some(face_up_owner);
    }
    (actual_assignment, known_owner)
}

/// What the public actions of a game show: the events, the suits each seat showed void in, and
/// how many cards each seat played.
struct PublicReplay {
    events: Vec<PublicEvent>,
    voids: Vec<Vec<bool>>,
    played_by: Vec<usize>,
}

/// Replays `public_actions` from the deal `dealt`, checking each is legal; every card played
/// becomes a known owner in `known_owner`.
fn replay_public(
    game: &Arc<dyn TrickGame>,
    table: &Table,
    dealt: &[Hand],
    public_actions: &[Action],
    known_owner: &mut [Option<Owner>],
) -> Result<PublicReplay, TtcgError> {
    let players = game.num_players();
    let deck = game.deck();
    let mut state = TableState::new(&**game, *table, dealt);
    let mut events = Vec::with_capacity(public_actions.len());
    let mut voids = vec![vec![false; deck.num_suits]; players];
    let mut played_by = vec![0usize; players];
    for (i, &a) in public_actions.iter().enumerate() {
        if state.is_over() {
            return invalid(format!(
                "public action {i} ({a}) comes after the last trick"
            ));
        }
        if !state.is_legal(&**game, a) {
            return invalid(format!(
                "public action {i} ({a}) is not legal (legal: {:?})",
                state.legal_action_vec(&**game)
            ));
        }
        let player = state.to_act();
        if state.phase() == Phase::Play {
            let card = a as Card;
            known_owner[card as usize] = Some(player as Owner);
            played_by[player] += 1;
            if let Some(lead) = state.public.lead() {
                if deck.suit_of(lead) != deck.suit_of(card) {
                    voids[player][deck.suit_of(lead)] = true;
                }
            }
        }
        events.push(PublicEvent {
            player: player as u8,
            action: a,
        });
        state.apply(a);
    }
    Ok(PublicReplay {
        events,
        voids,
        played_by,
    })
}

/// What `seat` knows at its turn: the table, its dealt hand, and the public actions so far (bids
/// and plays, assumed to come from a legal game: they are checked for being cards not yet played,
/// or bids during bidding, but the hands they came from are not known here). This is what a
/// player rebuilds its information state from; `actual_assignment` is then a constructed
/// consistent deal, not the true one.
pub fn observe_seat(
    game: Arc<dyn TrickGame>,
    table: Table,
    seat: usize,
    dealt_hand: Hand,
    public_actions: &[Action],
) -> Result<Observation, TtcgError> {
    let players = game.num_players();
    let deck = game.deck();
    let num_cards = deck.num_cards();
    if seat >= players {
        return invalid(format!("seat must be in 0..{players}, got {seat}"));
    }
    if dealt_hand.count_ones() as usize != table.num_tricks {
        return invalid(format!(
            "the seat's dealt hand must hold {} cards, got {}",
            table.num_tricks,
            dealt_hand.count_ones()
        ));
    }
    let face_up_owner = players as Owner + 1;
    let mut known_owner: Vec<Option<Owner>> = vec![None; num_cards];
    for card in super::cards::cards_of(dealt_hand) {
        known_owner[card as usize] = Some(seat as Owner);
    }
    if let Some(c) = table.trump_card {
        known_owner[c as usize] = Some(face_up_owner);
    }
    // Play is replayed with every seat holding every card: who acts and who wins each trick
    // depend only on the public cards.
    let everything = vec![deck.all(); players];
    let mut state = TableState::new(&*game, table, &everything);
    let mut events = Vec::with_capacity(public_actions.len());
    let mut played_by = vec![0usize; players];
    for (i, &a) in public_actions.iter().enumerate() {
        let player = state.to_act();
        let ok = match state.phase() {
            Phase::Play => {
                (a as usize) < num_cards
                    && state.public.played >> a & 1 == 0
                    && table.trump_card != Some(a as Card)
                    && (player != seat || dealt_hand >> a & 1 == 1)
            }
            Phase::Bid => game.is_bid(a) && a as usize - num_cards <= table.num_tricks,
            Phase::Over => false,
        };
        if !ok {
            return invalid(format!(
                "public action {i} ({a}) cannot be played by seat {player} here"
            ));
        }
        if state.phase() == Phase::Play {
            known_owner[a as usize] = Some(player as Owner);
            played_by[player] += 1;
        }
        events.push(PublicEvent {
            player: player as u8,
            action: a,
        });
        state.apply(a);
    }
    let voids = (0..players)
        .map(|p| {
            (0..deck.num_suits)
                .map(|s| p != seat && state.public.is_void(p, s))
                .collect()
        })
        .collect();
    let constraints = deal_constraints(&deck, &table, Some(seat), &played_by, known_owner, voids);
    let actual_assignment = super::flow::construct_assignment(&constraints)?;
    Ok(Observation {
        observer: Some(seat),
        constraints,
        template: HistoryTemplate::new(game, table, events),
        actual_assignment,
    })
}

/// Observes the oh_hell history `actions` (OpenSpiel ids, chance actions included) as `observer`
/// (`None`: the public state). The history must have reached the bidding (trump card turned up).
pub fn observe(
    params: &OhHellParams,
    actions: &[Action],
    observer: Option<usize>,
) -> Result<Observation, TtcgError> {
    let state = OhHellState::from_actions(params.clone(), actions)?;
    if matches!(
        state.phase(),
        OhHellPhase::ChooseNumTricks | OhHellPhase::Dealer | OhHellPhase::Deal
    ) {
        return invalid(
            "the history must include the whole deal and the trump card before it can be observed",
        );
    }
    let table = state.table().expect("the table exists once bidding starts");
    let deal_len = 2 + params.players * table.num_tricks + 1;
    observe_play(
        Arc::new(params.clone()),
        table,
        state.dealt_hands(),
        &actions[deal_len..],
        observer,
    )
}

/// Observes the Gongzhu history `actions` (the 52 dealing actions, then plays) as `observer`.
pub fn observe_gongzhu(
    actions: &[Action],
    observer: Option<usize>,
) -> Result<Observation, TtcgError> {
    let state = GongzhuState::from_actions(actions)?;
    if state.is_chance_node() {
        return invalid("the history must include the whole deal before it can be observed");
    }
    observe_play(
        Arc::new(Gongzhu),
        super::gongzhu::TABLE,
        state.dealt_hands(),
        &actions[52..],
        observer,
    )
}
