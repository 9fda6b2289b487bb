//! Information-set alpha-beta search for RBC, with CountSketch/MinHash bounds.
