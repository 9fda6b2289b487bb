//! Oh Hell with exactly OpenSpiel's `oh_hell` rules, parameters and action ids.
//!
//! Chance picks the number of tricks (action = the number), then the dealer (action = player), then
//! deals cards one by one round-robin starting with player 0 (action = card id), then turns up one
//! card whose suit is trump. Bidding starts left of the dealer; a bid `b` is action
//! `num_cards + b`; the last bidder may not make the bids sum to the number of tricks. Play follows
//! suit when possible; the highest trump, else the highest card of the led suit, wins and leads next.

use super::constraints::Card;
use super::error::{invalid, TtcgError};

/// OpenSpiel's action id (chance outcomes included).
pub type Action = u32;

pub const MIN_PLAYERS: usize = 3;
pub const MAX_PLAYERS: usize = 7;
pub const MAX_SUITS: usize = 4;
pub const MIN_RANKS: usize = 2;
pub const MAX_RANKS: usize = 13;
/// `num_tricks_fixed` value that makes chance pick the number of tricks uniformly.
pub const RANDOM_NUM_TRICKS: i64 = -1;
pub const MADE_BID_BONUS: i64 = 10;

/// The game's parameters under OpenSpiel's names, with OpenSpiel's defaults.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OhHellParams {
    pub players: usize,
    pub num_suits: usize,
    pub num_cards_per_suit: usize,
    pub num_tricks_fixed: i64,
    pub off_bid_penalty: bool,
    pub points_per_trick: i64,
}

impl Default for OhHellParams {
    fn default() -> Self {
        OhHellParams {
            players: 3,
            num_suits: 4,
            num_cards_per_suit: 13,
            num_tricks_fixed: RANDOM_NUM_TRICKS,
            off_bid_penalty: false,
            points_per_trick: 1,
        }
    }
}

impl OhHellParams {
    pub fn validate(&self) -> Result<(), TtcgError> {
        if !(MIN_PLAYERS..=MAX_PLAYERS).contains(&self.players) {
            return invalid(format!(
                "players must be in {MIN_PLAYERS}..={MAX_PLAYERS}, got {}",
                self.players
            ));
        }
        if !(1..=MAX_SUITS).contains(&self.num_suits) {
            return invalid(format!(
                "num_suits must be in 1..={MAX_SUITS}, got {}",
                self.num_suits
            ));
        }
        if !(MIN_RANKS..=MAX_RANKS).contains(&self.num_cards_per_suit) {
            return invalid(format!(
                "num_cards_per_suit must be in {MIN_RANKS}..={MAX_RANKS}, got {}",
                self.num_cards_per_suit
            ));
        }
        if self.players > self.num_cards() - 1 {
            return invalid(format!(
                "a deck of {} cards is too small for {} players (each needs a card, plus the trump card)",
                self.num_cards(),
                self.players
            ));
        }
        let max = self.max_num_tricks() as i64;
        if self.num_tricks_fixed != RANDOM_NUM_TRICKS && !(1..=max).contains(&self.num_tricks_fixed)
        {
            return invalid(format!(
                "num_tricks_fixed must be -1 (random) or in 1..={max} for this deck and player count, got {}",
                self.num_tricks_fixed
            ));
        }
        Ok(())
    }

    pub fn num_cards(&self) -> usize {
        self.num_suits * self.num_cards_per_suit
    }

    pub fn max_num_tricks(&self) -> usize {
        (self.num_cards() - 1) / self.players
    }

    pub fn suit_of(&self, card: Card) -> usize {
        card as usize % self.num_suits
    }

    pub fn rank_of(&self, card: Card) -> usize {
        card as usize / self.num_suits
    }

    /// Action id of bid `bid`.
    pub fn bid_action(&self, bid: usize) -> Action {
        (self.num_cards() + bid) as Action
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    ChooseNumTricks,
    Dealer,
    Deal,
    Bid,
    Play,
    GameOver,
}

/// Who acts next.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Actor {
    Chance,
    Player(usize),
    Terminal,
}

/// Bids in order, in the form every legality check needs: who has bid and the running sum.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Bids {
    pub bids: Vec<Option<usize>>,
}

impl Bids {
    /// Legal bids for `player` when `num_tricks` tricks are played: all of `0..=num_tricks`, except
    /// that the last to bid may not make the total equal the number of tricks.
    pub fn legal_bids(&self, player: usize, num_tricks: usize) -> impl Iterator<Item = usize> {
        let last_bidder = self
            .bids
            .iter()
            .enumerate()
            .all(|(p, b)| p == player || b.is_some());
        let sum: usize = self.bids.iter().flatten().sum();
        (0..=num_tricks).filter(move |&bid| !(last_bidder && bid + sum == num_tricks))
    }
}

/// Which of a trick's cards wins: the highest trump if any was played, else the highest card of the
/// led suit. `cards[0]` is the lead. Returns the index into `cards`.
pub fn trick_winner_index(params: &OhHellParams, cards: &[Card], trump_suit: usize) -> usize {
    let led = params.suit_of(cards[0]);
    let strength = |c: Card| {
        let s = params.suit_of(c);
        let r = params.rank_of(c);
        if s == trump_suit {
            2 * MAX_RANKS + r
        } else if s == led {
            MAX_RANKS + r
        } else {
            0
        }
    };
    let mut best = 0;
    for i in 1..cards.len() {
        if strength(cards[i]) > strength(cards[best]) {
            best = i;
        }
    }
    best
}

/// A game state; `apply_action` validates, so an illegal action is an error, never a panic.
#[derive(Clone, Debug)]
pub struct OhHellState {
    params: OhHellParams,
    phase: Phase,
    num_tricks: usize,
    dealer: usize,
    num_cards_dealt: usize,
    /// Current holder of each card (None once played or never dealt).
    holder: Vec<Option<u8>>,
    /// Who was dealt each card (None for undealt cards and the trump card).
    initial_deal: Vec<Option<u8>>,
    dealt: Vec<bool>,
    trump: Option<Card>,
    bids: Bids,
    current_player: usize,
    trick_leader: usize,
    trick_cards: Vec<Card>,
    num_cards_played: usize,
    tricks_won: Vec<usize>,
    returns: Vec<f64>,
    history: Vec<Action>,
}

impl OhHellState {
    pub fn new(params: OhHellParams) -> Result<Self, TtcgError> {
        params.validate()?;
        let n = params.num_cards();
        let p = params.players;
        Ok(OhHellState {
            phase: Phase::ChooseNumTricks,
            num_tricks: 0,
            dealer: 0,
            num_cards_dealt: 0,
            holder: vec![None; n],
            initial_deal: vec![None; n],
            dealt: vec![false; n],
            trump: None,
            bids: Bids {
                bids: vec![None; p],
            },
            current_player: 0,
            trick_leader: 0,
            trick_cards: Vec::with_capacity(p),
            num_cards_played: 0,
            tricks_won: vec![0; p],
            returns: vec![0.0; p],
            history: Vec::new(),
            params,
        })
    }

    /// The state reached by applying `actions` from the start.
    pub fn from_actions(params: OhHellParams, actions: &[Action]) -> Result<Self, TtcgError> {
        let mut state = Self::new(params)?;
        for (i, &a) in actions.iter().enumerate() {
            state.apply_action(a).map_err(|e| {
                TtcgError::InvalidInput(format!("action {i} of the history ({a}): {e}"))
            })?;
        }
        Ok(state)
    }

    pub fn params(&self) -> &OhHellParams {
        &self.params
    }
    pub fn phase(&self) -> Phase {
        self.phase
    }
    pub fn num_tricks(&self) -> usize {
        self.num_tricks
    }
    pub fn dealer(&self) -> usize {
        self.dealer
    }
    pub fn trump(&self) -> Option<Card> {
        self.trump
    }
    pub fn history(&self) -> &[Action] {
        &self.history
    }
    pub fn initial_deal(&self) -> &[Option<u8>] {
        &self.initial_deal
    }
    pub fn is_terminal(&self) -> bool {
        self.phase == Phase::GameOver
    }

    pub fn actor(&self) -> Actor {
        match self.phase {
            Phase::GameOver => Actor::Terminal,
            Phase::Bid | Phase::Play => Actor::Player(self.current_player),
            _ => Actor::Chance,
        }
    }

    /// Returns so far (zero until the game is over).
    pub fn returns(&self) -> &[f64] {
        &self.returns
    }

    /// Legal actions in ascending id order; chance outcomes at chance nodes (all equiprobable).
    pub fn legal_actions(&self) -> Vec<Action> {
        let p = &self.params;
        match self.phase {
            Phase::ChooseNumTricks => {
                if self.params.num_tricks_fixed == RANDOM_NUM_TRICKS {
                    (1..=p.max_num_tricks() as Action).collect()
                } else {
                    vec![p.num_tricks_fixed as Action]
                }
            }
            Phase::Dealer => (0..p.players as Action).collect(),
            Phase::Deal => (0..p.num_cards())
                .filter(|&c| !self.dealt[c])
                .map(|c| c as Action)
                .collect(),
            Phase::Bid => self
                .bids
                .legal_bids(self.current_player, self.num_tricks)
                .map(|b| p.bid_action(b))
                .collect(),
            Phase::Play => {
                let mut cards = Vec::new();
                legal_plays(
                    p,
                    |c| self.holder[c as usize] == Some(self.current_player as u8),
                    self.trick_cards.first().copied(),
                    &mut cards,
                );
                cards.into_iter().map(|c| c as Action).collect()
            }
            Phase::GameOver => Vec::new(),
        }
    }

    pub fn is_legal(&self, action: Action) -> bool {
        self.legal_actions().contains(&action)
    }

    pub fn apply_action(&mut self, action: Action) -> Result<(), TtcgError> {
        if !self.is_legal(action) {
            return invalid(format!(
                "action {action} is not legal in phase {:?} (legal: {:?})",
                self.phase,
                self.legal_actions()
            ));
        }
        self.history.push(action);
        let num_cards = self.params.num_cards();
        let players = self.params.players;
        match self.phase {
            Phase::ChooseNumTricks => {
                self.num_tricks = action as usize;
                self.phase = Phase::Dealer;
            }
            Phase::Dealer => {
                self.dealer = action as usize;
                self.phase = Phase::Deal;
            }
            Phase::Deal => {
                let card = action as usize;
                self.dealt[card] = true;
                if self.num_cards_dealt < players * self.num_tricks {
                    let owner = (self.num_cards_dealt % players) as u8;
                    self.holder[card] = Some(owner);
                    self.initial_deal[card] = Some(owner);
                } else {
                    self.trump = Some(card as Card);
                    self.phase = Phase::Bid;
                    self.current_player = (self.dealer + 1) % players;
                }
                self.num_cards_dealt += 1;
            }
            Phase::Bid => {
                self.bids.bids[self.current_player] = Some(action as usize - num_cards);
                self.current_player = (self.current_player + 1) % players;
                if self.current_player == (self.dealer + 1) % players {
                    self.phase = Phase::Play;
                }
            }
            Phase::Play => self.apply_play(action as Card),
            Phase::GameOver => unreachable!("no action is legal at a terminal state"),
        }
        Ok(())
    }

    fn apply_play(&mut self, card: Card) {
        let players = self.params.players;
        self.holder[card as usize] = None;
        if self.trick_cards.is_empty() {
            self.trick_leader = self.current_player;
        }
        self.trick_cards.push(card);
        self.num_cards_played += 1;
        if self.trick_cards.len() == players {
            let trump_suit = self
                .params
                .suit_of(self.trump.expect("trump is dealt before play"));
            let w = trick_winner_index(&self.params, &self.trick_cards, trump_suit);
            let winner = (self.trick_leader + w) % players;
            self.tricks_won[winner] += 1;
            self.current_player = winner;
            self.trick_cards.clear();
        } else {
            self.current_player = (self.current_player + 1) % players;
        }
        if self.num_cards_played == players * self.num_tricks {
            self.phase = Phase::GameOver;
            self.compute_returns();
        }
    }

    fn compute_returns(&mut self) {
        let ppt = self.params.points_per_trick;
        for p in 0..self.params.players {
            let won = self.tricks_won[p] as i64;
            let bid = self.bids.bids[p].expect("everyone bid") as i64;
            let made = won == bid;
            let score = if self.params.off_bid_penalty && !made {
                -ppt * (won - bid).abs()
            } else {
                ppt * won + if made { MADE_BID_BONUS } else { 0 }
            };
            self.returns[p] = score as f64;
        }
    }
}

/// Legal plays of a player whose holdings `holds` tells, when the trick so far was led with `lead`
/// (None when the player leads): cards of the led suit if any, else every card held. Ascending ids.
pub fn legal_plays(
    params: &OhHellParams,
    holds: impl Fn(Card) -> bool,
    lead: Option<Card>,
    out: &mut Vec<Card>,
) {
    out.clear();
    if let Some(lead) = lead {
        let suit = params.suit_of(lead);
        let mut c = suit;
        while c < params.num_cards() {
            if holds(c as Card) {
                out.push(c as Card);
            }
            c += params.num_suits;
        }
        if !out.is_empty() {
            return;
        }
    }
    out.extend((0..params.num_cards() as Card).filter(|&c| holds(c)));
}
