//! Sensing: the 3×3 window reconchess reveals around a sense square.

use crate::chess::{Board, Piece, Square};

/// What a sense reveals: each square of the window with its piece, in reconchess's order.
pub type SenseResult = Vec<(Square, Option<Piece>)>;

/// The 36 non-edge squares (b2 … g7): every other sense is dominated by one of these.
pub const SENSE_SQUARES: [Square; 36] = {
    let mut out = [0u8; 36];
    let mut i = 0;
    let mut rank = 1;
    while rank < 7 {
        let mut file = 1;
        while file < 7 {
            out[i] = rank * 8 + file;
            i += 1;
            file += 1;
        }
        rank += 1;
    }
    out
};

/// The squares a sense at `center` reveals, in reconchess's order (rank +1, 0, −1; file −1, 0, +1),
/// clipped to the board.
pub fn sense_squares(center: Square) -> Vec<Square> {
    let (rank, file) = ((center / 8) as i8, (center % 8) as i8);
    let mut out = Vec::with_capacity(9);
    for dr in [1i8, 0, -1] {
        for df in [-1i8, 0, 1] {
            let (r, f) = (rank + dr, file + df);
            if (0..8).contains(&r) && (0..8).contains(&f) {
                out.push((r * 8 + f) as Square);
            }
        }
    }
    out
}

/// What sensing at `center` on `board` reveals.
pub fn sense_result(board: &Board, center: Square) -> SenseResult {
    sense_squares(center)
        .into_iter()
        .map(|sq| (sq, board.piece_at(sq)))
        .collect()
}
