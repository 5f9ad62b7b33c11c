'''End to end: the real fio, through ReFrame, on the local default.

One run of every storage check in the quick mode, then the faults: a
missing tool, a fio error, O_DIRECT rejected by the file system, and the
builtin generic system without any configuration.
'''

import glob
import os
import shutil
import socket
import subprocess

import pytest

import project
import perflog
from microbench import references
from microbench.suite import gap as gap_module
from microbench.suite import coldstart, records, stats
from microbench.verdicts import figures

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(shutil.which('fio') is None,
                       reason='fio is not installed (apt-get install fio)'),
]


def job_records(tmp):
    '''{test name: records} of every job output of a run: in the output
    directory, or in the stage directory ReFrame keeps of a rounds fixture
    one of whose variants was skipped (fio_cache_flags' dontcache with a
    fio older than 3.40)'''
    out = {}
    for top in ('output', 'stage'):
        for path in glob.glob(str(tmp / top / '*' / '*' / '*' / '*' /
                                  'rfm_job.out')):
            with open(path) as fp:
                out.setdefault(os.path.basename(os.path.dirname(path)),
                               records.parse(fp.read()))

    return out


def assert_never_side_by_side(tmp):
    windows = sorted((float(r['start'][0]), float(r['end'][0]))
                     for r in job_records(tmp).values() if 'end' in r)
    assert len(windows) >= 2
    for (_, end), (start, _) in zip(windows, windows[1:]):
        assert start >= end, f'two benchmarks overlapped: {windows}'


@pytest.fixture(scope='module')
def quick(tmp_path_factory):
    tmp = tmp_path_factory.mktemp('quick')
    (tmp / 'scratch').mkdir()
    # The three checks of the paper's fio runs (the field's later ones,
    # fio_data_reduction and fio_completion_polling, have their own tests)
    proc = project.run_checks(tmp, '--mode', 'quick', '-n',
               '^fio_(cache_flags|fallocate|time_based_overwrite)',
               '-S', f'scratch_dir={tmp}/scratch', *project.darshan_option())
    return tmp, proc, perflog.load(str(tmp / 'perflogs'))


def test_every_check_runs_and_holds(quick):
    _, proc, _ = quick
    # 3 rounds jobs; fio_cache_flags' dontcache and its gap run only with
    # fio 3.40 or later (MICROBENCH_FIO_BINDIR in test_e2e_field_pitfalls.py)
    found = project.assert_ran(proc)
    assert len(found) == 16
    assert ('Ran 14/16 test case(s)' in proc.stdout
            or 'Ran 16/16 test case(s)' in proc.stdout)


def test_perflog_records_what_ran(quick):
    tmp, _, frame = quick
    version = subprocess.run(['fio', '--version'], capture_output=True,
                             text=True).stdout.strip()
    fstype = subprocess.run(['findmnt', '-n', '-o', 'FSTYPE', '--target',
                             str(tmp / 'scratch')],
                            capture_output=True, text=True).stdout.strip()
    if not fstype:
        # No mount visible (a chroot): the type statfs gives
        fstype = subprocess.run(
            ['stat', '-f', '-c', '%T', str(tmp / 'scratch')],
            capture_output=True, text=True).stdout.strip()
        fstype += ' (statfs)'
    # The rounds jobs are logged too, without figures
    rows = frame[(frame['measures'] != 'gap') & (frame['perf_var'] != 'null')]
    # 8 variants (9 where fio runs dontcache) x 4 figures (and Darshan's
    # overwrite factor, with Darshan)
    variants = 8 + ('fio_cache_flags %mode=dontcache' in set(rows['name']))
    assert len(rows) == variants * (5 if project.DARSHAN else 4)
    assert set(rows['system']) == {'local'}
    assert set(rows['tool_version']) == {version}
    assert set(rows['node']) == {socket.gethostname()}
    assert set(rows['scratch_fstype']) == {fstype}
    assert all(rows['scratch_mount_options'].str.contains('rw'))
    assert all(rows['samples'] == 3)
    # The cold-start witness: every figure's rounds judged by its rule
    assert all(rows['warmup_rounds'] == 0)
    for _, row in rows.iterrows():
        rounds = figures.parse_samples(row['figure_samples'])
        if row['perf_var'] in rounds:
            words = coldstart.judge(rounds[row['perf_var']],
                                    row['perf_unit'])
            flags = figures.cold_starts(row['cold_start'])
            assert flags.get(row['perf_var'], '') == words
    # No Spack on the local default: the benchmarks are the system's
    assert set(rows['spack_env']) == {'system'}
    assert set(rows['spack_spec']) == {'system'}
    assert all(rows['command_line'].str.startswith('fio --name='))
    assert all(rows['command_line'].str.contains(
        f'--directory={tmp}/scratch/' '|--filename=' f'{tmp}/scratch/'))
    for _, row in rows[rows['perf_var'] == 'write_median_mib_s'].iterrows():
        samples = [float(v) for v in row['sample_values'].split(',')]
        assert len(samples) == 3
        assert min(samples) <= float(row['perf_value']) <= max(samples)
        assert row['perf_unit'] == 'MiB/s'


@pytest.mark.parametrize('name,gap', [
    ('fio_cache_flags_gap', 'buffered_over_direct'),
    ('fio_fallocate_gap', 'preallocated_over_none'),
    ('fio_time_based_overwrite_gap', 'overwrite_over_baseline'),
])
def test_gap_directions_are_checked(quick, name, gap):
    '''Each gap is held to its direction reference (above 1): passed
    where the machine gave a gap above 1, failed where not (a busy
    clean-clone CI once gave the overwrite gap 0.68: the machine's answer,
    which the check must say, not the test assume).'''
    _, _, frame = quick
    row = project.figure(frame, name, gap)
    assert float(row['perf_ref']) == 1.0       # the direction reference
    assert row['perf_result'] == ('pass' if float(row['perf_value']) > 1
                                  else 'fail')


def test_witnesses(quick):
    _, _, frame = quick
    default = project.figure(frame, 'fio_fallocate %fallocate=default',
                      'write_median_mib_s')
    none = project.figure(frame, 'fio_fallocate %fallocate=none',
                   'write_median_mib_s')
    assert default['witness'].startswith('1 fallocate() calls in strace')
    assert none['witness'].startswith('0 fallocate() calls in strace')
    small = project.figure(frame, 'fio_time_based_overwrite %file=small',
                    'overwrite_factor')
    large = project.figure(frame, 'fio_time_based_overwrite %file=large',
                    'overwrite_factor')
    assert float(small['perf_value']) > 1
    assert float(large['perf_value']) < 1


def test_darshan_witness(quick):
    '''With a Darshan runtime (MICROBENCH_DARSHAN), every variant's short
    sample ran under it and its claims held; without one, the witness says
    it did not run and the checks passed anyway.  Never in a sample.'''
    tmp, _, frame = quick
    figures = frame[(frame['perf_var'] != 'null')
                    & (frame['measures'] != 'gap')]
    rounds = [r for r in job_records(tmp).values() if 'node' in r]
    assert len(rounds) == 3
    for round_records in rounds:
        assert round_records['preload'] == ['none']
        assert not any('LD_PRELOAD' in command
                       for command in round_records.get('command', []))

    if not project.DARSHAN:
        assert all(figures['darshan_witness'].str.startswith(
            'not run: no Darshan runtime (nompi) among: ')), figures[
            'darshan_witness']
        return

    assert all(os.path.exists(log) for logs in figures['darshan_logs']
               for log in logs.split())
    small = project.figure(frame, 'fio_time_based_overwrite %file=small',
                         'darshan_overwrite_factor')
    large = project.figure(frame, 'fio_time_based_overwrite %file=large',
                         'darshan_overwrite_factor')
    assert float(small['perf_value']) > 1 >= float(large['perf_value'])
    both = project.figure(frame, 'fio_cache_flags %mode=both',
                        'write_median_mib_s')
    assert '16 files, 16 logs' in both['darshan_witness']
    assert 'not aligned: 0 in file, 0 in memory' in both['darshan_witness']
    log = project.figure(frame, 'fio_fallocate %fallocate=none',
                       'write_median_mib_s')
    assert 'access sizes 32768 B x ' in log['darshan_witness']
    assert '(100.0 % of accesses)' in log['darshan_witness']


def test_scratch_files_are_removed(quick):
    tmp, _, _ = quick
    assert os.listdir(tmp / 'scratch') == []


def test_benchmarks_never_ran_side_by_side(quick):
    tmp, _, _ = quick
    assert_never_side_by_side(tmp)


def test_missing_fio_is_a_skip(tmp_path):
    empty = tmp_path / 'empty'
    empty.mkdir()
    proc = project.run_checks(
        tmp_path, '--mode', 'quick', '-n', 'fio_fallocate%fallocate=none',
        '-S', f'fio_fallocate_rounds.fio_bindir={empty}')
    project.assert_ran(proc)
    assert 'SKIP' in proc.stdout
    assert f'[fio not found in -S fio_bindir={empty} on ' in proc.stdout
    assert 'Traceback' not in proc.stdout + proc.stderr


def test_fio_error_names_command_and_exit_code(tmp_path):
    (tmp_path / 'scratch').mkdir()
    proc = project.run_checks(tmp_path, '--mode', 'quick',
               '-n', 'fio_time_based_overwrite%file=large',
               '-S', 'iodepth=0', '-S', f'scratch_dir={tmp_path}/scratch')
    assert proc.returncode != 0
    assert ('fio exited with code 1: fio '
            '--name=fio_time_based_overwrite_rounds' in proc.stdout)
    assert '--iodepth=0' in proc.stdout
    assert 'fio said: fio: failed parsing iodepth=0' in proc.stdout
    assert os.listdir(tmp_path / 'scratch') == []


def test_figure_above_a_ceiling_fails(tmp_path):
    # The suite's configuration, with a storage write ceiling of 1 MiB/s
    # declared on the local partition
    config = project.local_config(tmp_path,
                                {'ceilings': {'storage_write_mib_s': 1}})
    proc = project.run_checks(
        tmp_path, '--mode', 'quick', '-n', 'fio_fallocate%fallocate=none',
        '-S', 'samples=1', env={'RFM_CONFIG_FILES': str(config)})
    assert proc.returncode != 0
    assert ('exceeds the storage write ceiling of local:default (1 MiB/s): '
            'a cache effect or a broken measurement') in proc.stdout


def test_a_variant_that_fails_its_reference_keeps_its_gap(tmp_path):
    '''An impossible reference for fio_fallocate's ``none`` (the user's
    references file, as ``microbench baseline`` writes one): the variant
    fails in its performance stage, its gap is reported all the same,
    computed from the same samples, with its records as ever.'''
    (tmp_path / 'scratch').mkdir()
    user = tmp_path / 'references.yaml'
    user.write_text(references.set_entry(
        '', ['fio_fallocate', 'local:default', 'none', 'write_median_mib_s'],
        [1000000, -0.1, 0.1, 'MiB/s']))
    proc = project.run_checks(
        tmp_path, '--mode', 'quick', '-n', '^fio_fallocate',
        '-S', f'scratch_dir={tmp_path}/scratch',
        env={'MICROBENCH_REFERENCES': str(user)})
    assert proc.returncode == 1, proc.stdout[-3000:]
    assert 'Ran 4/4 test case(s)' in proc.stdout
    assert '(1 failure(s), 0 expected failure(s), 0 skipped' in proc.stdout
    assert 'Traceback' not in proc.stdout + proc.stderr
    frame = perflog.load(str(tmp_path / 'perflogs'))
    default, none = (project.figure(frame, f'fio_fallocate %fallocate={v}',
                                    'write_median_mib_s')
                     for v in ('default', 'none'))
    assert none['perf_result'] == 'fail'
    assert float(none['perf_ref']) == 1000000
    gap = project.figure(frame, 'fio_fallocate_gap', 'preallocated_over_none')
    assert gap['perf_result'] in ('pass', 'fail')
    assert float(gap['perf_value']) == pytest.approx(
        float(default['perf_value']) / float(none['perf_value']))
    assert gap['sample_values'] == (f'default: {default["sample_values"]} '
                                    f'; none: {none["sample_values"]}')
    assert gap['command_line'] == (f'default: {default["command_line"]} ; '
                                   f'none: {none["command_line"]}')
    assert gap['node'] == none['node'] and gap['samples'] == 3
    # Its ratio per round, and what the rule of a gap too spread to tell
    # says of these samples
    samples = [stats.Samples([float(v) for v in row['sample_values'].split(
        ',')], 'MiB/s') for row in (default, none)]
    ratios = figures.parse_samples(gap['figure_samples'])
    assert ratios['preallocated_over_none'] == pytest.approx(
        stats.round_ratios(*samples).values, rel=1e-5)
    unclear = stats.too_spread(*samples)
    assert gap['too_spread'] == ('' if unclear is None else
                                 gap_module.spread_record(
                                     'preallocated_over_none', unclear))


def test_a_variant_that_fails_its_sanity_skips_its_gap(tmp_path):
    '''A storage write ceiling of 1 MiB/s on the local partition: both
    variants fail their sanity (their samples cannot be storage), and the
    gap is skipped, saying which input and why.'''
    config = project.local_config(tmp_path,
                                  {'ceilings': {'storage_write_mib_s': 1}})
    proc = project.run_checks(
        tmp_path, '--mode', 'quick', '-n', '^fio_fallocate',
        '-S', 'samples=1', env={'RFM_CONFIG_FILES': str(config)})
    assert proc.returncode == 1
    assert '(2 failure(s), 0 expected failure(s), 1 skipped' in proc.stdout
    skip, = (line for line in proc.stdout.splitlines()
             if 'SKIP' in line and 'fio_fallocate_gap' in line)
    assert ('[fio_fallocate %fallocate=default failed its sanity, so no '
            'gap of it is computed: ') in skip
    assert 'exceeds the storage write ceiling of local:default' in skip
    assert 'Traceback' not in proc.stdout + proc.stderr


def test_odirect_rejected_by_the_file_system(tmp_path, ramfs):
    # No Darshan witness (one found by darshan-config on PATH would fail
    # first, on its own sample); the page cache witness's own short sample
    # is the first to write with O_DIRECT, and fails so
    proc = project.run_checks(
        tmp_path, '--mode', 'quick', '-n', 'fio_cache_flags%mode=direct',
        '-S', f'scratch_dir={ramfs}', '-S', 'samples=1',
        '-S', 'darshan=off')
    assert proc.returncode != 0
    # The rounds job and the selected variant; buffered and sync ran fine
    assert 'Ran 2/2 test case(s)' in proc.stdout
    assert ('the witness exited with code 16: fio '
            '--name=fio_cache_flags_rounds') in proc.stdout
    assert ('O_DIRECT (direct=1) was rejected by the scratch file system '
            f'ramfs at {ramfs}/') in proc.stdout
    assert 'Traceback' not in proc.stdout
    assert os.listdir(ramfs) == []


def test_generic_system_without_configuration(tmp_path):
    proc = project.run_checks(
        tmp_path, '-n', 'fio_fallocate', '-n', 'fio_time_based',
        '-S', 'runtime_s=2', '-S', 'witness_runtime_s=1',
        '-S', 'file_size=8g', '-S', 'large_file_size=8g',
        '-S', 'small_file_size=16m', '-S', 'samples=2', config=False)
    project.assert_ran(proc)
    assert '@generic:default+builtin' in proc.stdout
    assert 'Ran 8/8 test case(s)' in proc.stdout
    # ReFrame's builtin perflog format: one row per run, every loggable
    # attribute as a column; no reference anywhere (reference 0)
    frame = perflog.load(str(tmp_path / 'perflogs'))
    assert set(frame['system']) == {'generic'}
    variants = frame[frame['variant'].isin(['default', 'none', 'large',
                                            'small'])]
    assert len(variants) == 4
    assert all(variants['write_median_mib_s_ref'].astype(float) == 0)
    assert all(variants['samples'].astype(int) == 2)
    assert all(variants['tool_version'].str.startswith('fio-'))
    gap = frame[frame['variant'] == 'gap']
    assert all(gap['preallocated_over_none_ref'].dropna().astype(float) == 0)
    # The scratch default: below the stage directory of the rounds job
    stage = str(tmp_path / 'stage' / 'generic' / 'default' / 'builtin')
    assert all(variants['scratch'].str.startswith(stage))
    # ReFrame's generic system starts up to 8 jobs at once; the node lock
    # still kept the two benchmark jobs apart
    assert_never_side_by_side(tmp_path)
