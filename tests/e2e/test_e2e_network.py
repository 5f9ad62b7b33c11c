'''End to end: the network checks through ReFrame on the local default.

OSU and fabtests are not packaged for Debian: without them every network
check must be skipped with a reason.  Where they are installed (on PATH, or
in MICROBENCH_OSU_BINDIR and MICROBENCH_FABTESTS_BINDIR) the checks run for
real, and so do the fabtests faults: a provider that does not exist, a server
that never comes up, a client that times out.
'''

import os
import shutil
import socket
import time

import pytest

import project
import perflog
import processes

OSU_BINDIR = os.environ.get('MICROBENCH_OSU_BINDIR', '')
FABTESTS_BINDIR = os.environ.get('MICROBENCH_FABTESTS_BINDIR', '')

pytestmark = pytest.mark.e2e


needs_osu = pytest.mark.skipif(
    not (project.installed('osu_bw', OSU_BINDIR) and shutil.which('mpirun')),
    reason='OSU is not installed (set MICROBENCH_OSU_BINDIR) or no mpirun'
)
needs_fabtests = pytest.mark.skipif(
    not project.installed('fi_msg_pingpong', FABTESTS_BINDIR),
    reason='fabtests are not installed (set MICROBENCH_FABTESTS_BINDIR)'
)


def fabtests_processes():
    '''fabtests' programs still running that a run here started (not the
    Slurm test cluster's jobs, which run beside these tests)'''
    return processes.running('fi_msg_', processes.LOCAL)


def test_missing_tools_are_skipped_with_a_reason(tmp_path):
    empty = tmp_path / 'empty'
    empty.mkdir()
    # ^: component_limits_network runs OSU too (skipped on one node)
    proc = project.run_checks(tmp_path, '-n', '^(osu|fabtests)',
               '-S', f'osu_bindir={empty}', '-S', f'fabtests_bindir={empty}')
    project.assert_ran(proc)
    assert 'Ran 0/17 test case(s)' in proc.stdout
    assert f'[osu_bw not found in -S osu_bindir={empty} on ' in proc.stdout
    for program in ('fi_msg_pingpong', 'fi_msg_bw'):
        assert (f'[{program} not found in -S fabtests_bindir={empty} on '
                in proc.stdout)
    assert 'Traceback' not in proc.stdout + proc.stderr


@needs_osu
def test_osu_buffer_reuse(tmp_path):
    proc = project.run_checks(tmp_path, '-n', '^osu',
                            '-S', f'osu_bindir={OSU_BINDIR}')
    project.assert_ran(proc)
    frame = perflog.load(str(tmp_path / 'perflogs'))
    single = project.figure(
        frame, 'osu_buffer_reuse %benchmark=osu_bw %buffer=single',
        'bandwidth_median_mib_s')
    assert single['perf_unit'] == 'MiB/s'
    assert single['tool_version'].startswith('OSU v')
    assert 'mpirun -np 2 ' in single['command_line']
    if 'no -b/--buffer-num option (OSU before 5.7.1)' in proc.stdout:
        assert 'Ran 3/6 test case(s)' in proc.stdout
        return

    assert 'Ran 6/6 test case(s)' in proc.stdout
    multiple = project.figure(frame,
                      'osu_buffer_reuse %benchmark=osu_bw %buffer=multiple',
                      'bandwidth_median_mib_s')
    assert '-b multiple' in multiple['command_line']
    gap = project.figure(frame, 'osu_buffer_reuse_gap', 'multiple_over_single')
    assert float(gap['perf_value']) < 1
    assert gap['perf_result'] == 'pass'


@needs_osu
def test_network_figure_beyond_the_nic_fails(tmp_path):
    # The suite's configuration, with a NIC of 1 MiB/s and a wire latency
    # of 1000 us declared on the local partition: loopback beats both
    config = project.local_config(tmp_path, {
        'ceilings': {'network_bandwidth_mib_s': 1},
        'floors': {'network_latency_us': 1000},
    })
    proc = project.run_checks(
        tmp_path,
        '-n', 'osu_buffer_reuse%benchmark=osu_bw%buffer=single',
        '-n', 'osu_buffer_reuse%benchmark=osu_latency%buffer=single',
        '-S', f'osu_bindir={OSU_BINDIR}',
        '-S', 'samples=1',
        env={'RFM_CONFIG_FILES': str(config)})
    assert proc.returncode != 0
    assert ('exceeds the network bandwidth ceiling of local:default '
            '(1 MiB/s): a shared-memory path or a broken measurement, not '
            'the network') in proc.stdout
    assert ('is below the network latency floor of local:default (1000 us)'
            in proc.stdout)


@needs_fabtests
def test_fabtests_checks(tmp_path):
    proc = project.run_checks(tmp_path, '-n', 'fabtests',
               '-S', f'fabtests_bindir={FABTESTS_BINDIR}')
    project.assert_ran(proc)
    # yield and its gap where the provider takes FI_WAIT_YIELD (tcp does
    # not: both skipped, saying so; test_e2e_field_pitfalls.py)
    assert ('Ran 9/11 test case(s)' in proc.stdout
            or 'Ran 11/11 test case(s)' in proc.stdout)
    frame = perflog.load(str(tmp_path / 'perflogs'))
    spin = project.figure(frame, 'fabtests_completion %completion=spin',
                  'rtt_median_us')
    cpu = project.figure(frame, 'fabtests_completion %completion=fd',
                 'client_cpu_percent')
    assert float(spin['perf_value']) > 0
    assert 0 < float(cpu['perf_value']) <= 100 * os.cpu_count()
    if os.cpu_count() <= 2:
        assert 'busy-polling processes on the 2 cores' in spin['note']
        assert 'not the paper\'s effect' in proc.stdout

    for variant in ('bound', 'unbound'):
        row = project.figure(frame, f'fabtests_binding %binding={variant}',
                     'bandwidth_median_mib_s')
        assert row['witness'].startswith('server CPUs ')
        assert ('taskset -c' in row['command_line']) == (variant == 'bound')

    assert fabtests_processes() == []


@needs_fabtests
def test_provider_that_does_not_exist(tmp_path):
    proc = project.run_checks(
        tmp_path, '-n', 'fabtests_completion%completion=fd',
        '-S', f'fabtests_bindir={FABTESTS_BINDIR}',
        '-S', 'provider=nosuchprov', '-S', 'samples=1')
    assert proc.returncode != 0
    assert ('provider nosuchprov does not exist on '
            f'{socket.gethostname()}: fi_info found no such provider: '
            'fi_info -p nosuchprov') in proc.stdout
    assert fabtests_processes() == []


@needs_fabtests
def test_server_that_never_comes_up(tmp_path):
    # Another program holds the server's port
    holder = socket.socket()
    holder.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    holder.bind(('127.0.0.1', 9228))
    holder.listen(1)
    try:
        proc = project.run_checks(
            tmp_path, '-n', 'fabtests_completion%completion=fd',
            '-S', f'fabtests_bindir={FABTESTS_BINDIR}',
            '-S', 'samples=1')
    finally:
        holder.close()

    assert proc.returncode != 0
    assert ('the server exited with code 98 before the client started: '
            f'{FABTESTS_BINDIR}/fi_msg_pingpong'.replace('//', '/')
            in proc.stdout)
    assert 'Address already in use' in proc.stdout
    assert fabtests_processes() == []


@needs_fabtests
def test_client_that_times_out(tmp_path):
    start = time.monotonic()
    proc = project.run_checks(
        tmp_path, '-n', 'fabtests_completion%completion=fd',
        '-S', f'fabtests_bindir={FABTESTS_BINDIR}',
        '-S', 'iterations=1000000000', '-S', 'client_timeout_s=3',
        '-S', 'samples=1')
    assert proc.returncode != 0
    assert 'the client timed out after 3 s: /usr/bin/time -v timeout 3 ' \
        in proc.stdout
    # 3 s for the client, at most 10 s for the server, and ReFrame's own
    assert time.monotonic() - start < 60
    assert fabtests_processes() == []
