//! OpenSpiel's numbering of who acts, for the arrays the Python wrappers compare with pyspiel.

use super::tree::Actor;

/// OpenSpiel's player id of chance nodes (`pyspiel.PlayerId.CHANCE`).
pub const OPENSPIEL_CHANCE_PLAYER: i64 = -1;
/// OpenSpiel's player id of terminal states (`pyspiel.PlayerId.TERMINAL`).
pub const OPENSPIEL_TERMINAL_PLAYER: i64 = -4;

impl Actor {
    /// Who acts, as OpenSpiel numbers it: a player's seat, or the chance / terminal id.
    pub fn openspiel_player_id(self) -> i64 {
        match self {
            Actor::Chance => OPENSPIEL_CHANCE_PLAYER,
            Actor::Terminal => OPENSPIEL_TERMINAL_PLAYER,
            Actor::Player(p) => i64::from(p),
        }
    }

    /// The actor OpenSpiel's id names; `None` for an id that names none here (a seat above 255,
    /// or one of OpenSpiel's other special ids).
    pub fn from_openspiel_player_id(id: i64) -> Option<Self> {
        match id {
            OPENSPIEL_CHANCE_PLAYER => Some(Actor::Chance),
            OPENSPIEL_TERMINAL_PLAYER => Some(Actor::Terminal),
            seat => u8::try_from(seat).ok().map(Actor::Player),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn actors_get_openspiels_ids() {
        assert_eq!(Actor::Chance.openspiel_player_id(), -1);
        assert_eq!(Actor::Terminal.openspiel_player_id(), -4);
        assert_eq!(Actor::Player(1).openspiel_player_id(), 1);
        for actor in [
            Actor::Chance,
            Actor::Terminal,
            Actor::Player(0),
            Actor::Player(255),
        ] {
            assert_eq!(
                Actor::from_openspiel_player_id(actor.openspiel_player_id()),
                Some(actor)
            );
        }
        assert_eq!(Actor::from_openspiel_player_id(-2), None);
        assert_eq!(Actor::from_openspiel_player_id(256), None);
    }
}
