//! Streaming sketches: CountSketch with top-k tracking, MinHash signatures and set ids.
