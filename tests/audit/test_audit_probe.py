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


def test_a_check_that_runs_io500s_driver_under_no_launcher():
    '''EPCC's check runs IO500's io500.sh with an ini and sets
    ``self.job.launcher = getlauncher('local')()``: the driver launches
    io500 itself, under its own $io500_mpirun.'''
    path = os.path.join(DIR, 'epcc-io500.py')
    with open(path, 'rb') as fp:
        report = judge.audit_bytes(path, fp.read(), judge.new_context(
            path, 24 * GIB, directory=DIR))
    assert report.kind == 'reframe-check' and len(report.invocations) == 27
    first = report.invocations[0]
    assert first.where.text.startswith(
        '[ior-easy-write] $io500_mpirun $io500_mpiargs ior ')
    assert any("io500.sh, IO500's driver" in said
               for said in first.not_judged)
