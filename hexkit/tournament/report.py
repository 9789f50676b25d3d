"""A tournament's report: built from its stored games, printed as tables, exported as JSON
and CSV, drawn as an SVG chart of the ratings with their 95% intervals."""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from typing import Any
from xml.sax.saxutils import escape

from hexkit.tournament.ratings import (
    EloDifference,
    crosstable,
    elo_difference,
    ranked,
    standings,
)
from hexkit.tournament.store import GameRow


def build_report(config: dict[str, Any], planned: int, rows: Sequence[GameRow],
                 seats: int) -> dict[str, Any]:
    """The report as plain data (the JSON export)."""
    bots = list(config["bots"])
    table = standings(bots, rows)
    cross = crosstable(len(bots), rows)
    played = [r for r in rows if r.played]
    pairs = []
    if seats == 2:
        for a in range(len(bots)):
            for b in range(a + 1, len(bots)):
                d = elo_difference(a, b, rows)
                if d.games:
                    pairs.append(_pair(bots, d))
    return {
        "game": config["game"],
        "options": config.get("options", {}),
        "format": config["format"],
        "seed": config["seed"],
        "bots": bots,
        "games_planned": planned,
        "games_stored": len(rows),
        "games_played": len(played),
        "draws": sum(1 for r in played if not r.winners),
        "stopped_at_move_cap": sum(1 for r in played if r.unfinished),
        "errors": [{"game": r.number, "error": r.error} for r in rows if not r.played],
        "adjudicated": [{"game": r.number, "bot": bots[r.fault_bot], "kind": r.fault_kind,
                         "reason": r.reason}
                        for r in played if r.fault_bot is not None],
        "standings": [
            {"rank": rank, "bot": s.spec, "games": s.games, "wins": s.wins,
             "draws": s.draws, "losses": s.losses, "points": s.points,
             "rating": round(s.mu, 4), "sigma": round(s.sigma, 4),
             "low": round(s.interval[0], 4), "high": round(s.interval[1], 4),
             "faults": dict(sorted(s.faults.items()))}
            for rank, s in enumerate(ranked(table), 1)
        ],
        "crosstable": [
            {"bot": bots[a], "against": {bots[b]: {"score": cross[a][b][0],
                                                   "games": cross[a][b][1]}
                                         for b in range(len(bots))
                                         if b != a and cross[a][b][1]}}
            for a in range(len(bots))
        ],
        "elo": pairs,
    }


def _pair(bots: Sequence[str], d: EloDifference) -> dict[str, Any]:
    def r(x: float | None) -> float | None:
        return None if x is None else round(x, 1)

    return {"first": bots[d.first], "second": bots[d.second], "games": d.games,
            "wins": d.wins, "draws": d.draws, "losses": d.losses,
            "score": round(d.score, 4), "elo": r(d.elo), "low": r(d.low), "high": r(d.high)}


# -- text ------------------------------------------------------------------------------------
def _elo_text(value: float | None, score: float, end: str) -> str:
    if value is not None:
        return f"{value:+.0f}"
    # None: unbounded, towards the side the score (or the interval's end) points to
    if end == "low":
        return "-inf"
    if end == "high":
        return "+inf"
    return "+inf" if score >= 0.5 else "-inf"


def text_report(report: dict[str, Any]) -> str:
    """The tables ``hexkit tournament`` prints."""
    bots = report["bots"]
    head = (f"{_game_text(report)}: {report['format']} of {len(bots)} bots, "
            f"{report['games_stored']} of {report['games_planned']} games, "
            f"seed {report['seed']}")
    lines = [head, ""]
    width = max(len("bot"), *(len(b) for b in bots))
    lines.append(f"{'rank':>4}  {'bot':<{width}}  {'games':>5}  {'wins':>5}  {'draws':>5}  "
                 f"{'losses':>6}  {'points':>6}  {'rating':>6}  {'95% interval':>15}  faults")
    for s in report["standings"]:
        faults = ", ".join(f"{n} {k}" for k, n in s["faults"].items()) or "-"
        interval = f"[{s['low']:.1f}, {s['high']:.1f}]"
        lines.append(f"{s['rank']:>4}  {s['bot']:<{width}}  {s['games']:>5}  {s['wins']:>5}  "
                     f"{s['draws']:>5}  {s['losses']:>6}  {_num(s['points']):>6}  "
                     f"{s['rating']:>6.1f}  {interval:>15}  {faults}")
    lines += ["", "crosstable: the row's score against the column (1 a game finished ahead, "
                  "1/2 level) / games together"]
    index = {b: i for i, b in enumerate(bots)}
    cells = []
    for row in report["crosstable"]:
        cell = ["" for _ in bots]
        for other, v in row["against"].items():
            cell[index[other]] = f"{_num(v['score'])}/{v['games']}"
        cell[index[row["bot"]]] = "-"
        cells.append(cell)
    colw = max(5, *(len(c) for row in cells for c in row))
    label = max(len(f"{len(bots)} {b}") for b in bots)
    lines.append(" " * label + "".join(f"  {i + 1:>{colw}}" for i in range(len(bots))))
    for i, b in enumerate(bots):
        name = f"{i + 1} {b}"
        lines.append(f"{name:<{label}}" + "".join(f"  {c:>{colw}}" for c in cells[i]))
    if len(bots) == 2 and report["elo"]:
        e = report["elo"][0]
        lines += ["", f"Elo difference {e['first']} - {e['second']}: "
                      f"{_elo_text(e['elo'], e['score'], '')} "
                      f"[{_elo_text(e['low'], e['score'], 'low')}, "
                      f"{_elo_text(e['high'], e['score'], 'high')}] (95%), "
                      f"{e['wins']} wins, {e['draws']} draws, {e['losses']} losses"]
    tail = []
    if report["draws"]:
        capped = report["stopped_at_move_cap"]
        tail.append(f"{report['draws']} drawn" + (f" ({capped} at the move cap)" if capped
                                                    else ""))
    if report["adjudicated"]:
        tail.append(f"{len(report['adjudicated'])} lost by a bot's fault")
    if report["errors"]:
        tail.append(f"{len(report['errors'])} could not be played")
    if tail:
        lines += ["", "games: " + ", ".join(tail)]
    for a in report["adjudicated"][:5]:
        lines.append(f"  game {a['game']}: {a['reason']}")
    if len(report["adjudicated"]) > 5:
        lines.append(f"  ... and {len(report['adjudicated']) - 5} more (see the JSON export)")
    for e in report["errors"][:3]:
        lines.append(f"  game {e['game']}: {e['error']}")
    return "\n".join(lines)


def _game_text(report: dict[str, Any]) -> str:
    opts = report.get("options") or {}
    if not opts:
        return str(report["game"])
    return f"{report['game']}({','.join(f'{k}={v}' for k, v in opts.items())})"


def _num(x: float) -> str:
    return f"{x:g}"


# -- CSV -------------------------------------------------------------------------------------
def csv_report(report: dict[str, Any]) -> str:
    """One row per bot: standing, rating with interval, and its score against each bot."""
    bots = report["bots"]
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["rank", "bot", "games", "wins", "draws", "losses", "points", "rating",
                     "sigma", "low", "high", "time_losses", "illegal_losses",
                     "crash_losses", *(f"vs {b}" for b in bots)])
    cross = {row["bot"]: row["against"] for row in report["crosstable"]}
    for s in report["standings"]:
        against = cross[s["bot"]]
        writer.writerow([
            s["rank"], s["bot"], s["games"], s["wins"], s["draws"], s["losses"],
            _num(s["points"]), s["rating"], s["sigma"], s["low"], s["high"],
            s["faults"].get("time", 0), s["faults"].get("illegal", 0),
            s["faults"].get("crash", 0),
            *(f"{_num(against[b]['score'])}/{against[b]['games']}" if b in against else ""
              for b in bots),
        ])
    return out.getvalue()


# -- SVG -------------------------------------------------------------------------------------
def svg_chart(report: dict[str, Any]) -> str:
    """The ratings as dots with their 95% intervals, best at the top."""
    rows = report["standings"]
    label_w, plot_w, row_h, top, bottom = 190, 420, 30, 58, 44
    width, height = label_w + plot_w + 30, top + row_h * len(rows) + bottom
    lo: float = min(s["low"] for s in rows)
    hi: float = max(s["high"] for s in rows)
    step = _nice_step((hi - lo) / 6 or 1)
    lo, hi = step * (lo // step), step * -(-hi // step)

    def x(v: float) -> float:
        return label_w + plot_w * (v - lo) / (hi - lo)

    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="13">',
        f'<rect width="{width}" height="{height}" fill="white"/>',
        f'<text x="{width / 2}" y="22" text-anchor="middle" font-size="15" '
        f'font-weight="bold">{escape(_game_text(report))}: ratings with 95% intervals</text>',
        f'<text x="{width / 2}" y="40" text-anchor="middle" fill="#555">'
        f'{report["format"]}, {report["games_played"]} games, openskill (Plackett-Luce), '
        f'seed {report["seed"]}</text>',
    ]
    for i in range(0, len(rows), 2):
        out.append(f'<rect x="0" y="{top + row_h * i}" width="{width}" height="{row_h}" '
                   'fill="#f4f6fa"/>')
    axis_y = top + row_h * len(rows) + 6
    tick = lo
    while tick <= hi + step / 2:
        tx = x(tick)
        out.append(f'<line x1="{tx:.1f}" y1="{top - 6}" x2="{tx:.1f}" y2="{axis_y}" '
                   'stroke="#ddd"/>')
        out.append(f'<text x="{tx:.1f}" y="{axis_y + 16}" text-anchor="middle" '
                   f'fill="#333">{_num(round(tick, 6))}</text>')
        tick += step
    out.append(f'<text x="{label_w + plot_w / 2}" y="{axis_y + 34}" text-anchor="middle" '
               'fill="#333">rating (mu; bar: mu &#177; 1.96 sigma)</text>')
    for i, s in enumerate(rows):
        cy = top + row_h * i + row_h / 2
        out.append(f'<text x="{label_w - 10}" y="{cy + 4.5}" text-anchor="end">'
                   f'{s["rank"]}. {escape(s["bot"])}</text>')
        out.append(f'<line x1="{x(s["low"]):.1f}" y1="{cy}" x2="{x(s["high"]):.1f}" '
                   f'y2="{cy}" stroke="#3465a4" stroke-width="3"/>')
        for end in (s["low"], s["high"]):
            out.append(f'<line x1="{x(end):.1f}" y1="{cy - 6}" x2="{x(end):.1f}" '
                       f'y2="{cy + 6}" stroke="#3465a4" stroke-width="2"/>')
        out.append(f'<circle cx="{x(s["rating"]):.1f}" cy="{cy}" r="5" fill="#cc0000"/>')
    out.append(f'<line x1="{label_w}" y1="{axis_y}" x2="{label_w + plot_w}" y2="{axis_y}" '
               'stroke="#333"/>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _nice_step(raw: float) -> float:
    magnitude: float = 10 ** int(f"{raw:e}".split("e")[1])
    for m in (1, 2, 2.5, 5, 10):
        if raw <= m * magnitude:
            return m * magnitude
    return 10 * magnitude
