//! Chess core: bitboards, FEN, Zobrist keys and pseudo-legal move generation with RBC semantics.
