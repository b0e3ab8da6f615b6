"""What the services announce. ``game_changed`` is sent after a change to a game commits (never inside the
transaction); the broadcaster, the bot runner and the turn clock listen (connected in ``apps.py``), so the
services import none of them."""
from django.dispatch import Signal

game_changed = Signal()  # kwargs: game_id, turn, over (it finished or was aborted), deadline
# (the turn clock's end, or None), version (``Game.version`` as saved), bots_to_act (a bot seat is among
# the seats to act), game (after a turn's change: the ``Game`` as saved, with the seats it has read;
# read-only; else None): listeners that care only about some changes need not read the game

game_created = Signal()  # kwargs: game_id, user (the person who made it), options (the lobby form's cleaned
# data, e.g. "rated"): sent by the lobby once a person's new game is stored, so that other apps (ratings) add
# their part without the lobby naming them
