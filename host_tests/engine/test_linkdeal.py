"""A link match's secret, made by both boards (engine/linkdeal.py): neither
board chooses it, a board that changes its secret after seeing the other's
commitment is caught, and both boards end with the same secret and deals."""

from engine import deal, linkdeal
from engine.linkdeal import Deal


def secret(k):
    return deal.secret_from_int(1000 + k)


def exchange(a, b):
    """Both commitments, then both reveals; the refusals (None: accepted)."""
    ra = a.take_commitment(b.commitment())
    rb = b.take_commitment(a.commitment())
    return ra, rb, a.take_reveal(b.reveal()), b.take_reveal(a.reveal())


def test_both_boards_derive_the_same_match_secret_and_so_the_same_deals():
    a = Deal(0, secret(1))
    b = Deal(1, secret(2))
    assert exchange(a, b) == (None, None, None, None)
    assert a.done() and b.done()
    s = a.secret()
    assert s == b.secret() and len(s) == deal.SECRET_LEN
    for n in (1, 2, 7):
        seed, _ = deal.hand_keys(s, n)
        assert deal.deck_from_seed(seed) == deal.deck_from_seed(deal.hand_keys(b.secret(), n)[0])


def test_the_match_secret_depends_on_both_secrets_and_the_roles():
    base = linkdeal.match_secret(0, secret(1), secret(2))
    assert linkdeal.match_secret(0, secret(1), secret(3)) != base
    assert linkdeal.match_secret(0, secret(4), secret(2)) != base
    assert linkdeal.match_secret(0, secret(2), secret(1)) != base
    assert linkdeal.match_secret(1, secret(1), secret(2)) != base
    assert base not in (secret(1), secret(2))


def test_no_reveal_before_the_other_commitment_is_held():
    a = Deal(0, secret(1))
    try:
        a.reveal()
    except ValueError:
        return
    assert False, "revealed before holding the other's commitment"


def test_a_secret_changed_after_seeing_the_other_commitment_is_caught():
    a = Deal(0, secret(1))
    b = Deal(1, secret(2))
    assert b.take_commitment(a.commitment()) is None
    assert a.take_commitment(b.commitment()) is None
    # b sees a's secret, then tries another of its own that would suit it
    assert b.take_reveal(a.reveal()) is None
    cheat = secret(3)
    words = a.take_reveal(cheat)
    assert words == linkdeal.WORDS_MISMATCH
    assert a.refused == words and not a.done()
    assert a.take_reveal(b.reveal()) == words    # the refusal is final
    try:
        a.secret()
    except ValueError:
        return
    assert False, "a refused deal gave a secret"


def test_a_copy_of_this_boards_commitment_is_refused():
    a = Deal(0, secret(1))
    assert a.take_commitment(a.commitment()) == linkdeal.WORDS_COPY


def test_a_copied_reveal_does_not_pass_as_the_other_role():
    # b answers with a's own secret: its commitment binds role 1, so it
    # cannot be made from a's role-0 commitment
    a = Deal(0, secret(1))
    b_fake = linkdeal.commitment(1, 0, secret(1))
    assert a.take_commitment(b_fake) is None
    assert a.take_reveal(secret(1)) is None      # committed honestly to a copy ...
    assert a.secret() != secret(1)               # ... which still does not choose the result
    c = Deal(0, secret(1))
    assert c.take_commitment(b_fake) is None
    assert c.take_reveal(secret(5)) == linkdeal.WORDS_MISMATCH


def test_malformed_commitments_and_secrets_are_refused_with_words():
    assert Deal(0, secret(1)).take_commitment(b"short") == linkdeal.WORDS_BAD_COMMIT
    a = Deal(0, secret(1))
    assert a.take_commitment(Deal(1, secret(2)).commitment()) is None
    assert a.take_reveal(b"\x00" * 3) == linkdeal.WORDS_BAD_SECRET
    fresh = Deal(0, secret(1))
    assert fresh.take_reveal(secret(2)) == linkdeal.WORDS_BAD_COMMIT


def test_a_resent_commitment_is_accepted_a_different_one_is_not():
    a = Deal(0, secret(1))
    c = Deal(1, secret(2)).commitment()
    assert a.take_commitment(c) is None
    assert a.take_commitment(c) is None
    assert a.take_commitment(Deal(1, secret(3)).commitment()) == linkdeal.WORDS_CHANGED


def test_a_draw_number_binds_the_commitment_and_the_secret():
    assert linkdeal.commitment(0, 0, secret(1)) != linkdeal.commitment(0, 1, secret(1))
    a = Deal(0, secret(1), n=1)
    b = Deal(1, secret(2), n=1)
    assert exchange(a, b) == (None, None, None, None)
    assert a.secret() == b.secret() != linkdeal.match_secret(0, secret(1), secret(2))
