"""Help pages (issue 7, item 6): every page in English, Georgian and Russian, and true to the rules.

The pages explain docs/rules/*.md for players. These tests check that each page renders in the
active language (and really is written in it, not a fallback), that the index and the table of
contents link every page, that the key facts of each game are there in every language, and that
the worked examples and trick diagrams agree with the rules engines.
"""

from __future__ import annotations

import re
from html import unescape

import pytest
from django.conf import settings
from django.template.loader import get_template, render_to_string
from django.test import override_settings
from django.urls import reverse
from django.utils import translation

from games.help import HELP_LANGUAGES, help_slugs
from games.rules import classic_joker, japanese_joker, japanese_whist, tricks
from games.rules.tricks import Play

pytestmark = pytest.mark.django_db

LANGS = ("en", "ka", "ru")
GEORGIAN = re.compile(r"[\u10d0-\u10ff]")
CYRILLIC = re.compile(r"[\u0400-\u04ff]")

# The <h1> of every page in every language: proves the page is the one written in that language.
TITLES = {
    "en": {
        "japanese_joker": "Rules of Japanese Joker",
        "classic_joker": "Rules of classic Georgian Joker",
        "japanese_whist": "Rules of Japanese Whist",
        "difference": "Classic or Japanese Joker: the difference",
        "tips": "Tips for beginners",
        "glossary": "Glossary",
        "faq": "Questions and answers",
    },
    "ka": {
        "japanese_joker": "იაპონური ჯოკერის წესები",
        "classic_joker": "კლასიკური ქართული ჯოკერის წესები",
        "japanese_whist": "იაპონური ვისტის წესები",
        "difference": "კლასიკური თუ იაპონური ჯოკერი: რით განსხვავდება",
        "tips": "რჩევები დამწყებთათვის",
        "glossary": "ლექსიკონი",
        "faq": "კითხვები და პასუხები",
    },
    "ru": {
        "japanese_joker": "Правила японского джокера",
        "classic_joker": "Правила классического грузинского джокера",
        "japanese_whist": "Правила японского виста",
        "difference": "Классический или японский джокер: в чём разница",
        "tips": "Советы новичкам",
        "glossary": "Словарь",
        "faq": "Вопросы и ответы",
    },
}

# The pages the site writes in every language: the built-in games' rules and the guides. A game
# registered from elsewhere brings its own page (the suite's toy game: tests/toy_game).
HELP_SLUGS = tuple(TITLES["en"])

# A term each page must use in its own language (the established game vocabulary).
PAGE_TERMS = {
    "en": {
        "japanese_joker": ["declarer", "column", "bezi"],
        "classic_joker": ["pulka", "khishti", "premia", "moshla"],
        "japanese_whist": ["forehand", "layout", "spel"],
        "difference": ["Bidding", "columns"],
        "tips": ["khishti", "columns"],
        "glossary": ["bezi", "khishti", "premia", "moshla", "pulka", "declarer", "forehand"],
        "faq": ["guest", "Domino Coin", "forfeit"],
    },
    "ka": {
        "japanese_joker": ["მცხადებელი", "სვეტი", "ბეზი", "კოზირი"],
        "classic_joker": ["პულკა", "ხიშტი", "პრემია", "მოშლა", "ვიში", "წაიღოს"],
        "japanese_whist": ["ფორჰანდი", "განლაგება", "სპელი"],
        "difference": ["შეკვეთა", "სვეტი"],
        "tips": ["ხიშტ", "სვეტ"],
        "glossary": ["ბეზი", "ხიშტი", "პრემია", "მოშლა", "პულკა", "მცხადებელი", "ვიში", "წაიღოს"],
        "faq": ["სტუმ", "Domino Coin", "ტექნიკური დამარცხება"],
    },
    "ru": {
        "japanese_joker": ["объявляющий", "столбик", "бези", "козырь"],
        "classic_joker": ["пульк", "хишти", "преми", "мошла", "«хочу»", "«забирай»"],
        "japanese_whist": ["первая рука", "раскладк", "спел"],
        "difference": ["заказ", "столбик"],
        "tips": ["хишти", "столбик"],
        "glossary": ["Бези", "Хишти", "Премия", "Мошла", "Пулька", "Объявляющий", "«Хочу»"],
        "faq": ["Гост", "Domino Coin", "техническое поражение"],
    },
}


def get_page(client, path: str, lang: str):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = lang
    return client.get(path)


def article(response) -> str:
    """The help article's text (tags stripped, entities decoded), without the site chrome."""
    html = response.content.decode()
    match = re.search(r'<article class="help-article"[^>]*>(.*)</article>', html, re.S)
    assert match, "the page has no help article"
    text = re.sub(r"<[^>]+>", " ", match.group(1))
    return re.sub(r"\s+", " ", unescape(text))


def page_text(client, slug: str, lang: str) -> str:
    response = get_page(client, reverse("help_page", args=[slug]), lang)
    assert response.status_code == 200
    return article(response)


# --- every page, every language --------------------------------------------------------------


def test_the_pages_and_languages_are_the_ones_the_site_links() -> None:
    slugs = help_slugs()  # the registry's games, then the guides
    assert slugs[:3] == ("japanese_joker", "classic_joker", "japanese_whist")
    assert slugs[-4:] == ("difference", "tips", "glossary", "faq")
    assert set(HELP_SLUGS) <= set(slugs)
    assert set(HELP_LANGUAGES) == {code for code, _ in settings.LANGUAGES}
    assert reverse("help_index") == "/help/"
    assert reverse("help_page", args=["japanese_joker"]) == "/help/japanese_joker/"


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("slug", HELP_SLUGS)
def test_each_page_has_its_own_template_in_each_language(slug: str, lang: str) -> None:
    get_template(f"help/{lang}/{slug}.html")  # no page falls back to another language


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("slug", HELP_SLUGS)
def test_each_page_renders_in_the_active_language(client, slug: str, lang: str) -> None:
    response = get_page(client, f"/help/{slug}/", lang)
    assert response.status_code == 200
    html = response.content.decode()
    assert f'<html lang="{lang}">' in html
    assert f'<article class="help-article" lang="{lang}">' in html
    text = article(response)
    assert TITLES[lang][slug] in text
    assert f"<title>{TITLES[lang][slug]} ·" in html
    for term in PAGE_TERMS[lang][slug]:
        assert term.lower() in text.lower(), f"{slug} ({lang}) should mention {term!r}"
    # Really written in that language: its script is there, the other pages' titles are not.
    # (The other scripts appear only in quoted game terms and language names.)
    if lang == "ka":
        assert len(GEORGIAN.findall(text)) > 300
        assert len(CYRILLIC.findall(text)) < 20
    elif lang == "ru":
        assert len(CYRILLIC.findall(text)) > 300
        assert len(GEORGIAN.findall(text)) < 60
    else:
        assert TITLES["ka"][slug] not in text and TITLES["ru"][slug] not in text
    for other in LANGS:
        if other != lang:
            assert TITLES[other][slug] not in text


def test_english_pages_are_english_apart_from_quoted_terms(client) -> None:
    for slug in HELP_SLUGS:
        text = page_text(client, slug, "en")
        words = re.findall(r"[A-Za-z]+", text)
        assert len(words) > 150
        # Georgian and Russian appear only as quoted game terms (glossary) or language names.
        assert len(GEORGIAN.findall(text)) + len(CYRILLIC.findall(text)) < 120


def test_accept_language_header_picks_the_language_too(client) -> None:
    response = client.get("/help/classic_joker/", HTTP_ACCEPT_LANGUAGE="ru")
    assert TITLES["ru"]["classic_joker"] in article(response)
    response = client.get("/help/classic_joker/", HTTP_ACCEPT_LANGUAGE="ka,en;q=0.5")
    assert TITLES["ka"]["classic_joker"] in article(response)


def test_a_language_the_site_does_not_have_falls_back_to_english(client) -> None:
    response = client.get("/help/faq/", HTTP_ACCEPT_LANGUAGE="de")
    assert response.status_code == 200
    assert TITLES["en"]["faq"] in article(response)


def test_help_language_falls_back_to_english_for_an_unwritten_language() -> None:
    from games.help import help_language

    with translation.override("de"):
        assert help_language() == "en"
    with translation.override("ka"):
        assert help_language() == "ka"
    with translation.override("ru-ru"):
        assert help_language() == "ru"


# --- index, contents, 404 --------------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGS)
def test_index_links_every_page(client, lang: str) -> None:
    response = get_page(client, "/help/", lang)
    assert response.status_code == 200
    html = response.content.decode()
    body = html.split('<article class="help-article"', 1)[1]
    for slug in help_slugs():
        assert f'href="/help/{slug}/"' in body, slug
    assert 'href="/help/" aria-current="page"' in html


@pytest.mark.parametrize("slug", HELP_SLUGS)
def test_every_page_has_the_contents_with_itself_marked_current(client, slug: str) -> None:
    html = client.get(f"/help/{slug}/").content.decode()
    contents = html.split('<nav class="help-toc"', 1)[1].split("</nav>", 1)[0]
    for other in help_slugs():
        assert f'href="/help/{other}/"' in contents
    assert f'href="/help/{slug}/" aria-current="page"' in contents
    assert contents.count('aria-current="page"') == 1
    assert "css/help.css" in html


@pytest.mark.parametrize("lang", LANGS)
def test_unknown_page_is_404(client, lang: str) -> None:
    assert get_page(client, "/help/poker/", lang).status_code == 404
    assert get_page(client, "/help/base/", lang).status_code == 404
    assert get_page(client, "/help/_card/", lang).status_code == 404


def test_help_pages_only_answer_get(client) -> None:
    assert client.post("/help/").status_code == 405
    assert client.post("/help/faq/").status_code == 405


def test_in_page_contents_links_point_at_headings(client) -> None:
    for lang in LANGS:
        for slug in ("japanese_joker", "classic_joker", "japanese_whist"):
            html = get_page(client, f"/help/{slug}/", lang).content.decode()
            targets = re.findall(r'href="#([\w-]+)"', html)
            assert len(targets) >= 9
            for target in targets:
                assert f'id="{target}"' in html, (slug, lang, target)


# --- the facts a player needs, in every language ----------------------------------------------

FACTS = {
    "japanese_joker": {
        "all": [
            "36",
            "18",
            "11, 15, 21",
            "31",
            "♠, ♥, ♦, ♣",
            "5, 4, 3, 2",
            "25, 50, 100",
        ],
        "en": [
            "36 cards",
            "18 tricks",
            "bezi",
            "declarer",
            "alternates every hand",
            "first card of the hand comes from the hand",
            "two columns",
            "straight into your hand",
            "highest",
            "trump cuts",
            "9–9",
            "difference",
            "forfeit",
            "cannot end in a draw",
        ],
        "ka": [
            "36 კარტი",
            "18 ხელი",
            "ბეზი",
            "მცხადებელი",
            "ყოველ დარიგებაზე იცვლება",
            "დარიგების პირველი კარტი ხელიდან",
            "ბოლო ორი სვეტი",
            "მაშინვე ხელში გადმოდის",
            "ყველაზე უფროსი",
            "კოზირი ჭრის",
            "9–9",
            "სხვაობას",
            "ტექნიკური დამარცხება",
            "ფრედ",
        ],
        "ru": [
            "36 карт",
            "18 взяток",
            "бези",
            "объявляющий",
            "меняется каждую раздачу",
            "Первая карта раздачи — с руки",
            "Последние два столбика",
            "сразу переходит вам на руку",
            "старшая",
            "козырь бьёт джокера",
            "9–9",
            "разницу",
            "техническое поражение",
            "ничьей в партии не бывает",
        ],
    },
    "classic_joker": {
        "all": [
            "24",
            "16",
            "1, 2, 3, 4, 5, 6, 7, 8",
            "8, 7, 6, 5, 4, 3, 2, 1",
            "−200",
            "−500",
            "−900",
            "100 × n",
            "50 × b + 50",
            "10 × t",
            "700",
            "220",
            "−90",
            "230",
        ],
        "en": [
            "24 deals",
            "pulkas",
            "Nines only",
            "khishti",
            "premia",
            "moshla",
            "want",
            "take",
            "high",
            "low",
            "forbidden bid",
            "Strict joker",
            "chooser",
            "computer player",
            "placed last",
            "share the place",
        ],
        "ka": [
            "24 დარიგება",
            "პულკა",
            "მხოლოდ ცხრიანები",
            "ხიშტი",
            "პრემია",
            "მოშლა",
            "ვიში",
            "წაიღოს",
            "უფროსი",
            "უმცროსი",
            "აკრძალული შეკვეთა",
            "მკაცრი ჯოკერი",
            "კოზირის ამრჩევი",
            "კომპიუტერი",
            "ბოლო ადგილზე",
            "ადგილს იყოფენ",
        ],
        "ru": [
            "24 раздачи",
            "пульки",
            "Только девятки",
            "Хишти",
            "премию",
            "Мошла",
            "«Хочу»",
            "«Забирай»",
            "Старший",
            "Младший",
            "Запрещённый заказ",
            "Строгий джокер",
            "выбирающий козырь",
            "компьютер",
            "последнее место",
            "делят место",
        ],
    },
    "japanese_whist": {
        "all": ["52", "26", "20 + 20 + 12", "5, 7, 13", "21", "2 × 2 = 4", "16", "13–13"],
        "en": [
            "52 cards",
            "26 tricks",
            "forehand",
            "dealer",
            "layout",
            "when the trick is over",
            "locked",
            "no no-trump",
            "may",
            "Spel",
            "Pass",
            "double",
            "no doubling",
        ],
        "ka": [
            "52-კარტიანი",
            "26 ხელი",
            "ფორჰანდი",
            "დამრიგებელი",
            "განლაგება",
            "ხელის დამთავრების შემდეგ",
            "ჩაკეტილია",
            "უკოზირო თამაში აქ არ არის",
            "შეგიძლიათ",
            "სპელი",
            "პასი",
            "ორმაგს",
            "გაორმაგების გარეშე",
        ],
        "ru": [
            "52 карт",
            "26 взяток",
            "первая рука",
            "сдающий",
            "раскладк",
            "после окончания взятки",
            "заблокирована",
            "Игры без козыря здесь нет",
            "можно",
            "Спел",
            "Пас",
            "вдвойне",
            "без удвоения",
        ],
    },
    "faq": {
        "all": ["Domino Coin", "1000", "250", "Guest-4821", "25, 50, 100"],
        "en": [
            "guest",
            "free",
            "not rated",
            "never sent",
            "spectators",
            "seed",
            "forfeit",
            "no link to money",
            "cannot be bought, sold, sent",
            "daily top-up",
            "Each game has its own rating",
            "at least 4 characters",
            "invit",
        ],
        "ka": [
            "სტუმ",
            "უფასო",
            "რეიტინგი არ ეთვლებათ",
            "არასოდეს ეგზავნება",
            "მაყურებლ",
            "seed",
            "ტექნიკური დამარცხება",
            "ფულთან კავშირი არ აქვს",
            "ვერ იყიდით",
            "ვერ გაყიდით",
            "ვერ გადაუგზავნით",
            "ყოველდღიური შევსება",
            "ყოველ თამაშს თავისი რეიტინგი",
            "მინიმუმ 4 სიმბოლო",
            "მოწვევ",
        ],
        "ru": [
            "гост",
            "бесплатные",
            "рейтинг им не считается",
            "никогда не отправляют",
            "зрител",
            "seed",
            "техническое поражение",
            "никак не связана с деньгами",
            "нельзя купить",
            "продать, перевести",
            "ежедневное пополнение",
            "У каждой игры свой рейтинг",
            "не короче 4 символов",
            "приглаш",
        ],
    },
}


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("slug", sorted(FACTS))
def test_pages_state_the_rules_a_player_needs(client, slug: str, lang: str) -> None:
    text = page_text(client, slug, lang)
    for fact in FACTS[slug]["all"] + FACTS[slug][lang]:
        assert fact in text, f"{slug} ({lang}) should say {fact!r}"


@pytest.mark.parametrize("lang", LANGS)
def test_glossary_defines_the_game_words(client, lang: str) -> None:
    html = get_page(client, "/help/glossary/", lang).content.decode()
    for anchor in (
        "bezi",
        "khishti",
        "premia",
        "moshla",
        "pulka",
        "declarer",
        "want",
        "take",
        "high-low",
        "forehand",
        "column",
        "layout",
        "trick",
        "trump",
        "dealer",
        "forbidden-bid",
        "strict-joker",
        "spel-pass",
        "forfeit",
        "available",
        "speed",
        "bank",
        "turn-clock",
    ):
        assert f'<dt id="{anchor}">' in html, (lang, anchor)


@pytest.mark.parametrize("lang", LANGS)
def test_glossary_is_in_alphabetical_order(client, lang: str) -> None:
    html = get_page(client, "/help/glossary/", lang).content.decode()
    found = re.findall(r'<dt id="[\w-]+">([^<]+)</dt>', html)
    terms = [unescape(t).lower().replace("«", "").replace("»", "").replace("'", "") for t in found]
    assert terms == sorted(terms)


@pytest.mark.parametrize("lang", LANGS)
def test_difference_page_compares_the_two_jokers(client, lang: str) -> None:
    text = page_text(client, "difference", lang)
    for fact in ("4", "2", "36", "24", "18", "11, 15, 21", "31", "−200"):
        assert fact in text


# --- speeds: the turn clock and the bank, from the settings ------------------------------------

# Each speed's settings (games.services.clock.SPEED_SETTINGS), spelled out so that a page quoting
# the wrong preset's numbers fails.
SPEED_SETTINGS = {
    "fast": ("FAST_TURN_SECONDS", "FAST_BANK_SECONDS"),
    "normal": ("TURN_SECONDS", "BANK_SECONDS"),
    "relaxed": ("RELAXED_TURN_SECONDS", "RELAXED_BANK_SECONDS"),
}
# The speeds table's column headings, written in each page's language (not through gettext).
SPEED_HEADINGS = {
    "en": ["Speed", "Each turn", "Bank for the match"],
    "ka": ["სიჩქარე", "ყოველ სვლაზე", "დროის მარაგი მატჩზე"],
    "ru": ["Скорость", "На каждый ход", "Запас на партию"],
}
# The words each language uses for the speed and the bank (the glossary's entries).
SPEED_WORDS = {
    "en": ["speed", "bank", "turn clock"],
    "ka": ["სიჩქარე", "დროის მარაგ", "სვლის საათ"],
    "ru": ["скорост", "запас времени", "часы хода"],
}
SPEED_PAGES = ("faq", "japanese_joker", "classic_joker", "japanese_whist")


def expected_speeds(lang: str) -> dict[str, tuple[str, int, int]]:
    """Each speed's label in ``lang`` and its turn and bank seconds, from the settings now."""
    from games.models import Table

    with translation.override(lang):
        return {
            speed.value: (
                str(speed.label),
                round(getattr(settings, SPEED_SETTINGS[speed.value][0])),
                round(getattr(settings, SPEED_SETTINGS[speed.value][1])),
            )
            for speed in Table.Speed
        }


def speeds_table(html: str) -> tuple[list[str], dict[str, list[str]]]:
    """The speeds table of a page: its column headings, and each row's cells by speed id."""
    match = re.search(r'<table class="help-table help-speeds">(.*?)</table>', html, re.S)
    assert match, "the page has no speeds table"
    table = match.group(1)
    cells = re.compile(r"<t[hd][^>]*>(.*?)</t[hd]>", re.S)
    head = re.search(r"<thead>(.*?)</thead>", table, re.S)
    assert head
    headings = [unescape(c).strip() for c in cells.findall(head.group(1))]
    rows = {
        speed: [unescape(c).strip() for c in cells.findall(row)]
        for speed, row in re.findall(r'<tr data-speed="(\w+)">(.*?)</tr>', table, re.S)
    }
    return headings, rows


def assert_speeds_quoted(client, slug: str, lang: str) -> None:
    response = get_page(client, f"/help/{slug}/", lang)
    assert response.status_code == 200
    html = response.content.decode()
    headings, rows = speeds_table(html.split('<article class="help-article"', 1)[1])
    assert headings == SPEED_HEADINGS[lang], (slug, lang)
    expected = expected_speeds(lang)
    assert list(rows) == list(expected), (slug, lang)  # Fast, Normal, Relaxed, in that order
    for speed, (label, turn, bank) in expected.items():
        name, turn_cell, bank_cell = rows[speed]
        assert name == label, (slug, lang, speed)
        assert re.fullmatch(rf"{turn}\D+", turn_cell), (slug, lang, speed, turn_cell)
        assert re.fullmatch(rf"{bank}\D+", bank_cell), (slug, lang, speed, bank_cell)
    text = article(response)
    for word in SPEED_WORDS[lang]:
        assert word in text.lower(), (slug, lang, word)
    # The site-wide clock and the separate absence allowance of before speeds are gone.
    assert "grace" not in text.lower() and "время ожидания" not in text
    assert "მოლოდინის დრო" not in text


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("slug", SPEED_PAGES)
def test_faq_and_rules_pages_quote_every_speed_from_the_settings(
    client, slug: str, lang: str
) -> None:
    assert_speeds_quoted(client, slug, lang)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("slug", SPEED_PAGES)
def test_changing_a_speed_setting_changes_the_pages(client, settings, slug: str, lang: str) -> None:
    settings.FAST_TURN_SECONDS = 15
    settings.BANK_SECONDS = 100
    settings.RELAXED_BANK_SECONDS = 240
    assert expected_speeds(lang)["fast"][1] == 15 and expected_speeds(lang)["normal"][2] == 100
    assert_speeds_quoted(client, slug, lang)
    assert "240" in page_text(client, slug, lang)


def test_the_speed_labels_are_in_the_page_language(client) -> None:
    """The labels are the model's choices, translated as the create-table form shows them: each
    language's page names the speeds in its own words."""
    shown = {}
    for lang in LANGS:
        _, rows = speeds_table(get_page(client, "/help/faq/", lang).content.decode())
        shown[lang] = [cells[0] for cells in rows.values()]
    assert shown["en"] == ["Fast", "Normal", "Relaxed"]
    assert all(GEORGIAN.search(label) for label in shown["ka"]), shown["ka"]
    assert all(CYRILLIC.search(label) for label in shown["ru"]), shown["ru"]


@pytest.mark.parametrize("lang", LANGS)
def test_glossary_and_tips_quote_every_speed(client, settings, lang: str) -> None:
    settings.FAST_TURN_SECONDS = 14
    settings.RELAXED_TURN_SECONDS = 77
    for slug in ("glossary", "tips"):
        text = page_text(client, slug, lang)
        for label, turn, bank in expected_speeds(lang).values():
            assert re.search(rf"{re.escape(label)}\W+[^;.]*\b{turn}\b[^;.]*\b{bank}\b", text), (
                slug,
                lang,
                label,
            )
        for word in SPEED_WORDS[lang][:2]:
            assert word in text.lower(), (slug, lang, word)


@pytest.mark.parametrize("lang", LANGS)
def test_glossary_defines_speed_and_bank(client, lang: str) -> None:
    text = page_text(client, "glossary", lang)
    terms = {
        "en": ["Speed", "Bank (time bank)", "Turn clock"],
        "ka": ["სიჩქარე (speed)", "დროის მარაგი (time bank)", "სვლის საათი (turn clock)"],
        "ru": ["Скорость стола", "Запас времени", "Часы хода"],
    }
    for term in terms[lang]:
        assert term in text, (lang, term)


@override_settings(
    TURN_SECONDS=40,
    BANK_SECONDS=120,
    COIN_SIGNUP_GRANT=700,
    COIN_DAILY_TOPUP_AMOUNT=125,
    COIN_DAILY_TOPUP_BELOW=150,
)
@pytest.mark.parametrize("lang", LANGS)
def test_site_settings_are_quoted_from_the_settings(client, lang: str) -> None:
    faq = page_text(client, "faq", lang)
    for number in ("40", "120", "700", "125", "150"):
        assert number in faq
    assert "1000" not in faq
    rules = page_text(client, "japanese_joker", lang)
    assert "40" in rules and "120" in rules


# --- the worked examples and diagrams agree with the rules engines -----------------------------

# The premia/moshla example of the classic page: (bid, taken) per deal for Nino, Giorgi, Ana, Levan.
PULKA_EXAMPLE = [
    [(3, 3), (2, 2), (0, 1), (3, 3)],
    [(1, 1), (4, 3), (2, 0), (3, 5)],
    [(0, 0), (2, 2), (4, 4), (2, 3)],
    [(2, 2), (3, 4), (1, 1), (2, 2)],
]


def _rows() -> list[list[tuple[int, int, int]]]:
    return [[(9, bid, taken) for bid, taken in deal] for deal in PULKA_EXAMPLE]


def test_worked_premia_example_is_what_the_engine_scores() -> None:
    rows = _rows()
    for deal in rows:  # a possible nine-card deal: 9 tricks, and the dealer's bid was legal
        assert sum(taken for _, _, taken in deal) == 9
        assert sum(bid for _, bid, _ in deal) != 9
    raw = [sum(classic_joker.score_deal(*row[s]) for row in rows) for s in range(4)]
    assert raw == [500, 370, 160, 430]
    assert classic_joker.premia_seats(rows) == [0]
    assert classic_joker.pulka_scores(rows) == [700, 220, -90, 230]
    assert classic_joker.pulka_scores(rows, {"moshla": False}) == [700, 370, 160, 430]
    assert classic_joker.pulka_scores(rows, {"premia": False}) == [500, 370, 160, 430]
    marks = classic_joker.pulka_marks(rows)
    assert marks[0] == ["doubled", "cancelled", None, "cancelled"]
    assert marks[2] == [None, None, "cancelled", None]
    assert marks[1] == marks[3] == [None, None, None, None]
    # "Had Levan also made every bid": two premia players, nobody cancelled.
    both = [list(deal) for deal in rows]
    both[1][3] = (9, 5, 5)
    both[2][3] = (9, 3, 3)
    assert classic_joker.premia_seats(both) == [0, 3]
    assert classic_joker.pulka_marks(both)[0] == ["doubled", None, None, None]


@pytest.mark.parametrize("lang", LANGS)
def test_worked_premia_example_is_printed_as_computed(client, lang: str) -> None:
    html = get_page(client, "/help/classic_joker/", lang).content.decode()
    rows = _rows()
    marks = classic_joker.pulka_marks(rows)
    for d, deal in enumerate(rows):
        for s, (cards, bid, taken) in enumerate(deal):
            points = classic_joker.score_deal(cards, bid, taken)
            cell = f"{bid}/{taken} → {points}".replace("-", "−")
            mark = marks[d][s] or ("khishti" if bid and not taken else None)
            expected = (
                f'<td class="num {mark}">{cell}</td>' if mark else f'<td class="num">{cell}</td>'
            )
            assert expected in html, (lang, d, s, expected)


def test_scoring_table_examples_are_what_the_engine_scores() -> None:
    score = classic_joker.score_deal
    assert score(6, 6, 6) == 600
    assert score(6, 0, 0) == 50
    assert score(6, 2, 2) == 150
    assert score(6, 3, 0) == -200
    assert score(6, 3, 0, {"khishti": -500}) == -500
    assert score(6, 2, 4) == 40
    assert score(6, 0, 1) == 10
    assert score(1, 1, 1) == 100
    assert score(9, 1, 1) == 100 > score(9, 0, 4) == 40  # the tips page's comparison


def test_dealer_forbidden_bid_example() -> None:
    # Five cards, the others bid 1, 2 and 0: the dealer may bid anything from 0 to 5 but 2.
    others = 1 + 2 + 0
    legal = [b for b in range(6) if others + b != 5]
    assert legal == [0, 1, 3, 4, 5]


def test_japanese_joker_diagrams_agree_with_the_engine() -> None:
    # A joker calling ♥ meets the 7♠, trumps ♠: the trump cuts (the follower had no heart).
    lead = Play(0, "X1", "want", "H")
    assert tricks.follow_cards(lead, ["7S", "9D", "KC"], "S") == ["7S"]
    assert japanese_joker.trick_winner((lead, Play(1, "7S")), "S") == 1
    # A joker calling the trump suit forces the highest spade and wins.
    lead = Play(0, "X1", "want", "S")
    assert tricks.follow_cards(lead, ["7S", "AS", "KH"], "S") == ["AS"]
    assert japanese_joker.trick_winner((lead, Play(1, "AS")), "S") == 0
    # Scoring: 11-7 gives 4, 9-9 nothing.
    assert japanese_joker.hand_points((11, 7)) == (4, 0)
    assert japanese_joker.hand_points((9, 9)) == (0, 0)


def test_classic_joker_diagrams_agree_with_the_engine() -> None:
    want = [Play(0, "X1", "want", "H"), Play(1, "KH"), Play(2, "8S"), Play(3, "AH")]
    assert classic_joker.trick_winner(want, "S") == 2
    high = [Play(0, "TD"), Play(1, "AS"), Play(2, "X2", "high"), Play(3, "QD")]
    assert classic_joker.trick_winner(high, "S") == 2
    low = [Play(0, "TD"), Play(1, "AS"), Play(2, "X2", "low"), Play(3, "QD")]
    assert classic_joker.trick_winner(low, "S") == 1


def test_japanese_whist_diagram_and_examples_agree_with_the_engine() -> None:
    assert japanese_whist.trick_winner((Play(0, "KS"), Play(1, "2H")), "H") == 1
    assert japanese_whist.trick_winner((Play(0, "KS"), Play(1, "AD")), "H") == 0
    trumps = japanese_whist.Options("trumps", 13)
    spel_pass = japanese_whist.Options("spel_pass", 13)
    dealer = 1  # seat 0 is the forehand
    assert japanese_whist.hand_points(trumps, (16, 10), dealer, None) == (3, 0)
    assert japanese_whist.hand_points(trumps, (13, 13), dealer, None) == (0, 0)
    assert japanese_whist.hand_points(spel_pass, (16, 10), dealer, "spel") == (3, 0)
    assert japanese_whist.hand_points(spel_pass, (11, 15), dealer, "spel") == (0, 4)
    assert japanese_whist.hand_points(spel_pass, (13, 13), dealer, "spel") == (0, 0)
    assert japanese_whist.hand_points(spel_pass, (10, 16), dealer, "pass") == (3, 0)
    assert japanese_whist.hand_points(spel_pass, (18, 8), dealer, "pass") == (0, 5)


def test_table_options_on_the_pages_are_the_engines_options() -> None:
    def choices(game: str, name: str) -> list:
        from games.rules import get_game

        spec = next(s for s in get_game(game).option_specs if s.name == name)
        return list(spec.choices)

    assert choices("japanese_joker", "points") == [11, 15, 21, 31]
    assert choices("japanese_whist", "points") == [5, 7, 13, 21]
    assert sorted(choices("classic_joker", "khishti")) == [-900, -500, -200, 0]
    assert sorted(choices("classic_joker", "seats")) == [2, 3, 4]
    assert sorted(choices("classic_joker", "pulkas")) == ["nines", "short", "standard"]


# --- the mini card ------------------------------------------------------------------------------


def card(code: str, lang: str = "en", **extra) -> str:
    with translation.override(lang):
        return render_to_string("help/_card.html", {"code": code, **extra})


def test_mini_card_draws_rank_suit_and_colour() -> None:
    html = card("QH")
    assert 'class="mc mc-red"' in html
    assert 'aria-label="Queen of hearts"' in html
    assert ">Q<" in html and ">♥<" in html
    html = card("TS")
    assert 'class="mc mc-black"' in html and ">10<" in html and ">♠<" in html
    assert 'aria-label="10 of spades"' in html
    assert "mc-red" in card("6D") and "mc-black" in card("7C")


def test_mini_card_back_and_jokers() -> None:
    back = card("back")
    assert "mc-back" in back and 'aria-label="face-down card"' in back
    assert "♠" not in back and "♥" not in back  # a back shows nothing of the card
    joker = card("X1", call="H")
    assert "mc-joker" in joker and 'aria-label="Joker, calling hearts"' in joker
    assert "mc-call mc-red" in joker
    assert "mc-call" not in card("X2")
    assert "mc-win" in card("8S", win=True) and "wins the trick" in card("8S", win=True)


@pytest.mark.parametrize(
    ("lang", "code", "label"),
    [
        ("ka", "QH", "გულის დამა"),
        ("ka", "AS", "ყვავის ტუზი"),
        ("ka", "TC", "ჯვრის ათიანი"),
        ("ka", "7D", "აგურის შვიდიანი"),
        ("ka", "back", "დახურული კარტი"),
        ("ru", "QH", "дама червей"),
        ("ru", "AS", "туз пик"),
        ("ru", "TC", "десятка треф"),
        ("ru", "7D", "семёрка бубён"),
        ("ru", "back", "закрытая карта"),
        ("en", "KC", "King of clubs"),
    ],
)
def test_mini_card_is_named_in_the_page_language(lang: str, code: str, label: str) -> None:
    assert f'aria-label="{label}"' in card(code, lang)


@pytest.mark.parametrize(("lang", "corners"), [("en", "AKQJ"), ("ru", "ТКДВ"), ("ka", "ტკდვ")])
def test_mini_card_corner_is_the_letter_the_table_page_draws(lang: str, corners: str) -> None:
    """A help diagram and the table show the same queen: Д in Russian, დ in Georgian."""
    for code, letter in zip(("AS", "KH", "QD", "JC"), corners, strict=True):
        assert f'<span class="mc-rank" aria-hidden="true">{letter}</span>' in card(code, lang)


@pytest.mark.parametrize("lang", ["ka", "ru"])
def test_rules_pages_name_cards_with_the_corner_letters_of_their_language(
    client, lang: str
) -> None:
    client.cookies["django_language"] = lang
    for slug in ("japanese_joker", "classic_joker", "japanese_whist"):
        response = client.get(f"/help/{slug}/")
        assert response.status_code == 200 and response.headers["Content-Language"] == lang
        text = response.content.decode()
        assert not re.search(r"[AKQJ][♠♥♦♣]", text), slug


def test_mini_joker_is_named_in_the_page_language() -> None:
    assert "ჯოკერი, გამოცხადებული მასტი: გული" in card("X1", "ka", call="H")
    assert "джокер, объявлена масть: черви" in card("X1", "ru", call="H")


@pytest.mark.parametrize("lang", LANGS)
def test_rules_pages_draw_columns_and_tricks_without_images(client, lang: str) -> None:
    for slug in ("japanese_joker", "classic_joker", "japanese_whist"):
        html = get_page(client, f"/help/{slug}/", lang).content.decode()
        body = html.split('<article class="help-article"', 1)[1]
        assert "<img" not in body
        assert body.count('class="mc ') + body.count('class="mc mc-') >= 6
        assert "mc-win" in body
    jj = get_page(client, "/help/japanese_joker/", lang).content.decode()
    assert jj.count('class="mc-column"') >= 7  # five columns, and the last-two-columns figure
    assert "mc-call" in jj  # a joker with its called suit
