'''A fourth set of real public inputs (tests/data/audit/probe2; each
file's source and what the audit does with it in its SOURCES.tsv),
gathered after the rules of issue 46 were written, apart from every
corpus (inputs sharing more than 40 % of their lines with a corpus or
probe file were dropped unseen): batch scripts of IOR, mdtest, OSU, fio,
elbencho and fabtests, other sites' ReFrame checks of OSU, an IO500
launch script.  Ten are read; two are refused, each for what it is.'''

import csv
import os

import pytest

from microbench.audit import judge

import fixtures

DIR = os.path.join(fixtures.path('audit'), 'probe2')
GIB = 2**30


def sources():
    with open(os.path.join(DIR, 'SOURCES.tsv'), newline='') as fp:
        return {row[0]: row[1:] for row in csv.reader(fp, delimiter='\t')}


def audited(name):
    path = os.path.join(DIR, name)
    with open(path, 'rb') as fp:
        return judge.audit_bytes(path, fp.read(), judge.new_context(
            path, 24 * GIB, directory=DIR))


def test_every_input_has_its_source_and_what_the_audit_does():
    files = set(os.listdir(DIR)) - {'SOURCES.tsv'}
    assert files == set(sources())
    assert all(' @ ' in source and said for source, said in
               sources().values())


@pytest.mark.parametrize('name', sorted(sources()))
def test_each_input_is_read_or_refused_as_its_source_row_says(name):
    report = audited(name)
    if sources()[name][1] == 'read':
        assert report.error is None, report.error
        assert report.invocations and report.not_read == []
    else:
        assert 'no benchmark command' in report.error


def test_blue_gene_q_runjob_runs_ior_on_512_nodes():
    report = audited('tokio-abc_run-cron-benchmarks-mira.sh')
    (invocation,) = report.invocations
    assert invocation.tool == 'IOR'
    assert invocation.realistic.startswith('runjob -n 8192 -p 16 ')
    # -w -r without -C on 8192 tasks: each reads back its own node's data
    assert 'S4' in {f.pitfall for f in invocation.findings}
