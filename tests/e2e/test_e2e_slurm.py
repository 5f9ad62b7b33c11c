'''End to end under a real Slurm: the test cluster of ci/slurm_testbed.sh
(two nodes on this machine, Debian's Slurm 22.05), the suite submitted with
sbatch, polled with squeue, launched with srun.

Runs as root where Debian's slurmctld, slurmd, slurm-client and munge are
installed (.ci/run installs them); elsewhere it is skipped with the test
cluster's own reason.  The checks of tools this machine lacks (OSU,
fabtests, IOR/mdtest: MICROBENCH_*_BINDIR) are skipped by the suite itself.
Faults under the scheduler: a job over its time limit, a job cancelled with
scancel, nodes drained while a job is queued, a partition that does not
exist.  Each is a named failure that leaves no process and no scratch file,
and the perflogs and results storage of earlier runs intact.
'''

import os
import re
import subprocess
import sys
import time

import pytest

import project
from microbench.suite import launchers
import perflog
import processes
import slurm_bed

pytestmark = [pytest.mark.e2e, pytest.mark.slurm]

MICROBENCH = os.path.join(os.path.dirname(sys.executable), 'microbench')
NODES = {'mbnode1', 'mbnode2'}
#: The node-local scratch of systems/slurm_testbed.py
SCRATCH = '/var/tmp/microbench-testbed'


def scratch_entries():
    '''What the test cluster's scratch holds now.'''
    return set(os.listdir(SCRATCH)) if os.path.isdir(SCRATCH) else set()


#: What another run (one killed before its clean-up) left there before
#: these tests: not theirs to answer for
LEFT_BEFORE = scratch_entries()

BINDIRS = {
    'osu_bindir': os.environ.get('MICROBENCH_OSU_BINDIR', ''),
    'fabtests_bindir': os.environ.get('MICROBENCH_FABTESTS_BINDIR', ''),
    'ior_bindir': os.environ.get('MICROBENCH_IOR_BINDIR', ''),
    'mdtest_bindir': os.environ.get('MICROBENCH_IOR_BINDIR', ''),
}

#: A check that runs as long as it is let: a 64 MiB file overwritten for
#: 10 minutes (one sample), in a job of its own
LONG_RUN = ['-n', 'fio_time_based_overwrite%file=small', '-S', 'samples=1',
            '-S', 'fio_time_based_overwrite_rounds.runtime_s=600',
            '-S', 'fio_time_based_overwrite_rounds.large_file_size=64m',
            '-S', 'fio_time_based_overwrite_rounds.small_file_size=64m']


def left_behind(pattern=r'(^|/)fio |fi_msg_|osu_|(^|/)ior |mdtest'):
    '''Processes still running of a benchmark a job of the test cluster
    started (the local default's run beside these tests).'''
    return processes.running(pattern, processes.SLURM_JOB)


@pytest.fixture(scope='module')
def slurm():
    '''The test cluster, started for this module and stopped after it.'''
    bed = slurm_bed.started()
    found = next(bed)
    conf = found['SLURM_CONF']
    yield found
    next(bed, None)
    assert not processes.running(r'slurmctld|slurmd|munged|slurmstepd')
    assert not left_behind()
    assert 'mbslurm' not in subprocess.run(['ip', 'netns', 'list'],
                                           capture_output=True,
                                           text=True).stdout
    assert not os.path.exists(os.path.dirname(conf))


@pytest.fixture(scope='module')
def runs(tmp_path_factory):
    '''One place for every run of this module: perflogs, results storage.'''
    return tmp_path_factory.mktemp('slurm-runs')


def run(slurm, runs, *args, system='slurm_testbed'):
    '''ReFrame on the test cluster; the completed process.'''
    return project.run_checks(runs, '--system', system, *args, env=slurm)


def sessions(runs):
    '''The ids of the sessions in the results storage.'''
    listed = project.reframe('--list-stored-sessions', env={
        'RFM_SQLITE_DB_FILE': str(runs / 'results.db')})
    assert listed.returncode == 0, listed.stderr
    return set(re.findall(r'[0-9a-f]{8}-[0-9a-f-]{27}', listed.stdout))


def perflog_texts(runs):
    return {str(p): p.read_text() for p in (runs / 'perflogs').rglob('*.log')}


@pytest.fixture(scope='module')
def quick(slurm, runs):
    '''The checks in quick mode: the network checks and fio on the
    node-local partition, IOR and mdtest on the shared one.'''
    bindirs = [arg for name, value in BINDIRS.items() if value
               for arg in ('-S', f'{name}={value}')]
    procs = [
        run(slurm, runs, '--mode', 'quick', *bindirs, '-n', 'fio_',
            '-n', 'osu_buffer_reuse', '-n', 'fabtests_',
            system='slurm_testbed:node_local'),
        # Both nodes share this machine's memory: IOR's memory hog takes
        # a share of it per node
        run(slurm, runs, '--mode', 'quick', *bindirs, '-n', 'ior_page_cache',
            '-n', 'mdtest_metadata', *project.darshan_option(), '-S',
            'ior_page_cache_rounds.memory_per_node=20%',
            system='slurm_testbed:shared'),
    ]
    for proc in procs:
        assert proc.returncode == 0, proc.stdout[-4000:]
        assert 'Traceback' not in proc.stdout + proc.stderr

    return procs


def test_checks_run_as_slurm_jobs(slurm, quick, runs):
    frame = perflog.load(str(runs / 'perflogs'))
    assert set(frame['system']) == {'slurm_testbed'}
    names = set(frame['name'])
    for check in ('fio_cache_flags', 'fio_fallocate',
                  'fio_time_based_overwrite'):
        assert f'{check}_gap' in names

    # Every figure names the job that measured it and its nodes
    assert all(frame['job_id'].astype(str).str.fullmatch(r'\d+'))
    for nodes in frame['node']:
        assert set(re.findall(r'mbnode\d', nodes)) <= NODES, nodes

    # Slurm ran them: its record of every job that ended, on those nodes
    with open(os.path.join(os.path.dirname(slurm['SLURM_CONF']), 'log',
                           'jobcomp.txt')) as fp:
        ended = {m['id']: m for m in re.finditer(
            r'JobId=(?P<id>\d+) .*?JobState=(?P<state>\S+) .*?'
            r'Partition=(?P<part>\S+) .*?NodeList=(?P<nodes>\S+)', fp.read())}
    for job_id in set(frame['job_id'].astype(str)):
        assert ended[job_id]['state'] == 'COMPLETED'
        assert ended[job_id]['part'] == 'compute'


def test_multi_node_checks_span_both_nodes(quick, runs):
    frame = perflog.load(str(runs / 'perflogs'))
    spanning = frame[frame['name'].str.match(
        r'(osu_buffer_reuse|ior_page_cache|mdtest_metadata)_rounds')]
    for nodes in spanning['node']:
        assert set(nodes.split(',')) == NODES

    fabtests = frame[frame['name'].str.startswith('fabtests_completion %')]
    for where in fabtests['node']:
        assert 'server mbnode1, client mbnode2' in where


def test_nodes_of_one_kernel_share_its_page_cache(quick, runs):
    '''Both nodes are this machine's kernel: what IOR's task reordering
    (-C) and mdtest's stride read back comes from one page cache, and the
    checks say so (the job records how many kernels its nodes run).'''
    frame = perflog.load(str(runs / 'perflogs'))
    reorder = frame[frame['name'] ==
                    'ior_page_cache %shape=easy %defence=reorder_fsync']
    strided = frame[frame['name'] ==
                    'mdtest_metadata %shape=hard %stride=node']
    if reorder.empty or strided.empty:
        pytest.skip('IOR/mdtest are not installed (MICROBENCH_IOR_BINDIR)')

    assert 'read_cache_median_mib_s' in set(reorder['perf_var'])
    assert 'read_median_mib_s' not in set(reorder['perf_var'])
    assert 'stat_cache_median_ops_s' in set(strided['perf_var'])
    for notes in (reorder['note'], strided['note']):
        assert all(notes.str.contains("the job's 2 nodes share one kernel"))


def test_the_residency_witness_and_darshan_agree_on_two_nodes(quick, runs):
    '''Every read of IOR on the two nodes was looked at by fincore on both
    (one kernel: each holds what either wrote), and where Darshan ran too
    the two agreed (a disagreement fails the check, and the run).'''
    frame = perflog.load(str(runs / 'perflogs'))
    ior = frame[frame['name'].str.startswith('ior_page_cache %')]
    if ior.empty:
        pytest.skip('IOR is not installed (MICROBENCH_IOR_BINDIR)')

    for _, row in ior.iterrows():
        assert re.fullmatch(r'read=\d+\.\d', row['resident_share']), row
        for node in NODES:
            assert f'{node} ' in row['witness'], row['witness']
        if project.DARSHAN:
            assert not row['darshan_witness'].startswith('not run')

    odirect = ior[ior['name'].str.endswith('%defence=odirect')]
    assert set(odirect['resident_share']) == {'read=0.0'}
    flushed = ior[ior['name'].str.endswith('%defence=reorder_fsync')]
    assert all(share > 95 for share in flushed['resident_share'].map(
        lambda text: float(text.split('=')[1])))


def test_the_network_limits_of_two_nodes(slurm, runs, tmp_path):
    '''component_limits on both nodes: OSU bandwidth and latency between
    them, what the nodes are, then ``microbench limits`` keeps them.  The
    nodes share this machine's kernel, so the messages go through shared
    memory, and the check says so; the veths' speed is no line rate.'''
    if not BINDIRS['osu_bindir']:
        pytest.skip('OSU is not installed (MICROBENCH_OSU_BINDIR)')

    proc = run(slurm, runs, '--mode', 'quick', '-n',
               'component_limits_(network|node)', '-S',
               f'osu_bindir={BINDIRS["osu_bindir"]}',
               system='slurm_testbed:node_local')
    assert proc.returncode == 0, proc.stdout[-4000:]
    frame = perflog.load(str(runs / 'perflogs'))
    bandwidth = frame[(frame['name'] == 'component_limits_network '
                       '%benchmark=osu_bw %buffer=multiple')
                      & (frame['perf_var'] == 'bandwidth_median_mib_s')]
    latency = frame[(frame['name'] == 'component_limits_network '
                     '%benchmark=osu_latency %buffer=multiple')
                    & (frame['perf_var'] == 'latency_median_us')]
    assert len(bandwidth) == len(latency) == 1
    for row in (bandwidth.iloc[0], latency.iloc[0]):
        assert float(row['perf_value']) > 0
        assert set(row['node'].split(',')) == NODES
        assert 'share one kernel' in row['note']
    node = frame[frame['name'] == 'component_limits_node'].iloc[0]
    assert 'are memory copies' in node['note']
    assert 'line_rate_mib_s' not in set(frame['perf_var'])

    limits_dir = tmp_path / 'limits'
    kept = subprocess.run(
        [MICROBENCH, '--db', str(runs / 'results.db'), 'limits',
         '--partition', 'slurm_testbed:node_local', '--write'],
        capture_output=True, text=True, timeout=300,
        env={**os.environ, 'MICROBENCH_LIMITS_DIR': str(limits_dir)})
    assert kept.returncode == 0, kept.stderr
    text = (limits_dir / 'slurm_testbed.yaml').read_text()
    for name in ('network_bandwidth_mib_s', 'network_latency_us', 'cores'):
        assert name in text
    assert 'mbnode1,mbnode2' in text


def test_binding_under_srun(slurm, runs):
    '''The launcher options the binding check uses, as srun applies them:
    bound, a process gets one core; unbound, every core of the job.'''
    bound, unbound = launchers.BINDING['srun']
    script = runs / 'binding.sh'
    lines = ['#!/bin/bash', '#SBATCH --exclusive', '#SBATCH --nodes=1',
             'node=$(hostname)', 'grep Cpus_allowed_list /proc/self/status']
    for options in (bound, unbound):
        lines.append(launchers.on_node('srun', 'node', options)
                     + ' grep Cpus_allowed_list /proc/self/status')

    script.write_text('\n'.join(lines) + '\n')
    done = subprocess.run(['sbatch', '--wait', f'--output={runs}/binding.out',
                           str(script)], capture_output=True, text=True,
                          env={**os.environ, **slurm}, timeout=120)
    assert done.returncode == 0, done.stderr
    job, bound_cpus, unbound_cpus = re.findall(
        r'Cpus_allowed_list:\s*(\S+)', (runs / 'binding.out').read_text())
    assert re.fullmatch(r'\d+', bound_cpus)
    assert unbound_cpus == job
    assert job != bound_cpus, 'this test needs a node of two cores or more'


def test_fabtests_binding_witness(quick, runs):
    frame = perflog.load(str(runs / 'perflogs'))
    rows = frame[frame['name'].str.startswith('fabtests_binding %')]
    if rows.empty:
        pytest.skip('fabtests are not installed (MICROBENCH_FABTESTS_BINDIR)')

    bound = rows[rows['variant'] == 'bound'].iloc[0]
    unbound = rows[rows['variant'] == 'unbound'].iloc[0]
    assert '--cpu-bind=cores' in bound['command_line']
    assert '--cpu-bind=none' in unbound['command_line']
    job_cpus = re.search(r'job CPUs (\S+)\)', unbound['witness']).group(1)
    assert f'client CPUs {job_cpus}' in unbound['witness']
    assert re.search(r'client CPUs \d+ ', bound['witness'])


def assert_clean_failure(runs, proc, earlier, perflogs, said):
    '''A fault: a named failure, nothing left running or on the scratch,
    earlier results intact.'''
    assert proc.returncode != 0
    assert said in proc.stdout, proc.stdout[-4000:]
    assert 'Traceback' not in proc.stdout + proc.stderr
    assert not left_behind()
    assert scratch_entries() <= LEFT_BEFORE
    assert earlier <= sessions(runs)
    for path, text in perflogs.items():
        with open(path) as fp:
            assert fp.read().startswith(text), f'{path} was changed'


def test_time_limit(slurm, runs, quick):
    '''Slurm sends SIGTERM at the time limit, SIGKILL 10 s later (KillWait):
    the job's trap removes the scratch in between.'''
    earlier, perflogs = sessions(runs), perflog_texts(runs)
    start = time.monotonic()
    proc = run(slurm, runs, *LONG_RUN,
               '-S', 'fio_time_based_overwrite_rounds.time_limit=1m',
               system='slurm_testbed:node_local')
    assert time.monotonic() - start < 300
    assert_clean_failure(runs, proc, earlier, perflogs,
                         'the job ended before its last round: Slurm says '
                         'TIMEOUT (reason TimeLimit')


def test_scancel_mid_run(slurm, runs, quick):
    earlier, perflogs = sessions(runs), perflog_texts(runs)
    env = {**os.environ, **slurm}
    reframe = subprocess.Popen(
        [project.REFRAME, '-c', project.CHECKS_DIR, '-r', '--system',
         'slurm_testbed:node_local', '--prefix', str(runs),
         '--perflogdir', str(runs / 'perflogs'), *LONG_RUN],
        env={**env, 'RFM_CONFIG_FILES': project.CONFIG,
             'RFM_SQLITE_DB_FILE': str(runs / 'results.db')},
        cwd=str(runs), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True)
    try:
        job = None
        deadline = time.monotonic() + 120
        while job is None and time.monotonic() < deadline:
            time.sleep(2)
            squeue = subprocess.run(['squeue', '-h', '-t', 'RUNNING', '-o',
                                     '%i %j'], capture_output=True,
                                    text=True, env=env).stdout
            job = next((line.split()[0] for line in squeue.splitlines()
                        if 'fio_time_based_overwrite_rounds' in line), None)

        assert job, 'the job never ran'
        time.sleep(10)
        subprocess.run(['scancel', job], check=True, env=env)
        stdout, stderr = reframe.communicate(timeout=300)
    finally:
        reframe.kill()

    proc = subprocess.CompletedProcess(reframe.args, reframe.returncode,
                                       stdout, stderr)
    assert_clean_failure(runs, proc, earlier, perflogs,
                         'the job ended before its last round: Slurm says '
                         'CANCELLED')


def test_drained_nodes(slurm, runs, quick):
    '''Every node drained while the job is queued: ReFrame cancels it,
    saying why, instead of waiting for ever.'''
    earlier, perflogs = sessions(runs), perflog_texts(runs)
    env = {**os.environ, **slurm}
    subprocess.run(['scontrol', 'update', 'nodename=mbnode[1-2]',
                    'state=drain', 'reason=microbench test'], check=True,
                   env=env)
    try:
        start = time.monotonic()
        proc = run(slurm, runs, '-n', 'fio_fallocate%fallocate=none',
                   '--mode', 'quick', system='slurm_testbed:node_local')
        assert time.monotonic() - start < 180
    finally:
        subprocess.run(['scontrol', 'update', 'nodename=mbnode[1-2]',
                        'state=resume'], check=True, env=env)

    said = re.search(r'blocked due to reason: (.+)', proc.stdout)
    assert said, proc.stdout[-4000:]
    assert said[1].startswith(drained_reasons()), said[1]
    assert_clean_failure(runs, proc, earlier, perflogs, said[0])
    queued = subprocess.run(['squeue', '-h', '-t', 'PENDING'],
                            capture_output=True, text=True, env=env).stdout
    assert not queued.strip()


#: What a job pending on drained nodes is said to wait for: which of the two
#: squeue shows depends on when slurmctld's scheduler last looked at the job
DRAINED = ('ReqNodeNotAvail', 'Nodes required for job are DOWN, DRAINED')


def drained_reasons():
    '''The reasons of :data:`DRAINED` that the test cluster's partition
    cancels a job on (systems/config.py): every one of them.'''
    cancels = project.partitions()['slurm_testbed:node_local'][
        'sched_options']['slurm_job_cancel_reasons']
    missing = [r for r in DRAINED if not r.startswith(tuple(cancels))]
    assert not missing, f'the configuration does not cancel on {missing}'
    return DRAINED


def test_partition_that_does_not_exist(slurm, runs, quick):
    earlier, perflogs = sessions(runs), perflog_texts(runs)
    proc = run(slurm, runs, '-n', 'fio_fallocate%fallocate=none',
               '-J', 'partition=nosuch', system='slurm_testbed:node_local')
    assert_clean_failure(runs, proc, earlier, perflogs,
                         'invalid partition specified: nosuch')

