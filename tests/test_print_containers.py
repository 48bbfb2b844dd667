"""print() in @jit code of tuples holding str, of lists, dicts and sets and of these nested, and
of tuples holding None: the text Numba 0.68 prints (str() of the argument: a dict's keys and values
by str(), the items of tuples, lists and sets by repr(), a dict inside a tuple by Numba's repr of
a typed dict). Expected text pinned from Numba 0.68's @njit."""
from cujit import njit


def _out(capfd, f):
    capfd.readouterr()
    f()
    return capfd.readouterr().out


def test_tuples_holding_str(capfd):
    @njit
    def f():
        print(("a", 1))
        print((1, (2.5, "x")), "y", [1.5, 2.0])
        print(("",))
        print(("it's", 'q"'))

    assert _out(capfd, f) == "('a', 1)\n(1, (2.5, 'x')) y [1.5, 2.0]\n('',)\n(\"it's\", 'q\"')\n"


def test_dicts_and_sets(capfd):
    @njit
    def f():
        print({1: 2.5, 3: 4.0})
        print({"a": "b"})
        print({1: {2: 3}})
        print({1: ("x", 2)})
        print({(1, "a"): 2})
        print({"k": "it's"})
        print({1, 2, 3})
        print({(1, 2)})
        print(set([1.5]))
        s = {1}
        s.discard(1)
        print(s)

    assert _out(capfd, f) == ("{1: 2.5, 3: 4.0}\n{a: b}\n{1: {2: 3}}\n{1: ('x', 2)}\n{(1, 'a'): 2}\n{k: it's}\n"
                              "{1, 2, 3}\n{(1, 2)}\n{1.5}\nset()\n")


def test_lists_and_nesting(capfd):
    @njit
    def f():
        print([[1, 2], [3]])
        print([(1, 2), (3, 4)])
        print(["a", "b"])
        print([("a", 1.5)])
        x = [1, 2]
        print(x, (x[0], "s"), {"k": 1.0})
        print((1, {2: 3}))
        print(({"a": 1},))
        print(((),))
        l = [1]
        l.pop()
        print(l)

    assert _out(capfd, f) == ("[[1, 2], [3]]\n[(1, 2), (3, 4)]\n['a', 'b']\n[('a', 1.5)]\n[1, 2] (1, 's') {k: 1.0}\n"
                              "(1, DictType[int64,int64]<iv=None>({2: 3}))\n"
                              "(DictType[unicode_type,int64]<iv=None>({a: 1}),)\n((),)\n[]\n")


def test_tuples_holding_none(capfd):
    @njit
    def f():
        print((1.0, True, None))
        print((True, None, 1j))

    @njit
    def g():
        t = (1.0, None, 2)
        return t

    assert _out(capfd, f) == "(1.0, True, None)\n(True, None, 1j)\n"
    assert g() == (1.0, None, 2)
