'''The record fields as loggable variables of every test of the suite.'''

import types

import reframe as rfm
from reframe.core.builtins import variable

from microbench.fields import FIELDS, SHARED
from microbench.provenance import suite_commit

#: The suite's commit, read once per ReFrame run
COMMIT = suite_commit()


def _declare(namespace):
    namespace['__module__'] = __name__
    for name, (kind, default, *_) in FIELDS.items():
        namespace[name] = variable(
            kind, value=COMMIT if name == 'suite_commit' else default)


#: A plugin giving a test one loggable variable per field of
#: :data:`microbench.fields.FIELDS`; ``samples`` is the one users set
#: (``-S samples=N``)
Recorded = types.new_class('Recorded', (rfm.RegressionTestPlugin,),
                           exec_body=_declare)
Recorded.__doc__ = '''What every perflog record of the suite carries (see
:mod:`microbench.fields`).'''


def copy_shared(target, source):
    '''Give ``target`` the shared fields of ``source``.'''
    for name in SHARED:
        setattr(target, name, getattr(source, name))
