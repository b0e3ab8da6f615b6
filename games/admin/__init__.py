"""Staff admin for games: find games fast, read what happened, act on broken ones.

* Games list (``gameadmin.py``): players from prefetched seats (no per-row queries), filters on kind, status,
  result, source, bot level, seat kinds and date (``filters.py``); search by game id or player name without
  joins (``pk IN (subquery)``); a count that stops at a cap.
* A game's page: read-only seats, pending actions and turn log (``inlines.py``; actions in the referee's
  notation, battles: ``texts.py``), links to the replay, the live page and the referee log, and a board thumbnail.
* Actions: abort live games (``services.abort`` broadcasts after commit), export referee logs as a zip,
  re-queue stuck bot moves. The same abort / re-queue are buttons on a game's page.
* A staff dashboard at ``/admin/games/game/dashboard/`` (linked from the admin index; figures in ``stats.py``).

Seat token hashes are never shown: ``token_hash`` is in no field list, only "claimed" yes/no.

Django's autodiscovery imports ``games.admin``; importing ``gameadmin.py`` here registers ``GameAdmin``.
"""
from games.admin import gameadmin  # noqa: F401  (registers the Game admin)
