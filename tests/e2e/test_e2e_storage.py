'''End to end: the IOR, mdtest, elbencho and Lustre checks on the local
default.

IOR/mdtest and elbencho are not packaged for Debian, and this machine has no
Lustre: without them each check must be skipped with a reason.  Where they
are installed (on PATH, or in MICROBENCH_IOR_BINDIR and
MICROBENCH_ELBENCHO_BINDIR) the checks run for real in the quick mode (MPICH
from apt, two ranks), and so do their faults.
'''

import os
import shutil

import pytest

import project
from microbench import components, limitsfile
import perflog

IOR_BINDIR = os.environ.get('MICROBENCH_IOR_BINDIR', '')
ELBENCHO_BINDIR = os.environ.get('MICROBENCH_ELBENCHO_BINDIR', '')

pytestmark = pytest.mark.e2e


needs_ior = pytest.mark.skipif(
    not (project.installed('ior', IOR_BINDIR) and shutil.which('mpirun')),
    reason='IOR/mdtest are not installed (set MICROBENCH_IOR_BINDIR) or no '
           'mpirun'
)
needs_elbencho = pytest.mark.skipif(
    not project.installed('elbencho', ELBENCHO_BINDIR),
    reason='elbencho is not installed (set MICROBENCH_ELBENCHO_BINDIR)'
)


def run(tmp, *args):
    '''The quick mode, with a scratch directory the test can look into.'''
    (tmp / 'scratch').mkdir(exist_ok=True)
    return project.run_checks(tmp, '--mode', 'quick',
                            '-S', f'scratch_dir={tmp}/scratch', *args)


def test_missing_tools_are_skipped_with_a_reason(tmp_path):
    empty = tmp_path / 'empty'
    empty.mkdir()
    proc = run(tmp_path, '-n', 'ior_|mdtest|elbencho|lustre',
               '-S', f'ior_bindir={empty}', '-S', f'mdtest_bindir={empty}',
               '-S', f'elbencho_bindir={empty}')
    project.assert_ran(proc)
    for program in ('ior', 'mdtest', 'elbencho'):
        assert (f'[{program} not found in -S {program}_bindir={empty} on '
                in proc.stdout)

    if not shutil.which('lfs'):
        assert 'lustre_striping_rounds' in proc.stdout
        assert '[lfs not found on PATH' in proc.stdout

    assert 'Traceback' not in proc.stdout + proc.stderr


@needs_ior
def test_ior_page_cache(tmp_path):
    proc = run(tmp_path, '-n', 'ior_page_cache',
               '-S', f'ior_bindir={IOR_BINDIR}', *project.darshan_option())
    project.assert_ran(proc)
    frame = perflog.load(str(tmp_path / 'perflogs'))
    if project.DARSHAN:
        # Both ranks on one node: Darshan's DXT trace shows every rank read
        # back its own data, and the reads are IOR's transfers
        hard = project.figure(frame, 'ior_page_cache %shape=hard '
                            '%defence=reorder_fsync', 'write_median_mib_s')
        assert 'reads got data written by same rank 100.0 %' in hard[
            'darshan_witness']
        assert 'access sizes 47008 B x ' in hard['darshan_witness']
        assert 'Darshan saw 100.0 % of the bytes read' in hard['note']
        assert '; 0 fsync,' not in hard['darshan_witness']
    # One node: -C cannot help, the read is a cache figure and says why
    reorder = frame[frame['name'] ==
                    'ior_page_cache %shape=easy %defence=reorder_fsync']
    assert 'read_cache_median_mib_s' in set(reorder['perf_var'])
    assert 'read_median_mib_s' not in set(reorder['perf_var'])
    assert all(reorder['note'].str.contains('ran on one node'))
    direct = project.figure(
        frame, 'ior_page_cache %shape=easy %defence=odirect',
        'read_median_mib_s')
    assert '--posix.odirect' in direct['command_line']
    assert direct['tool_version'].startswith('IOR 4.')
    # The residency witness, on a sample split between IOR's phases: what
    # a buffered read reads back was resident before it (a cache figure,
    # saying so); an O_DIRECT write left nothing, and its read stays storage
    for defence in ('none', 'fsync'):
        read = project.figure(frame, f'ior_page_cache %shape=easy '
                              f'%defence={defence}', 'read_median_mib_s')
        assert float(read['resident_share'].split('=')[1]) > 95
        assert 'was in the page cache before it (fincore' in read['note']
        assert read['measures'] == 'page cache'
    assert direct['resident_share'] == 'read=0.0'
    assert direct['measures'] == 'storage'
    assert 'O_DIRECT: the read does not consult' in direct['witness']
    gap = project.figure(frame, 'ior_page_cache_gap',
                       'easy_read_none_over_odirect')
    assert float(gap['perf_value']) > 1 and gap['perf_result'] == 'pass'
    assert os.listdir(tmp_path / 'scratch') == []


@needs_ior
def test_mdtest_metadata(tmp_path):
    proc = run(tmp_path, '-n', 'mdtest', '-S', f'mdtest_bindir={IOR_BINDIR}')
    project.assert_ran(proc)
    frame = perflog.load(str(tmp_path / 'perflogs'))
    strided = frame[frame['name'] ==
                    'mdtest_metadata %shape=hard %stride=node']
    assert {'create_median_ops_s', 'stat_cache_median_ops_s',
            'read_cache_median_ops_s'} <= set(strided['perf_var'])
    assert '-N 1' in strided['command_line'].iloc[0]
    assert os.listdir(tmp_path / 'scratch') == []


@needs_ior
def test_ior_scaling(tmp_path):
    proc = run(tmp_path, '-n', 'ior_scaling', '-S', f'ior_bindir={IOR_BINDIR}',
               *project.darshan_option())
    project.assert_ran(proc)
    frame = perflog.load(str(tmp_path / 'perflogs'))
    peak = project.figure(frame, 'ior_scaling', 'write_peak_mib_s')
    points = [project.figure(frame, 'ior_scaling',
                             f'write_n1_t{t}_median_mib_s') for t in (1, 2)]
    assert float(peak['perf_value']) == max(float(p['perf_value'])
                                            for p in points)
    assert project.figure(frame, 'ior_scaling',
                  'write_saturation_tasks')['perf_value'] in (1, 2)
    assert 'only writes are reported' in peak['note']
    # Every point is IOR easy under IO500's rules, from the one builder:
    # -C -Q 1 -e, never -Q <tasks per node>
    commands = peak['command_line'].split(' ; ')
    assert len(commands) == 2
    for command in commands:
        assert ' -F -t 1m -b 16g -s 1 -D 2 -O stoneWallingWearOut=1 -C -Q 1 ' \
            '-e -O summaryFormat=JSON -O summaryFile=ior.json' in command
    if project.DARSHAN:
        # The witness runs the sweep's easy shape at every point; on one
        # node every rank reads back its own data, as Darshan's DXT says
        witness = peak['darshan_witness']
        for point in ('n1.t1', 'n1.t2'):
            assert (f'{point}: reads got data written by same rank '
                    f'100.0 %') in witness
        assert len(peak['darshan_logs'].split()) == 2
    assert os.listdir(tmp_path / 'scratch') == []
    # The peak as a share of this machine's measured write limit (one node)
    entry = components.in_force_here(limitsfile.load('local'), 'default',
                                     True, components.this_machine())
    if 'withheld' in entry:
        assert 'write peak' not in peak['note']
        return
    limit = entry['limits']['storage_write_mib_s']['median']
    share = 100 * float(peak['perf_value']) / limit
    assert peak['limit_name'] == ('write_peak_mib_s=storage_write_mib_s '
                                  '(measured, one node) x 1 nodes')
    assert float(peak['share_of_limit'].split('=')[1]) == pytest.approx(
        share, rel=1e-3)
    assert f'is {share:.0f} % of storage_write_mib_s' in peak['note']


@needs_ior
def test_ior_error_names_command_and_cause(tmp_path):
    proc = run(tmp_path, '-n', 'ior_page_cache%shape=easy%defence=none',
               '-S', f'ior_bindir={IOR_BINDIR}', '-S', 'samples=1',
               '-S', 'ior_page_cache_rounds.easy_block_size=1500k')
    assert proc.returncode != 0
    assert 'IOR exited with code 255: mpirun -np 2 ' in proc.stdout
    assert ('IOR said: ERROR: block size must be a multiple of transfer '
            'size') in proc.stdout
    assert os.listdir(tmp_path / 'scratch') == []


@needs_ior
def test_ior_write_that_ends_before_its_stonewall(tmp_path):
    proc = run(tmp_path, '-n', 'ior_page_cache%shape=easy%defence=none',
               '-S', f'ior_bindir={IOR_BINDIR}', '-S', 'samples=1',
               '-S', 'ior_page_cache_rounds.easy_block_size=16m')
    assert proc.returncode != 0
    assert 'the write phase ended after' in proc.stdout
    assert 'before its 2 s stonewall' in proc.stdout


@needs_ior
def test_mdtest_on_a_full_file_system(tmp_path, tiny_fs):
    proc = run(tmp_path, '-n', 'mdtest_metadata%shape=hard%stride=none',
               '-S', f'mdtest_bindir={IOR_BINDIR}', '-S', 'samples=1',
               '-S', f'scratch_dir={tiny_fs}')
    assert proc.returncode != 0
    assert 'mdtest exited with code' in proc.stdout
    assert 'No space left on device' in proc.stdout
    # Its tree is gone too
    assert os.listdir(tiny_fs) == []


@needs_elbencho
def test_elbencho_storage(tmp_path):
    proc = run(tmp_path, '-n', 'elbencho',
               '-S', f'elbencho_bindir={ELBENCHO_BINDIR}',
               '-S', 'elbencho_storage_rounds.cores=0')
    project.assert_ran(proc)
    frame = perflog.load(str(tmp_path / 'perflogs'))
    direct = project.figure(frame,
                          'elbencho_storage %io=direct %allocation=prealloc',
                          'write_median_mib_s')
    assert '--direct --preallocfile --cores 0' in direct['command_line']
    # elbencho's results say what the variant claims: O_DIRECT or not
    assert direct['witness'].startswith(
        'direct_io true in the results of all 3 samples: O_DIRECT, as the '
        'variant claims; threads bound to cores 0; read: resident in the '
        'page cache before the read: ')
    assert direct['witness'].endswith(
        '(O_DIRECT: the read does not consult the page cache)')
    assert direct['resident_share'] == 'read=0.0'
    buffered = project.figure(frame,
                            'elbencho_storage %io=buffered %allocation=grow',
                            'write_median_mib_s')
    assert buffered['witness'].startswith(
        'direct_io false in the results of all 3 samples: buffered I/O, as '
        'the variant claims; threads bound to cores 0; read: resident in the '
        'page cache before the read: ')
    # What the buffered read reads back was resident before it
    assert buffered['resident_share'] == 'read=100.0'
    assert 'was in the page cache before it (fincore' in buffered['note']
    assert direct['tool_version'].startswith('elbencho 3.')
    gap = project.figure(frame, 'elbencho_storage_gap',
                       'read_buffered_over_direct')
    assert float(gap['perf_value']) > 1 and gap['perf_result'] == 'pass'
    assert os.listdir(tmp_path / 'scratch') == []


@needs_elbencho
def test_elbencho_error_names_command_and_cause(tmp_path, ramfs):
    # The first sample that fails is the residency witness's, split
    # between elbencho's phases (its console output goes to the witness's
    # standard error, which the failure quotes); no Darshan witness (one
    # found by darshan-config on PATH would fail first, on its own sample)
    proc = run(tmp_path, '-n', 'elbencho_storage%io=direct%allocation=grow',
               '-S', f'elbencho_bindir={ELBENCHO_BINDIR}',
               '-S', 'samples=1', '-S', f'scratch_dir={ramfs}',
               '-S', 'darshan=off')
    assert proc.returncode != 0
    program = os.path.join(ELBENCHO_BINDIR, 'elbencho')
    assert (f'the witness exited with code 1: {program} -w -t 2 -b 1m -s 1g '
            f'--direct {ramfs}/') in proc.stdout
    assert ('elbencho said: ERROR: Unable to open benchmark path: '
            f'{ramfs}/') in proc.stdout
    assert 'SysErr: Invalid argument' in proc.stdout
    assert os.listdir(ramfs) == []
