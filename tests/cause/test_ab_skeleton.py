'''The rounds job's skeleton as an A/B (microbench/suite/rounds.sh with
``sides``), run by bash on its own: the rounds alternate A B B A ..., each
side's samples and witnesses write into its own folder under their
variants' names, each record carries the side, each side's version is
recorded; a side that fails fails alone.  The commands are plain shell
commands: what is tested is the skeleton around them (as
tests/suite/test_rounds_skeleton.py does for one stack).'''

import shutil
import subprocess

from microbench.suite import records, skeleton
from microbench.suite.rounds import SKELETON

BASH = shutil.which('bash')


def job(tmp, commands, samples=2, extra='', **inputs):
    '''An A/B job script in ``tmp`` (``commands`` by ``variant@side``).'''
    variants = list(commands)
    lines = skeleton.job_lines({
        'scratch_root': str(tmp / 'scratch'), 'tool': 'sh',
        'job_name': 'ab_test', 'samples': samples, 'tools': ['sh'],
        'variants': variants, 'outputs': ['out.txt'],
        'commands': commands, 'lock_file': str(tmp / 'ab.lock'),
        'progress_file': 'progress.txt', 'sides': ['A', 'B'],
        'versions': {'A': 'echo one 1.0', 'B': 'echo two 2.0'}, **inputs,
    }, source=SKELETON)
    script = tmp / 'job.sh'
    script.write_text('\n'.join([*lines, extra, 'rounds_run', '']))
    return script


def run(tmp, script):
    proc = subprocess.run([BASH, str(script)], cwd=tmp, capture_output=True,
                          text=True, timeout=60)
    return proc, records.parse(proc.stdout)


def writes(word):
    '''A command that writes ``word`` and the folder it runs in to
    out.txt, and a file to the scratch.'''
    return (f'sh -c "echo {word} > out.txt; pwd >> out.txt; '
            f'echo 12 > $scratch/f"')


def test_the_rounds_alternate_and_each_side_keeps_its_files(tmp_path):
    commands = {f'{v}@{side}': writes(f'{v}{side}')
                for side in 'AB' for v in ('x', 'y')}
    proc, recs = run(tmp_path, job(tmp_path, commands, samples=3))
    assert proc.returncode == 0, proc.stderr
    assert recs['sample'] == [
        'x@A: 1 scratch_bytes=3', 'y@A: 1 scratch_bytes=3',
        'x@B: 1 scratch_bytes=3', 'y@B: 1 scratch_bytes=3',
        'x@B: 2 scratch_bytes=3', 'y@B: 2 scratch_bytes=3',
        'x@A: 2 scratch_bytes=3', 'y@A: 2 scratch_bytes=3',
        'x@A: 3 scratch_bytes=3', 'y@A: 3 scratch_bytes=3',
        'x@B: 3 scratch_bytes=3', 'y@B: 3 scratch_bytes=3']
    assert recs['version'] == ['@A: one 1.0', '@B: two 2.0']
    for side in 'AB':
        for v in 'xy':
            for n in (1, 2, 3):
                kept = tmp_path / side / f'out-{v}-{n}.txt'
                assert kept.read_text() == f'{v}{side}\n{tmp_path / side}\n'
    assert not list(tmp_path.glob('out-*'))
    # the progress lines reach the stage folder from the sides' folders
    said = (tmp_path / 'progress.txt').read_text().splitlines()
    assert [line.split('\t')[2] for line in said
            if '\tsample\t' in line][:4] == ['x@A', 'y@A', 'x@B', 'y@B']


def test_each_side_runs_its_own_witness_in_its_own_folder(tmp_path):
    commands = {f'x@{side}': 'true' for side in 'AB'}
    witnesses = {f'x@{side}': f'sh -c "echo {side} > strace-x.txt; '
                              f'echo saw {side}"' for side in 'AB'}
    proc, recs = run(tmp_path, job(tmp_path, commands, samples=1,
                                   witnesses=witnesses))
    assert proc.returncode == 0, proc.stderr
    assert [w.split(':')[0] for w in recs['witness']] == ['x@A', 'x@B']
    for side in 'AB':
        assert (tmp_path / side / 'strace-x.txt').read_text() == \
            f'{side}\n'
        assert (tmp_path / side / 'witness-x.txt').read_text() == \
            f'saw {side}\n'


def test_a_side_that_fails_fails_alone(tmp_path):
    commands = {'x@A': 'true', 'x@B': 'sh -c "echo bad >&2; exit 4"'}
    proc, recs = run(tmp_path, job(tmp_path, commands, samples=2))
    assert proc.returncode == 0, proc.stderr
    assert recs['failed'] == ['x@B: sh exited with code 4: sh -c "echo bad '
                              '>&2; exit 4"']
    assert recs['sample'] == ['x@A: 1 scratch_bytes=0',
                              'x@A: 2 scratch_bytes=0']
    assert (tmp_path / 'B' / 'stderr-x-1.txt').read_text() == 'bad\n'
    a = records.of_side(recs, 'A', ['x'])
    assert 'failed' not in a and len(a['sample']) == 2
    assert records.of_side(recs, 'B', ['x'])['failed'][0].startswith('x: ')


def test_warm_up_rounds_alternate_too(tmp_path):
    commands = {f'x@{side}': writes(side) for side in 'AB'}
    proc, recs = run(tmp_path, job(tmp_path, commands, samples=1,
                                   warmup_rounds=2))
    assert proc.returncode == 0, proc.stderr
    assert recs['warmup'] == ['x@A: 1', 'x@B: 1', 'x@B: 2', 'x@A: 2']
    assert (tmp_path / 'A' / 'out-x-warmup2.txt').exists()
    assert recs['sample'] == ['x@A: 1 scratch_bytes=3',
                              'x@B: 1 scratch_bytes=3']


def test_a_side_folder_holds_the_stage_folders_scripts(tmp_path):
    '''A command may name a script of the stage folder relatively
    (fio_completion_polling's ./polling.sh): each side's folder has a
    copy.'''
    (tmp_path / 'helper.sh').write_text('echo helped "$1"\n')
    commands = {f'x@{side}': f'bash ./helper.sh {side} > out.txt'
                for side in 'AB'}
    proc, _ = run(tmp_path, job(tmp_path, commands, samples=1))
    assert proc.returncode == 0, proc.stderr
    for side in 'AB':
        assert (tmp_path / side / 'out-x-1.txt').read_text() == \
            f'helped {side}\n'


def test_an_unsupported_variant_on_one_side_runs_on_the_other(tmp_path):
    commands = {f'x@{side}': 'true' for side in 'AB'}
    extra = ("probes[x@A]='false'\n"
             "probe_reasons[x@A]='needs fio 3.40'")
    proc, recs = run(tmp_path, job(tmp_path, commands, samples=1,
                                   extra=extra))
    assert proc.returncode == 0, proc.stderr
    assert recs['unsupported'] == ['x@A: needs fio 3.40']
    assert recs['sample'] == ['x@B: 1 scratch_bytes=0']
