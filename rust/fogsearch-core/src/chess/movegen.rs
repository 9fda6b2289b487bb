//! Pseudo-legal move generation with RBC semantics: kings may stand in and move into check and
//! can be captured; castling needs only the right and empty squares between king and rook; a
//! board without both kings has no moves. E.p. captures and all four promotions are included.

use super::attacks::{
    bishop_attacks, king_attacks, knight_attacks, pawn_attacks, rook_attacks, Sliders,
};
use super::bitboard::Bitboard;
use super::board::Board;
use super::types::{Color, Move, PieceType, Square};

/// A fixed-capacity move list, so generation never allocates.
#[derive(Clone)]
pub struct MoveList {
    moves: [Move; 256],
    len: usize,
}

impl Default for MoveList {
    fn default() -> Self {
        MoveList {
            moves: [Move::new(0, 0, None); 256],
            len: 0,
        }
    }
}

impl MoveList {
    pub fn new() -> MoveList {
        MoveList::default()
    }

    #[inline]
    fn push(&mut self, mv: Move) {
        // 218 is the most moves any position has; RBC castles add at most 2.
        if self.len < self.moves.len() {
            self.moves[self.len] = mv;
            self.len += 1;
        }
    }

    pub fn clear(&mut self) {
        self.len = 0;
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub fn as_slice(&self) -> &[Move] {
        &self.moves[..self.len]
    }

    pub fn contains(&self, mv: &Move) -> bool {
        self.as_slice().contains(mv)
    }

    pub fn iter(&self) -> std::slice::Iter<'_, Move> {
        self.as_slice().iter()
    }
}

const PROMOTIONS: [PieceType; 4] = [
    PieceType::Queen,
    PieceType::Rook,
    PieceType::Bishop,
    PieceType::Knight,
];

/// The deepest perft worth asking for: depth 10 from a middle-game position counts about 10^15
/// nodes, weeks of work (and the recursion needs a frame per ply).
pub const MAX_PERFT_DEPTH: u32 = 10;

/// A perft depth above [`MAX_PERFT_DEPTH`], refused where it enters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PerftTooDeep(pub u32);

impl std::fmt::Display for PerftTooDeep {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "perft depth must be at most {MAX_PERFT_DEPTH} (deeper counts take weeks), got {}",
            self.0
        )
    }
}

impl std::error::Error for PerftTooDeep {}

impl Board {
    /// Appends every RBC pseudo-legal move to `out` (which is cleared first).
    pub fn pseudo_legal_moves(&self, out: &mut MoveList) {
        out.clear();
        if self.is_terminal() {
            return;
        }
        self.generate_moves(out);
    }

    /// Move generation without the terminal-board rule: reconchess lists move actions on a copy of
    /// the board with every enemy piece, the enemy king included, removed.
    pub(crate) fn generate_moves(&self, out: &mut MoveList) {
        let sliders = Sliders::get();
        let us = self.turn;
        let own = self.by_color(us);
        let occupied = self.occupied();
        self.pawn_moves(out);
        for (piece_type, from) in self.officers(us) {
            let targets = sliders.piece(piece_type, from, occupied) & !own;
            for to in targets {
                out.push(Move::new(from, to, None));
            }
        }
        self.castles(|mv| out.push(mv));
    }

    /// The RBC pseudo-legal moves as a fresh list.
    pub fn moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.pseudo_legal_moves(&mut list);
        list
    }

    /// The number of RBC pseudo-legal moves, counted without listing them (bulk perft leaves).
    pub fn count_moves(&self) -> u64 {
        if self.is_terminal() {
            return 0;
        }
        let sliders = Sliders::get();
        let us = self.turn;
        let own = self.by_color(us);
        let occupied = self.occupied();
        let mut count = self.pawn_move_count();
        for (piece_type, from) in self.officers(us) {
            count += (sliders.piece(piece_type, from, occupied) & !own).count() as u64;
        }
        self.castles(|_| count += 1);
        count
    }

    /// Pieces of either colour among `occupied` that attack `square`, sliders seeing only through
    /// squares outside `occupied` (an exchange passes the squares it has already vacated).
    pub fn attackers_to(&self, square: Square, occupied: Bitboard) -> Bitboard {
        let pawns = |color| self.pieces_of(PieceType::Pawn, color);
        let both = |piece_type| self.by_type(piece_type);
        let diagonal = both(PieceType::Bishop) | both(PieceType::Queen);
        let straight = both(PieceType::Rook) | both(PieceType::Queen);
        let attackers = (pawn_attacks(Color::White, square) & pawns(Color::Black))
            | (pawn_attacks(Color::Black, square) & pawns(Color::White))
            | (knight_attacks(square) & both(PieceType::Knight))
            | (king_attacks(square) & both(PieceType::King))
            | (bishop_attacks(square, occupied) & diagonal)
            | (rook_attacks(square, occupied) & straight);
        attackers & occupied
    }

    /// Whether `color`'s king stands where the other side could capture it next move (chess's
    /// "in check", whoever is to move). False on a board without that king.
    pub fn king_attacked(&self, color: Color) -> bool {
        self.king_square(color).is_some_and(|king| {
            let occupied = self.occupied();
            !(self.attackers_to(king, occupied) & self.by_color(color.other())).is_empty()
        })
    }

    pub fn is_pseudo_legal(&self, mv: Move) -> bool {
        let Some(piece) = self.piece_at(mv.from) else {
            return false;
        };
        if piece.color != self.turn || self.is_terminal() {
            return false;
        }
        let mut list = MoveList::new();
        self.pseudo_legal_moves(&mut list);
        list.contains(&mv)
    }

    /// Every non-pawn piece of `color` with its square.
    fn officers(&self, color: Color) -> impl Iterator<Item = (PieceType, Square)> + '_ {
        [
            PieceType::Knight,
            PieceType::Bishop,
            PieceType::Rook,
            PieceType::Queen,
            PieceType::King,
        ]
        .into_iter()
        .flat_map(move |p| self.pieces_of(p, color).map(move |sq| (p, sq)))
    }

    /// Pawn pushes (single and double) as target sets, plus the squares they came from.
    fn pawn_pushes(&self) -> (Bitboard, Bitboard) {
        let empty = !self.occupied();
        let pawns = self.pieces_of(PieceType::Pawn, self.turn);
        match self.turn {
            Color::White => {
                let single = pawns.north() & empty;
                let double = (single & Bitboard::rank(2)).north() & empty;
                (single, double)
            }
            Color::Black => {
                let single = pawns.south() & empty;
                let double = (single & Bitboard::rank(5)).south() & empty;
                (single, double)
            }
        }
    }

    #[inline]
    fn pawn_capture_targets(&self, from: Square) -> Bitboard {
        let mut targets = self.by_color(self.turn.other());
        if let Some(ep) = self.ep_square {
            targets = targets.with(ep);
        }
        pawn_attacks(self.turn, from) & targets
    }

    fn last_rank(&self) -> Bitboard {
        if self.turn == Color::White {
            Bitboard::RANK_8
        } else {
            Bitboard::RANK_1
        }
    }

    fn pawn_moves(&self, out: &mut MoveList) {
        let forward: i8 = if self.turn == Color::White { 8 } else { -8 };
        let last = self.last_rank();
        let mut add = |from: Square, to: Square| {
            if last.contains(to) {
                for p in PROMOTIONS {
                    out.push(Move::new(from, to, Some(p)));
                }
            } else {
                out.push(Move::new(from, to, None));
            }
        };
        for from in self.pieces_of(PieceType::Pawn, self.turn) {
            for to in self.pawn_capture_targets(from) {
                add(from, to);
            }
        }
        let (single, double) = self.pawn_pushes();
        for to in single {
            add((to as i8 - forward) as Square, to);
        }
        for to in double {
            add((to as i8 - 2 * forward) as Square, to);
        }
    }

    fn pawn_move_count(&self) -> u64 {
        let last = self.last_rank();
        let weight = |targets: Bitboard| {
            (targets & !last).count() as u64 + 4 * (targets & last).count() as u64
        };
        let (single, double) = self.pawn_pushes();
        let mut count = weight(single) + double.count() as u64;
        for from in self.pieces_of(PieceType::Pawn, self.turn) {
            count += weight(self.pawn_capture_targets(from));
        }
        count
    }

    /// RBC castles: the right (which implies king and rook at home) and empty squares strictly
    /// between king and rook. Check is irrelevant.
    fn castles(&self, mut emit: impl FnMut(Move)) {
        let (king, rank_base) = if self.turn == Color::White {
            (4u8, 0u8)
        } else {
            (60u8, 56u8)
        };
        let occupied = self.occupied();
        if self.castling.contains(rank_base + 7)
            && (occupied.0 & (0b0110_0000u64 << rank_base)) == 0
        {
            emit(Move::new(king, king + 2, None));
        }
        if self.castling.contains(rank_base) && (occupied.0 & (0b0000_1110u64 << rank_base)) == 0 {
            emit(Move::new(king, king - 2, None));
        }
    }

    /// Bulk-counted RBC pseudo-legal perft.
    /// Bulk-counted pseudo-legal perft. Depths above [`MAX_PERFT_DEPTH`] would run for weeks.
    pub fn perft(&self, depth: u32) -> u64 {
        self.perft_stoppable(depth, &crate::stop::NEVER)
            .unwrap_or(0)
    }

    /// [`Board::perft`], or `None` once `stop` is raised (looked at before each subtree of three
    /// plies or more, so within milliseconds).
    pub fn perft_stoppable(&self, depth: u32, stop: &crate::stop::Stop) -> Option<u64> {
        if depth >= 3 {
            if stop.requested() {
                return None;
            }
            let mut list = MoveList::new();
            self.pseudo_legal_moves(&mut list);
            let mut total = 0;
            for &mv in list.iter() {
                let mut child = self.clone();
                child.push(Some(mv));
                total += child.perft_stoppable(depth - 1, stop)?;
            }
            return Some(total);
        }
        Some(self.perft_small(depth))
    }

    /// [`Board::perft_stoppable`] for a depth from outside: one above [`MAX_PERFT_DEPTH`] is
    /// refused before any work.
    pub fn perft_checked(
        &self,
        depth: u32,
        stop: &crate::stop::Stop,
    ) -> Result<Option<u64>, PerftTooDeep> {
        if depth > MAX_PERFT_DEPTH {
            return Err(PerftTooDeep(depth));
        }
        Ok(self.perft_stoppable(depth, stop))
    }

    fn perft_small(&self, depth: u32) -> u64 {
        match depth {
            0 => 1,
            1 => self.count_moves(),
            _ => {
                let mut list = MoveList::new();
                self.pseudo_legal_moves(&mut list);
                list.iter()
                    .map(|&mv| {
                        let mut child = self.clone();
                        child.push(Some(mv));
                        child.perft_small(depth - 1)
                    })
                    .sum()
            }
        }
    }
}
