//! Oh Hell with exactly OpenSpiel's `oh_hell` rules, parameters and action ids.
//!
//! Chance picks the number of tricks (action = the number), then the dealer (action = player), then
//! deals cards one by one round-robin starting with player 0 (action = card id), then turns up one
//! card whose suit is trump. Bidding starts left of the dealer; a bid `b` is action
//! `num_cards + b`; the last bidder may not make the bids sum to the number of tricks. Play follows
//! suit when possible; the highest trump, else the highest card of the led suit, wins and leads next.

use super::cards::{cards_of, Card, Deck, Hand};
use super::encoding::{Reader, Writer};
use super::error::{invalid, TtcgError};
pub use super::game::Action;
use super::game::{Scores, Table, TrickGame, MAX_PLAYERS};
use super::play::{Phase, PublicPlay, TableState};

pub const MIN_PLAYERS: usize = 3;
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
}

/// Where an OpenSpiel oh_hell history stands: the three kinds of chance node, then the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OhHellPhase {
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

impl TrickGame for OhHellParams {
    fn name(&self) -> &'static str {
        "oh_hell"
    }

    fn deck(&self) -> Deck {
        Deck::new(self.num_suits, self.num_cards_per_suit)
    }

    fn num_players(&self) -> usize {
        self.players
    }

    fn has_bidding(&self) -> bool {
        true
    }

    /// Every bid of `0..=num_tricks`, except that the last to bid may not make the total equal
    /// the number of tricks.
    fn legal_bids(&self, table: &Table, public: &PublicPlay, _seat: usize) -> u64 {
        let all = (1u64 << (table.num_tricks + 1)) - 1;
        if public.num_bids as usize + 1 == self.players {
            let sum = public.bid_sum();
            if sum <= table.num_tricks {
                return all & !(1u64 << (table.num_tricks - sum));
            }
        }
        all
    }

    /// `points_per_trick` per trick won, plus [`MADE_BID_BONUS`] for an exact bid; with
    /// `off_bid_penalty`, a missed bid instead loses `points_per_trick` per trick it was off by.
    fn points(&self, table: &Table, public: &PublicPlay) -> Scores {
        let _ = table;
        let ppt = self.points_per_trick;
        let mut out = [0.0; MAX_PLAYERS];
        for (p, score) in out.iter_mut().enumerate().take(self.players) {
            let won = public.tricks_won[p] as i64;
            let bid = public.bid(p).map_or(-1, |b| b as i64);
            let made = won == bid;
            *score = if self.off_bid_penalty && !made {
                -ppt * (won - bid).abs()
            } else {
                ppt * won + if made { MADE_BID_BONUS } else { 0 }
            } as f64;
        }
        out
    }
}

/// An oh_hell state exactly as OpenSpiel's: the chance nodes, then play at the table;
/// `apply_action` validates, so an illegal action is an error, never a panic.
#[derive(Clone, Debug)]
pub struct OhHellState {
    params: OhHellParams,
    num_tricks: usize,
    dealer: usize,
    num_cards_dealt: usize,
    /// Cards dealt so far (the trump card included).
    dealt: Hand,
    /// Each seat's dealt hand.
    hands: [Hand; MAX_PLAYERS],
    trump: Option<Card>,
    /// Play at the table, once the trump card is turned up.
    table: Option<TableState>,
    history: Vec<Action>,
}

impl OhHellState {
    pub fn new(params: OhHellParams) -> Result<Self, TtcgError> {
        params.validate()?;
        Ok(OhHellState {
            params,
            num_tricks: 0,
            dealer: 0,
            num_cards_dealt: 0,
            dealt: 0,
            hands: [0; MAX_PLAYERS],
            trump: None,
            table: None,
            history: Vec::new(),
        })
    }

    /// The state as bytes: its parameters and history ([`super::encoding`]).
    pub fn to_bytes(&self) -> Vec<u8> {
        let p = &self.params;
        Writer::new(b"FSOH")
            .i64(p.players as i64)
            .i64(p.num_suits as i64)
            .i64(p.num_cards_per_suit as i64)
            .i64(p.num_tricks_fixed)
            .i64(p.off_bid_penalty as i64)
            .i64(p.points_per_trick)
            .actions(&self.history)
    }

    /// Inverse of [`Self::to_bytes`]; the parameters are validated and the history replayed.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, TtcgError> {
        let mut r = Reader::new(bytes, b"FSOH", "oh_hell state")?;
        let mut count = || -> Result<usize, TtcgError> {
            usize::try_from(r.i64()?).map_err(|_| {
                TtcgError::InvalidInput("the encoded oh_hell state has a negative count".into())
            })
        };
        let (players, num_suits, num_cards_per_suit) = (count()?, count()?, count()?);
        let params = OhHellParams {
            players,
            num_suits,
            num_cards_per_suit,
            num_tricks_fixed: r.i64()?,
            off_bid_penalty: r.i64()? != 0,
            points_per_trick: r.i64()?,
        };
        Self::from_actions(params, &r.actions()?)
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

    pub fn phase(&self) -> OhHellPhase {
        match &self.table {
            Some(t) => match t.phase() {
                Phase::Bid => OhHellPhase::Bid,
                Phase::Play => OhHellPhase::Play,
                Phase::Over => OhHellPhase::GameOver,
            },
            None if self.history.is_empty() => OhHellPhase::ChooseNumTricks,
            None if self.history.len() == 1 => OhHellPhase::Dealer,
            None => OhHellPhase::Deal,
        }
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
    pub fn is_terminal(&self) -> bool {
        self.phase() == OhHellPhase::GameOver
    }

    /// Play at the table (after the trump card is turned up).
    pub fn table_state(&self) -> Option<&TableState> {
        self.table.as_ref()
    }

    /// What chance fixed apart from the hands (after the trump card is turned up).
    pub fn table(&self) -> Option<Table> {
        self.table.map(|t| t.table)
    }

    /// The bids and plays so far (the history after the deal and the trump card).
    pub fn public_actions(&self) -> &[Action] {
        let deal_len = 2 + self.params.players * self.num_tricks + 1;
        &self.history[deal_len.min(self.history.len())..]
    }

    /// Each seat's dealt hand.
    pub fn dealt_hands(&self) -> &[Hand] {
        &self.hands[..self.params.players]
    }

    /// Who was dealt each card (None for undealt cards and the trump card).
    pub fn initial_deal(&self) -> Vec<Option<u8>> {
        (0..self.params.num_cards())
            .map(|c| {
                (0..self.params.players)
                    .find(|&p| self.hands[p] >> c & 1 == 1)
                    .map(|p| p as u8)
            })
            .collect()
    }

    pub fn actor(&self) -> Actor {
        match &self.table {
            Some(t) if t.is_over() => Actor::Terminal,
            Some(t) => Actor::Player(t.to_act()),
            None => Actor::Chance,
        }
    }

    /// Returns so far (zero until the game is over).
    pub fn returns(&self) -> Vec<f64> {
        match &self.table {
            Some(t) if t.is_over() => t.returns(&self.params)[..self.params.players].to_vec(),
            _ => vec![0.0; self.params.players],
        }
    }

    /// Legal actions in ascending id order; chance outcomes at chance nodes (all equiprobable).
    pub fn legal_actions(&self) -> Vec<Action> {
        let p = &self.params;
        match self.phase() {
            OhHellPhase::ChooseNumTricks => {
                if p.num_tricks_fixed == RANDOM_NUM_TRICKS {
                    (1..=p.max_num_tricks() as Action).collect()
                } else {
                    vec![p.num_tricks_fixed as Action]
                }
            }
            OhHellPhase::Dealer => (0..p.players as Action).collect(),
            OhHellPhase::Deal => cards_of(p.deck().all() & !self.dealt)
                .map(|c| c as Action)
                .collect(),
            _ => self
                .table
                .as_ref()
                .map_or(Vec::new(), |t| t.legal_action_vec(&self.params)),
        }
    }

    pub fn is_legal(&self, action: Action) -> bool {
        match &self.table {
            Some(t) => t.is_legal(&self.params, action),
            None => self.legal_actions().contains(&action),
        }
    }

    pub fn apply_action(&mut self, action: Action) -> Result<(), TtcgError> {
        if !self.is_legal(action) {
            return invalid(format!(
                "action {action} is not legal in phase {:?} (legal: {:?})",
                self.phase(),
                self.legal_actions()
            ));
        }
        let players = self.params.players;
        match self.phase() {
            OhHellPhase::ChooseNumTricks => self.num_tricks = action as usize,
            OhHellPhase::Dealer => self.dealer = action as usize,
            OhHellPhase::Deal => {
                let card = action as Card;
                self.dealt |= 1u64 << card;
                if self.num_cards_dealt < players * self.num_tricks {
                    // Round-robin from player 0, one card at a time.
                    self.hands[self.num_cards_dealt % players] |= 1u64 << card;
                } else {
                    self.trump = Some(card);
                    let table = Table {
                        num_tricks: self.num_tricks,
                        dealer: self.dealer,
                        trump_card: Some(card),
                    };
                    self.table = Some(TableState::new(&self.params, table, &self.hands));
                }
                self.num_cards_dealt += 1;
            }
            _ => self
                .table
                .as_mut()
                .expect("the table exists once bidding starts")
                .apply(action),
        }
        self.history.push(action);
        Ok(())
    }
}
