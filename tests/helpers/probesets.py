'''The sets of real public inputs gathered apart from the corpora to find
what the audit cannot read (tests/data/audit/probe2, probe3): each file's
source and what the audit does with it (``read``, or why it is refused)
in the set's SOURCES.tsv.'''

import csv
import os

from microbench.audit import judge

import fixtures

SETS = ('probe2', 'probe3', 'probe4')
GIB = 2**30


def directory(probe):
    return os.path.join(fixtures.path('audit'), probe)


def sources(probe):
    '''{file: [its source, what the audit does with it]}'''
    with open(os.path.join(directory(probe), 'SOURCES.tsv'),
              newline='') as fp:
        return {row[0]: row[1:] for row in csv.reader(fp, delimiter='\t')}


def audited(probe, name):
    '''The audit's report of a file of the set, on a node of 24 GiB.'''
    path = os.path.join(directory(probe), name)
    with open(path, 'rb') as fp:
        return judge.audit_bytes(path, fp.read(), judge.new_context(
            path, 24 * GIB, directory=directory(probe)))
