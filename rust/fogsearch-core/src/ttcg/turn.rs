//! What a seat knows when it acts: the game, play at the table (its own hand; the other hands are
//! in the state but players read only their own), its dealt hand, and the public actions so far,
//! from which samplers rebuild its information state.

use std::sync::Arc;

use super::game::{Action, TrickGame};
use super::gongzhu_players::SeatView;
use super::play::TableState;

/// What a seat knows when it acts.
#[derive(Clone, Copy, Debug)]
pub struct Turn<'a> {
    pub game: &'a Arc<dyn TrickGame>,
    pub state: &'a TableState,
    /// The seat's dealt hand.
    pub dealt: u64,
    /// Every bid and play so far, in order.
    pub public_actions: &'a [Action],
}

impl Turn<'_> {
    pub fn seat(&self) -> usize {
        self.state.to_act()
    }

    pub fn seat_view(&self) -> SeatView<'_> {
        SeatView::at(self.state, self.seat())
    }
}
