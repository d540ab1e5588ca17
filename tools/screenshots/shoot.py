"""Screenshots of every page a player meets, in the four interface languages at 1280 and 390 px, signed out, as a
player with a deck in each game, and as an editor (the site that tools/screenshots/serve.sh serves).

    SHOTS=/tmp/shots .venv/bin/python tools/screenshots/shoot.py [part of a page's name] [--force] [--who=player,editor]

Writes $SHOTS/shots/<who>/<language>/<width>/<page>.png (a shot already there is kept unless --force), prints
each page that scrolls sideways, has an element past the right edge or a cut label, or fails, with what the
browser measured (also in $SHOTS/report.json), and makes contact sheets ($SHOTS/sheets/<who>-<page>-<width>.png:
the four languages side by side) to look at. Debian's Chromium (/usr/bin/chromium).
"""

import json
import os
import sys
from pathlib import Path

from PIL import Image
from playwright.sync_api import sync_playwright

BASE = f"http://127.0.0.1:{os.environ.get('PORT', '8130')}"
OUT = Path(os.environ["SHOTS"])
LANGS = ("ja", "zh-hant", "zh-hans", "en")
WIDTHS = (1280, 390)
prepared = json.loads((OUT / "prepared.json").read_text())
D, TOKEN, PUB, CS = prepared["decks"], prepared["token"], prepared["publication"], prepared["change_set"]
CARD = {"endbreaker": "EB1-011", "shadowera": "Research", "suikoden": "林沖", "epicbattles": "Ryu"}
GAMES = tuple(CARD)

FORCE = "--force" in sys.argv
# --who=player,editor shoots (and makes sheets of) only the pages seen as those users; all three by default
WHO = next((a[6:].split(",") for a in sys.argv[1:] if a.startswith("--who=")), ["anon", "player", "editor"])
MAIN = []  # shot at both widths
OTHER = []  # shot at 390 only


def main(who, name, path):
    MAIN.append((who, name, path))


def other(who, name, path):
    OTHER.append((who, name, path))


main("anon", "home", "/")
main("player", "home", "/")
for g in GAMES:
    main("anon", f"game-{g}", f"/games/{g}/")
    main("anon", f"cards-{g}", f"/games/{g}/cards/")
    main("anon", f"card-{g}", f"/games/{g}/cards/{CARD[g]}/")
    other("anon", f"history-{g}", f"/games/{g}/cards/{CARD[g]}/history/")
    other("anon", f"glossary-{g}", f"/games/{g}/glossary/")
    other("anon", f"missing-{g}", f"/games/{g}/missing/")
    main("player", f"deck-{g}", f"/decks/{D[g]}/")
    main("player", f"builder-{g}", f"/decks/{D[g]}/edit/")
    other("player", f"goldfish-{g}", f"/simulator/decks/{D[g]}/goldfish/")
    other("player", f"odds-{g}", f"/simulator/decks/{D[g]}/odds/")
    other("player", f"simulate-{g}", f"/simulator/decks/{D[g]}/simulate/")
    other("player", f"settings-{g}", f"/decks/{D[g]}/settings/")
    other("player", f"history-deck-{g}", f"/decks/{D[g]}/history/")
    other("player", f"collection-{g}", f"/collection/{g}/")
    other("player", f"community-game-{g}", f"/community/games/{g}/decks/")
main("anon", "search-ja", "/search/?q=ドロー")
main("anon", "search-zh", "/search/?q=林冲")
main("anon", "search-empty", "/search/?q=zzzqqq")
other("anon", "search-syntax", "/search/syntax/")
main("player", "goldfish-endbreaker", f"/simulator/decks/{D['endbreaker']}/goldfish/")
main("player", "odds-suikoden", f"/simulator/decks/{D['suikoden']}/odds/")
other("player", "assumptions", f"/simulator/decks/{D['endbreaker']}/assumptions/")
for page in (
    "compare",
    "strategies",
    "strategies/new",
    "strategies/shipped/big_darc",
    "play",
    "search",
    "setups",
    "setups/new",
):
    other("player", "eb-" + page.replace("/", "-"), f"/simulator/games/endbreaker/{page}/")
other("player", "decks", "/decks/")
other("player", "folders", "/decks/folders/")
other("player", "decks-public", "/decks/public/")
other("player", "deck-new", "/decks/new/")
other("player", "import", "/decks/import/")
other("player", "import-replace", f"/decks/{D['suikoden']}/import/")
other("player", "diff", f"/decks/{D['suikoden']}/diff/?a=1&b=1")
other("anon", "shared-deck", f"/decks/shared/{TOKEN}/")
other("anon", "shared-goldfish", f"/simulator/decks/shared/{TOKEN}/goldfish/")
main("player", "collection", "/collection/")
other("player", "collection-import", "/collection/suikoden/import/")
other("player", "collection-shared", "/collection/suikoden/shared/")
other("player", "wants", f"/collection/decks/{D['suikoden']}/wants/")
main("anon", "published", "/community/decks/published/")
main("player", "published-detail", f"/community/decks/published/{PUB}/")
other("player", "favourites", "/community/decks/published/favourites/")
other("player", "publish", f"/community/decks/{D['shadowera']}/publish/")
main("player", "inbox", "/notifications/")
other("player", "notification-settings", "/notifications/settings/")
main("player", "contributions", "/contributions/")
other("player", "change-set", f"/contributions/{CS}/")
other("player", "card-new", "/contributions/games/suikoden/contribute/")
other("player", "bulk", "/contributions/games/suikoden/contribute/bulk/")
other("player", "card-edit", f"/contributions/games/suikoden/cards/{CARD['suikoden']}/edit/")
other("player", "card-translate", f"/contributions/games/suikoden/cards/{CARD['suikoden']}/translate/")
other("player", "card-images", f"/contributions/games/suikoden/cards/{CARD['suikoden']}/images/")
main("editor", "review-queue", "/contributions/review/")
other("editor", "deleted-cards", "/contributions/games/suikoden/deleted-cards/")
other("editor", "moderation", "/community/moderation/")
main("player", "photos", "/readings/photos/")
main("anon", "login", "/accounts/login/")
other("anon", "signup", "/accounts/signup/")
other("player", "password-change", "/accounts/password_change/")
other("player", "tokens", "/accounts/tokens/")
main("anon", "404", "/no-such-page/")
other("anon", "404-card", "/games/suikoden/cards/no-such-card/")
other("player", "404-deck", "/decks/999999/")

MEASURE = """() => {
  const w = window.innerWidth;
  const wide = [...document.querySelectorAll('body *')]
    .filter((e) => e.getBoundingClientRect().right > w + 1 && e.getBoundingClientRect().width > 0)
    .filter((e) => !e.closest('[data-scrolls-sideways], pre'))
    .filter((e) => { for (let p = e.parentElement; p; p = p.parentElement) {
        const o = getComputedStyle(p).overflowX; if (o === 'auto' || o === 'scroll' || o === 'hidden') return false; }
        return true; })
    .slice(0, 5).map((e) => e.tagName.toLowerCase() + '.' + [...e.classList].join('.') + ' «'
        + (e.textContent || '').trim().slice(0, 30) + '»');
  const clipped = [...document.querySelectorAll('button, a, label, th, td, h1, h2, h3, .button')]
    .filter((e) => e.scrollWidth > e.clientWidth + 1 && getComputedStyle(e).overflowX === 'visible'
        && e.clientWidth > 0 && getComputedStyle(e).display !== 'inline')
    .slice(0, 5).map((e) => e.tagName.toLowerCase() + ' «' + e.textContent.trim().slice(0, 30) + '»');
  return {status: null, scrollWidth: document.scrollingElement.scrollWidth, innerWidth: w, wide, clipped,
          title: document.title, lang: document.documentElement.lang};
}"""


# A full-page shot does not lay out what content-visibility: auto skips out of sight (the builder's zones and
# search results, a phone's search results): they would show as empty boxes. Laid out for the shot only.
RENDER_ALL = """() => document.querySelectorAll('body *').forEach((e) => {
  if (getComputedStyle(e).contentVisibility === 'auto') e.style.contentVisibility = 'visible';
})"""


def run(filter_text=""):
    report = {}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox", "--disable-gpu"])
        for who in WHO:
            for lang in LANGS:
                for width in WIDTHS:
                    due = [
                        (w, n, path)
                        for w, n, path in MAIN + (OTHER if width == 390 else [])
                        if w == who and filter_text in n
                    ]
                    if not due:
                        continue
                    context = browser.new_context(viewport={"width": width, "height": 900})
                    cookies = [{"name": "django_language", "value": lang, "url": BASE}]
                    if who != "anon":
                        cookies.append({"name": "sessionid", "value": prepared[who], "url": BASE})
                    context.add_cookies(cookies)
                    page = context.new_page()
                    for page_who, name, path in MAIN + (OTHER if width == 390 else []):
                        if page_who != who or filter_text not in name:
                            continue
                        shot = OUT / "shots" / who / lang / str(width) / f"{name}.png"
                        if shot.exists() and not FORCE:
                            continue
                        try:
                            response = page.goto(BASE + path, wait_until="load")
                        except Exception as error:  # a page that is no HTML page (405, a file)
                            report[f"{who}/{lang}/{width}/{name}"] = {"error": str(error)[:200]}
                            page = context.new_page()  # the failed navigation would interrupt the next one
                            continue
                        if page.locator("canvas").count():  # let the charts' short animation end
                            page.wait_for_timeout(600)
                        result = page.evaluate(MEASURE)
                        page.evaluate(RENDER_ALL)
                        result["status"] = response.status if response else None
                        result["url"] = page.url
                        shot.parent.mkdir(parents=True, exist_ok=True)
                        page.screenshot(path=str(shot), full_page=True)
                        report[f"{who}/{lang}/{width}/{name}"] = result
                    context.close()
        browser.close()
    (OUT / f"report{('-' + filter_text) if filter_text else ''}.json").write_text(
        json.dumps(report, ensure_ascii=False, indent=1)
    )
    sheets(filter_text)
    for key, result in report.items():
        if "error" in result:
            print(key, result["error"])
        elif (
            result["scrollWidth"] > result["innerWidth"]
            or result["wide"]
            or result["clipped"]
            or (result["status"] or 0) >= 500
        ):
            print(key, result["status"], result["scrollWidth"], result["wide"], result["clipped"])


def sheets(filter_text=""):
    """The four languages of a page side by side (top 2400 px), one sheet per page and width."""
    out = OUT / "sheets"
    out.mkdir(exist_ok=True)
    for who, name, _path in MAIN + OTHER:
        if filter_text not in name or who not in WHO:
            continue
        for width in WIDTHS:
            images = [OUT / "shots" / who / lang / str(width) / f"{name}.png" for lang in LANGS]
            if not all(image.exists() for image in images):
                continue
            opened = [Image.open(image) for image in images]
            height = min(max(image.height for image in opened), 2400 if width == 390 else 1800)
            sheet = Image.new("RGB", (sum(image.width for image in opened) + 30, height), "gray")
            x = 0
            for image in opened:
                sheet.paste(image.crop((0, 0, image.width, min(image.height, height))), (x, 0))
                x += image.width + 10
            if width == 1280:
                sheet = sheet.resize((sheet.width // 2, sheet.height // 2))
            sheet.save(out / f"{who}-{name}-{width}.png")


if __name__ == "__main__":
    run(next((a for a in sys.argv[1:] if not a.startswith("--")), ""))
