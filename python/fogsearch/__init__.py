"""fogsearch: search for imperfect-information games.

Submodules:
- :mod:`fogsearch.rbc`: Reconnaissance Blind Chess board sets and information-set search;
- :mod:`fogsearch.sketch`: CountSketch, top-k and MinHash;
- :mod:`fogsearch.ttcg`: trick-taking card games (Oh Hell) and history samplers.
"""

from fogsearch._core import ConcurrentUseError, FogsearchError, __version__

__all__ = ["ConcurrentUseError", "FogsearchError", "__version__"]
