'''IOR's GPU buffers (microbench.tools.ior.gpu): their IOR 4.0.0 options,
as its source spells them; what the builder and the readers make of them;
the job scripts of a GPU partition, and their absence elsewhere.

No GPU is at hand here: nothing below runs IOR on one.  The job scripts
come from ReFrame's --dry-run; the summaries are real IOR 4.0.0 ones with
the GPU options written into their command line.
'''

import json
import shlex

import pytest

import project
import upstream
from ior_cases import asked, edited, summary_of
from microbench.suite.output import OutputError
from microbench.tools import ior
from microbench.tools.ior import command as builder
from microbench.tools.ior import gpu

#: The partitions' dry runs, shared (tests/helpers/dryruns.py)
pytestmark = pytest.mark.dry_runs

GPU_PARTITION = 'slurm_cluster:gpu'


# --- IOR 4.0.0's source spells the options so --------------------------------

def _source(path, ref='4.0.0'):
    return upstream.show('hpc+ior', ref, path)


def test_ior_4_0_0_numbers_its_buffers_as_the_builder_writes_them():
    flags = _source('src/iordef.h')
    for value, name in ((0, 'CPU'), (1, 'GPU_MANAGED'),
                        (2, 'GPU_DEVICE_ONLY')):
        assert f'IOR_MEMORY_TYPE_{name} = {value},' in flags
    assert gpu.BUFFERS['managed'] == ('-O', 'allocateBufferOnGPU=1')
    assert gpu.BUFFERS['device'][:2] == ('-O', 'allocateBufferOnGPU=2')
    assert gpu.BUFFERS['host'] == ()
    parse = _source('src/parse_options.c')
    assert 'strcasecmp(option, "allocateBufferOnGPU") == 0' in parse
    # the flag --gpuDirect, which makes the buffer device memory
    assert '{0, "gpuDirect",' in parse
    assert ('if(params->gpuDirect){\n                  params->gpuMemoryFlags'
            ' = IOR_MEMORY_TYPE_GPU_DEVICE_ONLY;') in parse


def test_ior_4_0_0s_gpu_direct_needs_o_direct():
    posix = _source('src/aiori-POSIX.c')
    # the POSIX backend's own gpuDirect flag (the same --gpuDirect: IOR's
    # option parser sets every module's option of that name)
    assert '{0, "gpuDirect",' in posix
    assert ('if(o->gpuDirect && ! o->direct_io){\n    ERR("GPUDirect '
            'required direct I/O to be used!");') in posix
    assert '{0, "posix.odirect",' in posix
    assert '--posix.odirect' in gpu.BUFFERS['device'] + \
        builder.DEFENCES['odirect']


def test_only_a_later_ior_says_where_the_buffer_was():
    '''4.0.0's summary has no memoryBuffer; main after it prints it with
    renumbered buffers, which check_options tells apart.'''
    assert 'memoryBuffer' not in _source('src/ior-output.c')
    assert 'IOR_MEMORY_TYPE_GPU_MANAGED_CHECK_GPU = 2' in _source(
        'src/iordef.h', '5fcf0ba')
    assert 'PrintKeyVal("memoryBuffer"' in _source('src/ior-output.c',
                                                   '5fcf0ba')


# --- The builder and what it asks --------------------------------------------

def _build(buffer, defence='odirect'):
    return builder.build('ior', builder.shape_options('easy', '64g', 1),
                         builder.DEFENCES[defence], 30, 2, 2,
                         buffer=gpu.BUFFERS[buffer])


@pytest.mark.parametrize('buffer, memory, direct', [
    ('host', 0, False), ('managed', 1, False), ('device', 2, True)])
def test_the_builder_asks_where_the_buffer_is(buffer, memory, direct):
    told = _build(buffer).asked
    assert (told.gpu_memory, told.gpu_direct) == (memory, direct)
    assert ior.asked_of(told.argv, 2, 2) == told


@pytest.mark.parametrize('argv, says', [
    # device memory without O_DIRECT: IOR aborts
    (('-O', 'allocateBufferOnGPU=2', '--gpuDirect'),
     'without --posix.odirect'),
    # device memory without GPUDirect: POSIX calls on a device pointer
    (('--posix.odirect', '-O', 'allocateBufferOnGPU=2'),
     'without --gpuDirect'),
    # main's numbering, not 4.0.0's
    (('-O', 'allocateBufferOnGPU=3'), 'no allocateBufferOnGPU=3'),
])
def test_commands_ior_4_0_0_cannot_run_are_refused(argv, says):
    with pytest.raises(ValueError, match=says):
        ior.asked_of(('ior', '-w', '-r', *argv), 1, 1)


def _with_buffer(name, buffer, options=None):
    '''A real IOR 4.0.0 summary whose command line had ``buffer``'s
    options, what its command asked, and, if given, ``options`` added to
    its Options as a later IOR prints them.'''
    told = asked(name)
    argv = (*told.argv, *gpu.BUFFERS[buffer])
    if buffer == 'device' and '--posix.odirect' not in argv:
        argv = (*argv, '--posix.odirect')

    def change(data):
        data['Command line'] = shlex.join(argv)
        data['tests'][0]['Options'].update(options or {})

    return (edited(summary_of(name), change),
            ior.asked_of(argv, told.nodes, told.tasks_per_node))


@pytest.mark.parametrize('buffer', list(gpu.BUFFERS))
def test_ior_4_0_0_says_the_buffer_in_its_command_line_only(buffer):
    summary, told = _with_buffer('ior/slurm-n2-t2', buffer)
    run = ior.parse_summary(summary, asked=told)
    assert run.figures == {e['operation']: e['bwMeanMIB']
                           for e in json.loads(summary)['summary']}
    # the command line is held to the asked one, GPU options and all
    _, host = _with_buffer('ior/slurm-n2-t2', 'host')
    if buffer != 'host':
        with pytest.raises(OutputError, match='not the asked'):
            ior.parse_summary(summary, asked=host)


@pytest.mark.parametrize('buffer, said, accepted', [
    ('device', {'memoryBuffer': 'GPU', 'GPUDirect': '1'}, True),
    ('managed', {'memoryBuffer': 'Managed', 'GPUDirect': '0'}, True),
    ('host', {'memoryBuffer': 'CPU', 'GPUDirect': '0'}, True),
    # allocateBufferOnGPU=2 read by IOR after 4.0.0: managed memory
    ('device', {'memoryBuffer': 'Managed', 'GPUDirect': '1'}, False),
    ('managed', {'memoryBuffer': 'CPU'}, False),
    ('device', {'memoryBuffer': 'GPU', 'GPUDirect': '0'}, False),
])
def test_a_later_iors_options_must_say_the_asked_buffer(buffer, said,
                                                         accepted):
    summary, told = _with_buffer('ior/slurm-n2-t2', buffer, said)
    if accepted:
        ior.parse_summary(summary, asked=told)
        return

    with pytest.raises(OutputError, match='memoryBuffer|GPUDirect'):
        ior.parse_summary(summary, asked=told)


# --- The job scripts of a GPU partition, and nowhere else --------------------

@pytest.fixture(scope='module')
def gpu_job(dry_runs):
    proc, _, stage = dry_runs.of(GPU_PARTITION)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    from job_scripts import scripts, settings

    (script,) = scripts(stage, 'ior_gpu_buffer_rounds_*')
    return proc, settings(script)


def test_the_gpu_partition_runs_every_buffer(gpu_job):
    proc, job = gpu_job
    assert job['variants'] == list(gpu.VARIANTS)
    for variant in gpu.VARIANTS:
        shape, defence, buffer = gpu.split(variant)
        assert (f'ior_gpu_buffer %shape={shape} %defence={defence} '
                f'%buffer={buffer} ') in proc.stdout, variant

    # the gap of host over GPU buffers runs with them
    assert '] ior_gpu_buffer_gap ' in proc.stdout


def _ior(line):
    words = shlex.split(line)
    return words[words.index('ior'):]


@pytest.mark.parametrize('variant', gpu.VARIANTS)
def test_every_job_line_has_its_buffers_options(gpu_job, variant):
    _, job = gpu_job
    line = job['commands'][variant]
    shape, defence, buffer = gpu.split(variant)
    words = _ior(line)
    told = ior.asked_of(words, 2, 2)
    assert told.gpu_memory == {'host': 0, 'managed': 1, 'device': 2}[buffer]
    assert ('-O allocateBufferOnGPU=1' in line) == (buffer == 'managed')
    assert ('-O allocateBufferOnGPU=2 --gpuDirect' in line) == (
        buffer == 'device')
    assert ('--posix.odirect' in words) == (defence == 'odirect')
    # every task of a node on a GPU of its own (IOR 4.0.0 takes GPU 0)
    assert line.startswith('srun --nodes=2 --ntasks=4 --ntasks-per-node=2 '
                           '--gpu-bind=map_gpu:0,1,2,3 ior '), line
    # no Darshan witness where cuFile, not POSIX calls, moves the data
    assert (variant in job['darshans']) == (buffer != 'device')


def test_no_other_partition_generates_the_gpu_buffers():
    '''The local default lists the IOR checks without the GPU buffers,
    and so does a facility partition without GPUs.'''
    for system in ([], ['--system', 'slurm_cluster:lustre']):
        proc = project.reframe('-l', *system, '-n', '^ior_')
        assert proc.returncode == 0, proc.stdout + proc.stderr
        assert '- ior_page_cache %shape=easy %defence=reorder ' in proc.stdout
        assert 'ior_gpu_buffer' not in proc.stdout, system
        assert 'allocateBufferOnGPU' not in proc.stdout
