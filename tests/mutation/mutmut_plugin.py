"""pytest plugin for the mutation runs (tests/mutation/run.sh loads it with -p): while mutmut
collects which tests reach which function (MUTANT_UNDER_TEST=stats), a test's subprocesses run
without that variable, as the plain code: mutmut's stats recorder cannot work in a child process
(it needs the parent's state and a mutmut configuration in the child's working directory), and a
call reached only in a child would not be counted anyway. While a mutant is tested the variable is
kept, so a checker run in a subprocess from the mutants/ copy runs the mutant too."""

import os
import subprocess

_init = subprocess.Popen.__init__


def _popen_init(self, args, *rest, env=None, **kwargs):
    if os.environ.get("MUTANT_UNDER_TEST") == "stats":
        env = dict(os.environ if env is None else env)
        env.pop("MUTANT_UNDER_TEST", None)
    _init(self, args, *rest, env=env, **kwargs)


subprocess.Popen.__init__ = _popen_init
