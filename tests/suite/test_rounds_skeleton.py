'''The shell skeleton of every rounds job (microbench/suite/rounds.sh), run by
bash on its own: records, the round-robin loop, failures, kept outputs,
cleanup, and the scratch records where findmnt sees no mount (a chroot).

The commands it runs here are plain shell commands, not benchmarks: what is
tested is the skeleton around them.  Each job takes a lock of its own test
(``lock_file``), never the machine's benchmark lock: a benchmark running
beside the tests must not hold them up.
'''

import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import time

import pytest

from microbench.suite import records
from microbench.suite import skeleton
from microbench.suite.rounds import SKELETON

BASH = shutil.which('bash')


def job(tmp, commands, variants=None, samples=2, tools=('sh',),
        outputs=('out.txt',), scratch=True, extra=''):
    '''A job script as the rounds fixture writes it
    (:func:`skeleton.job_lines`), in ``tmp``; ``extra`` lines before
    ``rounds_run``.'''
    lines = skeleton.job_lines({
        'scratch_root': str(tmp / 'scratch') if scratch else '',
        'tool': 'sh', 'version_command': 'echo 1.0',
        'job_name': 'skeleton_test', 'samples': samples,
        'server_start_s': 1, 'client_timeout_s': 5, 'tools': tools,
        'variants': variants or list(commands), 'outputs': outputs,
        'commands': commands, 'lock_file': private_lock(tmp),
    }, source=SKELETON)
    script = tmp / 'job.sh'
    script.write_text('\n'.join([*lines, extra, 'rounds_run', '']))
    return script


def private_lock(tmp):
    '''The benchmark lock of the jobs of one test.'''
    return str(tmp / 'microbench.lock')


def run(tmp, script):
    proc = subprocess.run([BASH, str(script)], cwd=tmp, capture_output=True,
                          text=True, timeout=60)
    return proc, records.parse(proc.stdout)


def test_round_robin_records_and_kept_outputs(tmp_path):
    script = job(tmp_path, {
        'a': 'sh -c "echo a > out.txt; echo 1234 > $scratch/f"',
        'b': 'sh -c "echo b > out.txt"',
    })
    proc, recs = run(tmp_path, script)
    assert proc.returncode == 0, proc.stderr
    assert recs['version'] == ['1.0']
    first_command = recs['command'][0]
    assert (first_command == 'a: sh -c "echo a > out.txt; echo 1234 > '
                             f'{tmp_path}/scratch/skeleton_test.'
            or first_command.startswith(
                'a: sh -c "echo a > out.txt; echo 1234 > '))
    assert recs['sample'] == ['a: 1 scratch_bytes=5', 'b: 1 scratch_bytes=0',
                              'a: 2 scratch_bytes=5', 'b: 2 scratch_bytes=0']
    for variant in 'ab':
        for sample in (1, 2):
            assert (tmp_path / f'out-{variant}-{sample}.txt').read_text() \
                == f'{variant}\n'

    assert 'end' in recs
    # The private scratch directory is gone, its root stays
    assert os.listdir(tmp_path / 'scratch') == []


def test_a_failed_variant_is_dropped_and_named(tmp_path):
    script = job(tmp_path, {'a': 'sh -c "echo oops >&2; exit 3"',
                            'b': 'true'}, samples=3)
    proc, recs = run(tmp_path, script)
    assert proc.returncode == 0
    assert recs['failed'] == ['a: sh exited with code 3: sh -c "echo oops '
                              '>&2; exit 3"']
    assert [s.split()[0] for s in recs['sample']] == ['b:'] * 3
    assert (tmp_path / 'stderr-a-1.txt').read_text() == 'oops\n'
    assert not (tmp_path / 'stderr-a-2.txt').exists()


def test_a_stale_output_never_passes_for_a_sample(tmp_path):
    # The command writes no out.txt: the one left by an earlier run must not
    # be kept as this sample's
    (tmp_path / 'out.txt').write_text('stale\n')
    proc, _ = run(tmp_path, job(tmp_path, {'a': 'true'}, samples=1))
    assert proc.returncode == 0
    assert not (tmp_path / 'out-a-1.txt').exists()


def test_a_missing_tool_ends_the_job_with_a_record(tmp_path):
    proc, recs = run(tmp_path, job(tmp_path, {'a': 'true'},
                                   tools=('sh', 'no-such-tool')))
    assert proc.returncode == 0
    assert recs['missing'] == ['no-such-tool']
    assert 'sample' not in recs and 'end' not in recs


def test_an_unsupported_variant_is_not_run(tmp_path):
    extra = ("probes[b]='false'\n"
             "probe_reasons[b]='b cannot run here'")
    proc, recs = run(tmp_path, job(tmp_path, {'a': 'true', 'b': 'true'},
                                   samples=1, extra=extra))
    assert proc.returncode == 0
    assert recs['unsupported'] == ['b: b cannot run here']
    assert recs['sample'] == ['a: 1 scratch_bytes=0']


def test_a_failed_preflight_fails_the_job(tmp_path):
    extra = ('preflight=("false --probe")\n'
             'preflight_reasons=("nothing to probe on $server_node")')
    proc, recs = run(tmp_path, job(tmp_path, {'a': 'true'}, extra=extra))
    assert proc.returncode == 1
    assert recs['failed'] == [f'nothing to probe on {os.uname().nodename}: '
                              f'false --probe']


def test_terminated_job_cleans_up(tmp_path):
    # a sleep no other process of the machine runs: pgrep finds only ours
    script = job(tmp_path, {'a': 'sleep 30.417'}, samples=1)
    proc = subprocess.Popen([BASH, str(script)], cwd=tmp_path,
                            stdout=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline and not (
            (tmp_path / 'scratch').exists()
            and os.listdir(tmp_path / 'scratch')):
        time.sleep(0.1)

    time.sleep(0.5)
    proc.send_signal(signal.SIGTERM)
    assert proc.wait(timeout=20) == 143
    assert os.listdir(tmp_path / 'scratch') == []
    assert subprocess.run(['pgrep', '-f', 'sleep 30.417'],
                          capture_output=True).returncode == 1


def _without_findmnt(tmp_path, **programs):
    '''A PATH with ``programs`` (name=path) but no findmnt: what a chroot
    without a mount of its own at / looks like to the skeleton.'''
    bin_dir = tmp_path / 'bin'
    bin_dir.mkdir()
    for name, program in programs.items():
        os.symlink(program, bin_dir / name)

    return str(bin_dir)


def _scratch_records(path, directory):
    proc = subprocess.run(
        [BASH, '-c', f'. {shlex.quote(SKELETON)}; '
                     f'fstype_of {shlex.quote(str(directory))}; '
                     f'mount_options_of {shlex.quote(str(directory))}'],
        env={'PATH': path}, capture_output=True, text=True, timeout=30)
    return proc.stdout.splitlines()


def test_scratch_records_where_findmnt_sees_no_mount(tmp_path):
    path = _without_findmnt(tmp_path, stat=shutil.which('stat'),
                            python3=sys.executable)
    fstype, options = _scratch_records(path, tmp_path)
    assert fstype.endswith(' (statfs)') and len(fstype) > len(' (statfs)')
    assert options.startswith(('rw,', 'ro,', 'rw ', 'ro '))
    assert options.endswith('(statfs flags: no mount entry is visible here)')


def test_scratch_records_say_unknown_and_why(tmp_path):
    path = _without_findmnt(tmp_path)
    fstype, options = _scratch_records(path, tmp_path)
    assert fstype == 'unknown: neither findmnt nor stat -f could tell'
    assert options == (f'unknown: no mount of {tmp_path} is visible here '
                       f'(findmnt found none: a chroot?) and python3 is '
                       f'missing')


def test_scratch_records_from_findmnt(tmp_path):
    if not shutil.which('findmnt'):
        pytest.skip('findmnt is not installed (util-linux)')

    expected = subprocess.run(['findmnt', '-n', '-o', 'FSTYPE,OPTIONS',
                               '--target', str(tmp_path)],
                              capture_output=True, text=True).stdout.split()
    if not expected:
        pytest.skip('findmnt sees no mount here (a chroot): the tests above '
                    'cover what the records say then')

    fstype, options = _scratch_records(os.environ['PATH'], tmp_path)
    assert [fstype, options] == expected


def header_inputs():
    '''The inputs the skeleton's header describes, in its order: the
    names of its ``#   name  description`` entries.'''
    with open(SKELETON) as fp:
        header = fp.read().split('\n\n', 1)[0]
    return re.findall(r'^#   (\w+)(?:\s|$)', header, re.M)


def test_the_header_describes_every_input_in_order():
    assert header_inputs() == [name for name, _, _ in skeleton.INPUTS]


def test_the_skeleton_sets_the_default_of_every_optional_input():
    # A job script leaves out every input at its default: the skeleton
    # must declare each one itself, as skeleton.INPUTS says
    declared = {'literal': '--', 'expanded': '--', 'array': '-a',
                'expanded_array': '-a', 'by_variant': '-A'}
    optional = [(name, kind, default)
                for name, kind, default in skeleton.INPUTS
                if default is not None]
    names = ' '.join(name for name, _, _ in optional)
    proc = subprocess.run(
        [BASH, '-c', f'. {shlex.quote(SKELETON)}; declare -p {names}'],
        capture_output=True, text=True, timeout=30)
    assert proc.returncode == 0, proc.stderr
    wanted = [f'declare {declared[kind]} {name}='
              + ('()' if kind in ('array', 'expanded_array', 'by_variant')
                 else f'"{default}"')
              for name, kind, default in optional]
    assert proc.stdout.splitlines() == wanted


def test_an_unknown_or_missing_input_is_refused():
    with pytest.raises(ValueError, match=r"unknown \['sample'\], missing "
                       r"\['commands', 'job_name', 'samples', 'tool', "
                       r"'tools', 'variants'\]"):
        skeleton.job_lines({'sample': 1})


def test_a_server_left_by_a_failed_client_is_stopped_with_its_children(
        tmp_path):
    '''A client that fails at once (fabtests' yield where the provider
    refuses it) leaves its server waiting: after 10 s it is stopped, with
    what it started, before the next sample (it would hold its port).'''
    lines = skeleton.job_lines({
        'tool': 'sh', 'job_name': 'skeleton_test', 'samples': 1,
        'server_start_s': 1, 'client_timeout_s': 5, 'tools': ['sh'],
        'variants': ['a', 'b'], 'outputs': ['out.txt'],
        'lock_file': private_lock(tmp_path),
        'servers': {'a': 'sh -c "sleep 29.5; true"'},
        'commands': {'a': 'false',
                     'b': 'sh -c "pgrep -f \'slee[p] 29.5\' > out.txt; true"'},
    }, source=SKELETON)
    script = tmp_path / 'job.sh'
    script.write_text('\n'.join([*lines, 'rounds_run', '']))
    proc, recs = run(tmp_path, script)
    assert proc.returncode == 0, proc.stderr
    assert recs['failed'] == ['a: sh exited with code 1: false']
    assert recs['sample'] == ['b: 1 scratch_bytes=0']
    assert (tmp_path / 'out-b-1.txt').read_text() == ''


def test_a_warmup_round_runs_round_robin_and_is_not_counted(tmp_path):
    '''``warmup_rounds`` leading rounds of every variant, round-robin like
    the samples: recorded as warm-up, their files kept under names no
    reader takes for a sample, and the samples numbered from 1 after
    them; a variant that fails its warm-up fails.'''
    # each run appends its variant to order.txt and writes which run of
    # the variant it is
    (tmp_path / 'count.sh').write_text(
        'echo "$1" >> order.txt\n'
        'echo "$1$(grep -c "$1" order.txt)" > out.txt\n')
    lines = skeleton.job_lines({
        'tool': 'sh', 'job_name': 'skeleton_test', 'samples': 2,
        'warmup_rounds': 1, 'tools': ['sh'], 'variants': ['a', 'b', 'c'],
        'outputs': ['out.txt'], 'lock_file': private_lock(tmp_path),
        'commands': {'a': 'sh count.sh a', 'b': 'sh count.sh b',
                     'c': 'sh -c "echo c >> order.txt; exit 4"'},
    }, source=SKELETON)
    assert 'warmup_rounds=1' in lines
    script = tmp_path / 'job.sh'
    script.write_text('\n'.join([*lines, 'rounds_run', '']))
    proc, recs = run(tmp_path, script)
    assert proc.returncode == 0, proc.stderr
    assert recs['warmup'] == ['a: 1', 'b: 1']
    assert recs['failed'] == ['c: sh exited with code 4: sh -c "echo c >> '
                              'order.txt; exit 4"']
    assert recs['sample'] == ['a: 1 scratch_bytes=0', 'b: 1 scratch_bytes=0',
                              'a: 2 scratch_bytes=0', 'b: 2 scratch_bytes=0']
    # the warm-up ran first, every variant once; c failed it and ran no more
    assert (tmp_path / 'order.txt').read_text().split() == \
        ['a', 'b', 'c', 'a', 'b', 'a', 'b']
    for variant in 'ab':
        assert (tmp_path / f'out-{variant}-warmup1.txt').read_text() == \
            f'{variant}1\n'
        for sample in (1, 2):
            assert (tmp_path / f'out-{variant}-{sample}.txt').read_text() \
                == f'{variant}{sample + 1}\n'
    stdout = proc.stdout
    assert stdout.index('microbench: warmup: b: 1') < \
        stdout.index('microbench: sample: a: 1')
