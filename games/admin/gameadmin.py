"""The games list and a game's page: ``GameAdmin`` (registered here), its actions (abort, export referee logs,
re-queue bot moves), the same abort / re-queue as buttons, the dashboard's URL, and the list's capped count."""
from __future__ import annotations

import io
import zipfile

from django.contrib import admin, messages
from django.contrib.admin.views.main import ChangeList
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.db.models import Exists, OuterRef, Prefetch
from django.http import HttpResponse, HttpResponseNotAllowed, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.templatetags.static import static
from django.template.loader import render_to_string
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils import timezone
from django.utils.functional import cached_property
from django.utils.html import format_html, format_html_join
from django.utils.safestring import mark_safe

from games.admin.filters import BotLevelFilter, KindFilter, PlayersFilter, ResultFilter
from games.admin.inlines import PendingActionInline, SeatInline, TurnInline
from games.admin.stats import LIVE_STATUSES, dashboard_stats
from games.admin.texts import engine_or_none, seat_label, short_time
from games.engine.ui import ui_for
from games.live import botrunner
from games.models import Game, Seat
from games.play import services
from games.read import gamelog

EXPORT_LIMIT = 2000  # games per zip: each log is one query and the zip is built in memory
COUNT_CAP = 10_000  # the games list counts this many at most (then "more than"): see CappedPaginator
NAME_MATCHES = 5_000  # a name search that matches at most this many seats lists their games by key


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ("id", "kind", "players", "status", "result", "turn", "source", "created_at", "last_activity")
    list_display_links = ("id",)
    list_filter = (KindFilter, "status", ResultFilter, "source", BotLevelFilter, PlayersFilter, "ending",
                   "created")
    # No date_hierarchy: its SELECT DISTINCT month-of(created) scans every row (0.7 s of a 0.8 s page on
    # 100,000 games in SQLite); the "created" list filter (today / past 7 days / this month / this year)
    # costs no query.
    search_fields = ("=id", "seats__display_name")  # shown as the search box; see get_search_results
    search_help_text = "Game id, or part of a player's name."
    ordering = ("-created",)
    list_per_page = 50
    show_full_result_count = False
    actions = ("abort_games", "export_logs", "requeue_bot_moves")
    inlines = (SeatInline, PendingActionInline, TurnInline)
    fieldsets = (
        (None, {"fields": ("id", "kind", "source", "status", "result", "ending", "turn", "turn_seconds",
                           "turn_started", "created", "updated", "note")}),
        ("Links", {"fields": ("links",)}),
        ("Board", {"fields": ("board",)}),
        ("Parameters", {"fields": ("params",), "classes": ("collapse",)}),
    )
    readonly_fields = ("id", "kind", "source", "status", "result", "ending", "turn", "turn_seconds",
                       "turn_started", "created", "updated", "links", "board", "params")

    # -- queries --

    def get_queryset(self, request):
        # Order the prefetched seats by id: Seat's default ordering ("game", ...) would join games_game
        # and sort by the game's ordering (70-130 ms a page on 100,000 games in PostgreSQL).
        return super().get_queryset(request).prefetch_related(Prefetch("seats", Seat.objects.order_by("id")))

    def get_changelist(self, request, **kwargs):
        return GameChangeList

    def get_search_results(self, request, queryset, search_term):
        """An exact game id, else a player's name containing the term (``pk IN (subquery)``, so the list
        needs no DISTINCT over a join). An id costs one primary-key lookup and skips the name scan."""
        term = search_term.strip()
        if not term:
            return queryset, False
        if len(term) <= 16 and Game.objects.filter(pk=term).exists():
            return queryset.filter(pk=term), False
        by_name = Seat.objects.filter(display_name__icontains=term).values("game_id")
        # The matching games' keys first (the trigram index finds them): a list of keys is cheap to page by
        # date, where the planner, misjudging how rare a name is, would walk the games by date and look for
        # their seats one by one (0.4 s on a million games).
        ids = list(by_name.order_by()[:NAME_MATCHES + 1].values_list("game_id", flat=True))
        if len(ids) <= NAME_MATCHES:
            return queryset.filter(pk__in=set(ids)), False
        return queryset.filter(pk__in=by_name), False

    def get_paginator(self, request, queryset, per_page, orphans=0, allow_empty_first_page=True):
        return CappedPaginator(queryset, per_page, orphans, allow_empty_first_page)

    # -- permissions: games are created by play and import, and the log is append-only --

    def has_add_permission(self, request):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    # -- columns and fields --

    @admin.display(description="players")
    def players(self, game):
        """One line per seat, from the prefetched seats (no query per row)."""
        return format_html_join(mark_safe("<br>"), '<span class="seat seat-{}">{}: {}</span>',
                                ((s.kind, s.side, seat_label(s)) for s in game.seats.all()))

    @admin.display(description="created", ordering="created")
    def created_at(self, game):
        return short_time(game.created)

    @admin.display(description="last activity", ordering="updated")
    def last_activity(self, game):
        return short_time(game.updated)

    @admin.display(description="links")
    def links(self, game):
        items = [(reverse("replay", args=[game.id]), "Replay"),
                 (game.get_absolute_url(), "Live page"),
                 (reverse("log_txt", args=[game.id]), "Game log (.txt)")]
        return format_html_join(" · ", '<a href="{}">{}</a>', items)

    @admin.display(description="board")
    def board(self, game):
        """The whole position (staff see everything, hidden information included)."""
        eg = engine_or_none(game.kind, game.params)
        if eg is None:  # a kind no longer registered (or parameters it no longer takes): the page still opens
            return f"No board: the game {game.kind!r} is not known to this version."
        ui = ui_for(eg)
        full = game.state if game.state is not None else services.current_state(game).to_json()
        label = "Final board" if game.is_over else "Current board"
        svg = render_to_string(ui.board_template, {"board": ui.board(full), "board_label": label})
        css = format_html('<link rel="stylesheet" href="{}">', static(ui.stylesheet)) if ui.stylesheet else ""
        return format_html('<div class="board-thumb">{}<p>{} after turn {}</p>{}</div>', css, label, game.turn,
                           mark_safe(svg))

    # -- actions --

    @admin.action(description="Abort selected live games", permissions=["change"])
    def abort_games(self, request, queryset):
        ids = list(queryset.filter(status__in=LIVE_STATUSES).values_list("pk", flat=True))
        for game_id in ids:
            services.abort(game_id, f"aborted by staff ({request.user.get_username()})")
        skipped = queryset.count() - len(ids)
        self.message_user(request, f"Aborted {len(ids)} game(s)."
                          + (f" {skipped} already over, left as they were." if skipped else ""),
                          messages.SUCCESS if ids else messages.WARNING)

    @admin.action(description="Export selected games' referee logs (.zip)", permissions=["view"])
    def export_logs(self, request, queryset):
        games = list(queryset.order_by("-created")[:EXPORT_LIMIT + 1])
        if len(games) > EXPORT_LIMIT:
            self.message_user(request, f"Select at most {EXPORT_LIMIT} games to export at once.", messages.ERROR)
            return None
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as zf:
            for game in games:
                zf.writestr(f"{game.id}.txt", gamelog.log_text(game))
        response = HttpResponse(buffer.getvalue(), content_type="application/zip")
        stamp = timezone.now().strftime("%Y%m%d-%H%M%S")
        response["Content-Disposition"] = f'attachment; filename="ropasci-logs-{stamp}.zip"'
        return response

    @admin.action(description="Re-queue stuck bot moves of selected active games", permissions=["change"])
    def requeue_bot_moves(self, request, queryset):
        has_bot = Exists(Seat.objects.filter(game=OuterRef("pk"), kind=Seat.Kind.BOT))
        ids = list(queryset.filter(has_bot, status=Game.Status.ACTIVE).values_list("pk", flat=True))
        for game_id in ids:
            botrunner.requeue_bots(game_id)
        self.message_user(request, f"Re-queued bot moves of {len(ids)} active game(s) with bots."
                          if ids else "None of the selected games is active with a bot seat.",
                          messages.SUCCESS if ids else messages.WARNING)

    # -- a game's page: buttons and extra URLs --

    def get_urls(self):
        info = self.opts.app_label, self.opts.model_name
        wrap = self.admin_site.admin_view
        return [
            path("dashboard/", wrap(self.dashboard_view), name="%s_%s_dashboard" % info),
            path("<path:object_id>/abort/", wrap(self.abort_view), name="%s_%s_abort" % info),
            path("<path:object_id>/requeue-bots/", wrap(self.requeue_view), name="%s_%s_requeue" % info),
        ] + super().get_urls()

    def _post_on_game(self, request, object_id):
        if request.method != "POST":
            return None, HttpResponseNotAllowed(["POST"])
        game = get_object_or_404(Game, pk=object_id)
        if not self.has_change_permission(request, game):
            raise PermissionDenied
        return game, None

    def _back(self, game):
        return HttpResponseRedirect(reverse("admin:games_game_change", args=[game.pk]))

    def abort_view(self, request, object_id):
        game, refused = self._post_on_game(request, object_id)
        if refused:
            return refused
        if game.is_over:
            self.message_user(request, "This game is already over.", messages.WARNING)
        else:
            services.abort(game.id, f"aborted by staff ({request.user.get_username()})")
            self.log_change(request, game, "Aborted.")
            self.message_user(request, "Game aborted; its players' pages were told.", messages.SUCCESS)
        return self._back(game)

    def requeue_view(self, request, object_id):
        game, refused = self._post_on_game(request, object_id)
        if refused:
            return refused
        if game.status != Game.Status.ACTIVE or not game.seats.filter(kind=Seat.Kind.BOT).exists():
            self.message_user(request, "Only an active game with a bot seat has bot moves to re-queue.",
                              messages.WARNING)
        else:
            forgotten = botrunner.requeue_bots(game.id)
            self.message_user(request, f"Bot moves re-queued (forgot {forgotten} in-flight move(s)).",
                              messages.SUCCESS)
        return self._back(game)

    def change_view(self, request, object_id, form_url="", extra_context=None):
        extra_context = extra_context or {}
        extra_context["can_act"] = self.has_change_permission(request)
        extra_context["has_bots"] = Seat.objects.filter(game_id=object_id, kind=Seat.Kind.BOT).exists()
        return super().change_view(request, object_id, form_url, extra_context)

    # -- dashboard --

    def dashboard_view(self, request):
        if not self.has_view_or_change_permission(request):
            raise PermissionDenied
        context = {
            **self.admin_site.each_context(request),
            "title": "Games dashboard",
            "opts": self.opts,
            **dashboard_stats(),
        }
        return TemplateResponse(request, "admin/games/game/dashboard.html", context)


class CappedPaginator(Paginator):
    """Counts at most ``COUNT_CAP`` games, then says "more than": an exact count of a million games scans
    them all (0.1-0.9 s in PostgreSQL, by filter), a capped one stops early. Staff narrow a long list with
    its filters and search rather than paging to its 1000th page."""

    capped = False

    @cached_property
    def count(self) -> int:
        n = self.object_list.order_by()[:COUNT_CAP + 1].count()
        self.capped = n > COUNT_CAP
        return min(n, COUNT_CAP)


class GameChangeList(ChangeList):
    """The list never needs the (largest) state and params columns."""

    def get_queryset(self, request, exclude_parameters=None):
        return super().get_queryset(request, exclude_parameters).defer("state", "params")
