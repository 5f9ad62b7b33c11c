'''End to end: the pitfalls the field found after the paper, through
ReFrame on the local default, with the real tools.

- fio_data_reduction on a btrfs that compresses every write (zstd), made
  by the test (root and mkfs.btrfs; skipped saying why without them), and
  on the machine's own file system; elbencho_data_reduction too where
  elbencho is installed (MICROBENCH_ELBENCHO_BINDIR);
- fio_completion_polling: interrupts, a submission-queue poller, and
  hipri where the scratch's device has poll queues (skipped, naming the
  device, where it has none);
- fio_cache_flags' dontcache with fio 3.40 or later (MICROBENCH_FIO_BINDIR,
  its directory), and its skip with an older fio;
- fabtests_completion's yield (MICROBENCH_FABTESTS_BINDIR): measured where
  the provider takes FI_WAIT_YIELD, skipped saying so where it does not.
'''

import os
import re
import shutil
import subprocess

import pytest

import perflog
import processes
import project

ELBENCHO_BINDIR = os.environ.get('MICROBENCH_ELBENCHO_BINDIR', '')
FABTESTS_BINDIR = os.environ.get('MICROBENCH_FABTESTS_BINDIR', '')
#: A fio of 3.40 or later (RWF_DONTCACHE); empty: none
FIO_BINDIR = os.environ.get('MICROBENCH_FIO_BINDIR', '')
FIO = os.path.join(FIO_BINDIR, 'fio') if FIO_BINDIR else ''

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(shutil.which('fio') is None,
                       reason='fio is not installed (apt-get install fio)'),
]


def fio_version(fio):
    said = subprocess.run([fio, '--version'], capture_output=True,
                          text=True).stdout.strip()
    found = re.match(r'fio-(\d+)\.(\d+)', said)
    return tuple(map(int, found.groups())) if found else (0, 0)


def run(tmp, *args, env=None):
    return project.run_checks(tmp, '--mode', 'quick', *args, env=env)


def share(witness):
    '''The share in % of a data-reduction witness's record.'''
    return float(re.search(r'stored ([\d.]+) % of', witness)[1])


def test_data_reduction_on_a_compressing_btrfs(tmp_path, btrfs):
    # The partition declares what its scratch reduces: the gap's direction
    # and the zeros' claim are checked
    config = project.local_config(tmp_path, {'reduces_data': ['compression']})
    proc = run(tmp_path, '-n', '^fio_data_reduction', '-S', 'samples=2',
               '-S', f'scratch_dir={btrfs}',
               env={'RFM_CONFIG_FILES': str(config)})
    project.assert_ran(proc)
    frame = perflog.load(str(tmp_path / 'perflogs'))
    zeros = project.figure(frame, 'fio_data_reduction %fill=zeros',
                         'write_median_mib_s')
    whole = project.figure(frame, 'fio_data_reduction %fill=incompressible',
                         'write_median_mib_s')
    assert zeros['scratch_fstype'] == 'btrfs'
    assert 'compress-force=zstd' in zeros['scratch_mount_options']
    assert zeros['witness'].startswith('btrfs stored ')
    assert '(compsize: st_blocks does not show btrfs compression)' in \
        zeros['witness']
    assert share(zeros['witness']) <= 50
    assert share(whole['witness']) >= 95
    assert 'bandwidth of reduced data' in zeros['note']
    assert '--zero_buffers' in zeros['command_line']
    gap = project.figure(frame, 'fio_data_reduction_gap',
                       'zeros_over_incompressible')
    assert float(gap['perf_value']) > 1
    assert os.listdir(btrfs) == []


def test_data_reduction_on_a_file_system_that_does_not_reduce(tmp_path):
    (tmp_path / 'scratch').mkdir()
    proc = run(tmp_path, '-n', '^fio_data_reduction', '-S', 'samples=2',
               '-S', f'scratch_dir={tmp_path}/scratch')
    project.assert_ran(proc)
    frame = perflog.load(str(tmp_path / 'perflogs'))
    zeros = project.figure(frame, 'fio_data_reduction %fill=zeros',
                         'write_median_mib_s')
    if zeros['scratch_fstype'] in ('btrfs', 'zfs'):
        pytest.skip(f'the stage directory is on {zeros["scratch_fstype"]}, '
                    f'which may compress')

    # st_blocks: every byte stored; the gap is reported, not directed
    assert '(st_blocks)' in zeros['witness']
    assert share(zeros['witness']) >= 95
    assert 'reduced' not in zeros['note']
    gap = project.figure(frame, 'fio_data_reduction_gap',
                       'zeros_over_incompressible')
    assert float(gap['perf_value']) > 0
    assert os.listdir(tmp_path / 'scratch') == []


@pytest.mark.skipif(not project.installed('elbencho', ELBENCHO_BINDIR),
                    reason='elbencho is not installed (set '
                           'MICROBENCH_ELBENCHO_BINDIR)')
def test_elbencho_data_reduction_on_a_compressing_btrfs(tmp_path, btrfs):
    config = project.local_config(tmp_path, {'reduces_data': ['compression']})
    proc = run(tmp_path, '-n', '^elbencho_data_reduction',
               '-S', f'elbencho_bindir={ELBENCHO_BINDIR}',
               '-S', f'scratch_dir={btrfs}',
               env={'RFM_CONFIG_FILES': str(config)})
    project.assert_ran(proc)
    frame = perflog.load(str(tmp_path / 'perflogs'))
    witness = {blocks: project.figure(
        frame, f'elbencho_data_reduction %blocks={blocks}',
        'write_median_mib_s')['witness'] for blocks in ('same', 'half',
                                                        'random')}
    # compression, no deduplication: only half of each block shrinks
    assert share(witness['half']) <= 75
    assert share(witness['same']) >= 95
    assert share(witness['random']) >= 95
    assert os.listdir(btrfs) == []


def _has_io_uring():
    engines = subprocess.run(['fio', '--enghelp'], capture_output=True,
                             text=True).stdout.split()
    return 'io_uring' in engines


@pytest.mark.skipif(not _has_io_uring(),
                    reason="this fio has no io_uring engine")
def test_completion_polling(tmp_path):
    (tmp_path / 'scratch').mkdir()
    proc = run(tmp_path, '-n', '^fio_completion_polling', '-S', 'samples=2',
               '-S', f'scratch_dir={tmp_path}/scratch')
    project.assert_ran(proc)
    frame = perflog.load(str(tmp_path / 'perflogs'))
    names = set(frame['name'])
    for variant in ('interrupt', 'sqpoll'):
        name = f'fio_completion_polling %completion={variant}'
        for figure in ('read_median_iops', 'busy_median_cores',
                       'per_core_median_iops_per_core'):
            assert float(project.figure(frame, name, figure)['perf_value']) > 0

    sqpoll = project.figure(frame, 'fio_completion_polling %completion=sqpoll',
                          'busy_median_cores')
    # A poller seen holding its core; on a saturated node (a busy CI
    # machine) the witness says it cannot tell, with the node's load
    assert (re.match(r'1 iou-sqp thread\(s\) \(iou-sqp-\d+\) held ',
                     sqpoll['witness'])
            or re.search(r'when the node was busy [\d.]+ of its \d+ cores.*'
                         r'; inconclusive: ', sqpoll['witness']))
    assert 'fio reported its jobs\' CPU as' in sqpoll['witness']
    interrupt = project.figure(
        frame, 'fio_completion_polling %completion=interrupt',
        'busy_median_cores')
    assert interrupt['witness'].startswith('0 iou-sqp thread(s) (none)')
    if 'fio_completion_polling %completion=hipri' not in names:
        assert re.search(r'hipri: the block device under the scratch \S+ is '
                         r'\S+ io_poll=0: no poll queues', proc.stdout)
    assert project.figure(frame, 'fio_completion_polling_gap',
                        'sqpoll_over_interrupt_per_core')['perf_value'] > 0
    assert os.listdir(tmp_path / 'scratch') == []


def _cache_flags(tmp_path, fio_bindir, *args):
    # 4 writers of 1 GiB: O_DIRECT does not wrap in 2 s
    return run(tmp_path, '-n', '^fio_cache_flags', '-S', 'samples=2',
               '-S', 'fio_cache_flags_rounds.numjobs=4',
               '-S', 'fio_cache_flags_rounds.file_size=1g',
               '-S', f'fio_cache_flags_rounds.fio_bindir={fio_bindir}', *args)


@pytest.mark.skipif(not FIO or fio_version(FIO) < (3, 40),
                    reason='no fio 3.40 or later (set MICROBENCH_FIO_BINDIR)')
def test_dontcache_beside_buffered_and_direct(tmp_path):
    (tmp_path / 'scratch').mkdir()
    proc = _cache_flags(tmp_path, FIO_BINDIR,
                        '-S', f'scratch_dir={tmp_path}/scratch')
    if 'RWF_DONTCACHE cannot be asked here' in proc.stdout:
        pytest.skip(f'this kernel ({os.uname().release}) or file system '
                    f'refuses RWF_DONTCACHE')

    project.assert_ran(proc)
    frame = perflog.load(str(tmp_path / 'perflogs'))

    def resident(mode):
        row = project.figure(frame, f'fio_cache_flags %mode={mode}',
                           'write_median_mib_s')
        return float(re.search(r'\(([\d.]+) %, fincore\)', row['witness'])[1])

    # O_DIRECT leaves nothing; RWF_DONTCACHE what its writeback could not
    # drop (said in the note above 10 %); buffered what fio did not drop
    # itself (invalidate=1 each time it wraps around a file)
    assert resident('direct') == 0
    assert 0 <= resident('buffered') <= 100
    dontcache = project.figure(frame, 'fio_cache_flags %mode=dontcache',
                             'write_median_mib_s')
    assert (resident('dontcache') > 10) == ('RWF_DONTCACHE left' in
                                            dontcache['note'])
    assert '--ioengine=pvsync2 --uncached=1' in dontcache['command_line']
    assert dontcache['measures'] == 'page cache'
    assert float(project.figure(frame, 'fio_cache_flags_dontcache_gap',
                              'buffered_over_dontcache')['perf_value']) > 0


@pytest.mark.skipif(fio_version('fio') >= (3, 40),
                    reason='the fio on PATH is 3.40 or later')
def test_dontcache_is_skipped_with_an_older_fio(tmp_path):
    proc = run(tmp_path, '-n', 'fio_cache_flags%mode=dontcache',
               '-S', 'samples=1', '-S', 'fio_cache_flags_rounds.numjobs=2')
    project.assert_ran(proc)
    assert ('SKIP' in proc.stdout
            and 'RWF_DONTCACHE cannot be asked here: it needs fio 3.40 or '
                'later' in proc.stdout)


@pytest.mark.skipif(not project.installed('fi_msg_pingpong', FABTESTS_BINDIR),
                    reason='fabtests are not installed (set '
                           'MICROBENCH_FABTESTS_BINDIR)')
def test_fabtests_yield_beside_the_other_completion_methods(tmp_path):
    proc = run(tmp_path, '-n', '^fabtests_completion', '-S', 'samples=1',
               '-S', f'fabtests_bindir={FABTESTS_BINDIR}')
    project.assert_ran(proc)
    frame = perflog.load(str(tmp_path / 'perflogs'))
    for method in ('spin', 'fd', 'sread'):
        assert float(project.figure(
            frame, f'fabtests_completion %completion={method}',
            'rtt_median_us')['perf_value']) > 0

    if 'fabtests_completion %completion=yield' in set(frame['name']):
        assert float(project.figure(frame, 'fabtests_completion_yield_gap',
                                  'yield_over_spin')['perf_value']) > 0
    else:
        assert ('refuses this completion method: the client\'s '
                'fi_cq_open() failed' in proc.stdout)
    # (the Slurm test cluster's jobs run beside these tests: not theirs)
    assert processes.running('fi_msg_', processes.LOCAL) == []
