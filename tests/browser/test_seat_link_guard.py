"""A seat link never silently replaces the seat a browser holds; the page cleans chat as the server does.

1. ``/t/ID#seat=N&token=…`` (a seat's link, ``seatLink``) opened in a browser
   that holds another seat's token at that table asks first, naming both
   seats: "Cancel" keeps the seat it had, "OK" takes the link's. A browser
   with no seat there, or the same token, is not asked.
2. The page's ``chatClean`` agrees with the server's ``clean_text`` on lines
   with invisible characters (default-ignorable code points), flags' tags and
   emoji presentation selectors (the second hostile-client audit).
"""

from __future__ import annotations

import json

from browser_ui import post_json, shot
from playwright.sync_api import expect


def _stored(page, table_id: str) -> dict | None:
    return json.loads(page.evaluate(f"localStorage.getItem('rummy500.seat.{table_id}')") or "null")


def test_a_seat_link_asks_before_replacing_the_seat_this_browser_holds(server, new_page, artifacts):
    made = post_json(server, "/api/tables", {"name": "Ann", "seats": 3, "rules": {}, "bots": {}})
    tid = made["table_id"]
    bob = post_json(server, f"/api/tables/{tid}/join", {"name": "Bob"})
    link = f"{server}/t/{tid}#seat=1&token={bob['token']}"
    page = new_page()
    page.goto(server + "/")
    ann = {"seat": 0, "token": made["token"], "name": "Ann", "creator": True}
    page.evaluate("([k, v]) => localStorage.setItem(k, v)", [f"rummy500.seat.{tid}", json.dumps(ann)])
    page.goto(f"{server}/t/{tid}")
    expect(page.get_by_test_id("seat-list")).to_contain_text("Ann (you)")

    asked: list[str] = []
    # Someone sends Ann Bob's link: asked, naming both seats; Cancel keeps Ann's seat.
    page.goto("about:blank")
    page.once("dialog", lambda d: (asked.append(d.message), d.dismiss()))
    page.goto(link)
    expect(page.get_by_test_id("seat-list")).to_contain_text("Ann (you)")
    expect(page.get_by_test_id("conn-status")).to_have_text("connected")
    assert len(asked) == 1, asked
    assert "seat 2" in asked[0] and "seat 1 here (as Ann)" in asked[0] and "Cancel: keep seat 1" in asked[0], asked
    assert _stored(page, tid)["token"] == made["token"]
    assert page.evaluate("location.href") == f"{server}/t/{tid}"  # the token left the address all the same
    shot(page, artifacts, "seat-link-kept.png", full_page=False)
    # The same link pasted into this tab (the fragment alone changes): asked again, and kept again.
    page.once("dialog", lambda d: (asked.append(d.message), d.dismiss()))
    page.evaluate("(hash) => { location.hash = hash; }", f"seat=1&token={bob['token']}")
    expect(page.get_by_test_id("seat-list")).to_contain_text("Ann (you)")
    page.wait_for_function("() => location.hash === ''")
    assert len(asked) == 2 and _stored(page, tid)["token"] == made["token"]

    # OK: this browser plays Bob's seat now.
    page.goto("about:blank")
    page.once("dialog", lambda d: (asked.append(d.message), d.accept()))
    page.goto(link)
    expect(page.get_by_test_id("seat-list")).to_contain_text("Bob (you)")
    expect(page.get_by_test_id("conn-status")).to_have_text("connected")
    assert len(asked) == 3
    assert _stored(page, tid)["token"] == bob["token"] and _stored(page, tid)["seat"] == 1
    # The link of the seat it holds now: nothing to ask.
    page.goto("about:blank")
    page.goto(link)
    expect(page.get_by_test_id("seat-list")).to_contain_text("Bob (you)")
    assert len(asked) == 3

    # A browser that holds no seat here takes the link's without a question.
    other = new_page()
    other.on("dialog", lambda d: (asked.append(d.message), d.dismiss()))
    other.goto(f"{server}/t/{tid}#seat=0&token={made['token']}")
    expect(other.get_by_test_id("seat-list")).to_contain_text("Ann (you)")
    assert len(asked) == 3 and _stored(other, tid)["token"] == made["token"]


def test_the_page_cleans_invisible_characters_as_the_server_does(server, new_page):
    # The page matches the server's copy of a line it sent against what it typed (its echo): the
    # two must agree on what is dropped, and on a line left showing nothing (the server refuses it).
    from rummy500.server.session.guards import clean_text

    flag = "\U0001f3f4\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f"
    lines = [
        "Ann\u034f\ufe0f\U000e0100\u17b4\u17b5\u180b\u180f\u00ad\u061c\u2060\u2065\ufeff",
        "\U000e0041\U000e0042\U000e0043",
        "\u034f",
        "\ufe0f",
        "\u200d\u200c",
        "\u3164 \u2800 \uffa0",
        "a\u115f\u1160b \U0001bca0\U0001d173c \U000e0001d \U000e0fffe",
        f"\u2764\ufe0f \U0001f469\u200d\U0001f4bb #\ufe0f\u20e3 1\ufe0f\u20e3 \u2139\ufe0f \u203c\ufe0f {flag}",
        "\U0001f3f3\ufe0f\u200d\U0001f308 and \u263a\ufe0e",
        f"x{flag[1:]} \U0001f3f4 \U000e0067 {flag}{flag}",
        "Ann\ufe0f\ufe0f \u2764\u200b\ufe0f \u2764\ufe0f\ufe0f",
        "\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645",
        "\u2800\u28ff\u2800 art",
        "gg\u202e evil\u200b \u0007bell\tand  tab \ue000",
    ]
    page = new_page()
    page.goto(server)
    cleaned = page.evaluate(
        "async (lines) => { const m = await import('/static/names.js'); return lines.map(m.chatClean); }", lines
    )
    assert cleaned == [clean_text(line, 500) for line in lines]
    assert cleaned[:6] == ["Ann", "", "", "", "", ""]
    assert cleaned[7] == lines[7] and cleaned[8] == lines[8] and cleaned[11] == lines[11]
    assert cleaned[9] == f"x \U0001f3f4 {flag}{flag}" and cleaned[10] == "Ann \u2764 \u2764\ufe0f"
