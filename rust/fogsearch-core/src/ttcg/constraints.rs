//! What an observer knows about the hidden deal at a public or information state.
//!
//! A *deal assignment* gives every card of the deck an owner code:
//! `0..num_players` for the player who was dealt it, [`DealConstraints::undealt`] for the pile of
//! cards never dealt, and [`DealConstraints::trump_card`] for the face-up trump card. Deal order never
//! changes an information state, so samplers work on assignments, not on ordered deals.

pub use super::cards::Card;
/// Owner code of a card in a deal assignment (see the module docs).
pub type Owner = u8;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DealConstraints {
    pub num_players: usize,
    pub num_suits: usize,
    pub num_ranks: usize,
    /// For every card id: `Some(owner)` when the observer knows who was dealt it (its own hand, a
    /// card already played, the trump card), `None` when it is hidden.
    pub known_owner: Vec<Option<Owner>>,
    /// For every owner code `0..=num_players` (players, then the undealt pile): how many of the
    /// hidden cards it holds. Sums to the number of hidden cards.
    pub hidden_counts: Vec<usize>,
    /// `voids[p][s]`: player `p` has shown, by failing to follow suit, that it holds no hidden card
    /// of suit `s`. The undealt pile is never void.
    pub voids: Vec<Vec<bool>>,
}

impl DealConstraints {
    pub fn num_cards(&self) -> usize {
        self.num_suits * self.num_ranks
    }

    /// Owner code of the undealt pile.
    pub fn undealt(&self) -> Owner {
        self.num_players as Owner
    }

    /// Owner code of the face-up trump card.
    pub fn trump_card(&self) -> Owner {
        self.num_players as Owner + 1
    }

    pub fn suit_of(&self, card: Card) -> usize {
        card as usize % self.num_suits
    }

    /// The hidden cards, in ascending id order.
    pub fn hidden_cards(&self) -> Vec<Card> {
        (0..self.num_cards() as Card)
            .filter(|&c| self.known_owner[c as usize].is_none())
            .collect()
    }
}
