"""An RBC server that speaks the HTTP API of the official one (https://rbc.jhuapl.edu), as
reconchess 1.6.9's ``rc-connect`` and ``RemoteGame`` use it, and our client for both.

- :mod:`~fogsearch.server.store`: users, matches and every game in SQLite (restart-safe);
- :mod:`~fogsearch.server.game`: one game, reconchess's own ``LocalGame`` behind a lock;
- :mod:`~fogsearch.server.registry`: users, invitations and the games in play;
- :mod:`~fogsearch.server.handler`: the HTTP routes, basic auth and JSON bodies;
- :mod:`~fogsearch.server.pairing`: ``--pair``, a match of N games between two connected users;
- :mod:`~fogsearch.server.client`: ``fogsearch connect``, a bot's client that ponders;
- :mod:`~fogsearch.server.command`: the ``serve`` and ``connect`` subcommands.
"""
