"""Build a certificate on a Dask cluster (an add-on: imported only for ``--workers`` / ``--scheduler``).

The client expands the top of the tree as tasks of one node each (:func:`node_task`: the
first levels, and any node left with many secrets), then ships the subtrees below as
:func:`subtrees_task` batches. A task carries the strategy's recipe (id, game, options) and
histories only: each worker builds the strategy, with its tables and caches, once per thread
(:func:`_strategy`) and recomputes the candidates from the history. Results are grafted into
their places by position, never by arrival order, so the certificate's bytes do not depend
on the number of workers, their speed, or on tasks that Dask re-ran after a worker died.
"""

from __future__ import annotations

import contextlib
import logging
import os
import threading

from .build import build_subtree, candidates_after, fb_key, merge_histogram, split_node
from .errors import CertifyError

#: The variable Dask itself reads for the scheduler's address.
ENV_ADDRESS = "DASK_SCHEDULER_ADDRESS"
#: Nodes this shallow are always tasks of their own (their subtrees go out separately).
LEVELS = 2
#: A deeper node is still split when it holds more than this share of the secrets (balance)
#: and more than MIN_SPLIT secrets (a task costs milliseconds of scheduling).
SPLIT_SHARE, MIN_SPLIT = 64, 256
#: Small sibling subtrees are batched into tasks of about this share of the secrets, or MIN_BATCH.
BATCH_SHARE, MIN_BATCH = 64, 64

__all__ = ["ENV_ADDRESS", "check_workers", "fingerprint", "make_certificate", "node_task", "run_tasks",
           "scheduler_address", "subtrees_task"]

TRIM = "MALLOC_TRIM_THRESHOLD_"
#: Set in a local cluster's workers when the build uses the compiled kernel (big games): each
#: worker loads it (numba, the cached loops) while it waits for its first task.
WARM = "CERTIFY_WARM_UP"

_local = threading.local()
#: This process's fingerprint of the package's code (see :func:`fingerprint`).
_FINGERPRINT: str | None = None


def fingerprint() -> str:
    """The package version and a sha256 of its Python files: a worker of a running cluster
    must run the very code of the client, or the certificate would mix two builders."""
    global _FINGERPRINT
    if _FINGERPRINT is None:
        import hashlib
        from pathlib import Path

        from ._version import __version__

        root = Path(__file__).resolve().parent
        digest = hashlib.sha256()
        for path in sorted(root.rglob("*.py")):
            digest.update(path.relative_to(root).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
        _FINGERPRINT = f"{__version__}/{digest.hexdigest()[:16]}"
    return _FINGERPRINT


def check_workers(client) -> None:
    """Refuse a cluster whose workers run other code than this client (checked once, when the
    build starts: a worker that joins later is not checked)."""
    mine = fingerprint()
    try:
        found = client.run(fingerprint)
    except Exception as e:  # e.g. a worker without this package: it cannot unpickle the call
        raise CertifyError(f"a Dask worker cannot run certify: {type(e).__name__}: {e}") from None
    for address, theirs in sorted(found.items()):
        if theirs != mine:
            raise CertifyError(f"the Dask worker at {address} runs certify {theirs}, this client "
                               f"{mine}: install the same checkout on every machine")


def dask_setup(worker) -> None:
    """Preloaded into the local cluster's workers: Ctrl-C reaches the whole process group, but
    only the client should stop on it (it then closes the cluster); no worker traceback."""
    import signal

    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGINT, signal.SIG_IGN)
    if os.environ.get(WARM) == "1":
        threading.Thread(target=_warm_up, name="certify-warm-up", daemon=True).start()


def _warm_up() -> None:
    try:
        from .strategies import kernel

        kernel.warm_up()
    except Exception:  # only a head start: the first task loads the kernel anyway
        pass


def scheduler_address(option: str | None) -> str | None:
    """The scheduler to use: ``--scheduler``, else ``$DASK_SCHEDULER_ADDRESS``, else None."""
    return option or os.environ.get(ENV_ADDRESS) or None


def _strategy(recipe):
    """This thread's strategy for a recipe, built once (strategies keep reusable buffers)."""
    cache = getattr(_local, "strategies", None)
    if cache is None:
        cache = _local.strategies = {}
    strategy = cache.get(recipe)
    if strategy is None:
        from .game import Game
        from .strategies import get_strategy

        if len(cache) >= 2:  # a long-lived worker serves build after build: keep the latest only
            cache.clear()
        name, key, options = recipe
        strategy = cache[recipe] = get_strategy(name)(Game(*key), **dict(options))
    return strategy


def node_task(recipe, history: tuple):
    """One node: (guess, wins here, [(feedback, secrets left)] of its children)."""
    strategy = _strategy(recipe)
    candidates = candidates_after(strategy.game, history)
    guess, won, children = split_node(strategy, candidates, history)
    return guess, won, [(fb, len(c)) for fb, c in children]


def subtrees_task(recipe, parent: tuple, guess: int, fbs: list[int]):
    """[(subtree as JSON bytes, histogram)] of the children ``fbs`` of the node ``parent`` that
    plays ``guess``. Bytes, because Dask sizes and pickles a result in the worker's event loop:
    one flat buffer costs nothing there, a tree of dicts costs more than building it."""
    import orjson

    strategy = _strategy(recipe)
    game = strategy.game
    candidates = candidates_after(game, parent)
    row = game.feedback_row(guess, candidates)
    out = []
    for fb in fbs:
        subtree, histogram = build_subtree(strategy, candidates[row == fb], parent + ((guess, fb),))
        out.append((orjson.dumps(subtree), histogram))
    return out


def make_certificate(strategy_id: str, game, options: dict, *, workers: int | None = None,
                     address: str | None = None, progress=None, levels: int = LEVELS) -> dict:
    """The certificate of ``strategy_id(game, **options)``, built on a new local cluster of
    ``workers`` processes or on the running scheduler at ``address``."""
    from .certificate import wrap
    from .strategies import get_strategy

    game.check_size()
    strategy = get_strategy(strategy_id)(game, **options)  # checks the options, gives the params
    recipe = (strategy_id, game.key(), tuple(sorted(options.items())))
    from .game import FULL_MATRIX_CELLS

    with _client(workers, address, warm=game.size**2 > FULL_MATRIX_CELLS) as client:
        tree, histogram = build_on(client, recipe, game, progress, levels)
    return wrap(strategy, tree, dict(sorted(histogram.items())))


class run_tasks:
    """``with run_tasks(workers, address, progress) as run:`` gives ``run(func, args)``, the
    list of ``func(*a)`` for a in args, in that order, computed on a new local cluster or on
    the scheduler at ``address`` (the exact search's tasks, certify.search.split: the search
    takes the function and never imports Dask). The biggest inputs go first."""

    def __init__(self, workers=None, address=None, progress=None) -> None:
        self.client = _client(workers, address)
        self.progress = progress

    def __enter__(self):
        return mapper(self.client.__enter__(), self.progress)

    def __exit__(self, *exc) -> None:
        self.client.__exit__(*exc)


def mapper(client, progress=None):
    """``run(func, args)`` on a connected client (see :class:`run_tasks`); ``progress(1)`` after
    each task."""
    def run(func, args):
        import distributed

        # the split search's biggest sets first (its third argument); other tasks in their order
        futures = [client.submit(func, *a, pure=False,
                                 priority=len(a[2]) if len(a) > 2 and isinstance(a[2], (bytes, list)) else -i)
                   for i, a in enumerate(args)]
        with _failures():
            for _ in distributed.as_completed(futures):
                if progress:
                    progress(1)
            return client.gather(futures)
    # How many tasks the cluster runs at once (a search that goes in rounds sizes them by it).
    run.width = sum(client.nthreads().values())
    # The worst-case search's tasks share the sets they settle, without a checkpoint, through the
    # client: it sends each round's to every worker (certify.search.share)
    run.share = ("push", None)

    def broadcast(func, *args):
        """``func(*args)`` on every worker: {address: result}, a worker that failed or left
        meanwhile left out (what is sent only saves work)."""
        with _failures():
            found = client.run(func, *args, on_error="return")
        return {a: r for a, r in found.items() if not isinstance(r, BaseException)}
    run.broadcast = broadcast
    return run


@contextlib.contextmanager
def _failures():
    """The cluster's failures as one line each (CertifyError); ours pass through."""
    import distributed

    try:
        yield
    except CertifyError:
        raise
    except (OSError, TimeoutError, ImportError, distributed.client.FutureCancelledError) as e:
        raise CertifyError(f"the Dask cluster failed: {type(e).__name__}: {e}") from None
    except Exception as e:
        if type(e).__name__ == "KilledWorker":  # a task that kept killing its workers
            raise CertifyError(f"the Dask cluster failed: {e}") from None
        raise


def _start_method() -> dict:
    """Fork the local workers where the system can: a forked worker starts with Dask, numpy and
    this package already imported (a spawned one imports them again, about 1 s of CPU each;
    knuth 5x8 on 2 workers: 7.8 -> 5.2 s CPU, 13.4 -> 8.8 s wall under load). Dask's own
    default (spawn) stays when the user chose a method (DASK_... variable or a changed config)."""
    import multiprocessing

    import dask

    key = "distributed.worker.multiprocessing-method"
    if "fork" not in multiprocessing.get_all_start_methods() or dask.config.get(key, "spawn") != "spawn" \
            or "DASK_DISTRIBUTED__WORKER__MULTIPROCESSING_METHOD" in os.environ:
        return {}
    return {key: "fork"}


def _as_list(value) -> list:
    """A dask config value that may be one string, a list of them, or unset."""
    if not value:
        return []
    return [value] if isinstance(value, str) else list(value)


class _client:
    """A distributed.Client on a new LocalCluster (processes) or on an existing scheduler."""

    def __init__(self, workers, address, warm: bool = False) -> None:
        if (workers is None) == (address is None):
            raise CertifyError("give either a number of workers or a scheduler address")
        self.workers, self.address, self.warm = workers, address, warm
        self.cluster = self.client = self.settings = None

    def __enter__(self):
        import distributed

        try:
            if self.address is not None:
                self.client = distributed.Client(self.address)
                check_workers(self.client)
            else:
                import dask

                # Workers log at CRITICAL only: a task's error reaches us through its future,
                # and what they log when the client goes away is noise on our stderr. Port 0:
                # the scheduler's HTTP endpoint must not fight another cluster for 8787.
                # Dask makes its workers' malloc give memory back at once (64 KiB): the builder
                # allocates and frees big arrays at every node, and paid 15% more system time.
                environ = "distributed.nanny.pre-spawn-environ"
                settings = {f"{environ}.{TRIM}": 1 << 26, f"{environ}.{WARM}": "1" if self.warm else "0"}
                settings.update(_start_method())
                # This module first (it tells the client which certify a worker runs), then the
                # user's own worker preloads (DASK_DISTRIBUTED__WORKER__PRELOAD or dask's config),
                # which an explicit preload= would otherwise drop.
                preload = [__name__, *_as_list(dask.config.get("distributed.worker.preload", None))]
                # The settings stay for the cluster's life: a nanny reads them again when it
                # starts a worker in place of one that died (it was spawned, without them).
                self.settings = dask.config.set(settings)
                self.cluster = distributed.LocalCluster(
                    n_workers=self.workers, threads_per_worker=1, processes=True,
                    dashboard_address=":0", silence_logs=logging.CRITICAL, preload=preload)
                self.client = distributed.Client(self.cluster)
        except CertifyError:
            self.__exit__(None, None, None)
            raise
        except (OSError, TimeoutError) as e:
            self.__exit__(None, None, None)
            where = f"the Dask scheduler at {self.address}" if self.address else "a local Dask cluster"
            raise CertifyError(f"cannot reach {where}: {e}") from None
        return self.client

    def __exit__(self, *exc) -> None:
        if exc and exc[0] is not None:
            # Closing after an interrupt or a failure: Dask logs the connections it loses on the
            # way out, with tracebacks, over the one-line message the CLI prints.
            logging.getLogger("distributed").setLevel(logging.CRITICAL)
        for part in (self.client, self.cluster):
            if part is not None:
                try:
                    part.close()
                except Exception:  # closing after a failure must not hide the failure
                    pass
        if self.settings is not None:
            self.settings.__exit__(None, None, None)
            self.settings = None


def build_on(client, recipe, game, progress=None, levels: int = LEVELS):
    """(tree, histogram) of the recipe's strategy, built by the cluster behind ``client``."""
    import distributed
    import orjson

    keys = [fb_key(game, fb) for fb in range(game.n_feedbacks)]
    split_above = max(MIN_SPLIT, game.size // SPLIT_SHARE)
    batch = max(MIN_BATCH, game.size // BATCH_SHARE)
    histogram: dict[int, int] = {}
    tasks = distributed.as_completed(with_results=True)
    places: dict[str, tuple] = {}  # task key -> where its result goes

    def submit(kind, place, func, *args, priority):
        future = client.submit(func, recipe, *args, pure=False, priority=priority)
        places[future.key] = (kind, place)
        tasks.add(future)

    root: dict = {}
    submit("node", (root, ()), node_task, (), priority=game.size + 1)
    with _failures():
        for future, result in tasks:
            kind, place = places.pop(future.key)
            del future  # the worker may drop the result once we hold it
            if kind == "node":
                node, history = place
                guess, won, children = result
                node["guess"] = game.text(guess)
                if won:
                    merge_histogram(histogram, {len(history) + 1: 1})
                    if progress:
                        progress(1)
                if not children:
                    continue
                nodes = [{} for _ in children]
                node["next"] = {keys[fb]: child for (fb, _), child in zip(children, nodes)}
                group, size = [], 0
                for (fb, n), child in zip(children, nodes):
                    below = history + ((guess, fb),)
                    if len(below) < levels or n > split_above:
                        # Nodes first (they unlock work), the biggest first.
                        submit("node", (child, below), node_task, below, priority=game.size + n)
                        continue
                    group.append((fb, child))
                    size += n
                    if size >= batch:
                        _submit_group(submit, history, guess, group, size)
                        group, size = [], 0
                if group:
                    _submit_group(submit, history, guess, group, size)
            else:
                for child, (subtree, counts) in zip(place, result):
                    child.update(orjson.loads(subtree))  # key order kept: guess, next
                    merge_histogram(histogram, counts)
                    if progress:
                        progress(sum(counts.values()))
    return root, histogram


def _submit_group(submit, history, guess, group, size) -> None:
    submit("subtrees", [child for _, child in group], subtrees_task, history, guess,
           [fb for fb, _ in group], priority=size)
