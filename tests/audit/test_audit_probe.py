'''A third set of real public inputs, apart from both corpora and never
labelled (tests/data/audit/probe, each file's source in its SOURCES.tsv):
IO500 driver scripts of other sites, other sites' ReFrame checks, IOR
scripts, batch scripts.  Gathered after the rules of issue 46 were
written, to find what they still cannot read: every one is read, none
crashes the audit, and each runs a benchmark or says why nothing runs.'''

import csv
import os

import pytest

from microbench.audit import judge

import fixtures

DIR = os.path.join(fixtures.path('audit'), 'probe')
GIB = 2**30


def sources():
    with open(os.path.join(DIR, 'SOURCES.tsv'), newline='') as fp:
        return dict(csv.reader(fp, delimiter='\t'))


def test_every_probe_input_has_its_source():
    files = set(os.listdir(DIR)) - {'SOURCES.tsv'}
    assert files == set(sources())
    assert all(' @ ' in source for source in sources().values())


@pytest.mark.parametrize('name', sorted(sources()))
def test_every_probe_input_is_read(name):
    path = os.path.join(DIR, name)
    with open(path, 'rb') as fp:
        report = judge.audit_bytes(path, fp.read(), judge.new_context(
            path, 24 * GIB, directory=DIR))
    assert report.error is None, report.error
    assert report.invocations or report.note
