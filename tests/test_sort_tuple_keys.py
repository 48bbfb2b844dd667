"""sorted()/list.sort() with key functions returning tuples, lambdas in one-line function bodies,
and reflected lists of str, in @jit code. Expected values are Numba 0.68's."""
from cujit import njit


@njit
def by_second_then_neg_first(l): return sorted(l, key=lambda t: (t[1], -t[0]))


@njit
def by_second_then_first_reversed(l): return sorted(l, key=lambda t: (t[1], t[0]), reverse=True)


@njit
def by_length_then_text(l): return sorted(l, key=lambda s: (len(s), s))


@njit
def by_mod_then_value(l):
    l.sort(key=lambda t: (t % 3, t))
    return l


def test_tuple_keys():
    assert by_second_then_neg_first([(1, 2), (3, 1), (2, 2), (0, 1)]) == [(3, 1), (0, 1), (2, 2), (1, 2)]
    assert by_second_then_first_reversed([(1, 2), (3, 1), (2, 2)]) == [(2, 2), (1, 2), (3, 1)]
    assert by_mod_then_value([5, 3, 1, 4, 9, 6]) == [3, 6, 9, 1, 4, 5]
    assert by_length_then_text(["bb", "a", "ccc", "ab"]) == ["a", "ab", "bb", "ccc"]


def test_lambda_in_one_line_body():
    @njit
    def f(l): return sorted(l, key=lambda t: t[1])

    assert f([(1, 2), (3, 1)]) == [(3, 1), (1, 2)]


def test_reflected_list_of_str():
    @njit
    def grow(l):
        l.append("é!")
        l[0] = l[0] + "x"
        return len(l)

    l = ["a", "bc"]
    assert grow(l) == 3
    assert l == ["ax", "bc", "é!"]
