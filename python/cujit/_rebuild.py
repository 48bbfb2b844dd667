"""A function's source text rebuilt from its code object, for functions that have no text: those
typed at the plain REPL (`<stdin>`), those exec()'d before `import cujit` (no audit hook saw
their text, _texts.py), those compiled from an AST or loaded from marshalled code. Numba reads
bytecode and compiles them; cujit compiles source, so it rebuilds the source first.

Covered (CPython 3.11; 3.12's renamed and new instructions are in the tables, but untested here):
straight-line code; assignments to names, subscripts and attributes, tuple assignment and
unpacking, augmented assignment; if/elif/else; `while` with a condition and `while True`; `for`
over any iterable; break, continue and return; calls (keyword arguments too), attribute access,
subscripts and slices, tuples and lists; unary, binary and comparison operators, chained
comparisons (in conditions and as values); `and`/`or`/`not` in conditions and as values;
inline conditional expressions; assert and raise.

Refused with RebuildError, which names the construct: nested functions, lambdas and
comprehensions, generators, try/with (an exception table), loops with an else clause, *args and
**kwargs, f-strings, and any instruction or jump shape not listed above. Each is refused rather
than rebuilt because the decoder would have to guess at a shape it was not written for (try
blocks live in the exception table, not in the instructions; nested code would need rebuilding
and checking of its own). The rebuild never guesses: decorators._rebuilt
compiles the text and uses it only when it compiles to the same instructions as the function's
own code (`_code_key`, as for text read from a file), so a rebuild that is not faithful is
refused rather than compiled. Each statement is placed on its own line of the original (from the
instructions' positions) so that diagnostics name the user's line numbers.
"""

import ast
import dis
import sys
import types

__all__ = ["RebuildError", "rebuild"]


class RebuildError(Exception):
    """The code object holds a construct the rebuild does not cover (named in the message)."""


_CO_UNSUPPORTED = {0x04: "*args", 0x08: "**kwargs", 0x20: "a generator",
                   0x80: "a coroutine", 0x100: "an iterable coroutine",
                   0x200: "an async generator"}

_BINOPS = {"+": ast.Add, "-": ast.Sub, "*": ast.Mult, "/": ast.Div, "//": ast.FloorDiv,
           "%": ast.Mod, "**": ast.Pow, "<<": ast.LShift, ">>": ast.RShift, "&": ast.BitAnd,
           "|": ast.BitOr, "^": ast.BitXor, "@": ast.MatMult}
_CMPOPS = {"<": ast.Lt, "<=": ast.LtE, ">": ast.Gt, ">=": ast.GtE, "==": ast.Eq, "!=": ast.NotEq}
_UNARY = {"UNARY_NEGATIVE": ast.USub, "UNARY_NOT": ast.Not, "UNARY_INVERT": ast.Invert,
          "UNARY_POSITIVE": ast.UAdd}
# Conditional jumps that pop their test: name -> (jumps when the test is, test kind).
_CJUMPS = {}
for _d in ("", "FORWARD_", "BACKWARD_"):
    _CJUMPS["POP_JUMP_%sIF_TRUE" % _d] = (True, "bool")
    _CJUMPS["POP_JUMP_%sIF_FALSE" % _d] = (False, "bool")
    _CJUMPS["POP_JUMP_%sIF_NONE" % _d] = (True, "none")
    _CJUMPS["POP_JUMP_%sIF_NOT_NONE" % _d] = (False, "none")
_JUMPS = ("JUMP_FORWARD", "JUMP_BACKWARD", "JUMP", "JUMP_NO_INTERRUPT",
          "JUMP_BACKWARD_NO_INTERRUPT")
_SKIP = ("RESUME", "NOP", "PRECALL", "PUSH_NULL", "COPY_FREE_VARS", "MAKE_CELL", "CACHE",
         "EXTENDED_ARG")


class _Iter:
    """The iterator of an enclosing `for` loop, on the stack below the loop body's values."""


class _Slot:
    """One value of UNPACK_SEQUENCE of `source`."""

    def __init__(self, source, group):
        self.source, self.group = source, group


class _InPlace:
    """The result of an in-place operator (`x += y` before its store)."""

    def __init__(self, target, op, value):
        self.target, self.op, self.value = target, op, value


class _Loop:
    def __init__(self, cont, exit_, is_for):
        self.cont, self.exit, self.is_for = cont, exit_, is_for


def _fail(what, ins=None):
    line = ins.positions.lineno if ins is not None and ins.positions else None
    raise RebuildError(what + (" (line %d)" % line if line else ""))


def _same(a, b):
    """Two expressions are the same value (COPY pushes the same object, so identity first)."""
    return a is b or (isinstance(a, ast.AST) and isinstance(b, ast.AST)
                      and ast.dump(a) == ast.dump(b))


class _Decoder:
    def __init__(self, code):
        self.code = code
        raw = [i for i in dis.get_instructions(code)]
        self.ins = []
        index = {}
        pending = []
        for i in raw:
            pending.append(i.offset)
            if i.opname in ("CACHE", "EXTENDED_ARG"):
                continue
            for off in pending:
                index[off] = len(self.ins)
            pending = []
            self.ins.append(i)
        self.index = index
        self.n = len(self.ins)
        jumps = set(dis.hasjrel) | set(dis.hasjabs)
        self.target = {}
        self.back_targets = {}  # head index -> indices of backward jumps to it
        for k, i in enumerate(self.ins):
            if i.opcode in jumps:
                t = index.get(i.argval)
                if t is None:
                    _fail("a jump outside the function", i)
                while t + 1 < len(self.ins) and self.ins[t].opname == "NOP":
                    t += 1  # `while True:` keeps a NOP for its line that some jumps land on
                self.target[k] = t
                if t <= k:
                    self.back_targets.setdefault(t, []).append(k)

    # ---- regions of statements ----

    def region(self, i, stop, loops, follow, stmts=None, head=None):
        """Statements of instructions [i, stop). `follow` is where control goes after stop;
        `head`, the loop head this region is the body of (not a loop of its own)."""
        if stmts is None:
            stmts = []
        depth = sum(1 for lp in loops if lp.is_for)
        stack = [_Iter()] * depth
        base = depth
        pend = []  # a tuple assignment's stores: (target, value)
        stmt_start = i
        while i < stop:
            if len(stack) == base and not pend:
                stmt_start = i
                if i in self.back_targets and i != head and self.ins[i].opname != "FOR_ITER":
                    i = self.loop_at(i, loops, follow, stmts)
                    continue
            ins = self.ins[i]
            op = ins.opname
            line = ins.positions.lineno if ins.positions else None
            if op in _SKIP:
                i += 1
                continue
            if op in _CJUMPS:
                i = self.conditional(i, stop, loops, follow, stack, base, stmt_start, stmts)
                continue
            if op == "JUMP_IF_FALSE_OR_POP" and _chained(stack):
                i = self.value_chain(i, stack)
                continue
            if op in ("JUMP_IF_TRUE_OR_POP", "JUMP_IF_FALSE_OR_POP"):
                m = self.target[i]
                vals, _ = self.value_region(i + 1, m, loops)
                left = stack.pop()
                bop = ast.Or() if op == "JUMP_IF_TRUE_OR_POP" else ast.And()
                stack.append(ast.BoolOp(op=bop, values=[left, vals]))
                i = m
                continue
            if op in _JUMPS:
                t = self.target[i]
                lp = loops[-1] if loops else None
                if any(not isinstance(x, _Iter) for x in stack):
                    _fail("a jump with values on the stack", ins)
                stack = [_Iter()] * base  # a break out of a for loop popped its iterator
                if lp is not None and t == lp.exit:
                    stmts.append(self.at(ast.Break(), stmt_start))
                elif lp is not None and t == lp.cont:
                    stmts.append(self.at(ast.Continue(), stmt_start))
                elif t == follow and i + 1 == stop:
                    pass  # to the statement after this block: its end
                else:
                    _fail("a jump the rebuild does not cover (%s)" % op, ins)
                i += 1
                continue
            if op == "GET_ITER":
                if len(stack) != base + 1 or self.ins[i + 1].opname != "FOR_ITER":
                    _fail("an iterator outside a for statement", ins)
                i = self.for_loop(i + 1, stack.pop(), loops, stmts, stmt_start)
                continue
            if op == "POP_TOP":
                v = stack.pop()
                if isinstance(v, _Iter):
                    i += 1
                    continue
                if len(stack) != base:
                    _fail("a discarded value inside an expression", ins)
                stmts.append(self.at(ast.Expr(value=self.val(v, ins)), stmt_start))
                i += 1
                continue
            if op in ("RETURN_VALUE", "RETURN_CONST"):
                v = stack.pop() if op == "RETURN_VALUE" else ast.Constant(value=ins.argval)
                if any(not isinstance(s, _Iter) for s in stack):
                    _fail("a return with values left on the stack", ins)
                stmts.append(self.at(ast.Return(value=self.val(v, ins)), stmt_start))
                stack = [_Iter()] * base
                i += 1
                continue
            if op == "RAISE_VARARGS" and ins.arg in (0, 1):
                exc = self.val(stack.pop(), ins) if ins.arg else None
                if any(not isinstance(x, _Iter) for x in stack):
                    _fail("a raise with values left on the stack", ins)
                stmts.append(self.at(ast.Raise(exc=exc, cause=None), stmt_start))
                stack = [_Iter()] * base
                i += 1
                continue
            if op in ("STORE_FAST", "STORE_GLOBAL", "STORE_DEREF", "STORE_NAME",
                      "STORE_SUBSCR", "STORE_ATTR", "STORE_SLICE"):
                if op == "STORE_SUBSCR":
                    idx, obj, v = stack.pop(), stack.pop(), stack.pop()
                    tgt = ast.Subscript(value=self.val(obj, ins), slice=self.val(idx, ins),
                                        ctx=ast.Store())
                elif op == "STORE_SLICE":
                    hi, lo, obj, v = stack.pop(), stack.pop(), stack.pop(), stack.pop()
                    tgt = ast.Subscript(value=self.val(obj, ins), slice=ast.Slice(
                        lower=self.opt(lo, ins), upper=self.opt(hi, ins)), ctx=ast.Store())
                elif op == "STORE_ATTR":
                    obj, v = stack.pop(), stack.pop()
                    tgt = ast.Attribute(value=self.val(obj, ins), attr=ins.argval,
                                        ctx=ast.Store())
                else:
                    v = stack.pop()
                    tgt = ast.Name(id=ins.argval, ctx=ast.Store())
                pend.append((tgt, v))
                if len(stack) == base:
                    self.assign(pend, stmts, stmt_start, ins)
                    pend = []
                i += 1
                continue
            i = self.expression(i, stack)
        if len(stack) != base or pend:
            _fail("a value left over at the end of a block", self.ins[min(stop, self.n) - 1])
        if stmts and follow is not None and _is_return_none(stmts[-1]) and \
                self.exit_key(follow) in _RETURN_NONE:
            stmts.pop()  # a copy of the function's final `return None`: falling off reaches it
        return stmts

    def assign(self, pend, stmts, start, ins):
        if len(pend) == 1:
            tgt, v = pend[0]
            if isinstance(v, _InPlace):
                if not _same(_load(v.target), _load(tgt)):
                    _fail("an in-place operator stored elsewhere", ins)
                stmts.append(self.at(ast.AugAssign(target=tgt, op=v.op,
                                                   value=self.val(v.value, ins)), start))
                return
            if isinstance(v, _Slot):
                _fail("a partial unpacking", ins)
            stmts.append(self.at(ast.Assign(targets=[tgt], value=self.val(v, ins)), start))
            return
        values = [v for _, v in pend]
        if all(v is values[0] for v in values) and isinstance(values[0], ast.AST):
            # `a = b = x`: COPY made the value once per target.
            stmts.append(self.at(ast.Assign(targets=[t for t, _ in pend],
                                            value=values[0]), start))
            return
        if all(isinstance(v, _Slot) for v in values):
            if len({id(v.group) for v in values}) != 1 or len(values) != len(values[0].group):
                _fail("a nested unpacking", ins)
            value = self.val(values[0].source, ins)
            targets = [t for t, _ in pend]
        else:
            # `a, b = x, y`: all values are on the stack before the first store; the stores pop
            # the last value first, so the targets are written in reverse store order.
            targets = [t for t, _ in reversed(pend)]
            value = ast.Tuple(elts=[self.val(v, ins) for _, v in reversed(pend)], ctx=ast.Load())
        stmts.append(self.at(ast.Assign(targets=[ast.Tuple(elts=targets, ctx=ast.Store())],
                                        value=value), start))

    def value_region(self, i, stop, loops):
        """The single value computed by instructions [i, stop) (a branch of a conditional
        expression or the right operand of `and`/`or`), or (None, stmts) when it is not one."""
        depth = sum(1 for lp in loops if lp.is_for)
        stack = [_Iter()] * depth
        stmts = []
        while i < stop:
            op = self.ins[i].opname
            if op in _SKIP:
                i += 1
            elif op in _CJUMPS:
                i = self.conditional(i, stop, loops, None, stack, depth, None, stmts)
            elif op == "JUMP_IF_FALSE_OR_POP" and _chained(stack):
                i = self.value_chain(i, stack)
            elif op in ("JUMP_IF_TRUE_OR_POP", "JUMP_IF_FALSE_OR_POP"):
                m = self.target[i]
                if m > stop:
                    _fail("a boolean operator the rebuild does not cover", self.ins[i])
                right, _ = self.value_region(i + 1, m, loops)
                left = stack.pop()
                bop = ast.Or() if op == "JUMP_IF_TRUE_OR_POP" else ast.And()
                stack.append(ast.BoolOp(op=bop, values=[left, right]))
                i = m
            else:
                i = self.expression(i, stack)
        if stmts or len(stack) != depth + 1:
            _fail("a conditional expression the rebuild does not cover",
                  self.ins[min(stop, self.n) - 1])
        return self.val(stack[-1], self.ins[stop - 1]), stmts

    def at(self, node, start):
        ins = self.ins[start]
        node.lineno = ins.positions.lineno if ins.positions and ins.positions.lineno else 0
        return node

    # ---- loops ----

    def loop_at(self, i, loops, follow, stmts):
        """`while cond:` or `while True:` starting at the loop head i."""
        atoms = self.atoms_from(i)
        if atoms:
            w = self.while_cond(i, atoms, loops, stmts)
            if w is not None:
                return w
        back = max(self.back_targets[i])
        if self.ins[back].opname not in _JUMPS:
            _fail("a loop the rebuild does not cover", self.ins[back])
        for k in range(len(atoms), 0, -1):
            # The 3.12 shape: the test only at the top, which the loop's end jumps back to.
            s = atoms[k - 1][2] + 1
            try:
                cond, e = self.condition(atoms[:k], s)
            except RebuildError:
                continue
            if s < back and (e == back + 1 or self.same(e, back + 1)):
                lp = _Loop(i, e, False)
                body = self.region(s, back, loops + [lp], i)
                stmts.append(self.at(ast.While(test=cond, body=body, orelse=[]), i))
                return back + 1
        lp = _Loop(i, back + 1, False)
        body = self.region(i, back, loops + [lp], i, head=i)
        stmts.append(self.at(ast.While(test=ast.Constant(value=True), body=body, orelse=[]), i))
        return back + 1

    def while_cond(self, start, atoms, loops, stmts):
        """The 3.11 shape: the test at the top, jumping past the loop, and again at the bottom,
        jumping back to the body's start."""
        for k in range(len(atoms), 0, -1):
            s = atoms[k - 1][2] + 1
            try:
                cond, e = self.condition(atoms[:k], s)
            except RebuildError:
                continue
            if e <= s or s not in self.back_targets:
                continue
            bj = max(self.back_targets[s])
            if self.ins[bj].opname not in _CJUMPS:
                continue
            # After the loop: the exit, or a copy of the returning block the exit is.
            if bj + 1 != e and not self.same(e, bj + 1):
                continue
            n = s - start
            bottom = bj - n + 1
            if bottom < s or not all(
                    self.ins[start + j].opname == self.ins[bottom + j].opname
                    and self.ins[start + j].argval == self.ins[bottom + j].argval
                    for j in range(n) if self.ins[start + j].opname not in _CJUMPS):
                continue
            self.no_else(s, bottom, e, "while", self.ins[start])
            lp = _Loop(start, e, False)
            body = self.region(s, bottom, loops + [lp], bottom, head=s)
            stmts.append(self.at(ast.While(test=cond, body=body, orelse=[]), start))
            return bj + 1
        return None

    def for_loop(self, h, iterable, loops, stmts, start):
        fi = self.ins[h]
        x = self.target[h]
        exit_ = x + 1 if x < self.n and self.ins[x].opname == "END_FOR" else x
        # The loop's end: its last jump back (the exit may be a copy of a returning block
        # placed elsewhere, so it does not say where the loop ends).
        back = max(self.back_targets.get(h, [-1]))
        if back < h or self.ins[back].opname not in _JUMPS:
            _fail("a for loop the rebuild does not cover", fi)
        # The loop variable(s): the stores right after FOR_ITER.
        stores = ("STORE_FAST", "STORE_GLOBAL", "STORE_DEREF", "STORE_NAME")
        i = h + 1
        count = None
        if self.ins[i].opname == "UNPACK_SEQUENCE":
            count = self.ins[i].argval
            i += 1
        names = []
        for _ in range(1 if count is None else count):
            if self.ins[i].opname not in stores:
                _fail("a for loop target the rebuild does not cover", self.ins[i])
            names.append(ast.Name(id=self.ins[i].argval, ctx=ast.Store()))
            i += 1
        target = names[0] if count is None else ast.Tuple(elts=names, ctx=ast.Store())
        self.no_else(i, back, exit_, "for", fi)
        lp = _Loop(h, exit_, True)
        body = self.region(i, back, loops + [lp], h)
        stmts.append(self.at(ast.For(target=target, iter=self.val(iterable, fi), body=body,
                                     orelse=[]), start))
        if exit_ != back + 1 and not (exit_ == back + 2 and self.ins[back + 1].opname == "END_FOR"):
            if not self.same(exit_, back + 1):
                _fail("a for loop the rebuild does not cover", fi)
        return back + 1 if self.ins[back + 1].opname != "END_FOR" else back + 2

    def no_else(self, start, stop, exit_, kind, ins):
        """Refuses a loop whose body jumps past its exit: a break over the loop's else clause."""
        for k in range(start, stop):
            t = self.target.get(k)
            if self.ins[k].opname in _JUMPS and t is not None and t > exit_ \
                    and not self.same(t, exit_):
                _fail("a %s loop with an else clause" % kind, ins)

    # ---- conditions ----

    def atoms_from(self, i):
        """The tests (expr, jump index) that start at i, each a pure expression ending in a
        conditional jump (chained comparisons included), as long as they follow each other."""
        atoms = []
        while i < self.n:
            stack = []
            j = i
            try:
                while j < self.n:
                    op = self.ins[j].opname
                    if op in _SKIP:
                        j += 1
                    elif op in _CJUMPS:
                        break
                    else:
                        j = self.expression(j, stack)
                if j < self.n and len(stack) == 2 and self.ins[j].opname in _CJUMPS:
                    cmp = stack.pop()
                    atom = self.chain_atom(j, stack.pop(), cmp)
                    atoms.append(atom)
                    i = atom[2] + 1
                    continue
            except (RebuildError, IndexError):
                break
            if j >= self.n or len(stack) != 1 or self.ins[j].opname not in _CJUMPS:
                break
            atoms.append((stack[0], self.ins[j].opname, j, self.target[j]))
            i = j + 1
        return atoms

    def chain_atom(self, j, mid, cmp):
        """`a < b < c` as a test: each comparison but the last keeps its right operand (COPY)
        and jumps, when false, to a cleanup block (POP_TOP, then a jump to the false exit); the
        last jumps there directly and is followed by a jump over the cleanup to the body.
        Returns the atom (test, jump kind, index of the jump over the cleanup, false exit)."""
        ins = self.ins[j]
        if _CJUMPS.get(ins.opname, (None,))[0] is not False or not isinstance(cmp, ast.Compare) \
                or cmp.comparators[-1] is not mid:
            _fail("a chained comparison the rebuild does not cover", ins)
        cleanup = self.target[j]
        if cleanup + 1 >= self.n or self.ins[cleanup].opname != "POP_TOP":
            _fail("a chained comparison the rebuild does not cover", ins)
        if self.ins[cleanup + 1].opname in _JUMPS:
            false_exit = self.target[cleanup + 1]
            after = cleanup + 2
        elif self.exit_key(cleanup + 1) is not None:
            false_exit = cleanup + 1  # the jump to a returning block replaced by a copy of it
            after = cleanup + 1
            while self.ins[after].opname not in ("RETURN_VALUE", "RETURN_CONST"):
                after += 1
            after += 1
        else:
            _fail("a chained comparison the rebuild does not cover", ins)
        ops, comps = list(cmp.ops), list(cmp.comparators)
        left = cmp.left
        k = j + 1
        while True:
            k, stack, c = self.chain_link(k, mid, _CJUMPS)
            ops.append(c.ops[0])
            comps.append(c.comparators[0])
            if len(stack) == 2 and self.target[k] == cleanup:
                mid = c.comparators[0]
                if stack[0] is not mid:
                    _fail("a chained comparison the rebuild does not cover", self.ins[k])
                k += 1
                continue
            if len(stack) != 1 or _CJUMPS[self.ins[k].opname][0] is not False or \
                    not self.same(self.target[k], false_exit) or k + 2 != cleanup or \
                    self.ins[k + 1].opname not in _JUMPS or \
                    self.target[k + 1] != after:
                _fail("a chained comparison the rebuild does not cover", self.ins[k])
            test = ast.Compare(left=left, ops=ops, comparators=comps)
            return (test, self.ins[k].opname, after - 1, self.target[k])

    def chain_link(self, k, mid, stops):
        """One link of a chained comparison: the instructions from `k` up to the next of `stops`
        on a stack holding `mid`, which must leave `mid <op> x` on top. Returns (the stop's
        index, that stack, the comparison)."""
        stack = [mid]
        while self.ins[k].opname not in stops:
            if self.ins[k].opname not in _SKIP:
                self.expression(k, stack)
            k += 1
        c = stack[-1]
        if not isinstance(c, ast.Compare) or c.left is not mid or len(c.ops) != 1:
            _fail("a chained comparison the rebuild does not cover", self.ins[k])
        return k, stack, c

    def value_chain(self, j, stack):
        """`a < b < c` as a value (3.11): each comparison but the last keeps its right operand
        and jumps, when false, to `SWAP 2; POP_TOP` (drops that operand, keeps False); the
        last jumps over that cleanup. Returns the index after the cleanup."""
        cmp = stack.pop()
        mid = stack.pop()
        cleanup = self.target[j]
        if self.ins[cleanup].opname != "SWAP" or self.ins[cleanup].argval != 2 or \
                self.ins[cleanup + 1].opname != "POP_TOP":
            _fail("a chained comparison the rebuild does not cover", self.ins[j])
        ops, comps = list(cmp.ops), list(cmp.comparators)
        k = j + 1
        while True:
            k, local, c = self.chain_link(k, mid, ("JUMP_IF_FALSE_OR_POP",) + _JUMPS)
            ops.append(c.ops[0])
            comps.append(c.comparators[0])
            if self.ins[k].opname == "JUMP_IF_FALSE_OR_POP":
                if len(local) != 2 or local[0] is not c.comparators[0] or \
                        self.target[k] != cleanup:
                    _fail("a chained comparison the rebuild does not cover", self.ins[k])
                mid = local[0]
                k += 1
                continue
            if len(local) != 1 or k + 1 != cleanup or self.target[k] != cleanup + 2:
                _fail("a chained comparison the rebuild does not cover", self.ins[k])
            stack.append(ast.Compare(left=cmp.left, ops=ops, comparators=comps))
            return cleanup + 2

    def conditional(self, j, stop, loops, follow, stack, base, stmt_start, stmts):
        """A conditional jump at j with its test on the stack: an if statement (with else and
        elif), or a conditional expression. Returns the index after it."""
        if len(stack) >= base + 2 and stack[-1] is stack[-2] and \
                self.ins[j + 1].opname == "POP_TOP" and _CJUMPS[self.ins[j].opname][1] == "bool":
            # 3.12's `a or b` / `a and b` as a value: COPY 1, a jump that keeps the copy, and
            # POP_TOP where it falls through to the right operand.
            m = self.target[j]
            left = stack.pop()
            stack.pop()
            right, _ = self.value_region(j + 2, m, loops)
            kind = ast.Or if _CJUMPS[self.ins[j].opname][0] else ast.And
            stack.append(ast.BoolOp(op=kind(), values=[left, right]))
            return m
        if len(stack) >= base + 2 and isinstance(stack[-1], ast.Compare) \
                and stack[-1].comparators[-1] is stack[-2]:
            cmp = stack.pop()
            first = self.chain_atom(j, stack.pop(), cmp)
        else:
            first = (stack.pop(), self.ins[j].opname, j, self.target[j])
        atoms = [first] + self.atoms_from(first[2] + 1)
        at_stmt = len(stack) == base
        for k in range(len(atoms), 0, -1):
            s = atoms[k - 1][2] + 1
            try:
                cond, e = self.condition(atoms[:k], s)
            except RebuildError:
                continue
            lp = loops[-1] if loops else None
            kept = self.ins[e - 1].opname if e > s else None
            if kept in ("JUMP_IF_TRUE_OR_POP", "JUMP_IF_FALSE_OR_POP"):
                # `x and y or z` / `(x or y) and z` as a value, as 3.11 threads its jumps: the
                # tests jump straight to z, y keeps its value where it decides the result.
                m = self.target[e - 1]
                try:
                    y, _ = self.value_region(s, e - 1, loops)
                    z, _ = self.value_region(e, m, loops)
                    if kept == "JUMP_IF_TRUE_OR_POP":
                        inner, outer, test = ast.And, ast.Or, cond
                    else:  # the tests lead to z when true
                        begin = [None] + [atoms[x - 1][2] + 1 for x in range(1, k)]
                        inner, outer, test = ast.Or, ast.And, self.build(atoms[:k], begin, 0,
                                                                          k, e, s)
                except RebuildError:
                    continue
                stack.append(_boolop(outer, _boolop(inner, test, y), z))
                return m
            if at_stmt and stmt_start is not None and e > s and any(
                    self.ins[b].opname in _CJUMPS for b in self.back_targets.get(s, ())):
                w = self.while_cond(stmt_start, atoms[:k], loops, stmts)
                if w is None:
                    _fail("a while loop the rebuild does not cover", self.ins[j])
                return w
            if e > s:
                jb = self.ins[e - 1]
                m = self.target.get(e - 1)
                if jb.opname in _JUMPS and m is not None and m > e and \
                        not (lp is not None and m == lp.exit):
                    # Both branches: a conditional expression when they leave a value.
                    try:
                        tv, _ = self.value_region(s, e - 1, loops)
                        ev, _ = self.value_region(e, m, loops)
                        stack.append(ast.IfExp(test=cond, body=tv, orelse=ev))
                        return m
                    except RebuildError:
                        pass
                    if not at_stmt or m > stop and not self.same(m, follow):
                        continue
                    if m > stop:
                        m = stop
                    body = self.region(s, e - 1, loops, self.target[e - 1])
                    orelse = self.region(e, m, loops, follow if m == stop else m)
                    stmts.append(self.at(ast.If(test=cond, body=body, orelse=orelse),
                                         stmt_start))
                    return m
                if not at_stmt:
                    continue
                if e <= stop:
                    body = self.region(s, e, loops, e)
                    stmts.append(self.at(_assert_or_if(cond, body), stmt_start))
                    return e
            if not at_stmt:
                continue
            if self.same(e, follow) or (lp is not None and e == lp.cont and follow == lp.cont):
                body = self.region(s, stop, loops, follow)
                stmts.append(self.at(ast.If(test=cond, body=body, orelse=[]), stmt_start))
                return stop
        _fail("a condition the rebuild does not cover", self.ins[j])

    def condition(self, atoms, s):
        """The test that is true where control reaches s (just after the last atom): the last
        atom's jump goes to the other way out, e. `and`/`or` are rebuilt from where each atom
        jumps: in `L and R` L jumps to the false exit, in `L or R` to the true one."""
        e = atoms[-1][3]
        # Of the copies of a returning block the atoms jump to, the first is the if's end.
        e = min([a[3] for a in atoms if a[3] > s and self.same(a[3], e)] or [e])
        begin = [None] + [atoms[k - 1][2] + 1 for k in range(1, len(atoms))]
        return self.build(atoms, begin, 0, len(atoms), s, e), e

    def exit_key(self, t):
        """A short block that returns (`return None`, `return x`): CPython copies such a block
        to each place that jumps to it, so jumps to two copies go to the same place."""
        key = []
        for k in range(t, min(t + 4, self.n)):
            ins = self.ins[k]
            if ins.opname in _SKIP:
                continue
            if k > t and k in self.back_targets:
                return None
            key.append((ins.opname, repr(ins.argval)))
            if ins.opname in ("RETURN_VALUE", "RETURN_CONST"):
                return tuple(key)
            if ins.opname not in ("LOAD_CONST", "LOAD_FAST"):
                return None
        return None

    def same(self, a, b):
        if a == b:
            return True
        if a is None or b is None:
            return False
        ka = self.exit_key(a)
        return ka is not None and ka == self.exit_key(b)

    def build(self, atoms, begin, lo, hi, t, f):
        if hi - lo == 1:
            expr, op, j, tgt = atoms[lo]
            when, kind = _CJUMPS[op]
            if kind == "none":
                expr = ast.Compare(left=expr, ops=[ast.Is()], comparators=[ast.Constant(None)])
            if self.same(tgt, f):
                # falls through to t: true where the test is not `when`
                return expr if not when else _not(expr)
            if self.same(tgt, t):
                return expr if when else _not(expr)
            _fail("a condition the rebuild does not cover", self.ins[j])
        for k in range(hi - 1, lo, -1):
            mid = begin[k]
            inner = {begin[x] for x in range(lo + 1, k)}
            tg = [atoms[x][3] for x in range(lo, k)]
            if not all(x in inner or x == mid or self.same(x, t) or self.same(x, f)
                       for x in tg):
                continue
            if any(self.same(x, f) for x in tg) and not any(self.same(x, t) for x in tg):
                try:
                    left = self.build(atoms, begin, lo, k, mid, f)
                    right = self.build(atoms, begin, k, hi, t, f)
                except RebuildError:
                    continue
                return _boolop(ast.And, left, right)
            if any(self.same(x, t) for x in tg) and not any(self.same(x, f) for x in tg):
                try:
                    left = self.build(atoms, begin, lo, k, t, mid)
                    right = self.build(atoms, begin, k, hi, t, f)
                except RebuildError:
                    continue
                return _boolop(ast.Or, left, right)
        _fail("a condition the rebuild does not cover", self.ins[atoms[lo][2]])

    # ---- expressions ----

    def val(self, v, ins):
        if isinstance(v, ast.AST):
            return v
        if isinstance(v, _InPlace):
            _fail("an in-place operator used as a value", ins)
        if isinstance(v, _Slot):
            _fail("an unpacked value used as a value", ins)
        _fail("a value the rebuild does not cover", ins)

    def opt(self, v, ins):
        v = self.val(v, ins)
        return None if isinstance(v, ast.Constant) and v.value is None else v

    def expression(self, i, stack):
        """One instruction that computes a value; returns the next index."""
        ins = self.ins[i]
        op = ins.opname
        a = ins.argval
        pop = stack.pop
        v = lambda x: self.val(x, ins)  # noqa: E731
        if op == "LOAD_ASSERTION_ERROR":
            node = ast.Name(id="AssertionError", ctx=ast.Load())
            node.cujit_assert = True
            stack.append(node)
        elif op in ("LOAD_FAST", "LOAD_GLOBAL", "LOAD_DEREF", "LOAD_NAME", "LOAD_FAST_CHECK",
                  "LOAD_CLASSDEREF"):
            stack.append(ast.Name(id=a, ctx=ast.Load()))
        elif op == "LOAD_CONST":
            if isinstance(a, types.CodeType):
                _fail("a nested function, lambda or comprehension", ins)
            if isinstance(a, frozenset):
                _fail("a set constant", ins)
            stack.append(_constant(a))
        elif op in ("LOAD_ATTR", "LOAD_METHOD"):
            stack.append(ast.Attribute(value=v(pop()), attr=a, ctx=ast.Load()))
        elif op == "BINARY_OP":
            r, left = pop(), pop()
            sym = ins.argrepr
            if sym.endswith("=") and sym[:-1] in _BINOPS:
                stack.append(_InPlace(left, _BINOPS[sym[:-1]](), r))
            elif sym in _BINOPS:
                stack.append(ast.BinOp(left=v(left), op=_BINOPS[sym](), right=v(r)))
            else:
                _fail("the operator %r" % sym, ins)
        elif op == "COMPARE_OP":
            r, left = pop(), pop()
            sym = a if isinstance(a, str) else ins.argrepr
            if sym not in _CMPOPS:
                _fail("the comparison %r" % sym, ins)
            stack.append(ast.Compare(left=v(left), ops=[_CMPOPS[sym]()], comparators=[v(r)]))
        elif op == "IS_OP":
            r, left = pop(), pop()
            stack.append(ast.Compare(left=v(left), ops=[ast.IsNot() if a else ast.Is()],
                                     comparators=[v(r)]))
        elif op == "CONTAINS_OP":
            r, left = pop(), pop()
            stack.append(ast.Compare(left=v(left), ops=[ast.NotIn() if a else ast.In()],
                                     comparators=[v(r)]))
        elif op in _UNARY:
            stack.append(ast.UnaryOp(op=_UNARY[op](), operand=v(pop())))
        elif op == "CALL_INTRINSIC_1" and ins.argrepr == "INTRINSIC_UNARY_POSITIVE":
            stack.append(ast.UnaryOp(op=ast.UAdd(), operand=v(pop())))
        elif op == "BINARY_SUBSCR":
            idx, obj = pop(), pop()
            stack.append(ast.Subscript(value=v(obj), slice=v(idx), ctx=ast.Load()))
        elif op == "BINARY_SLICE":
            hi, lo, obj = pop(), pop(), pop()
            stack.append(ast.Subscript(value=v(obj), slice=ast.Slice(
                lower=self.opt(lo, ins), upper=self.opt(hi, ins)), ctx=ast.Load()))
        elif op == "BUILD_SLICE":
            parts = [pop() for _ in range(a)][::-1]
            parts = [self.opt(p, ins) for p in parts] + [None] * (3 - a)
            stack.append(ast.Slice(lower=parts[0], upper=parts[1], step=parts[2]))
        elif op in ("BUILD_TUPLE", "BUILD_LIST"):
            elts = [v(pop()) for _ in range(a)][::-1]
            node = ast.Tuple if op == "BUILD_TUPLE" else ast.List
            stack.append(node(elts=elts, ctx=ast.Load()))
        elif op == "LIST_EXTEND" and a == 1 and isinstance(stack[-1], ast.Constant) \
                and isinstance(stack[-1].value, tuple) and isinstance(stack[-2], ast.List) \
                and not stack[-2].elts:
            c = pop()
            stack[-1] = ast.List(elts=[ast.Constant(value=x) for x in c.value], ctx=ast.Load())
        elif op == "KW_NAMES":
            self.kw = ins.argval if isinstance(ins.argval, tuple) else \
                self.code.co_consts[ins.arg]
        elif op == "CALL":
            kw = getattr(self, "kw", ()) or ()
            self.kw = ()
            if a == 0 and not kw and len(stack) >= 2 and \
                    getattr(stack[-2], "cujit_assert", False):
                a = 1  # `assert t, msg`: AssertionError sits where a method's NULL would
            args = [v(pop()) for _ in range(a)][::-1]
            fn = v(pop())
            npos = len(args) - len(kw)
            stack.append(ast.Call(func=fn, args=args[:npos], keywords=[
                ast.keyword(arg=k, value=x) for k, x in zip(kw, args[npos:])]))
        elif op == "COPY":
            stack.append(stack[-a])
        elif op == "SWAP":
            stack[-1], stack[-a] = stack[-a], stack[-1]
        elif op == "UNPACK_SEQUENCE":
            src = v(pop())
            group = []
            for _ in range(a):
                s = _Slot(src, group)
                group.append(s)
            stack.extend(reversed(group))
        elif op in ("MAKE_FUNCTION", "LOAD_CLOSURE", "BUILD_MAP", "BUILD_SET", "FORMAT_VALUE",
                    "BUILD_STRING", "CALL_FUNCTION_EX", "LOAD_BUILD_CLASS", "IMPORT_NAME",
                    "DELETE_FAST", "DELETE_NAME", "DELETE_GLOBAL", "DELETE_SUBSCR",
                    "DELETE_ATTR", "YIELD_VALUE", "RAISE_VARARGS", "DICT_MERGE",
                    "LOAD_FAST_AND_CLEAR"):
            what = {"MAKE_FUNCTION": "a nested function, lambda or comprehension",
                    "LOAD_FAST_AND_CLEAR": "a nested function, lambda or comprehension",
                    "LOAD_CLOSURE": "a nested function, lambda or comprehension",
                    "FORMAT_VALUE": "an f-string", "BUILD_STRING": "an f-string",
                    "CALL_FUNCTION_EX": "a call with *args or **kwargs",
                    "RAISE_VARARGS": "a raise statement"}.get(op, "the instruction " + op)
            _fail(what, ins)
        else:
            _fail("the instruction %s" % op, ins)
        return i + 1


def _constant(value):
    """A constant as an expression. A folded tuple is spelled item by item, since ast.unparse
    writes a tuple constant with repr(), which turns `a[..., 0]`'s Ellipsis into the global name
    `Ellipsis` (another instruction, so the text would be refused as unlike)."""
    if type(value) is tuple and _holds_ellipsis(value):
        return ast.Tuple(elts=[_constant(x) for x in value], ctx=ast.Load())
    return ast.Constant(value=value)


def _holds_ellipsis(value):
    return value is Ellipsis or type(value) is tuple and any(_holds_ellipsis(x) for x in value)


_RETURN_NONE = ((("LOAD_CONST", "None"), ("RETURN_VALUE", "None")), (("RETURN_CONST", "None"),))


def _is_return_none(s):
    return isinstance(s, ast.Return) and isinstance(s.value, ast.Constant) and s.value.value is None


def _chained(stack):
    """The top of the stack is a comparison whose right operand was kept below it (COPY)."""
    return len(stack) >= 2 and isinstance(stack[-1], ast.Compare) and \
        stack[-1].comparators[-1] is stack[-2]


def _assert_or_if(cond, body):
    """`assert test, msg` is `if not test: raise <AssertionError>(msg)` with the exception
    loaded by its own instruction (not a global), which only an assert statement compiles to."""
    if len(body) == 1 and isinstance(body[0], ast.Raise) and body[0].exc is not None:
        exc = body[0].exc
        msg = None
        if isinstance(exc, ast.Call) and not exc.keywords and len(exc.args) == 1:
            exc, msg = exc.func, exc.args[0]
        if getattr(exc, "cujit_assert", False):
            return ast.Assert(test=_not(cond), msg=msg)
    return ast.If(test=cond, body=body, orelse=[])


def _load(node):
    """`node` as a load (for comparing an in-place operator's source with its store)."""
    if isinstance(node, ast.AST):
        node = ast.parse(ast.unparse(node), mode="eval").body
    return node


def _not(expr):
    if isinstance(expr, ast.UnaryOp) and isinstance(expr.op, ast.Not):
        return expr.operand
    if isinstance(expr, ast.BoolOp):
        # De Morgan: `assert a and b` reaches here as not (not a or not b); spelled back as
        # written it compiles to the original jumps (the code comparison still decides).
        other = ast.And if isinstance(expr.op, ast.Or) else ast.Or
        return ast.BoolOp(op=other(), values=[_not(x) for x in expr.values])
    if isinstance(expr, ast.Compare) and len(expr.ops) == 1:
        flip = {ast.Is: ast.IsNot, ast.IsNot: ast.Is, ast.In: ast.NotIn, ast.NotIn: ast.In}
        if type(expr.ops[0]) in flip:
            return ast.Compare(left=expr.left, ops=[flip[type(expr.ops[0])]()],
                               comparators=expr.comparators)
    return ast.UnaryOp(op=ast.Not(), operand=expr)


def _boolop(kind, left, right):
    values = []
    for x in (left, right):
        if isinstance(x, ast.BoolOp) and isinstance(x.op, kind):
            values.extend(x.values)
        else:
            values.append(x)
    return ast.BoolOp(op=kind(), values=values)


# ---- text ----

def _emit(stmts, indent, out, line):
    """Appends the statements' lines to `out`, each on its original line where that is later
    than the line before it (blank lines fill the gap). Returns the line last written."""
    pad = "    " * indent
    if not stmts:
        out.append(pad + "pass\n")
        return line + 1
    for s in stmts:
        if out and out[-1].startswith(pad) and out[-1][len(pad):].split(" ")[0].rstrip() \
                in ("return", "break", "continue"):
            break  # unreachable: a copy CPython made of a returning block
        want = getattr(s, "lineno", 0) or 0
        while line + 1 < want:
            out.append("\n")
            line += 1
        if isinstance(s, ast.If):
            out.append(pad + "if %s:\n" % ast.unparse(s.test))
            line = _emit(s.body, indent + 1, out, line + 1)
            if s.orelse:
                out.append(pad + "else:\n")
                line = _emit(s.orelse, indent + 1, out, line + 1)
        elif isinstance(s, ast.While):
            out.append(pad + "while %s:\n" % ast.unparse(s.test))
            line = _emit(s.body, indent + 1, out, line + 1)
        elif isinstance(s, ast.For):
            out.append(pad + "for %s in %s:\n" % (ast.unparse(s.target), ast.unparse(s.iter)))
            line = _emit(s.body, indent + 1, out, line + 1)
        elif isinstance(s, ast.Return) and isinstance(s.value, ast.Constant) \
                and s.value.value is None:
            out.append(pad + "return\n")
            line += 1
        else:
            out.append(pad + ast.unparse(s) + "\n")
            line += 1
    return line


def rebuild(code, defaults=None):
    """(text, name): the source of the function whose code object is `code`, `def name(...):`
    on the text's first line (a lambda: `lambda ...: body`, one line), with `defaults` (the
    function's __defaults__, constants only) written as they are. Raises RebuildError."""
    for flag, what in _CO_UNSUPPORTED.items():
        if code.co_flags & flag:
            raise RebuildError("a function with %s" % what)
    if sys.version_info < (3, 11):
        raise RebuildError("Python %d.%d (the rebuild reads the bytecode of 3.11 and 3.12)"
                           % sys.version_info[:2])
    for ins in dis.get_instructions(code):
        # Named first: 3.12 inlines comprehensions, which gives them an exception table too.
        if ins.opname in ("MAKE_FUNCTION", "LOAD_CLOSURE", "LOAD_FAST_AND_CLEAR"):
            _fail("a nested function, lambda or comprehension", ins)
    if getattr(code, "co_exceptiontable", b""):
        raise RebuildError("a try or with statement")
    if not code.co_flags & 0x01:  # CO_OPTIMIZED: a function's own locals
        raise RebuildError("code that is not a function's")
    try:
        d = _Decoder(code)
        body = d.region(0, d.n, [], None)
    except (IndexError, KeyError, AttributeError, TypeError, ValueError) as e:
        # A stack or jump shape the decoder did not expect: refused, never guessed at.
        raise RebuildError("bytecode the rebuild does not cover (%s)" % type(e).__name__) \
            from None
    args = list(code.co_varnames[:code.co_argcount + code.co_kwonlyargcount])
    if code.co_kwonlyargcount:
        raise RebuildError("keyword-only parameters")
    if defaults:
        # The defaults are not in the code object; written back so that the text reads as the
        # function's own def (the values a caller leaves out come from the snapshot).
        if len(defaults) > len(args) or not all(
                isinstance(d, (int, bool, str, type(None))) or
                isinstance(d, float) and d == d and abs(d) != float("inf") for d in defaults):
            raise RebuildError("a default argument value that is not a number or a string")
        first = len(args) - len(defaults)
        args = args[:first] + ["%s=%r" % (a, d) for a, d in zip(args[first:], defaults)]
    if code.co_posonlyargcount:
        pos = args[:code.co_posonlyargcount]
        args = pos + ["/"] + args[code.co_posonlyargcount:]
    if code.co_name == "<lambda>":
        if len(body) != 1 or not isinstance(body[0], ast.Return):
            raise RebuildError("a lambda the rebuild does not cover")
        return "lambda %s: %s" % (", ".join(args), ast.unparse(body[0].value)), code.co_name
    while body and isinstance(body[-1], ast.Return) and isinstance(body[-1].value, ast.Constant) \
            and body[-1].value.value is None:
        body.pop()  # the implicit `return None` at the end
    if not code.co_name.isidentifier():
        raise RebuildError("a function named %r" % code.co_name)
    out = ["def %s(%s):\n" % (code.co_name, ", ".join(args))]
    _emit(body, 1, out, code.co_firstlineno)
    return "".join(out), code.co_name
