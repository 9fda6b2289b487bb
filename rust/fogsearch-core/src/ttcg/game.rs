//! The generic trick-taking layer: what a game declares once (deck, seats and teams, bidding or
//! none, scoring), and what chance fixes for one deal ([`Table`]). Legal plays (follow suit) and
//! the trick winner (highest trump, else highest of the led suit) are the same for every game on
//! the layer and live in [`super::cards::Deck`]; the play itself is [`super::play::TableState`].
//!
//! Everything above the layer — observations, reach probabilities, the max-flow construction,
//! both Gibbs kernels, enumeration, the baselines, the rule-based players and the searching
//! player — takes a `&dyn TrickGame`, so a new game is one implementation of this trait.

use std::fmt;

use super::cards::{Card, Deck};
use super::play::PublicPlay;

/// An action id: a card id for a play, `num_cards + b` for the bid `b` (OpenSpiel's oh_hell
/// numbering, which every game on the layer shares).
pub type Action = u32;

/// The most seats a table has (Oh Hell allows seven).
pub const MAX_PLAYERS: usize = 7;

/// Points or returns of every seat (entries past the game's seats are zero).
pub type Scores = [f64; MAX_PLAYERS];

/// What chance fixed for one deal, apart from the hands: how many cards each seat holds (one trick
/// per card), who dealt (bidding and the first trick start at the dealer's left), and the face-up
/// card whose suit is trump, if the game turns one up.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Table {
    pub num_tricks: usize,
    pub dealer: usize,
    pub trump_card: Option<Card>,
}

impl Table {
    pub fn trump_suit(&self, deck: &Deck) -> Option<usize> {
        self.trump_card.map(|c| deck.suit_of(c))
    }

    /// The seat left of the dealer: it bids first and leads the first trick.
    pub fn first_seat(&self, players: usize) -> usize {
        (self.dealer + 1) % players
    }
}

/// A trick-taking game, declared once.
pub trait TrickGame: Send + Sync + fmt::Debug {
    /// The game's name, as OpenSpiel would register it ("oh_hell", "gongzhu").
    fn name(&self) -> &'static str;

    fn deck(&self) -> Deck;

    fn num_players(&self) -> usize;

    /// The number of teams; seats of one team play for the same return.
    fn num_teams(&self) -> usize {
        self.num_players()
    }

    fn team_of(&self, seat: usize) -> usize {
        seat
    }

    /// Whether play is preceded by one round of bids, starting left of the dealer.
    fn has_bidding(&self) -> bool {
        false
    }

    /// The bids `seat` may make now (bit `b` set: bid `b` is legal), given the bids so far in
    /// `public`. Only asked when [`Self::has_bidding`].
    fn legal_bids(&self, _table: &Table, _public: &PublicPlay, _seat: usize) -> u64 {
        0
    }

    /// Each seat's own points once every trick is played.
    fn points(&self, table: &Table, public: &PublicPlay) -> Scores;

    /// What each seat plays for once every trick is played: its own points by default; team
    /// games override this (Gongzhu: the seat's team's points minus the other team's).
    fn returns(&self, table: &Table, public: &PublicPlay) -> Scores {
        self.points(table, public)
    }

    /// The hidden cards whose placement moves a deal's value most, most important first: the
    /// strata of stratified sampling (ScrofaZero §5.3) are the placements of the first few that
    /// are hidden. By default the trump suit from the top, then the other suits' top cards.
    fn key_cards(&self, table: &Table) -> Vec<Card> {
        let deck = self.deck();
        let trump = table.trump_suit(&deck);
        let mut out = Vec::new();
        for rank in (0..deck.num_ranks).rev() {
            if let Some(t) = trump {
                out.push(deck.card(rank, t));
            }
        }
        for rank in (0..deck.num_ranks).rev() {
            for suit in (0..deck.num_suits).filter(|&s| Some(s) != trump) {
                out.push(deck.card(rank, suit));
            }
        }
        out
    }

    /// The action id of bid `bid`.
    fn bid_action(&self, bid: usize) -> Action {
        (self.deck().num_cards() + bid) as Action
    }

    /// Whether `action` is a bid (ids above the deck's cards).
    fn is_bid(&self, action: Action) -> bool {
        action as usize >= self.deck().num_cards()
    }
}
