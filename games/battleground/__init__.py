"""The course's online battleground, revived: a TCP server speaking the 2021 COMP30024 "ROPASCI protocol", so
that the course's own client (``python -m battleground PLAYER NAME [CHANNEL] -H HOST -P PORT``) plays its agent
here, unmodified, against other agents or the site's bots.

The wire: one JSON object per line (UTF-8, ``\\n``), its type in ``"mtype"``. The client sends ``PLAY {name,
channel}``; the server answers ``OKAY`` and, while it looks for an opponent, sends ``OKAY`` every few seconds
(the client answers ``OKAY``); then ``GAME {<seat>: name, ...}`` and ``INIT {colour}`` (answered ``OKAY``); each
turn ``TURN``, answered ``ACTN {action}`` (the action as the API's JSON), then ``UPD8 {player_action,
opponent_action}`` answered ``OKAY``; at the end ``OVER {result}`` (the referee's result line), or ``ERRO
{reason}`` for a client that broke the protocol or played an illegal action.

Every game is an ordinary game of the site, made and played through the write side (``games.play.services``):
the turn log is the source of truth, pages watch it live, the replay and ratings follow. The game served is the
one whose ``course`` module says ``BATTLEGROUND = True`` (``served``). ``server.serve`` listens; ``pairing``
matches clients by channel; ``match`` plays one game; ``watch`` waits for a game's next change.
"""
