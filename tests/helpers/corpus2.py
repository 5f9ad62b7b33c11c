'''The second corpus of ``microbench audit`` (tests/data/audit/corpus2,
its sources and labels in corpus2.yaml): its inputs read and audited as
``microbench audit FILE`` does, on a node of 24 GiB.'''

import os

from microbench.audit import judge

import fixtures

DIR = os.path.join(fixtures.path('audit'), 'corpus2')
GIB = 2**30


def text(name):
    '''The input ``name``, as text.'''
    with open(os.path.join(DIR, name)) as fp:
        return fp.read()


def audited(name, data=None):
    '''The audit's report of input ``name`` (or of ``data`` under its
    name: a broken copy of it).'''
    path = os.path.join(DIR, name)
    data = text(name) if data is None else data
    return judge.audit_bytes(path, data.encode(), judge.new_context(
        path, 24 * GIB, directory=DIR))
