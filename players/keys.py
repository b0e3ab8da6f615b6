"""API keys: an account's programs play through them (``Authorization: Key <key>``). Making one turns the
account into a bot account that people may challenge; only a hash of a key is stored, the key is shown once."""
from __future__ import annotations

import secrets
from dataclasses import dataclass

from django.db import transaction
from django.utils import timezone

from games.models import hash_token
from games.play.services import Conflict, Forbidden, NotFound

from .models import ApiKey, Profile

MAX_KEYS = 10  # active keys per account
KEY_USED_EVERY = 60  # seconds: how often ``last_used`` is written


@dataclass
class NewKey:
    key: ApiKey
    secret: str  # shown once


def create_api_key(user, name: str = "") -> NewKey:
    """A new key for ``user``'s programs; the account becomes a bot account (people may challenge it)."""
    if user is None or not user.is_authenticated:
        raise Forbidden("log in to make an API key")
    name = (name or "").strip()[:60]
    with transaction.atomic():
        profile, _ = Profile.objects.select_for_update().get_or_create(user=user)
        if ApiKey.objects.filter(user=user, revoked__isnull=True).count() >= MAX_KEYS:
            raise Conflict(f"you have {MAX_KEYS} active keys: revoke one first")
        secret = ApiKey.PREFIX + secrets.token_urlsafe(32)
        key = ApiKey.objects.create(user=user, name=name, prefix=secret[:12], key_hash=hash_token(secret))
        if not profile.is_bot:
            profile.is_bot = True
            profile.save(update_fields=["is_bot"])
    return NewKey(key, secret)


def revoke_api_key(user, key_id) -> ApiKey:
    with transaction.atomic():
        key = ApiKey.objects.select_for_update().filter(pk=_int(key_id), user=user).first()
        if key is None:
            raise NotFound("no such key of yours")
        if key.revoked is None:
            key.revoked = timezone.now()
            key.save(update_fields=["revoked"])
    return key


def user_for_key(secret: str | None):
    """The account whose active key ``secret`` is; Forbidden for a missing, unknown or revoked key."""
    if not secret:
        raise Forbidden("missing key (send 'Authorization: Key <key>')")
    key = ApiKey.objects.select_related("user").filter(key_hash=hash_token(secret)).first()
    if key is None or not key.user.is_active:
        raise Forbidden("unknown key")
    if key.revoked is not None:
        raise Forbidden("this key was revoked")
    now = timezone.now()
    if key.last_used is None or (now - key.last_used).total_seconds() > KEY_USED_EVERY:
        ApiKey.objects.filter(pk=key.pk).update(last_used=now)
    return key.user


def _int(value) -> int:
    try:
        return int(str(value)[:12])
    except ValueError:
        raise NotFound("no such key of yours") from None
