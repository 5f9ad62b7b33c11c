'''``microbench ab`` end to end on the local default: real fio runs through
ReFrame, both stacks in one job, the sessions in the A/B's own storage.

- An A/A (apt's fio on both sides) runs one stack on both sides, its
  rounds A B B A A B, and exits 1 exactly where it calls a figure
  ``B slower``.  It does not demand ``same``: the rule's promise (at most
  5 % of A/A experiments call a difference on a machine whose noise holds
  still) is measured by bench/ab_rule.py and held on real recorded
  sessions by tests/cause/test_ab_sequential.py; on a busy machine a load
  that changes within three pairs of rounds is a real difference between
  the sides, and these tests must pass there too.  Its sessions are
  tagged ``kind=ab`` in the storage given, each test case's records name
  its side's stack.
- An A/B of two real fio builds (``MICROBENCH_AB_FIO_B``: a folder
  holding another fio, else one of the Spack stacks under
  /opt/spack-stacks; skipped, saying so, where there is none) records
  each side's own fio and version, and exits 1 exactly where a figure is
  ``B slower``.

The smallest settings that still run the claim: quick mode,
``fio_fallocate`` (two variants), one batch of three pairs of rounds.
'''

import glob
import json
import os
import re
import shutil
import socket
import subprocess
import sys

import pytest

import project
from microbench.cause import ab_json
from microbench.verdicts import figures, storage, vocabulary

pytestmark = pytest.mark.e2e

MICROBENCH = os.path.join(os.path.dirname(sys.executable), 'microbench')

#: The least settings of an A/B that still pairs rounds: one batch of the
#: rule's first look, samples of 1 s (the quick mode's are 2 s)
SMALL = ['--mode', 'quick', '--first', '3', '--cap', '3',
         '-S', 'fio_fallocate_rounds.runtime_s=1']


def version(fio):
    return subprocess.run([fio, '--version'], capture_output=True,
                          text=True, timeout=60).stdout.strip()


@pytest.fixture(scope='module')
def apt_fio():
    found = shutil.which('fio')
    if not found:
        pytest.skip('fio is not installed (apt-get install fio)')
    return os.path.dirname(os.path.realpath(found))


@pytest.fixture(scope='module')
def other_fio(apt_fio):
    '''A folder holding a fio build other than apt's.'''
    given = os.environ.get('MICROBENCH_AB_FIO_B')
    mine = version(os.path.join(apt_fio, 'fio'))
    candidates = ([given] if given else sorted(glob.glob(
        '/opt/spack-stacks/envs/*/.spack-env/view/bin')))
    for folder in candidates:
        fio = os.path.join(folder, 'fio')
        if os.access(fio, os.X_OK) and version(fio) not in ('', mine):
            return folder
    pytest.skip(f'no second fio build (another than {mine}): give its '
                f'folder with MICROBENCH_AB_FIO_B=DIR (the Spack stacks of '
                f'spack_envs/ build fio 3.40 and 3.42)')


def ab(tmp, *args):
    proc = subprocess.run(
        [MICROBENCH, 'ab', 'fio_fallocate', *SMALL, '--db',
         str(tmp / 'ab.db'), '--json', str(tmp / 'ab.json'), *args],
        capture_output=True, text=True, timeout=1800, cwd=project.ROOT,
        env={**os.environ, 'RFM_CONFIG_FILES': project.CONFIG,
             'MICROBENCH_REFERENCES': project.NO_USER_REFERENCES})
    assert 'Traceback' not in proc.stdout + proc.stderr
    return proc


def cases(db):
    '''The test cases of every A/B session of the storage ``db``.'''
    out = []
    for uuid in figures.sessions('?kind=="ab"', db):
        blob, _ = storage.session(db, uuid)
        out += json.loads(blob)['runs'][-1]['testcases']
    return out


@pytest.fixture(scope='module')
def same(tmp_path_factory, apt_fio):
    tmp = tmp_path_factory.mktemp('aa')
    proc = ab(tmp, '--a', apt_fio, '--aa')
    assert proc.returncode in (0, 1), proc.stdout[-3000:] + proc.stderr
    return tmp, proc, ab_json.read(str(tmp / 'ab.json'))


def test_an_aa_runs_one_stack_on_both_sides_in_abba_rounds(same):
    _, proc, found = same
    assert found.stacks['A']['prefix'] == found.stacks['B']['prefix']
    assert set(found.counts) <= set(vocabulary.AB_VERDICTS) - {'continue'}
    assert proc.returncode == int('B slower' in found.counts)
    assert len(found.figures) == 3
    for row in found.figures:
        assert row['pairs'] == 3 and row['lost'] == 0
        assert [r['side'] for r in row['rounds']] == list('ABBAAB')
        assert all(len(r['samples']) == 1 for r in row['rounds'])


def test_an_aa_is_stored_apart_and_says_where_it_ran(same, apt_fio):
    tmp, _, found = same
    db = str(tmp / 'ab.db')
    assert figures.sessions('?kind=="nightly"', db) == []
    stored = figures.sessions(f'?ab=="{found.doc["id"]}"', db)
    assert len(stored) == 1 and found.stacks['A']['session'] == stored[0]
    assert found.nodes == [socket.gethostname()] and found.jobs
    assert found.stacks['A']['tools'] == found.stacks['B']['tools'] == {
        'fio': version(os.path.join(apt_fio, 'fio'))}
    figures_of = [case for case in cases(db) if case.get('perfvalues')]
    assert len(figures_of) == 6
    for case in figures_of:
        side = case['display_name'].rsplit('%.stack=', 1)[1]
        assert case['stack'].startswith(f'{side}: {apt_fio}; ')
        assert f'fio {apt_fio} (' in case['stack']
    # the perflogs of the A/B are below its own folder, with the stack
    logs = glob.glob(str(tmp / 'ab-runs' / '*' / 'perflogs' / '**' /
                         '*.log'), recursive=True)
    assert logs
    with open(logs[0]) as fp:
        assert 'stack' in fp.readline().rstrip('\n').split('|')


def test_an_ab_of_two_fio_builds_keeps_each_sides_own(tmp_path, apt_fio,
                                                      other_fio):
    proc = ab(tmp_path, '--a', apt_fio, '--b', other_fio)
    assert proc.returncode in (0, 1), proc.stdout[-3000:] + proc.stderr
    found = ab_json.read(str(tmp_path / 'ab.json'))
    assert found.stacks['A']['tools'] == {
        'fio': version(os.path.join(apt_fio, 'fio'))}
    assert found.stacks['B']['tools'] == {
        'fio': version(os.path.join(other_fio, 'fio'))}
    assert proc.returncode == int('B slower' in found.counts)
    assert re.search(r'ab: 1 batch\(es\), 3 pairs of rounds in [\d.]+ min',
                     proc.stdout)
    for case in cases(str(tmp_path / 'ab.db')):
        if case.get('perfvalues') and case['variant'] != 'gap':
            mine = apt_fio if case['stack'].startswith('A:') else other_fio
            assert case['command_line'].startswith(f'{mine}/fio ')
