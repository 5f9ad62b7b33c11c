'''IOR's outputs held to what the run was asked, and the one IOR command
builder (the cases: tests/helpers/ior_cases.py).

The untouched real outputs are read, with their own figures.

1. *another size or command than asked*: the parser told another transfer
   size, block, segments, tasks, nodes, shape, stonewall, fsync, task
   reordering, phases or command line than the run's, or the output edited
   to say it ran with another: rejected, naming both values;

B. the one command builder spells every IOR check's command, with -Q 1
   wherever a read relies on another node, and the readers are told what it
   asked.
'''

import json
import shlex

import pytest

from ior_cases import (EXACT, PAIRS, PATHS, another, asked,
                       assert_rejected, edited, figures, stdout_of,
                       summary_of)
from microbench.suite.output import OutputError
from microbench.tools import ior
from microbench.tools.ior import command as builder

#: The partitions' dry runs, shared (tests/helpers/dryruns.py)
pytestmark = pytest.mark.dry_runs


# --- The real outputs are read -----------------------------------------------

@pytest.mark.parametrize('path', PATHS)
@pytest.mark.parametrize('name', PAIRS)
def test_real_pairs_are_read(name, path):
    summary = summary_of(name)
    assert PATHS[path](summary, stdout_of(name), asked(name)) == \
        figures(summary)


def test_every_exact_pair_is_told_its_real_command():
    for name in EXACT:
        told = asked(name)
        data = json.loads(summary_of(name))
        assert shlex.split(data['Command line']) == list(told.argv), name


def test_ior_counts_the_nodes_of_the_slurm_test_cluster():
    told = asked('ior/slurm-n2-t2')
    assert (told.nodes, told.tasks_per_node, told.tasks) == (2, 2, 4)
    assert ior.parse_summary(summary_of('ior/slurm-n2-t2'),
                             asked=told).nodes == 2


# --- 1. Another size or command than asked -----------------------------------

#: IorAsked field -> (the Parameters key that says it, how the asked value
#: is printed)
TOLD = {
    'transfer': 'transferSize', 'block': 'blockSize',
    'segments': 'segmentCount', 'nodes': 'nodes',
    'tasks_per_node': 'tasksPerNode', 'file_per_process': 'filePerProc',
    'deadline_s': 'deadlineForStonewall', 'wear_out': 'stoneWallingWearOut',
    'fsync': 'fsync', 'reorder': 'reorderTasks',
    'task_offset': 'taskPerNodeOffset', 'repetitions': 'repetitions',
    'tasks': 'numTasks', 'memory': 'memoryPerNode',
}


def told_otherwise(name):
    '''(how, told, the words the rejection must say) of every other thing
    the parsers may be told of pair ``name``.'''
    real = asked(name)
    data = json.loads(summary_of(name))
    params = data['tests'][0]['Parameters']
    entry = data['summary'][0]
    for field, key in TOLD.items():
        value = getattr(real, field)
        if field == 'task_offset' and not real.reorder:
            continue        # -Q means nothing without -C

        other = another(value)
        said = params.get(key, entry.get(key))
        told = real.__class__(**{**real.__dict__, field: other})
        says = ([key, str(said), '-M was asked'] if field == 'memory' else
                [key, str(said), str(int(other))])
        yield f'told {field}={other}', told, says

    told = real.__class__(**{**real.__dict__, 'phases': ('write',)})
    yield 'told to write only', told, ['"read" entry', 'write only']
    words = list(real.argv)
    for at, word in enumerate(words):
        if word in ('-t', '-b', '-s', '-D', '-Q'):
            other = words[:at + 1] + ['3'] + words[at + 2:]
            told = real.__class__(**{**real.__dict__, 'argv': tuple(other)})
            yield (f'told {word} 3 in the command', told,
                   [f'{word} {words[at + 1]}', f'{word} 3', 'not the asked'])

    for changed in (['ior', *words[1:]], words[:-1] + ['summaryFile=x.json'],
                    [w for w in words if w != '-e'] + ['-e', '-e']):
        told = real.__class__(**{**real.__dict__, 'argv': tuple(changed)})
        yield (f'told the command {" ".join(changed)[-40:]}', told,
               ['not the asked', words[-1]])


@pytest.mark.parametrize('name', EXACT)
def test_told_another_size_or_command(name):
    for how, told, says in told_otherwise(name):
        assert_rejected('1 another program or size', name, how,
                        summary_of(name), stdout_of(name), told, says)



def outputs_of_another_run(name):
    '''(how, the summary edited to say it ran otherwise, words) of pair
    ``name``: every place that says a parameter says another value.'''
    real = json.loads(summary_of(name))
    params = real['tests'][0]['Parameters']
    for key in ('transferSize', 'blockSize', 'segmentCount', 'nodes',
                'tasksPerNode', 'filePerProc', 'deadlineForStonewall',
                'stoneWallingWearOut', 'fsync', 'reorderTasks',
                'repetitions', 'writeFile', 'memoryPerNode'):
        value = params[key]
        other = 0 if key in ('writeFile',) else another(value)

        def change(data, key=key, other=other):
            data['tests'][0]['Parameters'][key] = other
            for entry in data['summary']:
                if key in entry:
                    entry[key] = other

        yield (f'{key} {value} -> {other}', edited(summary_of(name), change),
               [key, str(other), 'asked'])

    tasks = real['summary'][0]['numTasks']

    def more_tasks(data):
        for entry in data['summary']:
            entry['numTasks'] = tasks + 1
        data['tests'][0]['Options']['tasks'] = tasks + 1

    yield (f'numTasks {tasks} -> {tasks + 1}',
           edited(summary_of(name), more_tasks),
           ['numTasks', str(tasks + 1), f'asked {tasks} tasks'])
    if real['summary'][0]['reorderTasks']:
        def offset(data):
            for entry in data['summary']:
                entry['taskPerNodeOffset'] = 2

        yield ('taskPerNodeOffset 1 -> 2 (IOR 4: -Q <tasks per node>)',
               edited(summary_of(name), offset),
               ['taskPerNodeOffset 2', 'asked task offset (-Q) 1'])

    command = real['Command line']
    for old, new in (('-t 1m', '-t 2m'), ('-t 47008', '-t 47009'),
                     ('-b 16g', '-b 8g'), (' -e', ''),
                     ('summaryFile=ior.json', 'summaryFile=other.json')):
        if old not in command:
            continue

        def edit(data, old=old, new=new):
            data['Command line'] = data['Command line'].replace(old, new)

        yield (f'Command line {old!r} -> {new!r}',
               edited(summary_of(name), edit),
               ['ran "', command.replace(old, new)[-30:], 'not the asked'])


@pytest.mark.parametrize('name', EXACT)
def test_output_of_another_size_or_command(name):
    for how, summary, says in outputs_of_another_run(name):
        assert_rejected('1 another program or size', name, how, summary,
                        stdout_of(name), asked(name), says)


def test_the_issue_s_example_names_both_sizes():
    '''An IOR summary whose transferSize is not the asked transfer.'''
    name = 'ior/easy-reorder-fsync'
    told = asked(name)
    other = told.__class__(**{**told.__dict__, 'transfer': 4096})
    with pytest.raises(OutputError) as err:
        ior.parse_summary(summary_of(name), asked=other)
    assert str(err.value) == ('the summary says transferSize 1048576, not '
                              'the asked transfer size 4096: the output is '
                              'of another run')


# --- B. One command builder; -Q 1 wherever a read relies on another node -----

def test_the_builder_spells_io500_s_rules():
    run = builder.build('ior', builder.shape_options('easy', '64g', 1),
                        builder.DEFENCES['reorder_fsync'], 30, 2, 16)
    assert ' '.join(run.argv) == (
        'ior -w -r -o $scratch/testfile -F -t 1m -b 64g -s 1 -D 30 -O '
        'stoneWallingWearOut=1 -C -Q 1 -e -O summaryFormat=JSON -O '
        'summaryFile=ior.json -O saveRankPerformanceDetailsCSV=ior-ranks.csv')
    told = run.asked
    assert told.rank_file == 'ior-ranks.csv'
    assert (told.tasks, told.nodes, told.tasks_per_node) == (32, 2, 16)
    assert (told.transfer, told.block, told.segments) == (1 << 20, 64 << 30,
                                                          1)
    assert told.reorder and told.task_offset == 1 and told.fsync
    assert told.file_per_process and told.wear_out and told.deadline_s == 30
    witness = builder.build('ior', builder.shape_options('easy', '64g', 1),
                            builder.DEFENCES['reorder_fsync'], 1, 2, 16,
                            summary=False)
    # the witness: the same command, stonewalled after 1 s, no summary and
    # no per-rank figures
    expected = list(run.argv[:-6])
    expected[expected.index('-D') + 1] = '1'
    assert witness.argv == tuple(expected)


def test_the_builder_refuses_what_it_never_writes():
    with pytest.raises(ValueError, match="'-z'"):
        ior.asked_of(['ior', '-w', '-z'], 1, 1)


@pytest.fixture(scope='module')
def dry_run(dry_runs):
    '''Both IOR checks dry-run on a facility partition of 4 nodes (srun).'''
    proc, _, stage = dry_runs.of('slurm_cluster:lustre')
    assert proc.returncode == 0, proc.stdout + proc.stderr
    from job_scripts import scripts, settings

    return {check: settings(scripts(stage, f'{check}*')[0])
            for check in ('ior_page_cache_rounds', 'ior_scaling')}


def _ior_words(line):
    '''The IOR words of a job line (after the launcher and any env).'''
    words = shlex.split(line)
    return words[next(i for i, w in enumerate(words)
                      if w == 'ior' or w.endswith('/ior')):]


def test_both_checks_build_their_commands_with_the_one_builder(dry_run):
    for check, job in dry_run.items():
        for variant, line in job['commands'].items():
            words = _ior_words(line)
            told = ior.asked_of(words, 1, 1)
            if check == 'ior_scaling':
                n, t = (int(x[1:]) for x in variant.split('.'))
                assert line.startswith(f'srun --nodes={n} --ntasks={n * t} '
                                       f'--ntasks-per-node={t} ior ')
                shape, defence = 'easy', 'reorder_fsync'
            else:
                shape, defence = variant.split('.')

            options = builder.DEFENCES.get(defence)
            if options is None:                       # memory: -M 80%
                options = ('-M', '80%')

            expected = builder.build(
                'ior', builder.shape_options(shape, '64g', 10000000),
                options, 30, 1, 1)
            assert tuple(words) == expected.argv, (check, variant)
            # the witness: the same command, stonewalled after 1 s, no
            # summary file
            witness = _ior_words(job['darshans'][variant])
            assert tuple(witness) == builder.build(
                'ior', builder.shape_options(shape, '64g', 10000000),
                options, 1, 1, 1, summary=False).argv, (check, variant)
            if told.reorder:
                assert told.task_offset == 1, (check, variant, line)


def test_every_read_of_another_node_passes_q_1(dry_run):
    sweep = dry_run['ior_scaling']
    # nodes 1, 2, 4 x tasks per node 1, 2, 4, 8, 16: never -Q <tasks>
    assert len(sweep['commands']) == 15
    for variant, line in {**sweep['commands'], **sweep['darshans']}.items():
        assert ' -C -Q 1 -e' in line, (variant, line)
        assert ' -F -t 1m ' in line, (variant, line)         # easy, not hard
    reorder = {v: line for v, line in
               dry_run['ior_page_cache_rounds']['commands'].items()
               if 'reorder' in v}
    assert sorted(reorder) == ['easy.reorder', 'easy.reorder_fsync',
                               'hard.reorder', 'hard.reorder_fsync']
    assert all(' -C -Q 1' in line for line in reorder.values())


def test_the_readers_are_told_what_the_builder_asked():
    '''reader_args of both checks is the asked of the sample's command
    (the checks' methods on bare instances: ReFrame's loader is not
    needed to build a command).'''
    import ior_page_cache
    import ior_scaling

    for rounds, variant, nodes, per_node in (
            (ior_scaling.ior_scaling, 'n2.t4', 2, 4),
            (ior_page_cache.ior_page_cache_rounds, 'easy.reorder', 1, 2)):
        test = object.__new__(rounds)
        fake = {'ior_bindir': '', 'deadline_s': 30, 'easy_block_size': '64g',
                'hard_segments': 10000000, 'witness_deadline_s': 1,
                'num_nodes': 1, 'tasks_per_node': 2, 'memory_per_node': '8g'}
        for key, value in fake.items():
            object.__setattr__(test, key, value)
        object.__setattr__(test, 'nodes', lambda: 1)
        phases, told = rounds.reader_args(test, variant)
        assert phases == ('write', 'read')
        assert (told.nodes, told.tasks_per_node) == (nodes, per_node)
        assert told.reorder and told.task_offset == 1
        assert told.argv == rounds.ior_command(test, variant).argv
