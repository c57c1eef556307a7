"""What the accessibility and social audits of the table found, fixed (see docs/client.md).

Short screens (a phone held sideways, a laptop at 200 %, a large default font) no longer lose the
table under the pinned hand; the round summary of eight long names shows every number on a phone;
a card's index is never covered (a 10 read "1("); the going-out star is readable; the phone's
controls are 44 px tall; a table with no open seat says so (and its creator can open a bot's
seat); players see how many people watch; a seat moves to another device by a secret link.

Positions come from the scripted socket of ``test_client`` where the page's own logic is the
subject, the real server where the server's answers are. Screenshots go to ``artifacts`` (and
``$RUMMY500_SHOTS``).
"""

from __future__ import annotations

import json
import re
import urllib.request

from browser_ui import post_json, shot
from playwright.sync_api import expect
from test_client import _view, scripted  # noqa: F401 - the fixture is used by name
from test_table_feel import _at, _send

PACE = {"turn_clock": 0, "hints": True, "call_window": None, "clock": None, "summary": None}

#: Where the sticky hand area is, its position, the page's --hand-h, and each named element's box.
GEOMETRY = """(ids) => {
  const my = document.querySelector('.my-area').getBoundingClientRect();
  const box = (id) => { const e = document.querySelector(`[data-testid="${id}"]`); if (!e) return null;
    const r = e.getBoundingClientRect(); return {top: r.top, bottom: r.bottom, left: r.left, right: r.right}; };
  return {vh: innerHeight, handTop: my.top, handH: my.height,
    position: getComputedStyle(document.querySelector('.my-area')).position,
    handVar: getComputedStyle(document.documentElement).getPropertyValue('--hand-h').trim(),
    boxes: Object.fromEntries(ids.map((id) => [id, box(id)]))};
}"""

#: For each card of a row but the last, whether the next card leaves its index (rank) uncovered.
INDEX_COVERED = """(cards) => {
  const out = [];
  for (let i = 0; i + 1 < cards.length; i++) {
    const a = cards[i], b = cards[i + 1];
    const ra = a.getBoundingClientRect(), rb = b.getBoundingClientRect();
    if (Math.abs(ra.top - rb.top) > 2 || rb.left >= ra.right) continue; // another row, or apart
    const corner = a.querySelector('.corner');
    const rank = document.createRange();
    rank.selectNodeContents(corner.querySelector('.ten') ?? corner.firstChild);
    const right = rank.getBoundingClientRect().right;
    if (right > rb.left + 0.5) out.push([a.dataset.card, +(right - rb.left).toFixed(1)]);
  }
  return out;
}"""


def _wcag_ratio(page, selector: str) -> float:
    return page.eval_on_selector(
        selector,
        """(e) => {
          const rgb = (c) => c.match(/[\\d.]+/g).slice(0, 3).map(Number);
          let n = e, bg = null;
          while (n && !bg) { const c = getComputedStyle(n).backgroundColor; if (!/rgba\\(.*, 0\\)$/.test(c) && c !== 'transparent') bg = rgb(c); n = n.parentElement; }
          const lum = (c) => { const x = c.map((v) => { v /= 255; return v <= .03928 ? v / 12.92 : ((v + .055) / 1.055) ** 2.4; });
            return .2126 * x[0] + .7152 * x[1] + .0722 * x[2]; };
          const a = lum(rgb(getComputedStyle(e).color)), b = lum(bg ?? [255, 255, 255]);
          return (Math.max(a, b) + .05) / (Math.min(a, b) + .05);
        }""",
    )


def _seat_page(page, base: str, table_id: str, seat: dict) -> None:
    """Open the table's page in a browser that holds ``seat`` ({seat, token, name, creator})."""
    page.goto(base + "/")
    page.evaluate("([k, v]) => localStorage.setItem(k, v)", [f"rummy500.seat.{table_id}", json.dumps(seat)])
    page.goto(f"{base}/t/{table_id}")


# ------------------------------------------------------------ 1: short screens, the pile's Take
def test_a_short_screen_unpins_the_hand_and_take_shows_after_a_pile_tap(scripted, artifacts):  # noqa: F811
    page, script = scripted
    view = _view(phase="draw", legal=[{"draw": "stock"}, {"take": 1}, {"take": 3}])
    ids = ["status", "stock", "pile-card-1", "btn-take", "btn-take-cancel"]
    for width, height, name in ((844, 390, "landscape"), (683, 384, "zoom200"), (1366, 768, "laptop"), (390, 844, "phone")):
        page.set_viewport_size({"width": width, "height": height})
        _send(script, view, 11 if name == "landscape" else script.version + 1, pace=PACE)
        _at(page, script.version)
        page.evaluate("window.scrollTo(0, 0)")
        short = height < 500
        g = page.evaluate(GEOMETRY, ids)
        if short:
            # Pinned, the hand area would take most of the window: it scrolls with the table instead.
            assert g["position"] == "static" and g["handVar"] == "0px", (name, g)
            for part in ("status", "stock", "pile-card-1"):
                assert g["boxes"][part]["bottom"] <= g["vh"], (name, part, g)
        else:
            assert g["position"] == "sticky" and g["handH"] <= 0.5 * g["vh"], (name, g)
        shot(page, artifacts, f"ui-fix-short-{name}.png", full_page=False)
        page.get_by_test_id("pile-card-3").click()
        expect(page.get_by_test_id("btn-take")).to_have_text("Take 3 cards")
        g = page.evaluate(GEOMETRY, ids)
        hand_top = g["vh"] if g["position"] == "static" else g["handTop"]
        for button in ("btn-take", "btn-take-cancel"):
            b = g["boxes"][button]
            assert b["top"] >= 0 and b["bottom"] <= min(hand_top, g["vh"]) + 0.5, (name, button, g)
        shot(page, artifacts, f"ui-fix-short-{name}-pile.png", full_page=False)
        page.get_by_test_id("btn-take-cancel").click()


# ------------------------------------------------------------ 2, 3, 4: the summary of eight long names on a phone
LONG_NAMES = [
    "Maximiliana Featherstonehaugh-Wolfeschle",
    "Bartholomew Cholmondeley-Marjoribanks",
    "Anastasiya Konstantinopolskaya",
    "Gu\u00f0mundur Sigur\u00f0arsonsd\u00f3ttirsson",
    "Jean-Baptiste de La Rochefoucauld",
    "Xochiquetzal Hern\u00e1ndez-Villalobos",
    "Wolfgang Amadeus Schwarzenegger",
    "Oluwaseun Adebayo-Ogunleye-Smith",
]


def test_the_phone_summary_of_eight_long_names_shows_every_number_and_index(scripted, artifacts):  # noqa: F811
    page, script = scripted
    page.set_viewport_size({"width": 390, "height": 844})
    script.table = {
        **script.table,
        "rules": {**script.table.get("rules", {}), "players": 8, "target": 1000},
        "seats": [
            {"seat": s, "name": n, "kind": "human", "bot_level": None, "connected": True, "autoplay": False}
            for s, n in enumerate(LONG_NAMES)
        ],
    }
    seats = [
        {"seat": s, "melded": 40 + s, "in_hand": 105 - s, "bonus": 0, "round_score": s - 65 if s != 3 else 120,
         "total": 1000 - 7 * s if s != 3 else 999, "hand": [] if s == 3 else ["KS", "QD", "9C", "TS", "4S", "TC"]}
        for s in range(8)
    ]
    summary = {
        "round": 2, "went_out": 3, "seats": seats, "left": 30.0, "ready": [], "waiting": list(range(8)),
        "melds": [
            {"id": 0, "cards": ["8H", "9H", "TH", "JH", "QH", "KH", "AH"], "laid_by": [3] * 7, "kind": "run", "owner": 3},
            {"id": 1, "cards": ["TD", "TS", "TC"], "laid_by": [3, 3, 3], "kind": "set", "owner": 3},
            {"id": 2, "cards": ["7C", "8C", "9C", "TC"], "laid_by": [0, 0, 0, 3], "kind": "run", "owner": 0},
        ],
    }
    view = _view(players=8, hand_sizes=[7] * 8, known=[[]] * 8, scores=[s["total"] for s in seats], legal=[], melds=[])
    _send(script, view, 11, pace={**PACE, "summary": summary})
    banner = page.get_by_test_id("round-over")
    expect(banner).to_contain_text("Round 3 over")
    page.wait_for_function("() => document.querySelector('[data-testid=round-summary]').getBoundingClientRect().width > 0")
    # The table fits its banner: every column, Round and Total included, is on screen (no scroll).
    assert banner.evaluate("el => el.scrollWidth <= el.clientWidth + 1"), banner.evaluate("el => [el.scrollWidth, el.clientWidth]")
    for head in ("Melded", "Round", "Total"):
        th = banner.locator("thead th", has_text=head)
        assert th.evaluate("(e) => e.getBoundingClientRect().right <= e.closest('[data-testid=round-over]').getBoundingClientRect().right")
    row = page.get_by_test_id("summary-3")
    expect(row.locator("td").last).to_have_text("999")
    # A long name is cut short with "…", all of it in its title and in what a screen reader reads.
    name = row.locator(".sum-name")
    expect(name).to_have_attribute("title", LONG_NAMES[3])
    assert name.evaluate("e => e.scrollWidth > e.clientWidth && getComputedStyle(e).textOverflow === 'ellipsis'")
    expect(row.locator("th")).to_contain_text(LONG_NAMES[3])
    # "★ out" reads at 4.5:1 or better on the paper.
    assert _wcag_ratio(page, "table.summary .out") >= 4.5
    # No card of a meld or a hand covers the index of the card under it (the 10s included).
    for group in (".summary-melds .meld-cards", ".left-cards"):
        for cards in banner.locator(group).all():
            assert cards.locator(".card").evaluate_all(INDEX_COVERED) == [], group
    shot(page, artifacts, "ui-fix-summary-phone.png", full_page=False)
    banner.screenshot(path=str(artifacts / "ui-fix-summary-phone-banner.png"))


# ------------------------------------------------------------ 3, 5: a phone's hand and controls
def test_phone_controls_are_44px_and_a_large_font_keeps_every_index_in_the_hand(scripted, artifacts):  # noqa: F811
    page, script = scripted
    page.set_viewport_size({"width": 390, "height": 844})
    hand = ["AC", "5C", "TC", "8D", "TD", "QD", "2S", "TS", "5S", "4H", "TH", "8H", "JK"]
    view = _view(hand=hand, hand_sizes=[13, 13], legal=[{"draw": "stock"}, {"take": 1}], phase="draw")
    _send(script, view, 11, pace=PACE)
    _at(page, 11)
    heights = page.evaluate(
        """() => ['.topbar .brand', '.topbar .nav', '.topbar .mute', '.topbar .nav2', '.sort-toggle button', '.actions button']
          .flatMap((sel) => [...document.querySelectorAll(sel)].filter((e) => e.offsetParent)
            .map((e) => [sel + ' ' + e.textContent.trim(), e.getBoundingClientRect().height]))"""
    )
    assert heights and all(h >= 44 - 0.5 for _, h in heights), heights
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    cards = page.get_by_test_id("hand").locator(".card")
    assert cards.evaluate_all(INDEX_COVERED) == []
    shot(page, artifacts, "ui-fix-phone-hand.png", full_page=False)
    # A 24 px default font: the cards grow, the hand goes on two rows rather than cover an index.
    page.evaluate("document.documentElement.style.fontSize = '24px'")
    page.wait_for_function("() => document.querySelector('[data-testid=hand]').classList.contains('rows')")
    assert cards.evaluate_all(INDEX_COVERED) == []
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    shot(page, artifacts, "ui-fix-phone-hand-24px.png", full_page=False)


# ------------------------------------------------------------ 7, 8: a full table, and who watches
def test_a_full_table_says_so_and_the_players_see_who_watches(server, new_page, artifacts):
    made = post_json(server, "/api/tables", {"name": "Ann", "seats": 3, "rules": {}, "bots": {"1": "easy", "2": "medium"}})
    tid = made["table_id"]
    ann = new_page(1366, 768)
    _seat_page(ann, server, tid, {"seat": 0, "token": made["token"], "name": "Ann", "creator": True})
    full = ann.get_by_test_id("table-full")
    expect(full).to_contain_text("The table is full")
    expect(full).to_contain_text("Open seat beside a bot")
    expect(ann.get_by_test_id("waiting-room")).not_to_contain_text("Open seats are filled with bots")
    expect(ann.locator("label[for=invite-link]")).to_contain_text("Link to watch")
    for s in (1, 2):
        expect(ann.get_by_test_id(f"open-seat-{s}")).to_have_accessible_name(re.compile(rf"^Open seat {s + 1} \("))
    expect(ann.get_by_test_id("spectators")).to_be_hidden()
    # A visitor by the link: told it is full, no join form that would fail, and can watch.
    bob = new_page(390, 844, touch=True)
    bob.goto(f"{server}/t/{tid}")
    expect(bob.get_by_test_id("table-full")).to_contain_text("so you cannot join. You can watch here")
    expect(bob.get_by_test_id("join-name")).to_have_count(0)
    shot(bob, artifacts, "ui-fix-full-visitor-phone.png", full_page=False)
    # Ann sees someone watching, discreetly, in the top bar.
    expect(ann.get_by_test_id("spectators")).to_have_text("1 watching")
    expect(ann.get_by_test_id("spectators")).to_have_attribute("title", re.compile("1 person is watching"))
    shot(ann, artifacts, "ui-fix-full-host-laptop.png", full_page=False)
    ann.set_viewport_size({"width": 390, "height": 844})
    box = ann.get_by_test_id("spectators").bounding_box()
    assert box and box["x"] + box["width"] <= 390 and box["y"] + box["height"] <= 120, box
    open_seat = ann.get_by_test_id("open-seat-1").bounding_box()
    assert open_seat and open_seat["height"] >= 44 - 0.5
    shot(ann, artifacts, "ui-fix-full-host-phone.png", full_page=False)


def test_the_creator_opens_a_bots_seat_for_a_person(server, new_page):
    """Needs the server to accept a bot seat in POST /api/tables/{id}/seats/{seat}/remove (before the start)."""
    made = post_json(server, "/api/tables", {"name": "Ann", "seats": 3, "rules": {}, "bots": {"1": "easy", "2": "medium"}})
    tid = made["table_id"]
    ann = new_page(390, 844, touch=True)
    _seat_page(ann, server, tid, {"seat": 0, "token": made["token"], "name": "Ann", "creator": True})
    expect(ann.get_by_test_id("table-full")).to_be_visible()
    ann.get_by_test_id("open-seat-2").click()
    note = ann.get_by_test_id("seat-note")
    expect(note).to_contain_text("Seat 3 is open")
    expect(note).to_be_focused()
    expect(ann.get_by_test_id("seat-list").locator("li").nth(2)).to_have_text("open seat")
    expect(ann.get_by_test_id("table-full")).to_have_count(0)
    expect(ann.locator("label[for=invite-link]")).to_contain_text("Invite link")
    expect(ann.get_by_test_id("open-seat-1")).to_be_visible()
    info = json.loads(urllib.request.urlopen(f"{server}/api/tables/{tid}", timeout=5).read())  # noqa: S310
    assert info["seats"][2]["kind"] == "open"


# ------------------------------------------------------------ 9: a seat moves to another device
def test_a_seat_moves_to_another_device_by_its_secret_link(server, new_page, artifacts):
    made = post_json(server, "/api/tables", {"name": "Ann", "seats": 2, "rules": {}, "bots": {}})
    tid = made["table_id"]
    laptop = new_page(1366, 768)
    _seat_page(laptop, server, tid, {"seat": 0, "token": made["token"], "name": "Ann", "creator": True})
    panel = laptop.get_by_test_id("device-panel")
    panel.locator("summary").click()
    expect(laptop.get_by_test_id("device-secret")).to_contain_text("Keep it secret")
    expect(laptop.get_by_test_id("device-link")).to_have_accessible_name("Your seat's link")
    link = laptop.get_by_test_id("device-link").input_value()
    # The token travels in the fragment only (never sent to a server), not in the path or the query.
    before, _, fragment = link.partition("#")
    assert made["token"] not in before and "?" not in before and before.endswith(f"/t/{tid}")
    assert f"token={made['token']}" in fragment
    shot(laptop, artifacts, "ui-fix-device-link-laptop.png", full_page=False)
    phone = new_page(390, 844, touch=True)
    # A link that is not whole (its token cut short): said plainly, the page watches.
    phone.goto(link[:-4])
    note = phone.get_by_test_id("seat-note")
    expect(note).to_contain_text("The link you opened holds no seat at this table")
    expect(phone.get_by_test_id("join-name")).to_be_visible()
    assert phone.evaluate(f"localStorage.getItem('rummy500.seat.{tid}')") is None
    assert phone.evaluate("location.hash") == ""
    # The whole link: the phone holds Ann's seat (stored as this table's), the token gone from the address.
    phone.goto(link)
    expect(phone.get_by_test_id("waiting-heading")).to_be_visible()
    expect(phone.get_by_test_id("start-game")).to_be_visible()
    expect(phone.get_by_test_id("seat-list")).to_contain_text("Ann (you)")
    expect(phone.get_by_test_id("conn-status")).to_have_text("connected")
    assert phone.evaluate("location.href") == f"{server}/t/{tid}"
    stored = json.loads(phone.evaluate(f"localStorage.getItem('rummy500.seat.{tid}')"))
    assert stored["token"] == made["token"] and stored["seat"] == 0 and stored["name"] == "Ann"
    shot(phone, artifacts, "ui-fix-device-link-phone.png", full_page=False)
