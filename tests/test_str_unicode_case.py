"""Case mapping of non-ASCII str in @jit code (str.upper/lower/swapcase/title/capitalize/casefold),
pinned against Numba 0.68: Unicode's full mappings, the final-sigma rule, title() by the Cased
property, and the code points where Numba's (older) Unicode tables differ from Python 3.11's,
whose answer is Numba's (tools/gen_unicode_case.py, tools/unicode_case_numba.json)."""
import pytest

from cujit import njit


@njit
def cases(s):
    return s.upper(), s.lower(), s.swapcase(), s.title(), s.capitalize(), s.casefold()


@pytest.mark.parametrize("s, expected", [  # Numba's answers
    ('é',
     ('É', 'é', 'É', 'É', 'É', 'é')),
    ('ß',
     ('SS', 'ß', 'SS', 'Ss', 'Ss', 'ss')),
    ('straße ΣΊΣΥΦΟΣ',
     ('STRASSE ΣΊΣΥΦΟΣ', 'straße σίσυφος', 'STRASSE σίσυφος', 'Straße Σίσυφος', 'Straße σίσυφος', 'strasse σίσυφοσ')),
    ("ΌΣΟΣ's Σ ΑΣ.",
     ("ΌΣΟΣ'S Σ ΑΣ.", "όσοσ's σ ας.", "όσοσ'S σ ας.", "Όσοσ'S Σ Ας.", "Όσοσ's σ ας.", "όσοσ's σ ασ.")),
    ("ΑΣ'Σ",
     ("ΑΣ'Σ", "ασ'ς", "ασ'ς", "Ασ'Σ", "Ασ'ς", "ασ'σ")),
    ('ǅemal ǉubljana',
     ('ǄEMAL ǇUBLJANA', 'ǆemal ǉubljana', 'ǅEMAL ǇUBLJANA', 'ǅemal ǈubljana', 'ǅemal ǉubljana', 'ǆemal ǉubljana')),
    ('İstanbul ﬁne',
     ('İSTANBUL FINE', 'i̇stanbul ﬁne', 'i̇STANBUL FINE', 'İstanbul Fine', 'İstanbul ﬁne', 'i̇stanbul fine')),
    ('ŉ ΐ',
     ('ʼN Ϊ́', 'ŉ ΐ', 'ʼN Ϊ́', 'ʼN Ϊ́', 'ʼN ΐ', 'ʼn ΐ')),
    ('Ꞻ ꞻ Ⱟ ⱟ Ʂ ʂ',
     ('Ꞻ ꞻ Ⱟ ⱟ Ʂ ʂ', 'Ꞻ ꞻ Ⱟ ⱟ Ʂ ʂ', 'Ꞻ ꞻ Ⱟ ⱟ Ʂ ʂ', 'Ꞻ ꞻ Ⱟ ⱟ Ʂ ʂ', 'Ꞻ ꞻ Ⱟ ⱟ Ʂ ʂ', 'Ꞻ ꞻ Ⱟ ⱟ Ʂ ʂ')),
    ('ꭦa ᶎZ',
     ('ꭦA ᶎZ', 'ꭦa ᶎz', 'ꭦA ᶎz', 'ꭦA ᶎz', 'ꭦa ᶎz', 'ꭦa ᶎz')),
])
def test_case_mapping_as_numba(s, expected):
    assert cases(s) == expected
