'''The corpora of ``microbench audit`` gathered after the second's rules
(tests/data/audit/corpus3, corpus4; their sources and labels in
corpus3.yaml, corpus4.yaml): an input of a development half audited as
``microbench audit FILE`` does, on a node of 24 GiB.'''

import os

from microbench.audit import judge

import fixtures

GIB = 2**30


def audited(corpus, name, data=None):
    '''The audit's report of input ``name`` of ``corpus`` (or of
    ``data`` under its name: the input changed).'''
    directory = os.path.join(fixtures.path('audit'), corpus)
    path = os.path.join(directory, name)
    if data is None:
        with open(path, 'rb') as fp:
            data = fp.read()
    elif isinstance(data, str):
        data = data.encode()
    return judge.audit_bytes(path, data, judge.new_context(
        path, 24 * GIB, directory=directory))


def text(corpus, name):
    '''Input ``name`` of ``corpus``, as text.'''
    with open(os.path.join(fixtures.path('audit'), corpus, name)) as fp:
        return fp.read()


def pitfalls(invocation):
    '''{pitfall: its certainty} of an invocation's findings.'''
    return {f.pitfall: f.certainty for f in invocation.findings}
