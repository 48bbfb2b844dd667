"""f-strings that are triple-quoted or adjacent to other literals in @jit code, as Python (and
Numba 0.68) read them: adjacent literals are one literal, joined before any operator applies.
Expected values are Numba 0.68's."""
from cujit import njit


def test_adjacent_literals():
    @njit
    def f(x):
        return "a" f"{x}", f"{x}" f"-{x}" "!", ("p" f"{x}" 'q'), f"a" "b"

    @njit
    def g(x):
        return "a" f"{x}".upper(), len(f"{x}" "ab"), "z" "y" f"{x}" "w"

    @njit
    def h(x):
        return (f"{x}"
                "-"
                f"{x}")

    assert f(2) == ("a2", "2-2!", "p2q", "ab")
    assert g("é") == ("AÉ", 3, "zyéw")
    assert h("é") == "é-é"


def test_triple_quoted():
    @njit
    def f(x):
        s = f"""
  {x} and {x + 1}
"""
        y = x * 2
        return s, y

    @njit
    def g(x):
        return f'''{x}''', f"""v={x}
next"""

    assert f(3) == ("\n  3 and 4\n", 6)
    assert g(5) == ("5", "v=5\nnext")


def test_multiline_strings_keep_their_indentation():
    # The function's text is dedented to compile it; lines inside a string literal are not (they
    # lost their leading spaces, in silence). Numba 0.68 gives the string as written.
    def outer():
        @njit
        def f():
            s = """
  two
        eight
   three"""
            t = "a\
  b"
            return s, t
        return f()

    assert outer() == ("\n  two\n        eight\n   three", "a  b")
