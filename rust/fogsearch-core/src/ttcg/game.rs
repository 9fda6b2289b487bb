//! The generic trick-taking layer: what a game declares once (deck, seats and teams, bidding or
//! none, scoring), and what chance fixes for one deal ([`Table`]). Legal plays (follow suit) and
//! the trick winner (highest trump, else highest of the led suit) are the same for every game on
//! the layer and live in [`super::cards::Deck`]; the play itself is `TableState` (module `play`).
//!
//! Everything above the layer — observations, reach probabilities, the max-flow construction,
//! both Gibbs kernels, enumeration, the baselines, the rule-based players and the searching
//! player — takes a `&dyn TrickGame`, so a new game is one implementation of this trait.

use std::fmt;

use super::cards::{Card, Deck, Hand};

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

/// Restrictions some games add to following suit (Hearts: the two of clubs opens, no points on
/// the first trick, hearts not led until broken). Every restriction gives way when it would leave
/// the seat nothing to play. The default restricts nothing.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct PlayRules {
    /// The cards the first trick may be led with, when the leader holds one (Hearts: the two of
    /// clubs, whose holder leads).
    pub opening: Hand,
    /// Cards a seat that cannot follow suit may not discard on the first trick.
    pub first_trick_banned: Hand,
    /// Cards that may not be led until a card of `breaking` has been played.
    pub lead_banned_until_broken: Hand,
    pub breaking: Hand,
}

impl PlayRules {
    /// The cards of `hand` the rules allow, `in_led_suit` being the hand's cards of the suit led
    /// (0 when leading or when the hand has none).
    #[inline]
    pub fn restrict(&self, hand: Hand, in_led_suit: Hand, public: &PublicPlay) -> Hand {
        if public.trick_len > 0 {
            if in_led_suit != 0 {
                return in_led_suit;
            }
            if public.tricks_done > 0 {
                return hand;
            }
            return allowed_or_all(hand, self.first_trick_banned);
        }
        if public.played == 0 && hand & self.opening != 0 {
            return hand & self.opening;
        }
        if public.played & self.breaking != 0 {
            return hand;
        }
        allowed_or_all(hand, self.lead_banned_until_broken)
    }
}

/// The cards of `hand` outside `banned`, or the whole hand when that leaves nothing.
#[inline]
fn allowed_or_all(hand: Hand, banned: Hand) -> Hand {
    let allowed = hand & !banned;
    if allowed != 0 {
        allowed
    } else {
        hand
    }
}

/// Who acts: bidders, players of cards, or nobody once play is over.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Phase {
    Bid,
    Play,
    Over,
}

/// A seat that has not bid.
pub(crate) const NO_BID: u8 = u8::MAX;

/// What every seat at the table has seen of play: bids, the trick in progress, the cards played
/// and who took which. The hidden part of the deal (who holds what) is not here, so a policy or a
/// rule-based player given a `&PublicPlay` and its own hand cannot peek.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PublicPlay {
    pub phase: Phase,
    pub players: u8,
    pub to_act: u8,
    pub(crate) bids: [u8; MAX_PLAYERS],
    pub num_bids: u8,
    pub(crate) trick: [Card; MAX_PLAYERS],
    pub trick_len: u8,
    /// The seat that led the trick in progress (or leads the next one).
    pub leader: u8,
    /// Every card played so far, the trick in progress included.
    pub played: Hand,
    /// The cards each seat has taken in the tricks it won.
    pub taken: [Hand; MAX_PLAYERS],
    pub tricks_won: [u8; MAX_PLAYERS],
    pub tricks_done: u8,
    /// Bit `s` set: the seat has shown, by not following suit `s`, that it holds none.
    pub voids: [u8; MAX_PLAYERS],
}

impl PublicPlay {
    /// Whether `seat` has shown it holds no card of `suit`.
    #[inline]
    pub fn is_void(&self, seat: usize, suit: usize) -> bool {
        self.voids[seat] >> suit & 1 == 1
    }

    /// The cards of the trick in progress, the lead first.
    #[inline]
    pub fn trick(&self) -> &[Card] {
        &self.trick[..self.trick_len as usize]
    }

    #[inline]
    pub fn lead(&self) -> Option<Card> {
        (self.trick_len > 0).then(|| self.trick[0])
    }

    /// The seat that played the `i`-th card of the trick in progress.
    #[inline]
    pub fn seat_of_trick_card(&self, i: usize) -> usize {
        (self.leader as usize + i) % self.players as usize
    }

    pub fn bid(&self, seat: usize) -> Option<usize> {
        (self.bids[seat] != NO_BID).then(|| self.bids[seat] as usize)
    }

    /// The sum of the bids made so far.
    pub fn bid_sum(&self) -> usize {
        (0..self.players as usize).filter_map(|s| self.bid(s)).sum()
    }

    /// The seat currently winning the trick in progress (None before its lead).
    pub fn winning_seat(&self, deck: &Deck, table: &Table) -> Option<usize> {
        (self.trick_len > 0).then(|| {
            self.seat_of_trick_card(deck.trick_winner(self.trick(), table.trump_suit(deck)))
        })
    }
}

/// The three facts of a game whose table never changes (Gongzhu, Hearts: one name, one deck,
/// four seats), written as [`TrickGame`]'s methods inside its `impl`; a game with parameters
/// (Oh Hell's seats and deck) writes them itself.
macro_rules! fixed_table {
    ($name:literal, $deck:expr, $players:expr) => {
        fn name(&self) -> &'static str {
            $name
        }

        fn deck(&self) -> Deck {
            $deck
        }

        fn num_players(&self) -> usize {
            $players
        }
    };
}
pub(crate) use fixed_table;

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

    /// What the game adds to following suit (nothing by default).
    fn play_rules(&self) -> PlayRules {
        PlayRules::default()
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
