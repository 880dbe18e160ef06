# _sandbox_guard: a step budget and a wall-clock deadline for the code _sandbox (driver.py) runs.
# _Instrument puts a tick at the top of every loop and function body; the tick is C only (a chain of
# repeats) and every CHUNK steps asks _Chunks, which checks the budget and the deadline.
import builtins

__builtins__ = dict(vars(builtins))  # the runtime's own (see _sandbox_json)

import ast  # noqa: E402
import itertools  # noqa: E402
import operator  # noqa: E402
from itertools import repeat as _repeat  # noqa: E402
from time import monotonic as _monotonic  # noqa: E402

CHUNK = 1024


class BudgetExceeded(BaseException):
    """The guard's stop. A BaseException, so `except Exception:` in the code does not swallow it."""

    def __init__(self, why, fix):
        super().__init__(why)
        self.fix = fix


class _Budget:
    __slots__ = ("steps_left", "deadline", "tripped", "line", "ticker", "names")

    def __init__(self, max_steps, deadline, names):
        self.steps_left = max_steps
        self.deadline = deadline
        self.tripped = None
        self.names = names
        # The per-step path is C only (chain → repeat); every CHUNK steps chain asks _Chunks for more.
        self.ticker = itertools.chain.from_iterable(_Chunks(self))


class _Chunks:
    __slots__ = ("b",)

    def __init__(self, b):
        self.b = b

    def __iter__(self):
        return self

    def __next__(self):
        b = self.b
        if b.steps_left <= 0:
            _trip(b, "the step limit (EXEC_MAX_STEPS) was reached", "end loops sooner, or do less per execution")
        if _monotonic() > b.deadline:
            _trip(b, "the time limit was reached", "do less computation per execution, or pass a larger timeoutMs to execute")
        b.steps_left -= CHUNK
        return _repeat(None, CHUNK)


def _trip(b, why, fix):
    b.tripped = why

    def stopped(*_):
        raise BudgetExceeded(why, fix)

    # chain.from_iterable drops a source that raised: from now on every tick raises by itself.
    builtins.__dict__[b.names[0]] = stopped
    builtins.__dict__[b.names[1]] = stopped
    raise BudgetExceeded(why, fix)


def _install_guard(b):
    tick, tick_iter = b.names
    builtins.__dict__[tick] = b.ticker.__next__
    builtins.__dict__[tick_iter] = lambda it, _t=b.ticker, _g=operator.itemgetter(0): map(_g, zip(it, _t))


class _Instrument(ast.NodeTransformer):
    """A tick at the top of every loop and function body; comprehension iterables ticked per item."""

    def __init__(self, names):
        self.tick, self.tick_iter = names

    def _call(self, node):
        return ast.copy_location(ast.Expr(ast.Call(ast.Name(self.tick, ast.Load()), [], [])), node)

    def _loop(self, node):
        self.generic_visit(node)
        node.body.insert(0, self._call(node.body[0] if node.body else node))
        return node

    visit_For = visit_AsyncFor = visit_While = _loop

    def _func(self, node):
        self.generic_visit(node)
        node.body.insert(0, self._call(node))
        return node

    visit_FunctionDef = visit_AsyncFunctionDef = _func

    def visit_Lambda(self, node):
        self.generic_visit(node)
        # (tick(), body)[1]: the tick runs on every call of the lambda
        tup = ast.Tuple([ast.Call(ast.Name(self.tick, ast.Load()), [], []), node.body], ast.Load())
        node.body = ast.copy_location(ast.Subscript(tup, ast.Constant(1), ast.Load()), node.body)
        return node

    def visit_comprehension(self, node):
        self.generic_visit(node)
        node.iter = ast.copy_location(ast.Call(ast.Name(self.tick_iter, ast.Load()), [node.iter], []), node.iter)
        return node



def _exhausted(budget):
    try:
        next(budget.ticker)
        return False
    except StopIteration:
        return True
    except BaseException:  # noqa: BLE001
        return False
