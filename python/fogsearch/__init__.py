"""fogsearch: search for imperfect-information games.

Submodules:
- :mod:`fogsearch.rbc`: Reconnaissance Blind Chess board sets and information-set search;
- :mod:`fogsearch.sketch`: CountSketch, top-k and MinHash;
- :mod:`fogsearch.ttcg`: trick-taking card games (Oh Hell) and history samplers;
- :mod:`fogsearch.jps`: Joint Policy Search and CFR on paper 002's collaborative games.
"""

from fogsearch._core import ConcurrentUseError, FogsearchError, __version__

__all__ = ["ConcurrentUseError", "FogsearchError", "__version__"]
