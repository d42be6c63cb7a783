"""Fonts and card pictures: the stored bytes are the reviewed art, text and
cards land where documented, suits read apart without colour."""

import glyph_art as art

from firmware.display import fb, font, glyphs
from tools.sim.render import to_art


def rows(a):
    return a.split()


def test_font_bytes_match_the_art():
    assert font.SMALL_CHARS == art.small_chars()
    assert bytes(font.SMALL_DATA) == art.small_data()
    assert bytes(font.BIG_DATA) == art.big_data()


def test_card_bytes_match_the_art():
    assert bytes(glyphs.SUIT_DATA) == art.suit_data()
    assert bytes(glyphs.CARD_FACE_DATA) == art.card_face_data()
    assert bytes(glyphs.CARD_BACK_DATA) == art.card_back_data()


def test_small_font_covers_digits_letters_and_punctuation():
    for ch in "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ .:,!?-+/()%<>'#=":
        assert ch in font.SMALL_CHARS, ch


def test_big_font_covers_printable_ascii():
    assert len(font.BIG_DATA) == 95 * font.BIG_W
    assert fb.BIG_SHEET.width == 95 * font.BIG_W


def test_every_glyph_is_distinct_within_its_font():
    small = [font.SMALL_DATA[i:i + 3] for i in range(0, len(font.SMALL_DATA), 3)]
    assert len(set(small)) == len(small)
    big = [font.BIG_DATA[i:i + 5] for i in range(0, len(font.BIG_DATA), 5)]
    assert len(set(big)) == len(big)


def test_small_text_draws_the_art_at_the_given_position():
    c = fb.Canvas()
    end = c.text("G7", 10, 20)
    assert end == 18
    assert to_art(c.buf, 10, 20, 3, 5) == rows(art.SMALL_ART["G"])
    assert to_art(c.buf, 14, 20, 3, 5) == rows(art.SMALL_ART["7"])
    # one blank column between glyphs, nothing outside the cells
    assert to_art(c.buf, 13, 20, 1, 5) == ["."] * 5
    assert sum(bin(b).count("1") for b in c.buf) == sum(
        r.count("#") for r in rows(art.SMALL_ART["G"]) + rows(art.SMALL_ART["7"]))


def test_small_font_draws_lowercase_as_uppercase_and_unknown_as_question_mark():
    a = fb.Canvas()
    a.text("knock", 0, 0)
    b = fb.Canvas()
    b.text("KNOCK", 0, 0)
    assert a.buf == b.buf
    a = fb.Canvas()
    a.text("@", 0, 0)
    b = fb.Canvas()
    b.text("?", 0, 0)
    assert a.buf == b.buf


def test_big_text_draws_true_lowercase():
    c = fb.Canvas()
    assert c.text(b"gA", 0, 8, 1, fb.BIG) == 12
    assert to_art(c.buf, 0, 8, 5, 7) == rows(dict(art.BIG_ART)["g"])
    assert to_art(c.buf, 6, 8, 5, 7) == rows(dict(art.BIG_ART)["A"])


def test_text_in_colour_zero_clears_only_the_glyph_pixels():
    c = fb.Canvas()
    c.fill_rect(0, 0, 20, 9, 1)
    c.text("A", 1, 1, 0, fb.BIG)
    inv = [r.replace("#", "x").replace(".", "#").replace("x", ".")
           for r in rows(dict(art.BIG_ART)["A"])]
    assert to_art(c.buf, 1, 1, 5, 7) == inv
    assert to_art(c.buf, 0, 0, 20, 1) == ["#" * 20]


def test_text_clips_at_every_edge():
    c = fb.Canvas()
    c.text("WWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWW", -2, -3, 1, fb.BIG)
    c.text("WWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWW", -2, 60, 1, fb.SMALL)
    assert len(c.buf) == 1024


def test_text_width_and_num_width_match_what_is_drawn():
    c = fb.Canvas()
    assert c.text("ABC", 0, 0) == fb.text_width("ABC")
    assert c.text("ABC", 0, 0, 1, fb.BIG) == fb.text_width("ABC", fb.BIG)
    for n in (0, 7, 10, 99, -5, 12345, -1000):
        assert c.num(n, 0, 10) == fb.num_width(n)
        assert c.num(n, 0, 20, 1, fb.BIG) == fb.num_width(n, fb.BIG)


def test_num_draws_like_text():
    for n in (0, 9, 10, 123, -45, 1000000):
        a = fb.Canvas()
        a.num(n, 3, 4, 1, fb.BIG)
        b = fb.Canvas()
        b.text(str(n), 3, 4, 1, fb.BIG)
        assert a.buf == b.buf, n


def test_suits_read_apart_filled_black_suits_outlined_red_suits():
    pics = [tuple(rows(a)) for a in art.SUIT_ART]
    assert len(set(pics)) == 4
    ink = [sum(r.count("#") for r in p) for p in pics]
    spade, heart, diamond, club = ink
    assert min(spade, club) > max(heart, diamond)
    for p in pics[1:3]:  # outlined: the middle of the glyph is empty
        assert p[3][2] == "."


def _pixels_apart(a, b):
    return sum(x != y for ra, rb in zip(a, b) for x, y in zip(ra, rb))


def test_every_two_suits_differ_in_at_least_8_pixels():
    """The 5x5 suits they replace differed in 4 (spades and clubs) and 8
    (hearts and diamonds, both in the top two rows only)."""
    pics = [rows(a) for a in art.SUIT_ART]
    assert all(len(p) == glyphs.SUIT_H and all(len(r) == glyphs.SUIT_W for r in p)
               for p in pics)
    for i in range(4):
        for j in range(i + 1, 4):
            d = _pixels_apart(pics[i], pics[j])
            assert d >= 8, ("shdc"[i], "shdc"[j], d)


def test_suits_differ_in_silhouette_not_only_inside():
    """Filled or outlined aside, the outlines differ: where each suit's
    widest row is, and how wide its top row is."""
    pics = [rows(a) for a in art.SUIT_ART]

    def outline(p):
        return tuple((r.find("#"), r.rfind("#")) for r in p)

    assert len({outline(p) for p in pics}) == 4
    spade, heart, diamond, club = pics
    assert spade[0].count("#") == 1 and club[0].count("#") == 3   # pointed, round
    assert heart[0].count("#") == 0 and diamond[0].count("#") == 1
    assert club[2].count("#") < club[0].count("#")                # the club's neck


def test_card_face_shows_rank_over_suit_inside_a_border():
    c = fb.Canvas()
    card = 1 * 13 + 11  # queen of hearts
    glyphs.draw_card(c, card, 20, 30)
    pic = to_art(c.buf, 20, 30, glyphs.CARD_W, glyphs.CARD_H)
    assert pic[0] == ".#######."
    assert pic[-1] == ".#######."
    assert all(r[0] == "#" and r[-1] == "#" for r in pic[1:-1])
    rank = [r[glyphs.RANK_X:glyphs.RANK_X + 3] for r in pic[glyphs.RANK_Y:glyphs.RANK_Y + 5]]
    assert rank == rows(art.SMALL_ART["Q"])
    suit = [r[glyphs.SUIT_X:glyphs.SUIT_X + 5] for r in pic[glyphs.SUIT_Y:glyphs.SUIT_Y + 7]]
    assert suit == rows(art.SUIT_ART[1])
    assert glyphs.SUIT_Y + glyphs.SUIT_H < glyphs.CARD_H     # inside the border


def test_ten_is_drawn_as_T():
    c = fb.Canvas()
    glyphs.draw_card(c, 9, 0, 0)  # ten of spades
    rank = to_art(c.buf, glyphs.RANK_X, glyphs.RANK_Y, 3, 5)
    assert rank == rows(art.SMALL_ART["T"])


def test_card_face_is_opaque():
    c = fb.Canvas()
    c.fill(1)
    glyphs.draw_card(c, 0, 10, 10)
    pic = to_art(c.buf, 10, 10, glyphs.CARD_W, glyphs.CARD_H)
    assert pic[1] == "#.......#"


def test_selected_card_is_lifted():
    a = fb.Canvas()
    glyphs.draw_card(a, 5, 30, 40, selected=True)
    b = fb.Canvas()
    glyphs.draw_card(b, 5, 30, 40 - glyphs.LIFT)
    assert a.buf == b.buf


def test_inverted_card_flips_the_inside():
    a = fb.Canvas()
    glyphs.draw_card(a, 5, 30, 40)
    b = fb.Canvas()
    glyphs.draw_card(b, 5, 30, 40, invert=True)
    pa = to_art(a.buf, 31, 41, glyphs.CARD_W - 2, glyphs.CARD_H - 2)
    pb = to_art(b.buf, 31, 41, glyphs.CARD_W - 2, glyphs.CARD_H - 2)
    for ra, rb in zip(pa, pb):
        assert all((x == "#") != (y == "#") for x, y in zip(ra, rb))


def test_eleven_cards_fit_on_the_stride():
    c = fb.Canvas()
    y = 64 - glyphs.CARD_H                   # the hand's row, at the bottom
    for i in range(11):
        glyphs.draw_card(c, i, 2 + i * glyphs.CARD_STRIDE, y)
    assert 2 + 10 * glyphs.CARD_STRIDE + glyphs.CARD_W <= 128
    # every card keeps its own left border
    for i in range(11):
        assert to_art(c.buf, 2 + i * glyphs.CARD_STRIDE, y + 1, 1, 14) == ["#"] * 14


def test_back_and_slot_differ_from_a_face():
    a = fb.Canvas()
    glyphs.draw_back(a, 0, 0)
    b = fb.Canvas()
    glyphs.draw_slot(b, 0, 0)
    assert to_art(a.buf, 0, 0, 9, 16) == rows(art.CARD_BACK_ART)
    slot = to_art(b.buf, 0, 0, 9, 16)
    assert slot[0] == ".#.#.#.#."
    assert a.buf != b.buf


def test_inline_card_is_rank_then_suit():
    c = fb.Canvas()
    assert glyphs.draw_card_inline(c, 3 * 13 + 0, 5, 5) == 15
    assert to_art(c.buf, 5, 5, 3, 5) == rows(art.SMALL_ART["A"])
    assert to_art(c.buf, 9, 4, 5, 7) == rows(art.SUIT_ART[3])   # a row above and below
