'''The job script of an A/B in ReFrame dry runs of ``fio_fallocate``: with
the rounds fixture's ``stacks`` empty the job is today's, byte for byte
(the same script as without the variable; no input of the sides written);
with two stacks one job holds both, each side's commands in its own tool
directory, and ``-P stack=A,B`` makes each variant and gap a test of each
side that shares the one rounds job; a stack without the fixture's tool
fails the job in one line.'''

import glob
import os
import re
import subprocess

import pytest

import project
from job_scripts import needs_shellcheck, read, scripts, settings

#: Two real fio programs: apt's, and a folder of its own (a link to it:
#: the job only names the folders)
CHECK = ['-n', '^fio_fallocate', '-S', 'samples=2']


def dry_run(tmp, *more):
    proc = project.reframe('--dry-run', '--prefix', str(tmp), *CHECK, *more)
    stage = os.path.join(tmp, 'stage', 'local', 'default')
    found = scripts(os.path.join(stage), 'fio_fallocate_rounds_*')
    return proc, found


def without_run_by(text):
    '''A job script without its ``run_by`` line (the ReFrame process and
    its command line, which differ between two runs).'''
    return re.sub(r'^run_by=.*$', '', text, flags=re.M)


@pytest.fixture(scope='module')
def other_fio(tmp_path_factory):
    '''A folder holding fio: a link to the real one (stack B).'''
    if not project.installed('fio'):
        pytest.skip('fio is not installed (apt-get install fio)')
    folder = tmp_path_factory.mktemp('other') / 'bin'
    folder.mkdir()
    os.symlink(project.installed('fio'), folder / 'fio')
    return str(folder)


@pytest.fixture(scope='module')
def stacked(tmp_path_factory, other_fio):
    spec = (f'A:name=apt;prefix=/usr;fio=/usr/bin,'
            f'B:name=other;fio={other_fio}')
    tmp = tmp_path_factory.mktemp('stacked')
    proc, found = dry_run(tmp, '-P', 'stack=A,B', '-S',
                          f'fio_fallocate_rounds.stacks={spec}')
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert len(found) == 1, found
    return proc.stdout, found[0]


def test_an_empty_stacks_is_todays_job_byte_for_byte(tmp_path):
    plain, found = dry_run(tmp_path / 'plain')
    empty, again = dry_run(tmp_path / 'empty', '-S',
                           'fio_fallocate_rounds.stacks=')
    assert plain.returncode == empty.returncode == 0, plain.stdout
    one, two = read(found[0]), read(again[0])
    assert without_run_by(one) == without_run_by(two.replace(
        str(tmp_path / 'empty'), str(tmp_path / 'plain')))
    job = settings(found[0])
    assert 'sides' not in job and 'versions' not in job
    assert job['variants'] == ['default', 'none']
    assert job['version_command'] == 'fio --version'


def test_one_job_holds_both_stacks(stacked, other_fio):
    _, script = stacked
    job = settings(script)
    assert job['sides'] == ['A', 'B']
    assert job['variants'] == ['default@A', 'none@A', 'default@B', 'none@B']
    assert job['tools'] == ['/usr/bin/fio', f'{other_fio}/fio']
    assert 'version_command' not in job
    assert job['versions'] == {'A': '/usr/bin/fio --version',
                               'B': f'{other_fio}/fio --version'}
    for variant in ('default', 'none'):
        assert job['commands'][f'{variant}@A'].startswith('/usr/bin/fio ')
        assert job['commands'][f'{variant}@B'].startswith(
            f'{other_fio}/fio ')
        assert job['commands'][f'{variant}@A'].split(' ', 1)[1] == \
            job['commands'][f'{variant}@B'].split(' ', 1)[1]
        # each side's Darshan logs in its own folder
        assert f'/A/darshan-{variant} ' in job['darshans'][f'{variant}@A']
        assert f'/B/darshan-{variant} ' in job['darshans'][f'{variant}@B']


def test_each_variant_and_gap_is_a_test_of_each_side(stacked):
    out, script = stacked
    for side in 'AB':
        for name in ('fio_fallocate %fallocate=default',
                     'fio_fallocate %fallocate=none', 'fio_fallocate_gap'):
            assert f'] {name} %.stack={side} ' in out
    # one rounds job for all of them
    assert len(glob.glob(os.path.join(os.path.dirname(os.path.dirname(
        script)), 'fio_fallocate_rounds_*'))) == 1
    assert 'Ran 7/7 test case(s)' in out


@needs_shellcheck
def test_the_job_of_both_stacks_is_shellcheck_clean(stacked):
    _, script = stacked
    check = subprocess.run(['shellcheck', '-x', '-e', 'SC2016',
                            os.path.basename(script)],
                           cwd=os.path.dirname(script), capture_output=True,
                           text=True)
    assert check.returncode == 0, check.stdout


def test_a_stack_without_the_tool_fails_the_job_in_one_line(tmp_path):
    proc, _ = dry_run(tmp_path, '-P', 'stack=A,B', '-S',
                      'fio_fallocate_rounds.stacks=A:name=apt;fio=/usr/bin,'
                      'B:name=elsewhere;ior=/usr/bin')
    assert proc.returncode != 0
    assert ('stacks error: fio_fallocate_rounds: stack B (elsewhere) has no '
            'fio; it gives ior\n' in proc.stdout), proc.stdout
