"""str keys of dicts (and items of sets) in @jit code, pinned against Numba 0.68's @njit: literals,
d[s], `in`, iteration in insertion order, get/pop/setdefault/popitem, del, str values, tuple keys
holding a str, KeyError carrying the key, and a dict of str keys returned to Python."""
import pytest

from cujit import njit


@njit
def basics(s):
    d = dict()
    d['a'] = 1
    d['bb'] = 2
    d['c'] = 3
    d[s] = 10
    out = []
    for k in d:
        out.append(k)
    it = []
    for k, v in d.items():
        it.append((k, v))
    return (d['b' + 'b'], 'a' in d, 'z' in d, 'z' not in d, d.get('z', -1), d.get('a'), out, it, len(d),
            [k for k in d.keys()], [v for v in d.values()])


def test_basics():
    assert basics('s') == (2, True, False, True, -1, 1, ['a', 'bb', 'c', 's'], [('a', 1), ('bb', 2), ('c', 3), ('s', 10)],
                           4, ['a', 'bb', 'c', 's'], [1, 2, 3, 10])
    assert basics('a') == (2, True, False, True, -1, 10, ['a', 'bb', 'c'], [('a', 10), ('bb', 2), ('c', 3)], 3,
                           ['a', 'bb', 'c'], [10, 2, 3])


def test_literal_and_methods():
    @njit
    def f():
        d = {'x': 1.5, 'é': 2.0, 'ß': 3.0}
        return d['é'], d.pop('x'), len(d), d.setdefault('q', 9.0), d['q']

    assert f() == (2.0, 1.5, 2, 9.0, 9.0)


def test_missing_key_raises_keyerror_with_the_key():
    @njit
    def f():
        d = {'a': 1}
        return d['qé']

    with pytest.raises(KeyError) as e:
        f()
    assert e.value.args == ('qé',)  # Numba's KeyError('qé')


def test_delete_and_popitem():
    @njit
    def f():
        d = dict()
        d['a'] = 1
        d['b'] = 2
        d['c'] = 3
        del d['b']
        d['b'] = 20
        return [k for k in d], d.popitem()

    assert f() == (['a', 'c', 'b'], ('b', 20))


def test_word_count_returned():
    @njit
    def f(words):
        c = dict()
        c['first'] = -1
        for w in words.split(' '):
            c[w] = c.get(w, 0) + 1
        return c

    assert dict(f('a b a c b a')) == {'first': -1, 'a': 3, 'b': 2, 'c': 1}
    assert list(f('a b a c b a').keys()) == ['first', 'a', 'b', 'c']


def test_str_values_and_tuple_keys():
    @njit
    def f():
        d = {1: 'one', 2: 'two'}
        d[3] = 'three'
        return d[2] + d[3]

    @njit
    def g():
        d = {('a', 1): 1.0, ('b', 2): 2.0}
        return d[('b', 2)], ('a', 1) in d, ('a', 2) in d

    assert f() == 'twothree'
    assert g() == (2.0, True, False)


def test_str_set():
    @njit
    def f():
        s = {'x', 'y', 'zz'}
        s.add('w')
        s.discard('y')
        return 'x' in s, 'y' in s, len(s)

    assert f() == (True, False, 3)


def test_returned_dict():
    @njit
    def f():
        d = {'k1': 1, 'k2': 2}
        return d

    assert dict(f()) == {'k1': 1, 'k2': 2}
