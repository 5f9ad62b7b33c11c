'''Every example facility partition: ReFrame --dry-run generates job scripts
with the partition's scheduler directives and launcher lines.'''

import os
import re
import subprocess

import pytest

import project
from job_scripts import needs_shellcheck, read, scripts, settings
from microbench.suite import launchers, memory
from microbench.suite.rounds import SKELETON

#: The partitions' dry runs, shared (tests/helpers/dryruns.py)
pytestmark = pytest.mark.dry_runs

DIRECTIVE = {'slurm': '#SBATCH', 'pbs': '#PBS', 'torque': '#PBS'}

#: How each example launcher must run fio, the two OSU ranks (one per node),
#: one fabtests process on the server node, and bind it or not
LAUNCH = {
    'srun': {
        'fio': 'srun fio',
        'osu': 'srun --nodes=2 --ntasks=2 --ntasks-per-node=1 osu_bw',
        'ranks': 'srun --nodes=2 --ntasks=4 --ntasks-per-node=2',
        'server': ('srun --nodes=1 --ntasks=1 --overlap '
                   '--nodelist=$server_node'),
        'bound': '--cpu-bind=cores', 'unbound': '--cpu-bind=none',
    },
    'mpirun': {     # Open MPI (pbs_cluster: extras.mpi = openmpi)
        'fio': 'mpirun -np 1 fio',
        'osu': 'mpirun -np 2 --map-by ppr:1:node osu_bw',
        'ranks': 'mpirun -np 4 --map-by ppr:2:node',
        'server': 'mpirun -np 1 --host $server_node',
        'bound': '--bind-to core', 'unbound': '--bind-to none',
    },
    'alps': {       # aprun binds by default
        'fio': 'aprun -n 1 fio',
        'osu': 'aprun -n 2 -N 1 osu_bw',
        'ranks': 'aprun -n 4 -N 2',
        'server': 'aprun -n 1 -L $((10#${server_node#nid}))',
        'bound': '', 'unbound': '--cc none',
    },
}


@pytest.fixture(scope='module', params=sorted(project.facility_partitions()))
def dry_run(request, dry_runs):
    name = request.param
    proc, _, stage = dry_runs.of(name)
    return name, project.facility_partitions()[name], proc, stage


def test_every_check_dry_runs(dry_run):
    name, part, proc, _ = dry_run
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert '0 failure(s)' in proc.stdout
    for check, cls in project.check_classes().items():
        ran = f'] {check} ' in proc.stdout or f'] {check} /' in proc.stdout
        assert ran == (name in project.valid_partitions(cls)), check


def test_the_partitions_spack_view_is_on_path(dry_run):
    name, _, _, stage = dry_run
    view = os.path.join(project.ROOT, 'spack_envs', *name.split(':'),
                        '.spack-env', 'view')
    expected = (f'export PATH={view}/bin:{view}/libexec/osu-micro-benchmarks/'
                'mpi/pt2pt:$PATH')
    found = scripts(stage, '*_rounds_*')
    assert found
    for script in found:
        assert expected in read(script).splitlines(), script


def test_scheduler_directives(dry_run):
    _, part, _, stage = dry_run
    directive = DIRECTIVE[part['scheduler']]
    for script in scripts(stage, '*_rounds_*'):
        lines = read(script).splitlines()
        for option in part['access']:
            assert f'{directive} {option}' in lines, script


def test_fio_runs_through_the_launcher(dry_run):
    _, part, _, stage = dry_run
    launch = LAUNCH[part['launcher']]['fio']
    found = scripts(stage, 'fio_*_rounds_*')
    assert len(found) == 5
    for script in found:
        job = settings(script)
        assert job['samples'] == '3'
        assert job['scratch_root'] == part['extras']['scratch']
        commands = job['commands']
        assert commands, script
        for variant, command in commands.items():
            # The polling check's samples run under its CPU helper, which
            # names the variant in its file, on the node the launcher
            # gives fio
            fio = launch
            if 'fio_completion_polling' in script:
                fio = launch.replace(' fio', f' bash ./polling.sh cpu '
                                             f'cpu.txt {variant} fio')
            assert command.startswith(f'{fio} --name='), script
        if 'fio_fallocate' in script:
            witnesses = job['witnesses'].values()
            assert len(witnesses) == 2
            assert all(w.startswith(f'{launch.replace(" fio", "")} strace -f '
                                    '-c') for w in witnesses), script


def test_the_page_cache_witness_and_the_dontcache_probe(dry_run):
    _, part, _, stage = dry_run
    fio = LAUNCH[part['launcher']]['fio']
    job = settings(scripts(stage, 'fio_cache_flags_rounds_*')[0])
    assert job['variants'][-1] == 'dontcache'
    assert job['commands']['dontcache'].endswith(
        '--direct=0 --sync=0 --ioengine=pvsync2 --uncached=1 '
        '--output-format=json --output=fio.json')
    for variant, witness in job['witnesses'].items():
        assert witness.startswith(f'{fio} --name=')
        assert witness.endswith(
            f'--output=witness-{variant}.json && '
            f'{fio.replace(" fio", "")} find $scratch -type f -exec fincore '
            '--bytes --noheadings --raw --output RES,PAGES,SIZE,FILE {} + | '
            "awk '{print} END {print \"files\", NR}'")
    # fio 3.40 or later, and a kernel that takes RWF_DONTCACHE, or skipped
    assert list(job['probes']) == ['dontcache']
    assert job['probes']['dontcache'].startswith(
        '{ echo 3.40; fio --version | sed s/^fio-//; } | sort -V -C && '
        f'{fio} --name=dontcache_probe ')
    assert 'Linux 6.14' in job['probe_reasons']['dontcache']


def test_the_data_reduction_witness(dry_run):
    _, part, _, stage = dry_run
    fio = LAUNCH[part['launcher']]['fio']
    job = settings(scripts(stage, 'fio_data_reduction_rounds_*')[0])
    assert job['variants'] == ['zeros', 'default', 'incompressible']
    assert '--direct=1 --fallocate=none' in job['commands']['zeros']
    assert job['commands']['zeros'].endswith(
        '--zero_buffers --output-format=json --output=fio.json')
    assert ('--refill_buffers --buffer_compress_percentage=0 '
            in job['commands']['incompressible'])
    for variant, witness in job['witnesses'].items():
        # fio's short sample through the launcher, then what the file
        # system stored, read where the job runs
        assert witness.startswith(f'{fio} --name=')
        assert (f'--output=witness-{variant}.json && sync -f $scratch && '
                'stat -f -c "fstype %T" $scratch && ') in witness
        assert 'compsize -b $scratch' in witness
    elbencho = settings(scripts(stage, 'elbencho_data_reduction_rounds_*')[0])
    assert elbencho['commands']['half'].endswith(
        '--direct --blockvarpct 50 --jsonfile elbencho.json --resfile '
        '/dev/null --csvfile /dev/null $scratch/file')
    assert elbencho['witnesses']['same'].startswith(
        'elbencho -w -t 4 -b 1m -s 32g --direct --blockvarpct 0 '
        '--jsonfile /dev/null --resfile /dev/null --csvfile /dev/null '
        '$scratch/file > witness-same.out && sync -f $scratch')


def test_the_polling_witness_probe_and_device(dry_run):
    _, part, _, stage = dry_run
    fio = LAUNCH[part['launcher']]['fio']
    job = settings(scripts(stage, 'fio_completion_polling_rounds_*')[0])
    assert job['variants'] == ['interrupt', 'hipri', 'sqpoll']
    # new random offsets every run (fio's randrepeat=1 replays them)
    assert ('--rw=randread --randrepeat=0 --bs=4k --direct=1 '
            '--ioengine=io_uring --iodepth=32' in job['commands']['interrupt'])
    assert '--time_based --hipri --output' in job['commands']['hipri']
    assert '--sqthread_poll=1 --output' in job['commands']['sqpoll']
    assert job['prepares']['sqpoll'] == (
        f'{fio} --name=fio_completion_polling_layout '
        '--filename=$scratch/polling --rw=write --bs=1m --direct=1 '
        '--size=4g --output=/dev/null')
    threads = fio.replace(' fio', ' bash ./polling.sh threads '
                          'witness-sqpoll-cpu.txt sqpoll fio')
    # The witness lays the file out, then reads under the thread sampler
    assert job['witnesses']['sqpoll'].startswith(
        f'{job["prepares"]["sqpoll"]} && {threads} --name=')
    assert job['witnesses']['sqpoll'].endswith(
        '--sqthread_poll=1 --output-format=json --output=witness-sqpoll.json')
    assert list(job['probes']) == ['hipri']
    assert job['probes']['hipri'] == (
        "bash ./polling.sh device $scratch | grep -qx '[^ ]* io_poll=1'")
    node_script = job['facts'].pop('settings')      # in its stage directory
    assert re.fullmatch(r'bash /\S+/fio_completion_polling_rounds_\w+/'
                        r'settings\.sh "\$scratch"', node_script)
    assert job['facts'] == {
        'scratch_device': 'bash ./polling.sh device $scratch',
        'memory': memory.MEMINFO}


def test_osu_ranks_on_two_nodes(dry_run):
    _, part, _, stage = dry_run
    found = scripts(stage, 'osu_buffer_reuse_rounds_*')
    if 'network' not in part['features']:
        assert not found
        return

    job = settings(found[0])
    osu = LAUNCH[part['launcher']]['osu']
    assert job['commands']['osu_bw.single'] == f'{osu} -m 32768:32768 -W 64'
    assert (job['commands']['osu_bw.multiple']
            == f'{osu} -m 32768:32768 -W 64 -b multiple')
    assert (job['probes']['osu_bw.multiple']
            == f'{osu} --help 2>&1 | grep -q -- --buffer-num')


def test_the_skeleton_places_server_and_client():
    skeleton = read(SKELETON)
    assert 'server_node=${nodes[0]}' in skeleton
    assert 'client_node=${nodes[1]:-${nodes[0]}}' in skeleton


@pytest.mark.parametrize('check', ['fabtests_completion', 'fabtests_binding'])
def test_fabtests_server_and_client_on_two_nodes(dry_run, check):
    _, part, _, stage = dry_run
    found = scripts(stage, f'{check}_rounds_*')
    if 'network' not in part['features']:
        assert not found
        return

    job = settings(found[0])
    launch = LAUNCH[part['launcher']]
    client = launch['server'].replace('server_node', 'client_node')
    provider = part['extras']['fabric']['provider']
    assert job['nodes_command'] == launchers.nodes_command(part['scheduler'])
    assert job['preflight'] == [f'{launch["server"]} fi_info -p {provider}']
    if check == 'fabtests_completion':
        assert job['servers']['fd'].startswith(
            f'{launch["server"]} fi_msg_pingpong -p {provider}')
        # yield only where the provider's fi_cq_open() takes FI_WAIT_YIELD
        assert job['variants'] == ['spin', 'fd', 'sread', 'yield']
        assert job['commands']['yield'].endswith('-S 100 -c yield '
                                                 '$server_addr')
        assert list(job['probes']) == ['yield']
        assert job['probes']['yield'] == (
            f'! {{ {client} timeout 10 fi_msg_pingpong -p {provider}'
            + (f' -d {part["extras"]["fabric"]["domain"]}'
               if part['extras']['fabric'].get('domain') else '')
            + " -S 100 -c yield -P 1 $server_addr 2>&1 | grep -q -F -e "
            "'fi_cq_open()' -e 'fi_cntr_open()'; }")
        assert job['commands']['fd'].startswith(
            f'{client} /usr/bin/time -v timeout 120 fi_msg_pingpong')
        assert job['commands']['fd'].endswith('-S 100 -c fd $server_addr')
        return

    for variant in ('bound', 'unbound'):
        options = f' {launch[variant]}' if launch[variant] else ''
        assert job['commands'][variant].startswith(
            f'{client}{options} /usr/bin/time -v timeout 120 fi_msg_bw -p '
            f'{provider}'), variant
        assert job['witnesses'][variant].startswith(
            f'{launch["server"]}{options} grep Cpus_allowed_list'), variant


def test_mpich_hydra_spellings():
    # No example partition uses MPICH's mpiexec; its spellings still hold
    assert launchers.BINDING['hydra'] == (['-bind-to', 'core'],
                                          ['-bind-to', 'none'])
    assert launchers.on_node('hydra', 'server_node') == (
        'mpiexec -n 1 -hosts $server_node'
    )
    assert launchers.spread('hydra', 2, 1) == 'mpiexec -n 2 -ppn 1'


def test_ior_and_mdtest_ranks_on_two_nodes(dry_run):
    _, part, _, stage = dry_run
    found = {check: scripts(stage, f'{check}_rounds_*')
             for check in ('ior_page_cache', 'mdtest_metadata')}
    if 'pfs' not in part['features']:
        assert not any(found.values())
        return

    ranks = LAUNCH[part['launcher']]['ranks']
    ior = settings(found['ior_page_cache'][0])
    assert ior['commands']['easy.reorder_fsync'] == (
        f'{ranks} ior -w -r -o $scratch/testfile -F -t 1m -b 64g -s 1 -D 30 '
        '-O stoneWallingWearOut=1 -C -Q 1 -e -O summaryFormat=JSON -O '
        'summaryFile=ior.json -O saveRankPerformanceDetailsCSV=ior-ranks.csv')
    # every rank's node, recorded once before the rounds (the rank map)
    assert ior['facts']['rank_nodes'].startswith(f'{ranks} sh ')
    assert 'hard.odirect' not in ior['variants']
    # The Darshan witness: the MPI runtime preloaded into the ranks only,
    # with DXT, on a short sample of its own; never in a measured sample
    witness = ior['darshans']['easy.reorder_fsync']
    assert witness.startswith(f'{ranks} env LD_PRELOAD=$darshan_lib '
                              f'DARSHAN_LOG_DIR_PATH=')
    assert 'DXT_ENABLE_IO_TRACE=1' in witness and ' -D 1 ' in witness
    assert ior['darshan_flavour'] == 'mpi'
    assert not any('LD_PRELOAD' in c for c in ior['commands'].values())
    # The residency witness: IOR's phases split, fincore on every node
    # between them, on a short sample of its own
    write, look, read = ior['witnesses']['easy.reorder_fsync'].split(' && ')
    assert write.startswith(f'{ranks} ior -w -k -o $scratch/testfile ')
    assert read.startswith(f'{ranks} ior -r -k -o $scratch/testfile ')
    for phase in (write, read):
        assert ' -D 1 ' in phase and ' -C -Q 1 -e ' in phase
        assert phase.endswith('-O stoneWallingStatusFile=ior-stonewall.txt '
                              '>&2')
    assert look.endswith('/residency.sh "$scratch"')
    mdtest = settings(found['mdtest_metadata'][0])
    assert mdtest['commands']['hard.node'] == (
        f'{ranks} mdtest -F -n 10000 -d $scratch/mdtest -w 3901 -e 3901 -N 1')
    sweep = settings(scripts(stage, 'ior_scaling')[0])
    assert 'n4.t16' in sweep['commands']


def test_elbencho_services_on_every_node(dry_run):
    _, part, _, stage = dry_run
    job = settings(scripts(stage, 'elbencho_storage_rounds_*')[0])
    service = LAUNCH[part['launcher']]['server'].replace('server_node',
                                                         'node')
    assert (job['service']
            == f'{service} elbencho --service --foreground --port 1611')
    assert job['commands']['direct.prealloc'] == (
        'elbencho --hosts $hosts --svcelapsed -w -r -t 4 -b 1m -s 32g '
        '--direct --preallocfile --jsonfile elbencho.json --resfile /dev/null '
        '--csvfile /dev/null $scratch/file')
    assert job['service_stop'] == 'elbencho --hosts "$hosts" --quit'
    # The residency witness: the phases split, fincore between them on the
    # first node
    write, look, read = job['witnesses']['direct.prealloc'].split(' && ')
    assert write.startswith('elbencho --hosts $hosts -w -t 4 -b 1m -s 32g '
                            '--direct --preallocfile --jsonfile /dev/null '
                            '--resfile /dev/null --csvfile /dev/null '
                            '$scratch/file >&2')
    assert read.startswith('elbencho --hosts $hosts -r -t 4 ')
    assert look.endswith('/residency.sh "$scratch"')


def test_every_node_records_its_memory(dry_run):
    '''Before the rounds, the job records the memory of every node the
    benchmark runs on (microbench/suite/memory.py): fio's, where the job
    runs; one per node through the launcher for IOR's ranks and elbencho's
    services.'''
    _, part, _, stage = dry_run
    fio = settings(scripts(stage, 'fio_cache_flags_rounds_*')[0])
    assert fio['facts']['memory'] == memory.MEMINFO
    each = LAUNCH[part['launcher']]['osu'].removesuffix(' osu_bw')
    expected = f'{each} {memory.MEMINFO} | paste -sd, -'
    elbencho = settings(scripts(stage, 'elbencho_storage_rounds_*')[0])
    assert elbencho['facts']['memory'] == expected
    ior = scripts(stage, 'ior_page_cache_rounds_*')
    assert bool(ior) == ('pfs' in part['features'])
    if ior:
        assert settings(ior[0])['facts']['memory'] == expected


def test_lustre_layouts(dry_run):
    _, part, _, stage = dry_run
    found = scripts(stage, 'lustre_striping_rounds_*')
    if 'lustre' not in part['features']:
        assert not found
        return

    job = settings(found[0])
    fio = LAUNCH[part['launcher']]['fio']
    assert job['prepares']['striped'] == (
        'lfs setstripe -c 8 -S 1m $scratch/shared')
    assert job['prepares']['one_stripe'] == (
        'lfs setstripe -c 1 -S 1m $scratch/shared')
    assert job['commands']['misaligned'].startswith(
        f'{fio} --name=lustre_striping_rounds')
    assert ('--offset=524288 --offset_increment=16g'
            in job['commands']['misaligned'])


@needs_shellcheck
def test_every_job_script_is_shellcheck_clean(dry_run):
    _, _, _, stage = dry_run
    found = scripts(stage, '*')
    assert found
    for script in found:
        # SC2016: the settings in single quotes are literal on purpose; the
        # skeleton evaluates them when it uses them.  SC2164: ReFrame's
        # PBS and Torque backends write a bare cd (ReFrame 4.10.4)
        proc = subprocess.run(['shellcheck', '-x', '-e', 'SC2016,SC2164',
                               os.path.basename(script)],
                              cwd=os.path.dirname(script),
                              capture_output=True, text=True)
        assert proc.returncode == 0, proc.stdout


def test_every_random_fio_workload_draws_new_offsets(dry_run):
    # fio's default randrepeat=1 seeds its random offsets the same way in
    # every run: every sample would replay the same offsets
    _, _, _, stage = dry_run
    random = []
    for script in scripts(stage, '*'):
        for command in settings(script).get('commands', {}).values():
            for run in command.split(' && '):
                if re.search(r'--rw=rand(read|write|rw)\b', run):
                    random.append(run)
                    assert '--randrepeat=0' in run, (script, run)
    assert random
