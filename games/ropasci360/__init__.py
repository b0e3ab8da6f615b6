"""RoPaSci 360, the simultaneous-move hex game of COMP30024 (2021): rules, referee logs, bot evaluation
and the site's adapter. Django only in ``ui``; the rules are pure Python, with optional C speedups of their hot
paths (``_speedups.c``, built by ``make setup``; ``rules.py`` stays the reference and the fallback)."""
from games.engine.api import check_params

NAME = "ropasci360"


def make_game(**params):
    from .rules import GAME
    check_params(NAME, params, {})
    return GAME
