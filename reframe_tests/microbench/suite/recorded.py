'''The record fields as loggable variables of every test of the suite.'''

import functools
import types

import reframe as rfm
from reframe.core.builtins import run_after, variable

from microbench import provenance
from microbench.fields import FIELDS, SHARED


@functools.lru_cache(maxsize=None)
def commit():
    '''The suite's commit, read once per ReFrame run, when the first test
    that records it is set up (not while ReFrame loads the checks).'''
    return provenance.suite_commit()


def record_commit(test):
    '''Record the suite's commit (a hook: ReFrame calls it by its
    name).'''
    test.suite_commit = commit()


def _declare(namespace):
    namespace['__module__'] = __name__
    for name, (kind, default, *_) in FIELDS.items():
        namespace[name] = variable(kind, value=default)
    namespace['record_commit'] = run_after('setup')(record_commit)


#: A plugin giving a test one loggable variable per field of
#: :data:`microbench.fields.FIELDS`; ``samples`` and ``warmup_rounds`` are
#: the ones users set (``-S samples=N``, ``-S warmup_rounds=1``)
Recorded = types.new_class('Recorded', (rfm.RegressionTestPlugin,),
                           exec_body=_declare)
Recorded.__doc__ = '''What every perflog record of the suite carries (see
:mod:`microbench.fields`).'''


def copy_shared(target, source):
    '''Give ``target`` the shared fields of ``source``.'''
    for name in SHARED:
        setattr(target, name, getattr(source, name))
