//! Trick-taking card games: Oh Hell, history construction and the TTCG Gibbs sampler.
