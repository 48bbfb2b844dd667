"""str predicates of @jit code on non-ASCII text, by Unicode's tables as Numba 0.68 answers them
(prelude/host_str_class.h, tools/gen_unicode_class.py): isalpha, isdigit, isspace, isupper,
islower, istitle, isalnum, isdecimal, isnumeric, isidentifier, isprintable, isascii. Numba's
types too: isalpha, isdigit, isalnum and isdecimal answer int64 (for one ASCII character isalpha
and isalnum answer CPython's ctype flags: 'A' gives 2, '1'.isalnum() 4), isascii uint32, the
others bool. Numba's tables are an older Unicode than Python 3.11's (U+2C2F, U+A7BA, U+0870,
U+11950 have no class there). Expected values are Numba 0.68's."""
import pytest

from cujit import njit


@njit
def preds(s):
    return (s.isalpha(), s.isdigit(), s.isspace(), s.isupper(), s.islower(), s.istitle(), s.isalnum(),
            s.isdecimal(), s.isnumeric(), s.isidentifier(), s.isprintable(), s.isascii())


CASES = [
    ('é', (1, 0, False, False, True, False, 1, 0, False, True, True, 0)),
    ('ÉCOLE', (1, 0, False, True, False, False, 1, 0, False, True, True, 0)),
    ('straße', (1, 0, False, False, True, False, 1, 0, False, True, True, 0)),
    ('Σίσυφος', (1, 0, False, False, False, True, 1, 0, False, True, True, 0)),
    ('ǅungla', (1, 0, False, False, False, True, 1, 0, False, True, True, 0)),
    ('١٢٣', (0, 1, False, False, False, False, 1, 1, True, False, True, 0)),
    ('²', (0, 1, False, False, False, False, 1, 0, True, False, True, 0)),
    ('½', (0, 0, False, False, False, False, 1, 0, True, False, True, 0)),
    ('\xa0 \u2028', (0, 0, True, False, False, False, 0, 0, False, False, False, 0)),
    ('ﬁ', (1, 0, False, False, True, False, 1, 0, False, True, True, 0)),
    ('İ', (1, 0, False, True, False, True, 1, 0, False, True, True, 0)),
    ('Ⅻ', (0, 0, False, True, False, True, 1, 0, True, True, True, 0)),
    ('日本', (1, 0, False, False, False, False, 1, 0, False, True, True, 0)),
    ('á', (0, 0, False, False, True, False, 0, 0, False, True, True, 0)),
    ('_é1', (0, 0, False, False, True, False, 0, 0, False, True, True, 0)),
    ('1é', (0, 0, False, False, True, False, 1, 0, False, False, True, 0)),
    ('\x85', (0, 0, True, False, False, False, 0, 0, False, False, False, 0)),
    ('\u200b', (0, 0, False, False, False, False, 0, 0, False, False, False, 0)),
    ('ΣΑΣ', (1, 0, False, True, False, False, 1, 0, False, True, True, 0)),
    ('ᾈ', (1, 0, False, False, False, True, 1, 0, False, True, True, 0)),
    ('Ǆ', (1, 0, False, True, False, True, 1, 0, False, True, True, 0)),
    ('Hello Wörld', (0, 0, False, False, False, True, 0, 0, False, False, True, 0)),
    ('𝟘', (0, 1, False, False, False, False, 1, 1, True, False, True, 0)),
    ('😀', (0, 0, False, False, False, False, 0, 0, False, False, True, 0)),
    ('Ⓐ', (0, 0, False, True, False, True, 0, 0, False, False, True, 0)),
    ('A', (2, 0, False, True, False, True, 2, 0, False, True, True, 1)),
    ('a', (1, 0, False, False, True, False, 1, 0, False, True, True, 1)),
    ('1', (0, 1, False, False, False, False, 4, 1, True, False, True, 1)),
    ('Ab', (1, 0, False, False, False, True, 1, 0, False, True, True, 1)),
    ('', (0, 0, False, False, False, False, 0, 0, False, False, True, 1)),
    ('Ⱟ', (0, 0, False, False, False, False, 0, 0, False, False, False, 0)),
    ('Ꞻ', (0, 0, False, False, False, False, 0, 0, False, False, False, 0)),
    ('ࡰ', (0, 0, False, False, False, False, 0, 0, False, False, False, 0)),
    ('𑥐', (0, 0, False, False, False, False, 0, 0, False, False, False, 0)),
    ('x؝', (0, 0, False, False, True, False, 0, 0, False, False, False, 0)),
]


@pytest.mark.parametrize("s,expected", CASES)
def test_classes_as_numba(s, expected):
    r = preds(s)
    assert r == expected
    assert [type(x) for x in r] == [type(x) for x in expected]


def test_classes_in_conditions():
    @njit
    def count_letters(s):
        n = 0
        for c in s:
            if c.isalpha():
                n += 1
            elif c.isdigit() or c.isspace():
                n += 100
        return n

    assert count_letters("Grüße, 世界 ١") == 307  # Numba's
