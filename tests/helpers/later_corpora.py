'''The corpora of ``microbench audit`` gathered after the second's rules
(tests/data/audit/corpus3, corpus4; their sources and labels in
corpus3.yaml, corpus4.yaml): an input of a development half audited as
``microbench audit FILE`` does, on a node of 24 GiB.'''

import os

from microbench.audit import judge

import fixtures

GIB = 2**30


def audited(corpus, name):
    '''The audit's report of input ``name`` of ``corpus``.'''
    directory = os.path.join(fixtures.path('audit'), corpus)
    path = os.path.join(directory, name)
    with open(path, 'rb') as fp:
        return judge.audit_bytes(path, fp.read(), judge.new_context(
            path, 24 * GIB, directory=directory))


def pitfalls(invocation):
    '''{pitfall: its certainty} of an invocation's findings.'''
    return {f.pitfall: f.certainty for f in invocation.findings}
